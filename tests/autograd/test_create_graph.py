"""고계 미분의 기본: create_graph=True로 역전파를 그래프로 기록하고, grad()로 미분값만 받기.

무작위 그래프의 2계·3계 미분을 PyTorch와 비교하는 테스트는 따로 있습니다.
"""

import numpy as np
import pytest

import tinygrad_ko as tg
from tinygrad_ko import Variable


def test_second_derivative_by_backward_twice():
    x = Variable(np.array(2.0))
    y = x**4 - 2 * x**2
    y.backward(create_graph=True)
    assert isinstance(x.grad, Variable) and float(x.grad.data) == 24.0  # 4x^3 - 4x
    gx = x.grad
    x.cleargrad()
    gx.backward()
    assert float(x.grad) == 44.0  # 12x^2 - 4


def test_grad_returns_gradients_without_touching_grad():
    x, w = Variable(np.array([1.0, 2.0])), Variable(np.array(3.0))
    gx, gw = tg.grad(x * w, [x, w])
    np.testing.assert_array_equal(gx, [3.0, 3.0])
    assert float(gw) == 3.0
    assert x.grad is None and w.grad is None


def test_double_backprop_of_the_book():
    x = Variable(np.array(2.0))
    y = x**2
    (gx,) = tg.grad(y, x, create_graph=True)
    z = gx**3 + y
    z.backward()
    assert float(x.grad) == 100.0


@pytest.mark.parametrize("order", [1, 2, 3, 4])
def test_nth_derivative_of_sin_cycles(order):
    x = Variable(np.array(1.0))
    y = tg.sin(x)
    for _ in range(order):
        (y,) = tg.grad(y, x, create_graph=True)
    expected = [np.cos(1.0), -np.sin(1.0), -np.cos(1.0), np.sin(1.0)][order - 1]
    assert float(y.data) == pytest.approx(expected)


def test_unused_input_is_refused_unless_allowed():
    x, w = Variable(np.array(1.0)), Variable(np.array(2.0))
    with pytest.raises(RuntimeError, match="allow_unused=True"):
        tg.grad(x * 2.0, [x, w])
    gx, gw = tg.grad(x * 2.0, [x, w], allow_unused=True)
    assert float(gx) == 2.0 and gw is None


def test_grad_of_an_intermediate_variable():
    x = Variable(np.array(3.0))
    a = x * 2.0
    y = a**2
    (ga,) = tg.grad(y, a)
    assert float(ga) == 12.0  # 2a


def test_user_function_without_create_graph_support_is_refused_clearly():
    class Cube(tg.Function):
        def forward(self, x):
            return x**3

        def backward(self, gy):
            return 3 * self.inputs[0].data ** 2 * gy

    x = Variable(np.array(2.0))
    with pytest.raises(TypeError, match="Cube.backward.*supports_create_graph = True") as refused:
        Cube()(x).backward(create_graph=True)
    # 고치는 길로는 두 모드에 맞는 self.saved()를 알려 줍니다(self.inputs는 1계 미분도 Variable로 만듭니다).
    assert "self.saved()" in str(refused.value)
    # .data로 계산해도 다시 미분이 맞는 경우가 있으므로(ReLU의 마스크) "없다"고 단정하지 않습니다.
    assert "다시 미분할 수 없" not in str(refused.value)
    Cube()(x).backward()  # 1계 미분은 그대로 됩니다.
    assert float(x.grad) == 12.0


def test_user_function_marked_for_create_graph_gives_second_derivative():
    class Cube(tg.Function):
        supports_create_graph = True

        def forward(self, x):
            return x**3

        def backward(self, gy):
            (x,) = self.inputs
            return 3 * x**2 * gy

    x = Variable(np.array(2.0))
    (gx,) = tg.grad(Cube()(x), x, create_graph=True)
    (ggx,) = tg.grad(gx, x)
    assert (float(gx.data), float(ggx)) == (12.0, 12.0)  # 3x^2, 6x
