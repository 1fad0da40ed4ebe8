"""이슈 16: 적대적인 사용자가 `Value`와 그 위의 신경망(`nn`)에서 찾은 조용한 오답과 망가진 상태.

항목 번호는 이슈 16의 번호입니다. 각 테스트는 이슈를 올린 때의 코드(7ad5f66)에서 실패하고, 고친
코드에서 통과합니다. 최종 엔진(`Variable`)의 항목은 tests/autograd/test_adversarial.py에 있습니다.
"""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from tinygrad_ko.data.datasets import make_moons
from tinygrad_ko.micrograd.nn import MLP, Layer, Neuron, accuracy, hinge_loss, train
from tinygrad_ko.micrograd.value import Value

# --- 항목 1: relu가 NaN을 0.0으로 바꾸어 발산한 학습이 "수렴"처럼 보임 -------------------------


def test_item1_relu_keeps_nan_and_passes_its_gradient_like_pytorch():
    x = Value(math.nan)
    y = x.relu()
    assert math.isnan(y.data)  # 고치기 전: 0.0
    y.backward()
    assert x.grad == 1.0  # PyTorch: relu의 기울기는 출력이 0 이하일 때만 0입니다(NaN은 아님).


def test_item1_relu_still_zeroes_negatives_and_keeps_the_sign_of_zero():
    assert Value(-2.0).relu().data == 0.0
    assert Value(3.0).relu().data == 3.0
    assert math.copysign(1.0, Value(-0.0).relu().data) == -1.0  # micrograd, PyTorch와 같음
    zero = Value(0.0)
    zero.relu().backward()
    assert zero.grad == 0.0  # 0에서의 기울기는 0(PyTorch와 같음)


def test_item1_train_stops_with_a_korean_message_when_the_loss_is_not_finite():
    X, y = make_moons(40, noise=0.1, seed=0)
    model = MLP(2, [8, 1], seed=0)
    losses = []
    with pytest.raises(RuntimeError, match="학습률") as info:
        train(
            model,
            X,
            y,
            steps=10,
            learning_rate=1e100,
            on_step=lambda step, loss, acc: losses.append(loss),
        )
    message = str(info.value)
    assert "유한한 수가 아닙니다" in message and "learning_rate=1e+100" in message
    assert message.endswith("세요.")
    # 고치기 전에는 inf 다음에 손실 0.0이 이어져 "수렴"처럼 보였습니다.
    assert all(math.isfinite(loss) for loss in losses[:-1]) and not math.isfinite(losses[-1])
    assert len(losses) < 10


# --- 항목 8: hinge_loss/accuracy가 0/1 레이블을 받아 틀린 손실과 정확도를 냄 ------------------


@pytest.mark.parametrize("function", [hinge_loss, accuracy])
def test_item8_zero_one_labels_are_refused_with_a_hint(function):
    scores = [Value(0.5), Value(-0.5)]
    with pytest.raises(ValueError, match=r"-1 또는 \+1") as info:
        function(scores, [1, 0])  # 고치기 전: 손실 0.75, 정확도 1.0
    assert "1번 레이블: 0." in str(info.value) and "2 * y - 1" in str(info.value)


@pytest.mark.parametrize("labels", [[1.0, 2.0], [1.0, -0.5], [True, False], [1.0, math.nan]])
def test_item8_any_label_other_than_plus_minus_one_is_refused(labels):
    with pytest.raises(ValueError, match=r"-1 또는 \+1"):
        hinge_loss([Value(0.5), Value(-0.5)], labels)


def test_item8_numpy_labels_of_plus_minus_one_still_work():
    scores = [Value(0.5), Value(-0.5)]
    assert accuracy(scores, np.array([1, -1])) == 1.0
    assert hinge_loss(scores, np.array([1.0, -1.0])).data == pytest.approx(0.5)


# --- 항목 9(Value): 역전파 중의 예외가 기울기를 반쯤 남김 -------------------------------------


def test_item9_failed_backward_leaves_every_gradient_as_it_was():
    v = Value(0.0)
    # x ** 0.5의 기울기는 0에서 0의 음수 거듭제곱: ZeroDivisionError. 곱셈 쪽 가지가 먼저 처리됩니다.
    y = v**0.5 + v * 3.0
    with pytest.raises(ZeroDivisionError, match="x = 0"):
        y.backward()
    assert v.grad == 0.0  # 고치기 전: 3.0(곱셈 쪽 가지에서 온 기울기)
    assert y.grad == 0.0


def test_item9_accumulated_gradients_survive_a_failed_backward():
    a = Value(2.0)
    (a * a).backward()
    assert a.grad == 4.0
    bad = (a - 2.0) ** 0.5 + a * 5.0
    with pytest.raises(ZeroDivisionError):
        bad.backward()
    assert a.grad == 4.0  # 앞의 역전파로 쌓인 값 그대로
    a.data = 3.0  # 실패의 원인을 고치고 다시 계산하면 이어서 누적됩니다.
    ((a - 2.0) ** 0.5 + a * 5.0).backward()
    assert a.grad == pytest.approx(4.0 + 5.0 + 0.5)


# --- 뜻을 알 수 없던 오류: 실수 점수, 출력이 여럿인 모델 ----------------------------------------


def test_cryptic_hinge_loss_with_float_scores_says_to_pass_the_model_output():
    with pytest.raises(TypeError, match="0번 점의 점수가 Value가 아닙니다") as info:
        hinge_loss([0.5, -0.3], [1, -1])  # 고치기 전: AttributeError 'float' ... 'relu'
    assert "model(x)의 결과를 그대로" in str(info.value)


def test_accuracy_accepts_plain_numbers_because_it_needs_no_gradient():
    assert accuracy([0.5, -0.3, 2.0], [1, -1, -1]) == pytest.approx(2 / 3)
    with pytest.raises(TypeError, match="Value가 아닙니다"):
        accuracy(["0.5"], [1])


def test_cryptic_train_with_a_multi_output_model_says_to_use_one_output():
    model = MLP(2, [4, 2], seed=0)
    with pytest.raises(TypeError, match="출력이 여럿") as info:
        # 고치기 전: TypeError can't multiply sequence by non-int of type 'float'
        train(model, [[1.0, 2.0]], [1.0], steps=1, learning_rate=0.1)
    assert "MLP(2, [16, 16, 1])" in str(info.value)


# --- 결정: MLP의 시드와 전역 난수 상태 ---------------------------------------------------------


def _weights(module):
    return [p.data for p in module.parameters()]


def test_seed_decision_mlp_honours_numpy_global_seed_when_no_seed_is_given():
    # micrograd의 예제처럼 전역 시드만 정하고 seed=를 주지 않아도 같은 신경망이 됩니다.
    np.random.seed(1337)
    a = MLP(2, [4, 1])
    np.random.seed(1337)
    b = MLP(2, [4, 1])
    assert _weights(a) == _weights(b)  # 고치기 전: 매번 OS 난수로 달랐습니다
    np.random.seed(1338)
    assert _weights(MLP(2, [4, 1])) != _weights(a)
    for make in (lambda: Neuron(3), lambda: Layer(3, 2)):  # rng를 주지 않은 뉴런과 층도 같습니다.
        np.random.seed(5)
        first = _weights(make())
        np.random.seed(5)
        assert _weights(make()) == first


def test_seed_decision_explicit_seed_ignores_the_global_state():
    np.random.seed(0)
    a = MLP(2, [4, 1], seed=3)
    np.random.seed(99)
    b = MLP(2, [4, 1], seed=3)
    assert _weights(a) == _weights(b)


def test_seed_decision_python_random_seed_is_not_used():
    # 결정: 파이썬의 random은 쓰지 않습니다(문서화된 결정). NumPy의 전역 상태만 따릅니다.
    state = random.getstate()
    try:
        np.random.seed(7)
        random.seed(1)
        a = MLP(2, [3, 1])
        np.random.seed(7)
        random.seed(2)
        before = random.getstate()
        b = MLP(2, [3, 1])
        assert _weights(a) == _weights(b)  # random의 시드가 달라도 같은 신경망
        assert random.getstate() == before  # random의 상태를 소비하지 않습니다
    finally:
        random.setstate(state)
