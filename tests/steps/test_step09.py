"""9단계: 편의 함수, np.ones_like로 시작하는 역전파, as_array, ndarray만 받는 Variable."""

import numpy as np
import pytest

from tinygrad_ko.steps import step04, step09


@pytest.mark.parametrize(
    ("value", "type_name"),
    [(1.0, "float"), (3, "int"), ([1.0, 2.0], "list"), (np.float64(2.0), "float64"), ("1", "str")],
)
def test_variable_rejects_non_ndarray_and_names_the_type(value, type_name):
    with pytest.raises(TypeError) as info:
        step09.Variable(value)
    message = str(info.value)
    assert f"받은 값의 타입: {type_name}." in message
    assert "numpy.ndarray" in message
    assert "np.array(...)" in message


def test_variable_accepts_ndarray_and_none():
    assert step09.Variable(None).data is None
    data = np.array([1.0, 2.0])
    assert step09.Variable(data).data is data


def test_numpy_turns_0d_results_into_scalars():
    # as_array가 필요한 이유: 0차원 배열에 연산을 하면 ndarray가 아닌 numpy.float64가 나옵니다.
    result = np.array(1.0) ** 2
    assert not isinstance(result, np.ndarray)
    with pytest.raises(TypeError):
        step09.Variable(result)


def test_as_array():
    converted = step09.as_array(np.float64(2.5))
    assert isinstance(converted, np.ndarray) and converted.ndim == 0 and converted == 2.5
    assert isinstance(step09.as_array(3), np.ndarray)
    data = np.array([1.0])
    assert step09.as_array(data) is data


@pytest.mark.parametrize("helper", [step09.square, step09.exp])
def test_helpers_keep_0d_outputs_as_arrays(helper):
    y = helper(step09.Variable(np.array(0.5)))
    assert isinstance(y.data, np.ndarray) and y.data.ndim == 0


def test_helpers_build_the_right_functions():
    x = step09.Variable(np.array(0.5))
    a = step09.square(x)
    b = step09.exp(a)
    assert type(a.creator) is step09.Square and a.creator.input is x
    assert type(b.creator) is step09.Exp and b.creator.input is a
    np.testing.assert_allclose(b.data, np.exp(0.25))


@pytest.mark.parametrize("value", [-0.7, 0.5, 1.1])
def test_backward_seeds_ones_and_matches_numerical_diff(value):
    def f(v):
        return step09.square(step09.exp(step09.square(v)))

    x = step09.Variable(np.array(value))
    y = f(x)
    y.backward()  # y.grad를 직접 넣지 않습니다.
    assert y.grad == 1.0
    np.testing.assert_allclose(x.grad, step04.numerical_diff(f, x), rtol=1e-6)


def test_backward_on_a_vector_seeds_ones_of_the_same_shape():
    data = np.array([1.0, -2.0, 3.0])
    x = step09.Variable(data)
    y = step09.square(x)
    y.backward()
    np.testing.assert_array_equal(y.grad, np.ones_like(data))
    np.testing.assert_array_equal(x.grad, 2 * data)
