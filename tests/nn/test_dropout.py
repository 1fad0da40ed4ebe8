"""드롭아웃: 학습 모드에서 끄는 비율과 크기 맞춤, 역전파, 시험 모드에서 그대로."""

import numpy as np
import pytest

import tinygrad_ko as tg
from tinygrad_ko import Variable
from tinygrad_ko.nn.dropout import Dropout, dropout


def test_train_mode_drops_about_ratio_and_rescales():
    x = Variable(np.ones((100, 100)))
    y = dropout(x, 0.3, rng=np.random.default_rng(0))
    kept = y.data != 0
    assert abs(kept.mean() - 0.7) < 0.02
    np.testing.assert_allclose(y.data[kept], 1 / 0.7)
    assert abs(y.data.mean() - 1.0) < 0.03  # 기댓값이 입력과 같습니다


def test_backward_passes_gradient_only_through_kept_units():
    x = Variable(np.arange(1.0, 9.0))
    y = dropout(x, 0.5, rng=np.random.default_rng(1))
    y.backward()
    np.testing.assert_allclose(x.grad, (y.data != 0) * 2.0)


def test_test_mode_returns_the_input_untouched():
    x = Variable(np.ones(5))
    with tg.test_mode():
        assert dropout(x, 0.9) is x
    array = np.ones(3)
    with tg.test_mode():
        np.testing.assert_array_equal(dropout(array).data, array)


def test_same_rng_seed_same_mask():
    x = Variable(np.ones(50))
    a = dropout(x, 0.5, rng=np.random.default_rng(7)).data
    b = dropout(x, 0.5, rng=np.random.default_rng(7)).data
    np.testing.assert_array_equal(a, b)


def test_extreme_ratios():
    x = Variable(np.ones(4, dtype=np.float32))
    assert dropout(x, 0.0) is x
    y = dropout(x, 1.0)
    assert not y.data.any() and y.data.dtype == np.float32


@pytest.mark.parametrize(
    ("ratio", "error"),
    [
        (-0.1, ValueError),
        (1.5, ValueError),
        (float("nan"), ValueError),
        ("0.5", TypeError),
        (True, TypeError),
    ],
)
def test_bad_ratio(ratio, error):
    with pytest.raises(error, match="ratio에는 0 이상 1 이하"):
        dropout(Variable(np.ones(2)), ratio)
    with pytest.raises(error, match="ratio에는 0 이상 1 이하"):
        Dropout(ratio)


def test_dropout_layer():
    layer = Dropout(0.5, rng=np.random.default_rng(0))
    x = Variable(np.ones(1000))
    assert 0.4 < (layer(x).data != 0).mean() < 0.6
    with tg.test_mode():
        assert layer(x) is x
    assert layer.parameters() == []
