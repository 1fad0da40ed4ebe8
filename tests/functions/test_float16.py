"""작은 실수형(float16, 그리고 float32의 끝)에서 넘치지 않는 계산: PyTorch(CPU)와 float16/32/64로 비교합니다.

- 나눗셈의 역전파: d(a/b)/db = -(a/b)/b. -a/b²로 계산하면 b²가 먼저 넘칩니다(float16의 300² > 65504,
  float32의 |b| > 1.8e19).
- 평균 제곱 오차: float16의 제곱을 float16으로 더하면 합이 넘칩니다. PyTorch는 float32로 더합니다.
- 시그모이드: float16에서 exp(12)가 넘쳐 sigmoid(-12)가 0이 됩니다. PyTorch는 float32로 계산합니다.
"""

import numpy as np
import pytest
from oracle import import_torch

import tinygrad_ko as tg
from tinygrad_ko import Variable
from tinygrad_ko.functions.activations import sigmoid
from tinygrad_ko.functions.losses import mean_squared_error

torch = import_torch(__name__)
F = torch.nn.functional

DTYPES = [np.float16, np.float32, np.float64]


def torch_dtype(dtype):
    return {np.float16: torch.float16, np.float32: torch.float32, np.float64: torch.float64}[dtype]


def leaf(data, dtype):
    return torch.tensor(np.asarray(data, dtype=dtype), requires_grad=True)


# --- 나눗셈 ------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("dtype", "a", "b"),
    [(np.float16, 300.0, 300.0), (np.float16, 1.0, 300.0), (np.float32, 3e19, 3e19)]
    + [(np.float32, 1.0, 2e19), (np.float64, 1e300, 1e160)],
)
def test_division_gradient_does_not_overflow(dtype, a, b):
    x0, x1 = Variable(np.array(a, dtype)), Variable(np.array(b, dtype))
    (x0 / x1).backward()
    t0, t1 = leaf(a, dtype), leaf(b, dtype)
    (t0 / t1).backward()
    assert x1.grad.dtype == dtype and x1.grad != 0  # 고치기 전: -0
    np.testing.assert_array_equal(x0.grad, t0.grad.numpy())
    np.testing.assert_array_equal(x1.grad, t1.grad.numpy())


@pytest.mark.parametrize("dtype", DTYPES)
def test_division_gradients_match_torch_bit_for_bit(dtype):
    rng = np.random.default_rng(0)
    a = (rng.standard_normal(500) * 100).astype(dtype)
    b = (rng.uniform(0.5, 400, 500) * rng.choice([-1, 1], 500)).astype(dtype)
    g = rng.standard_normal(500).astype(dtype)
    x0, x1 = Variable(a.copy()), Variable(b.copy())
    (x0 / x1).backward(gradient=g.copy())
    t0, t1 = leaf(a, dtype), leaf(b, dtype)
    (t0 / t1).backward(torch.from_numpy(g))
    np.testing.assert_array_equal(x0.grad, t0.grad.numpy())
    np.testing.assert_array_equal(x1.grad, t1.grad.numpy())


@pytest.mark.parametrize("dtype", DTYPES)
def test_normalising_by_the_sum_matches_torch(dtype):
    data = np.linspace(1.0, 40.0, 17).astype(dtype)  # 합 348.5: float16에서 합의 제곱이 넘칩니다.
    g = np.linspace(-1.0, 1.0, 17).astype(dtype)
    x = Variable(data.copy())
    (x / x.sum()).backward(gradient=g.copy())
    t = leaf(data, dtype)
    (t / t.sum()).backward(torch.from_numpy(g))
    rtol = {np.float16: 2e-3, np.float32: 1e-6, np.float64: 1e-14}[dtype]
    np.testing.assert_allclose(x.grad, t.grad.numpy(), rtol=rtol, atol=0)


def test_second_derivative_of_division_still_matches_torch():
    x0, x1 = Variable(np.array([3.0, -2.0])), Variable(np.array([0.5, 4.0]))
    (g1,) = tg.grad((x0 / x1).sum(), x1, create_graph=True)
    g1.sum().backward()
    t0, t1 = leaf([3.0, -2.0], np.float64), leaf([0.5, 4.0], np.float64)
    (h,) = torch.autograd.grad((t0 / t1).sum(), t1, create_graph=True)
    h.sum().backward()
    np.testing.assert_allclose(g1.data, h.detach().numpy(), rtol=1e-15)
    np.testing.assert_allclose(x0.grad, t0.grad.numpy(), rtol=1e-15)
    np.testing.assert_allclose(x1.grad, t1.grad.numpy(), rtol=1e-15)


# --- 평균 제곱 오차 --------------------------------------------------------------------
@pytest.mark.parametrize("dtype", DTYPES)
def test_mean_squared_error_of_large_float16_sums(dtype):
    data = np.full(100, 30.0, dtype)  # 제곱의 합 90000 > 65504(float16의 최댓값), 평균은 900
    x = Variable(data.copy())
    loss = mean_squared_error(x, np.zeros(100, dtype))
    loss.backward()
    t = leaf(data, dtype)
    expected = F.mse_loss(t, torch.zeros(100, dtype=torch_dtype(dtype)))
    expected.backward()
    assert loss.dtype == dtype and loss.data == expected.item() == 900.0  # 고치기 전(float16): inf
    np.testing.assert_array_equal(x.grad, t.grad.numpy())


@pytest.mark.parametrize("dtype", DTYPES)
def test_mean_squared_error_matches_torch_bit_for_bit(dtype):
    rng = np.random.default_rng(1)
    for n in (1, 7, 300, 2049):
        a = (rng.standard_normal(n) * 20).astype(dtype)
        b = rng.standard_normal(n).astype(dtype)
        g = dtype(1.75)
        x0, x1 = Variable(a.copy()), Variable(b.copy())
        loss = mean_squared_error(x0, x1)
        loss.backward(gradient=np.array(g))
        t0, t1 = leaf(a, dtype), leaf(b, dtype)
        expected = F.mse_loss(t0, t1)
        expected.backward(torch.tensor(g))
        if dtype == np.float16:  # float32로 더하는 길: 값까지 같습니다.
            assert loss.data == expected.item()
        else:  # 합의 순서(BLAS의 내적)가 달라 마지막 자리만 다를 수 있습니다.
            np.testing.assert_allclose(loss.data, expected.item(), rtol=1e-6)
        np.testing.assert_array_equal(x0.grad, t0.grad.numpy())
        np.testing.assert_array_equal(x1.grad, t1.grad.numpy())


@pytest.mark.filterwarnings("ignore:overflow encountered")
def test_mean_squared_error_float16_overflows_where_torch_does():
    data = np.full(4, 300.0, np.float16)  # 제곱 하나가 90000: PyTorch도 inf
    loss = mean_squared_error(Variable(data), np.zeros(4, np.float16))
    expected = F.mse_loss(torch.from_numpy(data), torch.zeros(4, dtype=torch.float16))
    assert np.isinf(loss.data) and torch.isinf(expected)


# --- 시그모이드 ------------------------------------------------------------------------
def float16_grid():
    return np.unique(np.arange(-30.0, 30.0, 0.01).astype(np.float16))


def test_float16_sigmoid_matches_torch_bit_for_bit():
    xs = float16_grid()
    y = sigmoid(Variable(xs.copy()))
    expected = torch.sigmoid(torch.from_numpy(xs)).numpy()
    assert y.dtype == np.float16
    np.testing.assert_array_equal(y.data, expected)
    assert sigmoid(Variable(np.array(-12.0, np.float16))).data == np.float16(6.14e-06)


def test_float16_log_sigmoid_is_finite_like_torch():
    x = Variable(np.array(-12.0, np.float16))
    y = tg.log(sigmoid(x))
    t = leaf(-12.0, np.float16)
    expected = torch.log(torch.sigmoid(t))
    assert np.isfinite(y.data) and y.data == expected.item()  # 고치기 전: -inf


@pytest.mark.parametrize("dtype", DTYPES)
def test_sigmoid_gradient_matches_torch(dtype):
    xs = float16_grid().astype(dtype)
    g = np.linspace(-2.0, 2.0, len(xs)).astype(dtype)
    x = Variable(xs.copy())
    sigmoid(x).backward(gradient=g.copy())
    t = leaf(xs, dtype)
    torch.sigmoid(t).backward(torch.from_numpy(g))
    # exp의 구현과 곱하는 순서가 달라 마지막 자리는 다를 수 있습니다. y가 1에 가까우면 1 - y가 그 차이를
    # 키웁니다(float32에서 상대 3e-5).
    rtol = {np.float16: 2e-3, np.float32: 1e-4, np.float64: 1e-12}[dtype]
    tiny = np.finfo(dtype).smallest_subnormal * 4
    np.testing.assert_allclose(x.grad, t.grad.numpy(), rtol=rtol, atol=tiny)
