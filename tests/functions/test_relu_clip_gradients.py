"""ReLU와 clip의 역전파는 원소를 고릅니다(곱하지 않습니다): 꺼진 원소에 inf가 내려와도 NaN이 새지 않습니다.

`gy * mask`는 gy가 inf인 꺼진 원소에서 inf · 0 = NaN을 냅니다. PyTorch는 `where`로 고르므로 0입니다.
1계, create_graph(2계), 기울기 벌점(gradient penalty)의 NaN 분포까지 PyTorch(CPU)와 비교합니다.
"""

import numpy as np
import pytest
from oracle import import_torch

import tinygrad_ko as tg
from tinygrad_ko import Variable

torch = import_torch(__name__)

DTYPES = [np.float16, np.float32, np.float64]
NAN = float("nan")


def torch_leaf(data):
    return torch.tensor(np.asarray(data), requires_grad=True)


def same(ours, theirs, rtol=1e-12):
    """NaN의 자리가 같고, 나머지 값이 가깝습니다."""
    theirs = theirs.detach().numpy() if hasattr(theirs, "detach") else theirs
    np.testing.assert_array_equal(np.isnan(ours), np.isnan(theirs))
    np.testing.assert_allclose(ours, theirs, rtol=rtol, equal_nan=True)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.filterwarnings("ignore:invalid value")
def test_square_root_of_relu_has_zero_gradient_where_switched_off(dtype):
    data = np.array([-1.0, 0.0, 2.0, 9.0, -3.0], dtype)
    x = Variable(data.copy())
    (tg.relu(x) ** 0.5).sum().backward()
    t = torch_leaf(data)
    (torch.relu(t) ** 0.5).sum().backward()
    assert x.grad.dtype == dtype
    same(x.grad, t.grad, rtol=1e-3)  # 고치기 전: x = -1, 0에서 NaN
    assert x.grad[0] == 0 and x.grad[1] == 0


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.filterwarnings("ignore:invalid value")
def test_square_root_of_clip_has_zero_gradient_where_clipped(dtype):
    data = np.array([-1.0, 0.0, 1.0, 3.0, NAN], dtype)
    x = Variable(data.copy())
    (tg.clip(x, 0.0, 2.0) ** 0.5).sum().backward()
    t = torch_leaf(data)
    (torch.clamp(t, 0.0, 2.0) ** 0.5).sum().backward()
    same(x.grad, t.grad, rtol=1e-3)  # 고치기 전: x = -1에서 NaN
    assert x.grad[0] == 0 and x.grad[3] == 0


@pytest.mark.parametrize("bounds", [(None, 0.0), (0.0, None)])
def test_one_sided_clip_selects_like_torch(bounds):
    data = np.array([-2.0, 0.0, 2.0, NAN])
    x = Variable(data.copy())
    tg.clip(x, *bounds).backward(gradient=np.array([np.inf, np.inf, np.inf, 1.0]))
    t = torch_leaf(data)
    torch.clamp(t, *bounds).backward(
        torch.tensor([np.inf, np.inf, np.inf, 1.0], dtype=torch.float64)
    )
    same(x.grad, t.grad)


def test_relu_of_nan_passes_the_gradient_like_torch():
    data = np.array([NAN, -1.0, 0.0, 1.0])
    x = Variable(data.copy())
    y = tg.relu(x)
    y.sum().backward()
    t = torch_leaf(data)
    yt = torch.relu(t)
    yt.sum().backward()
    same(y.data, yt)
    np.testing.assert_array_equal(
        x.grad, t.grad.numpy()
    )  # [1, 0, 0, 1]: 고치기 전에는 NaN 자리가 0


@pytest.mark.filterwarnings("ignore:invalid value", "ignore:divide by zero")
def test_second_order_through_relu_selects_too():
    data = np.array([-1.0, 0.0, 0.5, 4.0])
    x = Variable(data.copy())
    (g,) = tg.grad((tg.relu(x) ** 0.5).sum(), x, create_graph=True)
    (g * g).sum().backward()
    t = torch_leaf(data)
    (gt,) = torch.autograd.grad((torch.relu(t) ** 0.5).sum(), t, create_graph=True)
    (gt * gt).sum().backward()
    same(g.data, gt)
    same(x.grad, t.grad)


def test_large_array_in_place_path_matches_torch():
    rng = np.random.default_rng(0)
    data = rng.standard_normal(50_000)
    x = Variable(data.copy())
    (tg.relu(x * 3.0) ** 0.5).sum().backward()  # gy를 relu만 가지므로 제자리에서 고르는 길
    t = torch_leaf(data)
    (torch.relu(t * 3.0) ** 0.5).sum().backward()
    same(x.grad, t.grad)
    assert not np.isnan(x.grad).any()


def mlp_params(seed=0):
    rng = np.random.default_rng(seed)
    shapes = [(3, 5), (5,), (5, 4), (4,), (4, 1), (1,)]
    params = [rng.standard_normal(s) for s in shapes]
    params[0] = np.abs(params[0])  # 입력이 모두 음수인 샘플은 첫 층에서 모두 꺼집니다.
    params[1] = np.abs(params[1]) * 0.1
    return params


def gradient_penalty(lib, x, params, relu, grad):
    W1, b1, W2, b2, W3, b3 = params
    h = relu(x @ W1 + b1)
    h = relu(h @ W2 + b2)
    out = (h @ W3 + b3).sum()
    (g,) = grad(out, x)
    norm = ((g * g).sum(axis=1)) ** 0.5  # 기울기가 0인 샘플에서 sqrt의 미분값이 inf
    return ((norm - 1.0) ** 2).mean()


@pytest.mark.filterwarnings("ignore:invalid value", "ignore:divide by zero")
def test_gradient_penalty_through_relu_mlp_has_torchs_nan_pattern():
    xs = np.array([[-5.0, -4.0, -6.0], [1.0, 0.5, -0.2], [0.3, 2.0, 1.0], [2.0, -1.0, 0.5]])
    params = mlp_params()
    ours = [Variable(p.copy()) for p in params]
    x = Variable(xs.copy())

    def tg_grad(y, x):
        return tg.grad(y, x, create_graph=True)

    gradient_penalty(tg, x, ours, tg.relu, tg_grad).backward()
    theirs = [torch_leaf(p) for p in params]
    tx = torch_leaf(xs)

    def torch_grad(y, x):
        return torch.autograd.grad(y, x, create_graph=True)

    gradient_penalty(torch, tx, theirs, torch.relu, torch_grad).backward()
    # b3은 x에 대한 기울기에 들지 않아 양쪽 모두 미분값이 없습니다. b1, b2는 ReLU의 마스크로만 기울기에
    # 들어가는데, 이 엔진은 마스크를 상수로 보아 None이고 PyTorch는 0을 채웁니다(값은 같습니다).
    assert ours[5].grad is None and theirs[5].grad is None
    for i in (1, 3):
        assert ours[i].grad is None and not theirs[i].grad.any()
    nan_tensors = [bool(torch.isnan(theirs[i].grad).any()) for i in (0, 2, 4)]
    assert nan_tensors == [True, False, False]  # 고치기 전에는 W2, W3도 모두 NaN
    for i in (0, 2, 4):
        same(ours[i].grad, theirs[i].grad)
