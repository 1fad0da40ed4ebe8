"""34~36단계: sin·cos·tanh의 n계 미분, 고계 미분 그래프의 크기, 이중 역전파."""

import numpy as np
import pytest

from tinygrad_ko.steps import step32, step34, step35, step36


def _nth(module, func, x, n):
    """func(x)를 n번 미분한 Variable. 책처럼 cleargrad와 backward(create_graph=True)를 되풀이합니다."""
    y = func(x)
    y.backward(create_graph=True)
    for _ in range(n - 1):
        gx = x.grad
        x.cleargrad()
        gx.backward(create_graph=True)
    return x.grad


@pytest.mark.parametrize("n", range(1, 9))
def test_nth_derivative_of_sin_cycles_with_period_four(n):
    values = np.linspace(-7, 7, 9)
    x = step34.Variable(values.copy())
    got = _nth(step34, step34.sin, x, n).data
    expected = [np.sin, np.cos, lambda v: -np.sin(v), lambda v: -np.cos(v)][n % 4](values)
    np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("n", range(1, 5))
def test_nth_derivative_of_cos(n):
    x = step34.Variable(np.array(0.5))
    got = float(_nth(step34, step34.cos, x, n).data)
    expected = [np.cos, lambda v: -np.sin(v), lambda v: -np.cos(v), np.sin][n % 4](0.5)
    assert got == pytest.approx(expected, rel=1e-12)


def test_step34_replaces_only_sin_and_adds_cos():
    assert step34.Sin is not step32.Sin
    assert step34.Variable is step32.Variable and step34.Function is step32.Function


def _tanh_derivatives(y):
    """tanh의 1~4계 미분을 y = tanh x로 적은 식."""
    d1 = 1 - y**2
    d2 = -2 * y * d1
    d3 = -2 * d1 * (1 - 3 * y**2)
    d4 = 8 * y * d1 * (2 - 3 * y**2)
    return [d1, d2, d3, d4]


@pytest.mark.parametrize("n", range(1, 5))
def test_nth_derivative_of_tanh_against_formulas(n):
    values = np.array([-1.5, -0.2, 0.0, 0.7, 2.0])
    x = step35.Variable(values.copy())
    got = _nth(step35, step35.tanh, x, n).data
    np.testing.assert_allclose(got, _tanh_derivatives(np.tanh(values))[n - 1], atol=1e-12)


def _graph_size(v):
    """v에서 거슬러 닿는 (함수 수, 변수 수)."""
    funcs, seen, stack = set(), set(), [v]
    while stack:
        u = stack.pop()
        if id(u) in seen:
            continue
        seen.add(id(u))
        f = u.creator
        if f is not None and f not in funcs:
            funcs.add(f)
            stack.extend(f.inputs)
    return len(funcs), len(seen)


def test_graph_of_tanh_derivatives_grows_fast():
    sizes = []
    for n in range(1, 7):
        x = step35.Variable(np.array(1.0))
        sizes.append(_graph_size(_nth(step35, step35.tanh, x, n))[0])
    # 20장의 표와 같은 수(함수 노드의 수). 한 번 미분할 때마다 2.5배 남짓 커집니다.
    assert sizes == [4, 9, 21, 51, 129, 339]


def test_step36_is_the_step35_engine():
    for name in ("Variable", "Function", "Tanh", "Sin", "Cos", "Config", "Pow"):
        assert getattr(step36, name) is getattr(step35, name)


def test_double_backprop_of_the_book_gives_100():
    x = step36.Variable(np.array(2.0))
    y = x**2
    y.backward(create_graph=True)
    gx = x.grad
    x.cleargrad()
    z = gx**3 + y
    z.backward()
    assert float(x.grad.data) == 100.0  # dz/dx = 24x² + 2x


def test_double_backprop_without_cleargrad_adds_the_first_gradient():
    x = step36.Variable(np.array(2.0))
    y = x**2
    y.backward(create_graph=True)
    z = x.grad**3 + y
    z.backward()
    assert float(x.grad.data) == 100.0 + 4.0  # x.grad에 남은 2x = 4가 더해집니다.
