"""실수 변수와 정수·bool 배열의 계산: 실수 쪽의 dtype이 됩니다(PyTorch와 같음).

NumPy는 float32 배열 * int64 배열을 float64로, float16 * int16을 float32로 올립니다. PyTorch는 실수 텐서가
어떤 정수 텐서보다 앞서므로 float32 * int64도 float32입니다. 이 엔진은 PyTorch를 따릅니다: 실수 변수와
계산하는 정수·bool 상수(배열, 0차원 배열, NumPy 스칼라, 정수 변수)는 그 실수의 dtype으로 바꿔 계산합니다.
"""

from __future__ import annotations

import itertools
import operator

import numpy as np
import pytest
from oracle import import_torch

from tinygrad_ko import Variable

torch = import_torch(__name__)

OPS = {
    "mul": operator.mul,
    "add": operator.add,
    "sub": operator.sub,
    "truediv": operator.truediv,
    "rmul": lambda a, b: b * a,
    "radd": lambda a, b: b + a,
    "rsub": lambda a, b: b - a,
    "rtruediv": lambda a, b: b / a,
}
FLOATS = [np.float16, np.float32, np.float64]
INTEGERS = [
    np.int8,
    np.int16,
    np.int32,
    np.int64,
    np.uint8,
    np.uint16,
    np.uint32,
    np.uint64,
    np.bool_,
]
# 정수 쪽의 모양: 차원 있는 배열 두 가지와 0차원 배열. 실수 변수는 (3,)과 0차원.
SHAPES = [(3,), (2, 3), ()]


def _integers(dtype, shape):
    values = np.array([1, 2, 3] * 2 if dtype is not np.bool_ else [True, False, True] * 2)
    return values[: int(np.prod(shape))].reshape(shape).astype(dtype)


def _tolerance(dtype):
    return {"rtol": 1e-3} if dtype == np.float16 else {"rtol": 1e-6}


def _pairs(op):
    """op에서 비교할 (정수 dtype, 정수 쪽 모양): PyTorch가 거부하는 bool의 뺄셈은 뺍니다."""
    dtypes = [d for d in INTEGERS if not (d is np.bool_ and "sub" in op)]
    return list(itertools.product(dtypes, SHAPES))


@pytest.mark.parametrize("op", list(OPS))
@pytest.mark.parametrize(("float_dtype", "x_ndim"), list(itertools.product(FLOATS, (1, 0))))
def test_integer_arrays_take_the_float_dtype_like_torch(op, float_dtype, x_ndim):
    data = np.array([1.5, -2.0, 4.0] if x_ndim else 1.5, float_dtype)
    for int_dtype, shape in _pairs(op):
        c = _integers(int_dtype, shape)
        x = Variable(data.copy())
        t = torch.tensor(data, requires_grad=True)
        with np.errstate(
            divide="ignore", invalid="ignore"
        ):  # bool의 False로 나누기: inf(PyTorch와 같음)
            y = OPS[op](x, c)
            y.backward(gradient=np.ones(y.shape, y.dtype))
        yt = OPS[op](t, torch.from_numpy(c.copy()))
        yt.backward(torch.ones_like(yt))
        case = (int_dtype.__name__, shape)
        assert str(yt.dtype) == f"torch.{y.dtype}", case
        np.testing.assert_allclose(
            y.data, yt.detach().numpy(), **_tolerance(float_dtype), err_msg=str(case)
        )
        assert x.grad.dtype == float_dtype, case
        np.testing.assert_allclose(
            x.grad, t.grad.numpy(), **_tolerance(float_dtype), err_msg=str(case)
        )


@pytest.mark.parametrize("op", list(OPS))
@pytest.mark.parametrize("float_dtype", FLOATS)
def test_integer_variables_and_numpy_scalars_take_the_float_dtype_like_torch(op, float_dtype):
    data = np.array([1.5, -2.0, 4.0], float_dtype)
    for int_dtype, _ in _pairs(op)[:: len(SHAPES)]:
        c = _integers(int_dtype, (3,))
        expected = OPS[op](torch.tensor(data), torch.from_numpy(c.copy())).dtype
        with np.errstate(divide="ignore", invalid="ignore"):
            for other in (Variable(c, requires_grad=False), c[0]):  # 정수 변수, NumPy 스칼라
                y = OPS[op](Variable(data.copy()), other)
                assert str(expected) == f"torch.{y.dtype}", (int_dtype.__name__, type(other))
            # 정수 변수가 왼쪽이고 실수 변수가 오른쪽인 연산자(int_var * x)
            y = OPS[op](Variable(c, requires_grad=False), Variable(data.copy()))
        theirs = OPS[op](torch.from_numpy(c.copy()), torch.tensor(data))
        assert str(theirs.dtype) == f"torch.{y.dtype}", int_dtype.__name__


@pytest.mark.parametrize("op", list(OPS))
@pytest.mark.parametrize(("float_dtype", "number"), list(itertools.product(FLOATS, (3, 2.5, True))))
def test_python_numbers_keep_the_float_dtype_like_torch(op, float_dtype, number):
    if number is True and "sub" in op:
        pytest.skip("PyTorch는 bool과의 뺄셈을 거부합니다(비교할 답이 없습니다)")
    data = np.array([1.5, -2.0, 4.0], float_dtype)
    y = OPS[op](Variable(data.copy()), number)
    yt = OPS[op](torch.tensor(data), number)
    assert str(yt.dtype) == f"torch.{y.dtype}"
    np.testing.assert_allclose(y.data, yt.numpy(), **_tolerance(float_dtype))


def test_the_issue_example_and_matmul():
    x = Variable(np.ones(3, np.float32))
    assert (x * np.arange(3)).dtype == np.float32  # 고치기 전: float64
    assert (np.arange(3) * x).dtype == np.float32
    # 행렬 곱도 같은 규칙입니다(PyTorch는 dtype이 다른 행렬 곱을 거부하고, NumPy는 float64로 올립니다).
    W = Variable(np.ones((3, 2), np.float16))
    assert (np.ones((1, 3), np.int64) @ W).dtype == np.float16
    assert (W.T @ np.arange(3)).dtype == np.float16
    # 실수끼리는 NumPy와 PyTorch가 같습니다: 차원 있는 float64 배열은 float32를 float64로 올립니다.
    assert (x * np.arange(3.0)).dtype == np.float64


def test_an_integer_variable_on_the_left_takes_the_float_dtype_in_matrix_functions():
    import tinygrad_ko as tg

    W = Variable(np.ones((3, 2), np.float32))
    counts = Variable(np.ones((1, 3), np.int64), requires_grad=False)
    assert (counts @ W).dtype == np.float32  # 고치기 전: float64
    assert tg.linear(counts, W).dtype == np.float32
    assert tg.linear(counts, W, np.zeros(2, np.float32)).dtype == np.float32
    labels = Variable(np.arange(3), requires_grad=False)
    assert tg.mean_squared_error(labels, Variable(np.ones(3, np.float16))).dtype == np.float16
