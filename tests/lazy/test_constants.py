"""커널 안의 수(const): 비교로는 같아도 비트가 다른 수(0.0과 -0.0, 부호나 payload가 다른 NaN)를 하나로 합치지 않습니다.

스케줄러는 한 커널에 같은 수가 여러 번 나오면 문장 하나로 씁니다. 그 열쇠가 `0.0 == -0.0`인 파이썬 float였을 때는
relu의 역전파가 넣는 0.0이 사용자의 -0.0을 대신해, 미분값과 순전파 값의 부호가 NumPy(최종 엔진)와 달랐습니다.
"""

import math
import struct

import numpy as np
import pytest

import tinygrad_ko as tk
from tinygrad_ko import lazy
from tinygrad_ko.lazy import graph

DTYPES = [np.float32, np.float64]


def bits(a):
    a = np.asarray(a)
    return a.view(np.uint32 if a.dtype == np.float32 else np.uint64)


def same_bits(actual, expected):
    """값, 부호(np.signbit), 그리고 NaN까지 비트 하나 다르지 않게 같습니다."""
    assert actual.dtype == expected.dtype and actual.shape == expected.shape
    assert np.array_equal(actual, expected, equal_nan=True), (actual, expected)
    assert np.array_equal(np.signbit(actual), np.signbit(expected)), (actual, expected)


@pytest.mark.parametrize("dtype", DTYPES)
def test_negative_zero_constant_survives_relu_backward(backend, dtype):
    data = np.array([1.0, -1.0, 2.0], dtype)
    x = lazy.Tensor(data, requires_grad=True)
    (x.relu() * -0.0).sum().backward()
    v = tk.Variable(data)
    (tk.relu(v) * -0.0).sum().backward()
    same_bits(x.grad.numpy(), v.grad)
    assert np.signbit(v.grad).tolist() == [True, False, True]  # 최종 엔진: -0.0 * 1 = -0.0


@pytest.mark.parametrize("dtype", DTYPES)
def test_negative_zero_written_before_relu_leaves_relu_zero_alone(backend, dtype):
    """-0.0이 커널에 먼저 나와도 relu 역전파의 0.0은 0.0입니다(값으로 합치면 -0.0이 됩니다)."""
    data = np.array([1.0, -1.0, 2.0], dtype)
    x = lazy.Tensor(data, requires_grad=True)
    (x * -0.0 + x.relu()).sum().backward()
    (kernel,) = lazy.schedule(x.grad)
    consts = [c for op, _, _, c in kernel.stmts if op == "const"]
    assert [math.copysign(1.0, c) for c in consts] == [-1.0, 1.0]  # -0.0이 먼저, 그다음 0.0
    v = tk.Variable(data)
    (v * -0.0 + tk.relu(v)).sum().backward()
    same_bits(x.grad.numpy(), v.grad)
    assert np.signbit(v.grad).tolist() == [False, False, False]


@pytest.mark.parametrize("dtype", DTYPES)
def test_division_by_negative_zero_after_relu(backend, dtype):
    data = np.array([1.0, 2.0], dtype)
    x = lazy.Tensor(data, requires_grad=True)
    loss = (x.relu() / -0.0).sum()
    loss.backward()
    v = tk.Variable(data)
    with np.errstate(divide="ignore"):
        eager = (tk.relu(v) / -0.0).sum()
        eager.backward()
    same_bits(loss.numpy(), eager.data)
    same_bits(x.grad.numpy(), v.grad)
    assert v.grad.tolist() == [-math.inf, -math.inf]


@pytest.mark.parametrize("dtype", DTYPES)
def test_forward_keeps_zero_and_negative_zero_apart(backend, dtype):
    data = np.array([1.0, 3.0], dtype)
    got = (lazy.Tensor(data) * 0.0 + 1.0 / (lazy.Tensor(data) * -0.0)).numpy()
    with np.errstate(divide="ignore"):
        expected = data * 0.0 + 1.0 / (data * -0.0)
    same_bits(got, expected)
    assert expected.tolist() == [-math.inf, -math.inf]


@pytest.mark.parametrize("dtype", DTYPES)
def test_one_kernel_keeps_every_distinct_constant_bit_pattern(backend, dtype):
    """0.0, -0.0, NaN, -NaN, payload가 다른 NaN이 한 커널에서 각자의 문장이 됩니다(같은 비트만 합칩니다)."""
    payload_nan = struct.unpack("<d", struct.pack("<Q", 0x7FF8000000000000 | (1 << 40)))[0]
    values = [0.0, -0.0, math.nan, -math.nan, payload_nan, 0.0, -0.0, math.inf, -math.inf]
    x = lazy.Tensor(np.ones(4, dtype))
    y = x
    for c in values:
        y = y + x * c
    (kernel,) = lazy.schedule(y)
    consts = [arg for op, _, _, arg in kernel.stmts if op == "const"]
    expected = {struct.pack("<d", graph.rounded(c, np.dtype(dtype))) for c in values}
    assert sorted(struct.pack("<d", c) for c in consts) == sorted(expected)


@pytest.mark.parametrize("dtype", DTYPES)
def test_numpy_backend_keeps_the_sign_and_payload_of_nan_constants(dtype):
    """NumPy 백엔드는 NaN 상수의 비트도 그대로 옮깁니다. 같은 커널 모양에 다른 NaN을 넣어도 캐시가 섞지 않습니다."""
    payload_nan = struct.unpack("<d", struct.pack("<Q", 0x7FF8000000000000 | (1 << 40)))[0]
    data = np.array([1.0, -2.0], dtype)
    with lazy.using_backend("numpy"):
        for c in [math.nan, -math.nan, payload_nan, -payload_nan]:
            got = (lazy.Tensor(data) * c).numpy()
            expected = data * c
            same_bits(got, expected)
            assert np.array_equal(bits(got), bits(expected))
