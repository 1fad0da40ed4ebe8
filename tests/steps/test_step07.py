"""7단계: 창조자 연결(Define-by-Run)과 재귀 역전파, 그리고 재귀 한도."""

import sys

import numpy as np
import pytest

from tinygrad_ko.steps import step04, step07

from .helpers import composite, seeded_graph


class Negate(step07.Function):
    """테스트용으로 값싼 함수: y = -x. 사슬을 n개 이으면 미분값은 (-1)ⁿ입니다."""

    def forward(self, x):
        return -x

    def backward(self, gy):
        return -gy


def _chain(length):
    x = step07.Variable(np.array(1.0))
    y = x
    for _ in range(length):
        y = Negate()(y)
    return x, y


def test_creator_links_form_the_graph():
    A, B, C = step07.Square(), step07.Exp(), step07.Square()
    x = step07.Variable(np.array(0.5))
    a = A(x)
    b = B(a)
    y = C(b)
    assert y.creator is C and C.input is b and C.output is y
    assert b.creator is B and B.input is a
    assert a.creator is A and A.input is x
    assert x.creator is None


@pytest.mark.parametrize("value", [-0.7, 0.5, 1.1])
def test_recursive_backward_matches_numerical_diff(value):
    x, y = seeded_graph(step07, value)
    y.backward()
    np.testing.assert_allclose(x.grad, step04.numerical_diff(composite(step07), x), rtol=1e-6)


def test_output_grad_must_be_set_by_hand():
    # 한계: y.grad가 None이면 Square.backward가 None을 곱하다 실패합니다(9단계에서 고침).
    x = step07.Variable(np.array(2.0))
    y = step07.Square()(x)
    with pytest.raises(TypeError):
        y.backward()


@pytest.mark.parametrize("length", [1, 100, 301])
def test_short_chain_backpropagates(length):
    x, y = _chain(length)
    y.grad = np.array(1.0)
    y.backward()
    assert x.grad == (-1.0) ** length


def test_deep_chain_hits_the_recursion_limit():
    length = 3000
    if sys.getrecursionlimit() >= length:
        pytest.skip(f"재귀 한도가 {sys.getrecursionlimit()}로 올라가 있어 한계를 재현하지 못합니다")
    x, y = _chain(length)
    y.grad = np.array(1.0)
    with pytest.raises(RecursionError):
        y.backward()
    assert x.grad is None  # 말단 변수까지 닿지 못했습니다.
