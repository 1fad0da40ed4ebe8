"""15~16단계: 세대로 순서를 정하는 역전파."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from tinygrad_ko.steps import step14, step16

from .helpers import numerical_partials
from .test_step14 import diamond, reused_square


def test_generations_follow_the_graph():
    x = step16.Variable(np.array(2.0))
    a = step16.square(x)
    b = step16.square(a)
    c = step16.square(a)
    y = step16.add(b, c)
    assert [v.generation for v in (x, a, b, c, y)] == [0, 1, 2, 2, 3]
    assert [v.creator.generation for v in (a, b, c, y)] == [0, 1, 1, 2]


def test_function_generation_is_the_largest_input_generation():
    x = step16.Variable(np.array(1.0))
    deep = step16.square(step16.square(x))  # 2세대
    y = step16.add(x, deep)
    assert y.creator.generation == 2
    assert y.generation == 3


def test_diamond_graph_right_here_wrong_in_step14():
    x16 = step16.Variable(np.array(2.0))
    diamond(step16, x16).backward()
    x14 = step14.Variable(np.array(2.0))
    diamond(step14, x14).backward()
    (correct,) = numerical_partials(lambda v: diamond(step16, v), step16.Variable, 2.0)
    np.testing.assert_allclose(x16.grad, correct, rtol=1e-6)
    assert not np.isclose(x14.grad, correct)


@settings(max_examples=30, deadline=None)
@given(st.floats(min_value=-2.0, max_value=2.0, allow_nan=False))
def test_diamond_grad_is_8x_cubed(value):
    x = step16.Variable(np.array(value))
    diamond(step16, x).backward()
    np.testing.assert_allclose(x.grad, 8 * value**3, rtol=1e-12, atol=1e-12)


def test_each_function_runs_backward_once():
    calls = []

    class CountingSquare(step16.Square):
        def backward(self, gy):
            calls.append(self)
            return super().backward(gy)

    x = step16.Variable(np.array(2.0))
    a = CountingSquare()(x)
    y = step16.add(CountingSquare()(a), CountingSquare()(a))
    y.backward()
    assert len(calls) == 3 and len(set(calls)) == 3  # 같은 함수를 두 번 처리하지 않습니다.
    assert calls[-1] is a.creator  # x에 가장 가까운 함수가 마지막입니다.


def test_reused_variable_with_a_creator_is_right_here():
    x = step16.Variable(np.array(3.0))
    reused_square(step16, x).backward()
    assert x.grad == 12.0  # 4x, 14단계는 24
