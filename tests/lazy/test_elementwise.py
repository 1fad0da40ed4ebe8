"""원소별 연산의 값: NumPy와 원소마다 같고(dtype도, exp와 log는 약속한 상대 오차 안), 두 백엔드가 같은 값을 냅니다."""

import numpy as np
import pytest

from tinygrad_ko import lazy

from .conftest import needs_cc

SPECIAL = [0.0, -0.0, 1.0, -1.0, 0.1, -2.5, np.inf, -np.inf, np.nan, 1e-40, -1e-310, 3e38, 1e300]


def special_values(dtype, shape=(5, 7)):
    """특별한 값(±0, ±inf, NaN, 아주 작은 수와 큰 수)과 무작위 값을 섞은 배열."""
    rng = np.random.default_rng(0)
    with np.errstate(over="ignore"):
        data = rng.standard_normal(shape).astype(dtype) * dtype(3)
        flat = data.reshape(-1)
        flat[: len(SPECIAL)] = np.array(SPECIAL).astype(dtype)
    return data


def same_bits(actual, expected):
    """값이 원소마다 같은지: -0.0과 +0.0도 가르고, NaN은 NaN끼리 같다고 봅니다. dtype도 봅니다.

    NaN의 부호는 보지 않습니다. IEEE 754는 산술 연산이 낸 NaN의 부호를 정하지 않으므로, gcc는 `(-x) * c`를
    `x * (-c)`로, `(-x) + c`를 `c - x`로 바꿉니다(NaN이 아닌 값은 모두 같고 NaN의 부호만 다릅니다).
    """
    assert actual.dtype == expected.dtype
    assert actual.shape == expected.shape
    assert np.array_equal(actual, expected, equal_nan=True)
    number = ~np.isnan(expected)
    assert np.array_equal(np.signbit(actual)[number], np.signbit(expected)[number])


def lazy_and_numpy(dtype):
    a = special_values(dtype)
    b = special_values(dtype)[::-1].copy()
    return a, b, lazy.Tensor(a), lazy.Tensor(b)


OPS = {
    "+": (lambda x, y: x + y),
    "-": (lambda x, y: x - y),
    "*": (lambda x, y: x * y),
    "/": (lambda x, y: x / y),
}


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("op", list(OPS))
def test_binary_ops_equal_numpy(backend, dtype, op):
    a, b, ta, tb = lazy_and_numpy(dtype)
    f = OPS[op]
    with np.errstate(all="ignore"):
        same_bits(f(ta, tb).numpy(), f(a, b))
        same_bits(f(ta, 0.1).numpy(), f(a, 0.1))  # 파이썬 수는 텐서의 dtype으로
        same_bits(f(3, ta).numpy(), f(3, a))  # 수가 왼쪽(반사 연산자)
        same_bits(
            f(ta, np.float64(1.7)).numpy(), f(a, dtype(1.7))
        )  # NumPy 스칼라도 텐서의 dtype으로


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_unary_ops_equal_numpy(backend, dtype):
    a, _, ta, _ = lazy_and_numpy(dtype)
    same_bits((-ta).numpy(), -a)
    # 부호 바꾸기 하나만 있는 커널은 NaN의 부호까지 같습니다.
    assert np.array_equal(np.signbit((-ta).numpy()), np.signbit(-a))
    same_bits(ta.relu().numpy(), np.maximum(a, 0))  # 최종 엔진의 ReLU.forward와 같은 식


def test_relu_keeps_nan_and_turns_negative_zero_positive(backend):
    x = np.array([np.nan, -0.0, 0.0, -1.0, 2.0], np.float32)
    y = lazy.Tensor(x).relu().numpy()
    assert np.isnan(y[0])
    assert np.array_equal(np.signbit(y), [np.signbit(y[0]), False, False, False, False])
    assert np.array_equal(y[1:], [0.0, 0.0, 0.0, 2.0])


def exp_inputs_with_normal_results(dtype, rng, n=4000):
    """exp의 결과가 정규수(normal number: 0이 아니고 크기가 `finfo.tiny` 이상인 유한한 수)인 입력의 범위 전체.

    양 끝(결과가 가장 작은 정규수, 가장 큰 유한수에 가장 가까운 입력)과 그 사이의 고른 무작위 값입니다.
    결과가 비정규수(subnormal)인 입력(float32에서 x가 -87.3쯤보다 작을 때)은 약속 밖입니다.
    """
    info = np.finfo(dtype)
    lo, hi = dtype(np.log(info.tiny)), dtype(np.log(info.max))
    with np.errstate(over="ignore", under="ignore"):
        while np.exp(lo) < info.tiny:  # 반올림으로 범위 밖에 떨어졌으면 안쪽으로 한 칸씩
            lo = np.nextafter(lo, dtype(0))
        while not np.isfinite(np.exp(hi)):
            hi = np.nextafter(hi, dtype(0))
    x = np.concatenate([[lo, hi], rng.uniform(lo, hi, n).astype(dtype)])
    return np.clip(x, lo, hi)


def log_inputs_normal(dtype, rng, n=4000):
    """log의 입력이 양의 정규수인 범위 전체: 가장 작은 정규수, 가장 큰 유한수, 그 사이에서 지수가 고르게 퍼진 값."""
    info = np.finfo(dtype)
    exponents = rng.uniform(np.log(info.tiny), np.log(info.max), n)
    with np.errstate(over="ignore"):  # 위 끝에서 넘친 값은 가장 큰 유한수로
        p = np.clip(np.exp(exponents).astype(dtype), info.tiny, info.max)
    return np.concatenate([np.array([info.tiny, info.max], dtype), p])


# 약속: exp는 결과가, log는 입력이 정규수이면 NumPy와의 상대 오차가 float32에서 1e-6, float64에서 1e-12 안(56장).
@pytest.mark.parametrize("dtype, rtol", [(np.float32, 1e-6), (np.float64, 1e-12)])
def test_exp_log_close_to_numpy_in_normal_range(backend, dtype, rtol):
    rng = np.random.default_rng(2)
    x = exp_inputs_with_normal_results(dtype, rng)
    want = np.exp(x)
    # 시험하는 입력이 약속한 범위 안: 결과가 모두 정규수
    assert np.all(np.isfinite(want)) and np.all(want >= np.finfo(dtype).tiny)
    got = lazy.Tensor(x).exp().numpy()
    assert got.dtype == dtype
    assert np.allclose(got, want, rtol=rtol, atol=0)
    p = log_inputs_normal(dtype, rng)
    got = lazy.Tensor(p).log().numpy()
    assert got.dtype == dtype
    assert np.allclose(got, np.log(p), rtol=rtol, atol=0)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_broadcasting_shapes(backend, dtype):
    rng = np.random.default_rng(3)
    a = rng.standard_normal((4, 1, 3)).astype(dtype)
    b = rng.standard_normal((5, 1)).astype(dtype)
    c = rng.standard_normal(()).astype(dtype)
    ta, tb, tc = lazy.Tensor(a), lazy.Tensor(b), lazy.Tensor(np.asarray(c))
    same_bits((ta * tb - tc / ta).relu().numpy(), np.maximum(a * b - c / a, 0))
    same_bits((tb + b).numpy(), b + b)  # ndarray도 상수 텐서로


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_sum_close_to_numpy(backend, dtype):
    rng = np.random.default_rng(4)
    a = rng.standard_normal((6, 50, 7)).astype(dtype)
    t = lazy.Tensor(a)
    rtol = 1e-5 if dtype == np.float32 else 1e-12
    for axis, keepdims in [
        (None, False),
        (0, False),
        (1, False),
        ((0, 2), True),
        (-1, True),
        ((), False),
    ]:
        got = (t * 2.0 + 1.0).sum(axis=axis, keepdims=keepdims).numpy()
        want = (a * dtype(2) + dtype(1)).sum(axis=axis, keepdims=keepdims)
        assert got.dtype == want.dtype and got.shape == want.shape
        assert np.allclose(got, want, rtol=rtol, atol=rtol)


def test_numpy_backend_sum_equals_numpy_exactly():
    """NumPy 백엔드의 합은 NumPy의 합 그 자체입니다(C 백엔드는 더하는 순서가 달라 마지막 자리가 다를 수 있습니다)."""
    a = np.random.default_rng(5).standard_normal((300, 301)).astype(np.float32)
    with lazy.using_backend("numpy"):
        assert np.array_equal(lazy.Tensor(a).sum(axis=1).numpy(), a.sum(axis=1))
        assert np.array_equal(lazy.Tensor(a).sum().numpy(), a.sum())


def test_reshape_and_views(backend):
    a = np.arange(24.0).reshape(2, 3, 4)
    t = lazy.Tensor(a)
    same_bits((t.reshape(6, 4) * 2.0).numpy(), a.reshape(6, 4) * 2.0)
    same_bits((t + 1.0).reshape((4, -1)).numpy(), (a + 1.0).reshape(4, -1))
    expanded = t.sum(axis=2, keepdims=True) * lazy.Tensor(np.ones((2, 3, 4)))
    same_bits(
        expanded.reshape(24).numpy(),
        (a.sum(axis=2, keepdims=True) * np.ones((2, 3, 4))).reshape(24),
    )


@needs_cc
def test_backends_agree_on_a_mixed_graph():
    """같은 그래프를 두 백엔드로: 원소별 연산은 원소마다 같습니다."""
    a = special_values(np.float32, (33, 17))
    b = special_values(np.float32, (17,))
    results = {}
    for name in ("numpy", "c"):
        with lazy.using_backend(name):
            x, w = lazy.Tensor(a), lazy.Tensor(b)
            results[name] = ((x * w - 1.5) / (w + 2.0) - x).relu().numpy()
    same_bits(results["c"], results["numpy"])


def test_input_is_copied_and_numpy_returns_the_value(backend):
    a = np.ones(3)
    t = lazy.Tensor(a) * 2.0
    a[:] = 100.0  # 텐서를 만든 뒤에 바꾼 원래 배열은 결과에 들어가지 않습니다
    assert np.array_equal(t.numpy(), [2.0, 2.0, 2.0])
    assert t.numpy() is t.numpy()  # 두 번째는 다시 계산하지 않습니다


def long_special_values(dtype, n=1013):
    """벡터 반복문의 본문(펼친 것 포함)과 남은 칸의 반복문을 모두 지나도록 긴 배열의 처음, 가운데, 끝에 특별한 값."""
    data = special_values(dtype, (n,))
    with np.errstate(over="ignore"):
        specials = np.array(SPECIAL).astype(dtype)
    for start in (n // 2, n - len(SPECIAL)):
        data[start : start + len(SPECIAL)] = specials
    return data


def twenty_op_chain(y):
    """벤치마크의 사슬(× + − relu 부호를 네 번)에 나눗셈 하나를 더한 것."""
    for _ in range(4):
        y = y * 1.01
        y = y + 0.5
        y = y - 0.25
        y = y.relu() if isinstance(y, lazy.Tensor) else np.maximum(y, 0)
        y = -y
    return y / 3.0


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_fused_chain_on_a_long_array_equals_numpy(backend, dtype):
    """융합한 긴 사슬: 벡터 반복문과 남은 칸 모두 NumPy와 원소마다 같습니다(relu 뒤의 상수 접기 포함)."""
    a = long_special_values(dtype)
    with np.errstate(all="ignore"):
        same_bits(twenty_op_chain(lazy.Tensor(a)).numpy(), twenty_op_chain(a))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_multiply_then_add_is_not_contracted_into_fma(backend, dtype):
    """곱한 뒤 더하기를 FMA(반올림 한 번)로 합치지 않습니다: NumPy처럼 곱을 반올림한 뒤 더합니다."""
    rng = np.random.default_rng(3)
    a, b, c = (rng.standard_normal(4099).astype(dtype) for _ in range(3))
    ta, tb, tc = lazy.Tensor(a), lazy.Tensor(b), lazy.Tensor(c)
    same_bits((ta * tb + tc).numpy(), a * b + c)
    same_bits((tc - ta * tb).numpy(), c - a * b)
    same_bits((ta * tb - tc * ta).numpy(), a * b - c * a)
    # 이 데이터가 FMA를 드러내는지: 반올림을 한 번만 한 값은 여러 칸에서 다릅니다.
    if dtype == np.float32:
        one_rounding = (a.astype(np.float64) * b + c).astype(np.float32)
        assert np.count_nonzero(one_rounding != a * b + c) > 100
