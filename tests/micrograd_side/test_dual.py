"""tinygrad_ko.micrograd.dual: 전진 모드 자동 미분(이원수)의 테스트."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tinygrad_ko.micrograd.dual import Dual, derivative
from tinygrad_ko.micrograd.value import Value


def f(x):
    """Dual과 Value가 모두 가진 연산만 씁니다."""
    return (x * x - 3.0 * x).tanh() + (0.5 * x).exp() * x + 2.0


def f_prime(x):
    inner = x * x - 3.0 * x
    return (1 - math.tanh(inner) ** 2) * (2 * x - 3) + math.exp(0.5 * x) * (0.5 * x + 1)


@given(st.floats(-3, 3))
def test_derivative_matches_the_formula_and_reverse_mode(x):
    assert derivative(f, x) == pytest.approx(f_prime(x), rel=1e-12, abs=1e-12)
    v = Value(x)
    f(v).backward()
    assert derivative(f, x) == pytest.approx(v.grad, rel=1e-12, abs=1e-12)


def test_value_part_is_the_ordinary_result():
    assert f(Dual(1.5, 1.0)).value == pytest.approx(f(Value(1.5)).data)


def test_numbers_on_either_side_are_constants():
    x = Dual(2.0, 1.0)
    for y in (3.0 * x, x * 3.0, 1.0 + x, x + 1.0, x - 1.0):
        assert y.tangent in (3.0, 1.0)
    assert (3.0 * x).tangent == 3.0 and (x - 1.0).tangent == 1.0
    assert (-x).value == -2.0 and (-x).tangent == -1.0


def test_tangent_is_a_directional_derivative():
    """두 입력에 방향 (1, 0)과 (0, 1)을 실으면 두 편미분이 차례로 나옵니다."""

    def g(a, b):
        return a * a * b

    x, y = 3.0, 2.0
    assert g(Dual(x, 1.0), Dual(y, 0.0)).tangent == 2 * x * y
    assert g(Dual(x, 0.0), Dual(y, 1.0)).tangent == x * x


def test_number_minus_dual_matches_value():
    """`2.0 - x`처럼 수가 왼쪽에 와도 `Value`와 같은 값과 미분값을 냅니다(rev38I 거짓 6)."""

    def g(x):
        return 2.0 - x * x

    v = Value(1.5)
    g(v).backward()
    y = g(Dual(1.5, 1.0))
    assert y.value == pytest.approx(g(Value(1.5)).data)
    assert y.tangent == pytest.approx(v.grad)
