"""19~22단계: Variable의 편의 기능과 연산자 오버로드."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tinygrad_ko.steps import step22
from tinygrad_ko.steps.step22 import Variable

from .helpers import numerical_partials


def test_properties_follow_the_data():
    data = np.array([[1, 2, 3], [4, 5, 6]])
    x = Variable(data, name="x")
    assert x.name == "x"
    assert (x.shape, x.ndim, x.size, x.dtype, len(x)) == (
        data.shape,
        data.ndim,
        data.size,
        data.dtype,
        len(data),
    )
    assert Variable(np.array(1.0)).name is None


@pytest.mark.parametrize(
    ("data", "text"),
    [
        (np.array([1, 2, 3]), "variable([1 2 3])"),
        (np.array(2.0), "variable(2.0)"),
        (None, "variable(None)"),
        (np.array([[1, 2], [3, 4]]), "variable([[1 2]\n          [3 4]])"),
    ],
)
def test_repr(data, text):
    assert repr(Variable(data)) == text


def test_variable_still_rejects_python_numbers():
    with pytest.raises(TypeError, match="받은 값의 타입: float"):
        Variable(1.0)


def test_as_variable():
    x = Variable(np.array(1.0))
    assert step22.as_variable(x) is x
    data = np.array([1.0, 2.0])
    wrapped = step22.as_variable(data)
    assert isinstance(wrapped, Variable) and wrapped.data is data


def test_books_example_y_equals_a_times_b_plus_c():
    a, b, c = (Variable(np.array(v)) for v in (3.0, 2.0, 1.0))
    y = a * b + c
    y.backward()
    assert y.data == 7.0
    assert (a.grad, b.grad, c.grad) == (2.0, 3.0, 1.0)


# (이름, Variable 하나를 받는 식, 같은 식을 NumPy 값에 쓴 것)
UNARY_CASES = [
    ("x + 3.0", lambda x: x + 3.0),
    ("3.0 + x", lambda x: 3.0 + x),
    ("x * 2", lambda x: x * 2),
    ("2 * x", lambda x: 2 * x),
    ("x - 1.5", lambda x: x - 1.5),
    ("1.5 - x", lambda x: 1.5 - x),
    ("x / 4.0", lambda x: x / 4.0),
    ("4.0 / x", lambda x: 4.0 / x),
    ("-x", lambda x: -x),
    ("x ** 3", lambda x: x**3),
    ("np.array(2.0) * x", lambda x: np.array(2.0) * x),
    ("np.array(2.0) - x", lambda x: np.array(2.0) - x),
    ("x / np.array(2.0)", lambda x: x / np.array(2.0)),
    ("np.array(5.0) / x", lambda x: np.array(5.0) / x),
    ("x * x - x / 3 + 1", lambda x: x * x - x / 3 + 1),
]


@pytest.mark.parametrize(("label", "expr"), UNARY_CASES, ids=[c[0] for c in UNARY_CASES])
@settings(max_examples=15, deadline=None)
@given(value=st.floats(min_value=0.25, max_value=4.0) | st.floats(min_value=-4.0, max_value=-0.25))
def test_operator_values_and_grads(label, expr, value):
    x = Variable(np.array(value))
    y = expr(x)
    assert isinstance(y, Variable), label
    np.testing.assert_allclose(y.data, expr(np.array(value)), rtol=1e-12)
    y.backward()
    (expected,) = numerical_partials(expr, Variable, value)
    np.testing.assert_allclose(x.grad, expected, rtol=1e-5, atol=1e-8)


@pytest.mark.parametrize(
    "expr",
    [
        lambda a, b: a + b,
        lambda a, b: a - b,
        lambda a, b: a * b,
        lambda a, b: a / b,
        lambda a, b: (a - b) ** 2 / (a * b),
    ],
)
def test_two_variable_operators(expr):
    a, b = Variable(np.array(1.5)), Variable(np.array(-0.5))
    y = expr(a, b)
    y.backward()
    np.testing.assert_allclose(y.data, expr(1.5, -0.5))
    np.testing.assert_allclose(
        [a.grad, b.grad], numerical_partials(expr, Variable, 1.5, -0.5), rtol=1e-6
    )


def test_ndarrays_on_either_side_of_a_vector_variable():
    data = np.array([1.0, 2.0, 3.0])
    other = np.array([10.0, 20.0, 30.0])
    x = Variable(data)
    for y, expected in [
        (x + other, data + other),
        (other + x, other + data),
        (other - x, other - data),
        (other * x, other * data),
        (other / x, other / data),
    ]:
        assert isinstance(y, Variable)
        np.testing.assert_allclose(y.data, expected)


def test_ndarray_on_the_left_needs_array_priority(monkeypatch):
    x = Variable(np.array([1.0, 2.0]))
    assert isinstance(np.array([3.0, 4.0]) * x, Variable)
    assert isinstance(np.array(2.0) * x, Variable)
    # 우선순위를 지우면 NumPy가 먼저 계산해서, Variable이 든 object 배열을 만들어 버립니다.
    monkeypatch.delattr(Variable, "__array_priority__")
    result = np.array([3.0, 4.0]) * x
    assert isinstance(result, np.ndarray) and result.dtype == object
    # 왼쪽이 0차원 배열이면 NumPy가 0차원 object 결과에서 원소를 꺼내 주어 우연히 Variable이 됩니다.
    y = np.array(2.0) * x
    assert isinstance(y, Variable)
    y.backward()
    np.testing.assert_array_equal(x.grad, [2.0, 2.0])


def test_pow_exponent_is_a_constant():
    x = Variable(np.array(2.0))
    y = x**3
    assert isinstance(y.creator, step22.Pow) and y.creator.c == 3
    y.backward()
    assert x.grad == 3 * 2.0**2


def test_no_grad_still_works_with_operators():
    x = Variable(np.array(2.0))
    with step22.no_grad():
        y = x * x + 1
    assert y.data == 5.0 and y.creator is None
