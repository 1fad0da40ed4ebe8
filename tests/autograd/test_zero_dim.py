"""0차원 데이터의 계산: 값, dtype, 모양, 미분값이 원소 하나짜리 배열로 계산한 것과 같습니다.

NumPy는 0차원 배열끼리 계산하면 `np.float64` 같은 스칼라를 돌려줍니다. 엔진은 그 결과를 다시 0차원 배열로
담으므로, 0차원 그래프도 배열 그래프와 같은 값과 dtype을 내야 합니다. 스칼라의 `**`는 배열의 `**`와 계산하는
길이 달라(배열은 지수 2, 0.5, -1을 square, sqrt, reciprocal로) 따로 확인합니다.
"""

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import tinygrad_ko as tg
from tinygrad_ko import Function, Variable

from .random_graphs import build, operations, programs

OPS = operations(tg)


class Seen(Function):
    """사용자가 만든 함수처럼: forward가 받은 값의 타입을 적어 두고 그 값을 그대로 돌려줍니다."""

    def forward(self, x):
        self.seen = type(x)
        return x

    def backward(self, gy):
        return gy


@settings(max_examples=60, deadline=None)
@given(program=programs, values=st.lists(st.floats(-2, 2), min_size=3, max_size=3))
# 검토에서 찾은 반례: Square가 스칼라의 **(C의 pow)로 계산하면 마지막 자리가 다릅니다.
@example(program=[("u", "square", 0)], values=[0.5849475849719483, 0.0, 0.0])
def test_zero_dim_graphs_match_the_same_graph_on_one_element_arrays(program, values):
    """0차원 입력(스칼라 계산)과 원소 하나짜리 1차원 입력(배열 ufunc)의 값과 미분값이 비트까지 같습니다."""
    scalars = [Variable(np.array(v)) for v in values]
    arrays = [Variable(np.array([v])) for v in values]
    y0, y1 = build(program, scalars, OPS), build(program, arrays, OPS)
    y0.backward()
    y1.backward()
    assert type(y0.data) is np.ndarray and y0.data.shape == ()
    assert y0.data.tobytes() == y1.data.tobytes()
    for s, a in zip(scalars, arrays, strict=True):
        if a.grad is None:
            assert s.grad is None
        else:
            assert type(s.grad) is np.ndarray and s.grad.shape == ()
            assert s.grad.tobytes() == a.grad.tobytes()


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_zero_dim_results_keep_dtype_and_stay_arrays(dtype):
    x = Variable(np.array(1.5, dtype=dtype))
    for y in (x * 2.0, tg.exp(x), x + x, x**2, -x, x / 3.0, tg.sum(x * x)):
        assert type(y.data) is np.ndarray and y.data.shape == () and y.data.dtype == dtype
    y = tg.exp(x * x)
    y.backward()
    assert type(x.grad) is np.ndarray and x.grad.shape == () and x.grad.dtype == dtype


SPECIAL = [np.inf, -np.inf, np.nan, 0.0, -0.0, 1e-300, 1e300, -25.8097028852865]


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
@pytest.mark.parametrize("exponent", [2, 2.0, 0.5, -1, -1.0, 3, 1.5, -2, 0, 1])
def test_powers_of_zero_dim_data_match_one_element_arrays_bit_for_bit(dtype, exponent):
    with np.errstate(all="ignore"):  # inf, nan, 넘침은 일부러 넣은 값입니다
        values = np.concatenate([np.random.default_rng(0).uniform(-50, 50, 300), SPECIAL])
        values = values.astype(dtype)
        scalar = [(Variable(np.array(v)) ** exponent).data for v in values]
        array = [(Variable(np.array([v])) ** exponent).data[0] for v in values]
        squares = [tg.square(Variable(np.array(v))).data for v in values]
        square_array = tg.square(Variable(values.copy())).data
    assert np.array(scalar, dtype=dtype).tobytes() == np.array(array, dtype=dtype).tobytes()
    assert np.array(squares, dtype=dtype).tobytes() == square_array.tobytes()


def test_integer_and_bool_zero_dim_data_behave_like_arrays():
    """정수와 bool은 배열로 둡니다: 넘침은 배열처럼 조용히 돌아가고, dtype 규칙도 배열과 같습니다."""
    a = Variable(np.array(100, dtype=np.int8), requires_grad=False)
    with np.errstate(all="raise"):
        assert (a + a).data == np.int8(-56) and (a + a).data.dtype == np.int8
    b = Variable(np.array(True), requires_grad=False)
    assert (b**2).data.dtype == (Variable(np.array([True]), requires_grad=False) ** 2).data.dtype


def test_forward_receives_the_data_it_was_given():
    """forward는 변수의 data(0차원이어도 ndarray)와 상수를 받은 그대로 받습니다. 엔진이 0차원 데이터를
    스칼라로 바꿔 넘기지 않으므로, 사용자 함수와 라이브러리 함수가 같은 값을 봅니다."""
    cases = [
        (Variable(np.array(2.0)), np.ndarray),
        (Variable(np.array([2.0])), np.ndarray),
        (Variable(np.array(2), requires_grad=False), np.ndarray),
        (tg.Parameter(np.array(2.0)), np.ndarray),
        (np.array(2.0), np.ndarray),  # 상수 배열
        (np.float32(2.0), np.float32),  # 상수 스칼라
        (2.0, float),
    ]
    for x, expected in cases:
        function = Seen()
        function(x)
        assert function.seen is expected, (x, function.seen)


def test_a_user_forward_may_write_into_zero_dim_data():
    """배열에 원소를 쓰는 사용자 forward도 0차원 입력에서 n차원처럼 돕니다."""

    class ClipBelowZero(Function):
        def forward(self, x):
            y = x.copy()
            y[y < 0] = 0
            return y

        def backward(self, gy):
            return gy

    assert ClipBelowZero()(Variable(np.array(-3.0))).data == 0.0
    assert ClipBelowZero()(Variable(np.array([-3.0]))).data.tolist() == [0.0]


@pytest.mark.parametrize("shape", [(), (1,)])
def test_shape_functions_return_views_of_zero_dim_data_as_of_any_array(shape):
    x = Variable(np.full(shape, 2.0))
    for y in (tg.reshape(x, (1, 1)), x.T, x[...], tg.broadcast_to(x, (2,))):
        assert np.shares_memory(y.data, x.data)
