"""30~33단계: 역전파가 계산 그래프를 만드는 엔진(create_graph)과 자동으로 2계 미분하는 뉴턴 방법."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tinygrad_ko.steps import step18, step28, step32
from tinygrad_ko.steps.step32 import Variable


def f(x):
    return x**4 - 2 * x**2


def test_gradients_are_variables_and_first_order_values_match_step28():
    x = Variable(np.array(2.0))
    y = f(x)
    y.backward()
    assert isinstance(x.grad, Variable) and float(x.grad.data) == 24.0
    old = step28.Variable(np.array(2.0))
    f(old).backward()
    assert float(old.grad) == float(x.grad.data)


def test_without_create_graph_the_gradient_has_no_graph():
    x = Variable(np.array(2.0))
    f(x).backward()
    assert x.grad.creator is None


def test_with_create_graph_backward_builds_a_graph_and_gives_the_second_derivative():
    x = Variable(np.array(2.0))
    y = f(x)
    y.backward(create_graph=True)
    gx = x.grad
    assert gx.creator is not None and float(gx.data) == 24.0  # 4x³ - 4x
    x.cleargrad()
    gx.backward()
    assert float(x.grad.data) == 44.0  # 12x² - 4


def test_forgetting_cleargrad_adds_the_first_derivative_to_the_second():
    x = Variable(np.array(2.0))
    f(x).backward(create_graph=True)
    gx = x.grad
    gx.backward()  # x.cleargrad()를 빠뜨렸습니다(책이 경고하는 실수).
    assert float(x.grad.data) == 24.0 + 44.0


def test_backward_restores_the_mode_it_changed():
    assert step18.Config.enable_backprop is True
    x = Variable(np.array(1.0))
    f(x).backward(create_graph=False)
    assert step18.Config.enable_backprop is True
    assert step32.Config is step18.Config


def _newton(iters):
    x = Variable(np.array(2.0))
    path = [float(x.data)]
    for _ in range(iters):
        y = f(x)
        x.cleargrad()
        y.backward(create_graph=True)
        gx = x.grad
        x.cleargrad()
        gx.backward()
        gx2 = x.grad
        x.data -= gx.data / gx2.data
        path.append(float(x.data))
    return path


def test_newton_with_automatic_second_derivative_takes_the_same_path_as_by_hand():
    expected = [2.0]
    for _ in range(9):  # 29단계: 2계 미분을 손으로 구한 식 12x² - 4로
        v = expected[-1]
        expected.append(v - (4 * v**3 - 4 * v) / (12 * v**2 - 4))
    path = _newton(9)
    assert path == expected
    assert path.index(1.0) == 7  # 책처럼 7번 옮기면 1.0에 닿습니다.


# (식, 2계 미분) — 함수마다 역전파가 Variable 연산이라 한 번 더 미분됩니다.
SECOND_DERIVATIVES = [
    ("square", lambda x: step32.square(x), lambda v: 2.0),
    ("exp", lambda x: step32.exp(x), np.exp),
    ("pow", lambda x: x**3, lambda v: 6 * v),
    ("mul", lambda x: x * x * x, lambda v: 6 * v),
    ("div", lambda x: 1.0 / x, lambda v: 2 / v**3),
    ("sub neg", lambda x: -(x**2) - x, lambda v: -2.0),
    ("exp of square", lambda x: step32.exp(x**2), lambda v: (2 + 4 * v**2) * np.exp(v**2)),
]


@pytest.mark.parametrize(
    ("name", "func", "second"), SECOND_DERIVATIVES, ids=lambda c: c if isinstance(c, str) else ""
)
@settings(max_examples=15, deadline=None)
@given(value=st.floats(0.3, 2.0))
def test_second_derivatives_of_each_function(name, func, second, value):
    x = Variable(np.array(value))
    func(x).backward(create_graph=True)
    gx = x.grad
    x.cleargrad()
    gx.backward()
    assert float(x.grad.data) == pytest.approx(second(value), rel=1e-12)


def test_sin_of_step27_still_differentiates_data_so_no_second_derivative():
    x = Variable(np.array(1.0))
    step32.sin(x).backward(create_graph=True)
    gx = x.grad
    assert float(gx.data) == pytest.approx(np.cos(1.0))
    x.cleargrad()
    gx.backward()
    assert x.grad is None  # cos(x.data)는 상수라 미분값이 x와 이어지지 않습니다.


def test_taylor_sin_has_higher_derivatives_because_it_is_made_of_operators():
    x = Variable(np.array(1.0))
    y = step32.taylor_sin(x, threshold=1e-12)
    y.backward(create_graph=True)
    gx = x.grad
    x.cleargrad()
    gx.backward()
    assert float(x.grad.data) == pytest.approx(-np.sin(1.0), abs=1e-10)


def test_retain_grad_keeps_intermediate_gradients_as_variables():
    x = Variable(np.array(3.0))
    a = x**2
    y = a * 2.0
    y.backward(retain_grad=True)
    assert float(a.grad.data) == 2.0 and float(y.grad.data) == 1.0
    x.cleargrad()
    y2 = (x**2) * 2.0
    y2.backward()
    assert y2.grad is None
