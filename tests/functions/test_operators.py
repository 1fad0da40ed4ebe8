"""연산자 오버로드: Variable, 파이썬 수, ndarray가 어느 쪽에 와도 같은 결과를 냅니다."""

import operator

import numpy as np
import pytest

import tinygrad_ko as tg
from tinygrad_ko import Variable

OPS = [operator.add, operator.sub, operator.mul, operator.truediv]


@pytest.mark.parametrize("op", OPS, ids=lambda op: op.__name__)
@pytest.mark.parametrize("other", [3, 2.5, np.array(2.5), np.array([1.0, 2.0])], ids=repr)
def test_operator_with_constant_on_either_side(op, other):
    data = np.array([4.0, 5.0])
    left = op(Variable(data), other)
    right = op(other, Variable(data))
    assert isinstance(left, Variable) and isinstance(right, Variable)
    np.testing.assert_allclose(left.data, op(data, other))
    np.testing.assert_allclose(right.data, op(other, data))


@pytest.mark.parametrize("op", OPS, ids=lambda op: op.__name__)
def test_operator_gradients(op):
    assert tg.gradient_check(op, np.array([1.5, 2.0]), np.array([0.7, 3.0]))
    assert tg.gradient_check(lambda x: op(2.0, x), np.array([1.5, 2.0]))
    assert tg.gradient_check(lambda x: op(x, 2.0), np.array([1.5, 2.0]))


def test_unary_minus_and_power():
    x = Variable(np.array(3.0))
    y = -(x**3)
    y.backward()
    assert float(y.data) == -27.0
    assert float(x.grad) == -27.0


def test_python_scalar_keeps_float32():
    x = Variable(np.array([1.0, 2.0], dtype=np.float32))
    for y in (x * 2.0, 2.0 * x, x + 1, 1 - x, x / 3.0, 3.0 / x, x**2):
        assert y.dtype == np.float32


def test_variable_power_is_refused_in_korean():
    x = Variable(np.array(2.0))
    with pytest.raises(TypeError, match="지수는 파이썬 수"):
        x ** Variable(np.array(2.0))
    with pytest.raises(TypeError, match="Variable 은 지원하지 않습니다"):
        2.0**x


def test_ndarray_on_the_left_defers_to_variable():
    x = Variable(np.array([1.0, 2.0]))
    y = np.array([3.0, 4.0]) * x
    assert isinstance(y, Variable)
    y.backward()
    np.testing.assert_array_equal(x.grad, [3.0, 4.0])
