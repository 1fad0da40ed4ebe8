"""합성곱과 풀링(conv.py): PyTorch와 같은 값과 미분값, 수치 미분, im2col과 col2im의 수반 관계, 오류."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from oracle import import_torch

import tinygrad_ko as tg
from tinygrad_ko import Variable

torch = import_torch(__name__)
F = torch.nn.functional

# (N, C, H, W, OC, 커널, 스트라이드, 패딩, 편향): 직사각형 커널, 패딩과 다른 스트라이드, 배치, 채널 여럿
CONFIGS = [
    (1, 1, 5, 5, 1, 3, 1, 0, True),
    (2, 3, 9, 8, 4, (3, 2), (2, 1), (1, 0), True),
    (3, 2, 7, 10, 5, (2, 4), 3, 2, False),
    (2, 4, 6, 6, 3, 1, 2, 0, True),
    (1, 3, 11, 7, 2, (5, 3), (1, 2), (2, 1), False),
    (4, 1, 28, 28, 6, 5, 1, 2, True),
]
DTYPES = [(np.float64, 1e-10), (np.float32, 1e-4)]


def _data(config, dtype, seed=0):
    n, c, h, w, oc, k, _, _, bias = config
    kh, kw = (k, k) if isinstance(k, int) else k
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((n, c, h, w)).astype(dtype)
    W = rng.standard_normal((oc, c, kh, kw)).astype(dtype)
    b = rng.standard_normal(oc).astype(dtype) if bias else None
    return x, W, b


def _torch(a):
    return None if a is None else torch.tensor(a, requires_grad=True)


def _grads(fn, *arrays):
    """tinygrad_ko로 (출력, 입력마다 미분값). 시작 미분값은 출력 모양의 난수(모든 원소를 봅니다)."""
    vs = [None if a is None else Variable(a.copy()) for a in arrays]
    y = fn(*vs)
    seed = np.random.default_rng(1).standard_normal(y.shape).astype(y.dtype)
    y.backward(gradient=seed)
    return y.data, [None if v is None else v.grad for v in vs], seed


def _torch_grads(fn, seed, *arrays):
    ts = [_torch(a) for a in arrays]
    y = fn(*ts)
    y.backward(torch.tensor(seed))
    return y.detach().numpy(), [None if t is None else t.grad.numpy() for t in ts]


@pytest.mark.parametrize("dtype,rtol", DTYPES, ids=["float64", "float32"])
@pytest.mark.parametrize("config", CONFIGS)
@pytest.mark.parametrize("fn", [tg.conv2d, tg.conv2d_simple], ids=["conv2d", "conv2d_simple"])
def test_conv2d_matches_pytorch(fn, config, dtype, rtol):
    stride, pad = config[6], config[7]
    x, W, b = _data(config, dtype)
    y, grads, seed = _grads(lambda x, W, b: fn(x, W, b, stride, pad), x, W, b)
    ty, tgrads = _torch_grads(lambda x, W, b: F.conv2d(x, W, b, stride, pad), seed, x, W, b)
    assert y.dtype == dtype and y.shape == ty.shape
    np.testing.assert_allclose(y, ty, rtol=rtol, atol=rtol)
    for got, expected in zip(grads, tgrads, strict=True):
        if expected is None:
            assert got is None
        else:
            assert got.dtype == dtype
            np.testing.assert_allclose(got, expected, rtol=rtol, atol=rtol * 10)


POOL_CONFIGS = [
    ((2, 3, 8, 8), 2, 2, 0),
    ((1, 2, 9, 7), (3, 2), (2, 1), (1, 1)),
    ((3, 1, 6, 10), (2, 4), 3, (1, 2)),
    ((2, 2, 5, 5), 3, 1, 1),
]


@pytest.mark.parametrize("dtype,rtol", DTYPES, ids=["float64", "float32"])
@pytest.mark.parametrize("shape,k,s,p", POOL_CONFIGS)
@pytest.mark.parametrize(
    "ours,theirs",
    [(tg.pooling, F.max_pool2d), (tg.average_pooling, F.avg_pool2d)],
    ids=["max", "average"],
)
def test_pooling_matches_pytorch(ours, theirs, shape, k, s, p, dtype, rtol):
    # 음수도 섞어, 최댓값 풀링의 패딩이 -∞(0이 아님)인지도 봅니다.
    x = np.random.default_rng(2).standard_normal(shape).astype(dtype) - 1.0
    y, (gx,), seed = _grads(lambda x: ours(x, k, s, p), x)
    ty, (tgx,) = _torch_grads(lambda x: theirs(x, k, s, p), seed, x)
    np.testing.assert_allclose(y, ty, rtol=rtol, atol=rtol)
    np.testing.assert_allclose(gx, tgx, rtol=rtol, atol=rtol * 10)
    assert y.dtype == gx.dtype == dtype


def test_max_pooling_pads_with_minus_infinity_like_pytorch():
    x = -np.ones((1, 1, 2, 2))
    y = tg.pooling(x, 2, 2, 1)  # 창마다 진짜 원소 하나와 패딩 셋
    np.testing.assert_array_equal(y.data, -np.ones((1, 1, 2, 2)))


@pytest.mark.parametrize(
    "f",
    [
        lambda x, W, b: tg.conv2d(x, W, b, (2, 1), (1, 2)),
        lambda x, W, b: tg.pooling(x, (2, 3), (1, 2), (1, 1)) * 1.5,
        lambda x, W, b: tg.average_pooling(x, (3, 2), 2, (1, 0)),
        lambda x, W, b: tg.im2col(x, (2, 3), (2, 1), 1) * np.arange(1.0, 13.0),
    ],
    ids=["conv2d", "pooling", "average_pooling", "im2col"],
)
def test_numerical_gradient_check(f):
    rng = np.random.default_rng(3)
    x = rng.standard_normal((2, 2, 5, 4))
    W = rng.standard_normal((3, 2, 2, 3))
    b = rng.standard_normal(3)
    assert tg.gradient_check(lambda x, W, b: (f(x, W, b) ** 2).sum(), x, W, b)


def test_second_order_gradients_match_pytorch():
    """create_graph=True: 입력에 대한 1계 미분의 제곱합을 다시 미분한 값(이중 역전파)."""
    x, W, b = _data(CONFIGS[1], np.float64)
    stride, pad = (2, 1), (1, 0)

    xs = [Variable(a.copy()) for a in (x, W, b)]
    y = tg.pooling(tg.relu(tg.conv2d(*xs, stride, pad)), 2, 1) ** 2
    (gx,) = tg.grad(y.sum(), [xs[0]], create_graph=True)
    (gx * gx).sum().backward()

    ts = [_torch(a) for a in (x, W, b)]
    ty = F.max_pool2d(F.relu(F.conv2d(*ts, stride, pad)), 2, 1) ** 2
    (tgx,) = torch.autograd.grad(ty.sum(), [ts[0]], create_graph=True)
    (tgx * tgx).sum().backward()

    np.testing.assert_allclose(gx.data, tgx.detach().numpy(), rtol=1e-10)
    for v, t in zip(xs, ts, strict=True):
        np.testing.assert_allclose(v.grad.data, t.grad.numpy(), rtol=1e-9, atol=1e-10)


def test_average_pooling_second_order_matches_pytorch():
    x = np.random.default_rng(4).standard_normal((1, 2, 6, 5))
    v = Variable(x.copy())
    (g,) = tg.grad((tg.average_pooling(v, (3, 2), 1, 1) ** 3).sum(), [v], create_graph=True)
    (g * g).sum().backward()
    t = _torch(x)
    (tgx,) = torch.autograd.grad((F.avg_pool2d(t, (3, 2), 1, 1) ** 3).sum(), [t], create_graph=True)
    (tgx * tgx).sum().backward()
    np.testing.assert_allclose(v.grad.data, t.grad.numpy(), rtol=1e-10)


geometries = st.tuples(
    st.integers(1, 3),  # N
    st.integers(1, 3),  # C
    st.integers(1, 7),  # H
    st.integers(1, 7),  # W
    st.tuples(st.integers(1, 4), st.integers(1, 4)),  # 커널
    st.tuples(st.integers(1, 3), st.integers(1, 3)),  # 스트라이드
    st.tuples(st.integers(0, 2), st.integers(0, 2)),  # 패딩
    st.booleans(),  # to_matrix
)


@settings(max_examples=60, deadline=None)
@given(geometry=geometries, seed=st.integers(0, 2**16))
def test_col2im_is_the_adjoint_of_im2col(geometry, seed):
    """<im2col(x), c> == <x, col2im(c)>: col2im은 im2col의 수반(전치) 사상이라 서로의 역전파입니다."""
    n, c, h, w, k, s, p, to_matrix = geometry
    if h + 2 * p[0] < k[0] or w + 2 * p[1] < k[1]:
        return  # 창이 하나도 없는 크기는 오류 테스트에서 봅니다.
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((n, c, h, w))
    col = tg.im2col(x, k, s, p, to_matrix).data
    other = rng.standard_normal(col.shape)
    back = tg.col2im(other, x.shape, k, s, p, to_matrix).data
    assert back.shape == x.shape
    np.testing.assert_allclose(np.vdot(col, other), np.vdot(x, back), rtol=1e-10, atol=1e-10)


def test_im2col_and_col2im_are_each_others_backward():
    x = Variable(np.random.default_rng(5).standard_normal((2, 3, 6, 5)))
    col = tg.im2col(x, (3, 2), 2, 1)
    seed = np.random.default_rng(6).standard_normal(col.shape)
    col.backward(gradient=seed)
    np.testing.assert_allclose(x.grad, tg.col2im(seed, x.shape, (3, 2), 2, 1).data)

    c = Variable(seed.copy())
    img = tg.col2im(c, x.shape, (3, 2), 2, 1)
    img.backward(gradient=x.data)
    np.testing.assert_allclose(c.grad, tg.im2col(x.data, (3, 2), 2, 1).data)


def test_the_books_shapes_and_output_size():
    assert (tg.get_conv_outsize(4, 3, 1, 1), tg.get_conv_outsize(4, 3, 1, 1)) == (4, 4)
    assert tg.get_conv_outsize(7, 5, 2, 0) == 2  # (7 - 5) // 2 + 1
    assert tg.im2col(np.random.rand(1, 3, 7, 7), kernel_size=5).shape == (9, 75)
    assert tg.im2col(np.random.rand(10, 3, 7, 7), (5, 5), (1, 1), (0, 0)).shape == (90, 75)
    x = Variable(np.random.randn(1, 5, 15, 15))
    y = tg.conv2d_simple(x, np.random.randn(8, 5, 3, 3), b=None, stride=1, pad=1)
    y.backward()
    assert y.shape == (1, 8, 15, 15) and x.grad.shape == (1, 5, 15, 15)
    unfolded = tg.im2col(np.zeros((2, 3, 7, 6)), (3, 2), (2, 1), (1, 0), to_matrix=False)
    assert unfolded.shape == (2, 3, 3, 2, 4, 5)


def test_conv2d_errors_name_what_was_received():
    x, W = np.zeros((1, 3, 4, 4)), np.zeros((2, 3, 5, 5))
    with pytest.raises(ValueError, match=r"커널 \(KH, KW\) = \(5, 5\).*\(4, 4\)"):
        tg.conv2d(x, W)
    with pytest.raises(ValueError, match=r"\(6, 6\)"):
        tg.pooling(x, 7, 1, 1)
    assert tg.conv2d(x, W, pad=1).shape == (1, 2, 2, 2)  # 패딩하면 커널이 들어갑니다.
    with pytest.raises(ValueError, match=r"4차원.*받은 모양: \(3, 4, 4\)\(3차원\)"):
        tg.conv2d(np.zeros((3, 4, 4)), W)
    with pytest.raises(ValueError, match=r"채널 수 3.*입력 채널 수 2"):
        tg.conv2d(x, np.zeros((2, 2, 3, 3)))
    with pytest.raises(ValueError, match=r"편향 b.*\(2,\).*받은 모양: \(3,\)"):
        tg.conv2d(x, np.zeros((2, 3, 3, 3)), np.zeros(3))
    with pytest.raises(ValueError, match=r"필터 W.*받은 모양: \(3, 3\)"):
        tg.conv2d(x, np.zeros((3, 3)))
    with pytest.raises(TypeError, match=r"stride.*float 1.5"):
        tg.conv2d(x, np.zeros((2, 3, 3, 3)), stride=1.5)
    with pytest.raises(ValueError, match=r"pad은\(는\) 0 이상.*-1"):
        tg.pooling(x, 2, pad=-1)
    with pytest.raises(ValueError, match=r"패딩 \(2, 2\).*커널 \(3, 3\)의 절반"):
        tg.pooling(x, 3, 1, 2)
    with pytest.raises(ValueError, match=r"col2im.*\(9, 75\).*받은 모양: \(9, 74\)"):
        tg.col2im(np.zeros((9, 74)), (1, 3, 7, 7), 5)


def test_conv2d_keeps_only_what_backward_needs():
    """x만 미분할 때는 W만, W만 미분할 때는 x만 붙잡습니다(gx = col2im(gy·W), gW = gyᵀ·im2col(x))."""
    x, W, b = _data(CONFIGS[1], np.float64)
    y = tg.conv2d(Variable(x), Variable(W, requires_grad=False), None, (2, 1), (1, 0))
    assert list(y.creator.kept) == [False, True]
    y = tg.conv2d(Variable(x, requires_grad=False), Variable(W), b, (2, 1), (1, 0))
    assert list(y.creator.kept) == [True, False, False]


def test_max_pooling_ties_and_nan_route_the_gradient_like_pytorch():
    """같은 최댓값(relu 뒤의 0)은 앞 칸이, NaN은 뒤의 NaN이 미분값을 받습니다(PyTorch의 CPU 커널과 같음)."""
    x = np.maximum(np.random.default_rng(7).standard_normal((2, 3, 6, 6)), 0.0)
    x[0, 0, :2, :2] = 0.0  # 창 전체가 0
    x[1, 2, 2, 3] = x[1, 2, 3, 2] = np.nan
    v = Variable(x.copy())
    y = tg.pooling(v, 2, 2)
    seed = np.arange(1.0, y.size + 1).reshape(y.shape)
    y.backward(gradient=seed)
    t = torch.tensor(x, requires_grad=True)
    ty = F.max_pool2d(t, 2, 2)
    ty.backward(torch.tensor(seed))
    np.testing.assert_array_equal(y.data, ty.detach().numpy())
    np.testing.assert_array_equal(v.grad, t.grad.numpy())


def test_max_pooling_backward_with_an_infinite_gradient_leaves_other_cells_zero():
    x = np.arange(16.0).reshape(1, 1, 4, 4)
    v = Variable(x)
    tg.pooling(v, 2, 2).backward(gradient=np.full((1, 1, 2, 2), np.inf))
    t = torch.tensor(x, requires_grad=True)
    F.max_pool2d(t, 2, 2).backward(torch.full((1, 1, 2, 2), np.inf, dtype=torch.float64))
    np.testing.assert_array_equal(v.grad, t.grad.numpy())


def test_conv2d_of_an_empty_batch_is_empty_like_pytorch():
    """N = 0이면 출력도 빈 배치이고, 미분값은 모양이 맞는 0입니다(예전에는 NumPy의 reshape 오류)."""
    rng = np.random.default_rng(0)
    x, W, b = (
        Variable(a) for a in (np.zeros((0, 3, 5, 5)), rng.standard_normal((4, 3, 3, 3)), np.ones(4))
    )
    y = tg.conv2d(x, W, b, stride=2, pad=1)
    tx, tW, tb = (torch.tensor(v.data, requires_grad=True) for v in (x, W, b))
    ty = torch.nn.functional.conv2d(tx, tW, tb, stride=2, padding=1)
    assert y.shape == tuple(ty.shape)
    (y * y).sum().backward()
    (ty * ty).sum().backward()
    for ours, theirs in ((x, tx), (W, tW), (b, tb)):
        np.testing.assert_array_equal(ours.grad.data, theirs.grad.numpy())


def test_max_pooling_of_minus_infinity_sends_the_gradient_to_the_input_like_pytorch():
    """입력도 -∞인 창에서 미분값은 패딩이 아니라 창 안의 첫 입력 칸으로 갑니다(예전에는 패딩에 버려짐)."""
    x = np.full((1, 1, 4, 4), -np.inf)
    x[0, 0, 3, 3] = 1.0
    v = Variable(x.copy())
    tg.pooling(v, 3, 2, 1).sum().backward()
    t = torch.tensor(x, requires_grad=True)
    torch.nn.functional.max_pool2d(t, 3, 2, 1).sum().backward()
    np.testing.assert_array_equal(v.grad.data, t.grad.numpy())


def test_average_pooling_refuses_a_pad_over_half_the_kernel_like_pytorch():
    x = np.zeros((1, 1, 4, 4))
    with pytest.raises(RuntimeError):
        torch.nn.functional.avg_pool2d(torch.tensor(x), 2, 1, 2)
    with pytest.raises(ValueError, match=r"average_pooling의 패딩 \(2, 2\).*커널 \(2, 2\)의 절반"):
        tg.average_pooling(x, 2, 1, 2)
    assert tg.average_pooling(x, 2, 1, 1).shape == (1, 1, 5, 5)  # 절반까지는 됩니다


@pytest.mark.parametrize("input_shape", [None, (1, 2, 5, 5.5), (1, 2, True, 5), "1255"])
def test_col2im_refuses_an_input_shape_that_is_not_integers(input_shape):
    """예전에는 5.5를 5로 잘라 조용히 계산하거나, None에서 영어 TypeError가 났습니다."""
    col = tg.im2col(np.zeros((1, 2, 5, 5)), 3, 2, 1)
    with pytest.raises(TypeError, match=r"col2im의 input_shape.*정수 네 개"):
        tg.col2im(col, input_shape, 3, 2, 1)
    assert tg.col2im(col, [1, 2, 5, np.int64(5)], 3, 2, 1).shape == (1, 2, 5, 5)
