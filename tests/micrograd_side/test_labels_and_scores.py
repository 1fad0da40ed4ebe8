"""힌지 손실과 정확도가 받는 것: 레이블은 -1과 +1만(0/1 레이블은 고치는 법과 함께 거부), 손실의 점수는 Value만.

정확도는 미분하지 않으므로 실수 점수도 받고, 출력이 여럿인 모델은 출력을 하나로 하라고 알립니다.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from tinygrad_ko.micrograd.nn import MLP, hinge_loss, sign_accuracy, train
from tinygrad_ko.micrograd.value import Value


@pytest.mark.parametrize("function", [hinge_loss, sign_accuracy])
def test_zero_one_labels_are_refused_with_a_hint(function):
    scores = [Value(0.5), Value(-0.5)]
    with pytest.raises(ValueError, match=r"-1 또는 \+1") as info:
        function(scores, [1, 0])  # 고치기 전: 손실 0.75, 정확도 1.0
    # 자리는 파이썬 인덱스로 적습니다: "1번 레이블"은 첫 번째로 읽힙니다.
    assert "labels[1]: 0." in str(info.value) and "2 * y - 1" in str(info.value)


@pytest.mark.parametrize("labels", [[1.0, 2.0], [1.0, -0.5], [True, False], [1.0, math.nan]])
def test_any_label_other_than_plus_minus_one_is_refused(labels):
    with pytest.raises(ValueError, match=r"-1 또는 \+1"):
        hinge_loss([Value(0.5), Value(-0.5)], labels)


def test_numpy_labels_of_plus_minus_one_still_work():
    scores = [Value(0.5), Value(-0.5)]
    assert sign_accuracy(scores, np.array([1, -1])) == 1.0
    assert hinge_loss(scores, np.array([1.0, -1.0])).data == pytest.approx(0.5)


def test_hinge_loss_with_float_scores_says_to_pass_the_model_output():
    with pytest.raises(TypeError, match=r"점수가 Value가 아닙니다. 받은 scores\[0\]: ") as info:
        hinge_loss([0.5, -0.3], [1, -1])  # 고치기 전: AttributeError 'float' ... 'relu'
    assert "model(x)의 결과를 그대로" in str(info.value)


def test_accuracy_accepts_plain_numbers_because_it_needs_no_gradient():
    assert sign_accuracy([0.5, -0.3, 2.0], [1, -1, -1]) == pytest.approx(2 / 3)
    with pytest.raises(TypeError, match="Value가 아닙니다"):
        sign_accuracy(["0.5"], [1])


def test_train_with_a_multi_output_model_says_to_use_one_output():
    model = MLP(2, [4, 2], seed=0)
    with pytest.raises(TypeError, match="출력이 여럿") as info:
        # 고치기 전: TypeError can't multiply sequence by non-int of type 'float'
        train(model, [[1.0, 2.0]], [1.0], steps=1, learning_rate=0.1)
    assert "MLP(2, [16, 16, 1])" in str(info.value)
