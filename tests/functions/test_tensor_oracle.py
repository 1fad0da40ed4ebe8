"""텐서 함수의 미분값을 PyTorch(CPU, float64)와 비교합니다: 무작위 모양, 축, 인덱스(hypothesis).

- 1계: 출력에 무작위 가중치 G를 곱해 더한 손실 sum(f(x) * G)의 미분값. G가 무작위라서 미분값이
  모든 원소에서 같은 "1로 채운 시작값"보다 틀린 역전파를 잘 잡습니다.
- 2계: tanh를 씌운 손실의 기울기 g를 만들고(create_graph), 무작위 방향 V와의 곱 sum(g * V)를
  다시 미분합니다(헤세 행렬과 벡터의 곱). 모든 함수의 역전파가 그래프로 기록되는지 봅니다.

`TINYGRAD_KO_ORACLE=1 python3 dev.py test`로 실행하면 torch가 설치되고 이 테스트가 돕니다.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from oracle import import_torch

import tinygrad_ko as tg
from tinygrad_ko import Variable

from .tensor_cases import CASES, TG, seeds, torch_ops

torch = import_torch(__name__)

T = torch_ops(torch)
pytestmark = pytest.mark.slow  # 함수마다 수십 개의 무작위 사례를 돌립니다.


def close(got, expected, what: str) -> None:
    np.testing.assert_allclose(got, expected, rtol=1e-9, atol=1e-11, err_msg=what)


def weights(seed: int, shape: tuple[int, ...]) -> np.ndarray:
    return np.random.default_rng(seed).standard_normal(shape)


@pytest.mark.parametrize("name", list(CASES))
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_first_derivatives_match_pytorch(name, data):
    label, datas, calc = data.draw(CASES[name])
    seed = data.draw(seeds)
    xs = [Variable(d.copy()) for d in datas]
    y = calc(TG, *xs)
    G = weights(seed, y.shape)
    tg.sum(y * G).backward()

    ts = [torch.tensor(d, requires_grad=True) for d in datas]
    yt = calc(T, *ts)
    assert tuple(yt.shape) == y.shape, label
    close(y.data, yt.detach().numpy(), f"{label}: 순전파")
    expected = torch.autograd.grad((yt * torch.from_numpy(G)).sum(), ts)
    for i, (x, e) in enumerate(zip(xs, expected, strict=True)):
        assert x.grad.shape == x.shape and x.grad.dtype == np.float64, label
        close(x.grad, e.numpy(), f"{label}: {i}번 입력의 미분값")


@pytest.mark.parametrize("name", list(CASES))
@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_hessian_vector_products_match_pytorch(name, data):
    label, datas, calc = data.draw(CASES[name])
    seed = data.draw(seeds)
    xs = [Variable(d.copy()) for d in datas]
    y = calc(TG, *xs)
    G = weights(seed, y.shape)
    V = [weights(seed + 1 + i, d.shape) for i, d in enumerate(datas)]

    gs = tg.grad(tg.sum(tg.tanh(y) * G), xs, create_graph=True)
    assert all(isinstance(g, Variable) for g in gs), label
    m = tg.sum(gs[0] * V[0])
    for g, v in zip(gs[1:], V[1:], strict=True):
        m = m + tg.sum(g * v)
    hv = tg.grad(m, xs, allow_unused=True)

    ts = [torch.tensor(d, requires_grad=True) for d in datas]
    yt = calc(T, *ts)
    gts = torch.autograd.grad((torch.tanh(yt) * torch.from_numpy(G)).sum(), ts, create_graph=True)
    mt = sum((g * torch.from_numpy(v)).sum() for g, v in zip(gts, V, strict=True))
    hvt = torch.autograd.grad(mt, ts, allow_unused=True)
    for i, (d, got, e) in enumerate(zip(datas, hv, hvt, strict=True)):
        got = np.zeros_like(d) if got is None else got
        e = np.zeros_like(d) if e is None else e.numpy()
        close(got, e, f"{label}: {i}번 입력의 헤세 행렬-벡터 곱")


def mlp(lib, x, W1, b1, W2, b2):
    """step 43의 두 층 신경망: linear -> sigmoid -> linear."""
    return lib.linear(lib.sigmoid(lib.linear(x, W1, b1)), W2, b2)


@settings(max_examples=20, deadline=None)
@given(hidden=st.integers(1, 12), n=st.integers(1, 30), seed=seeds)
def test_mlp_loss_gradient_and_hessian_vector_product_match_pytorch(hidden, n, seed):
    rng = np.random.default_rng(seed)
    x = rng.uniform(0, 1, (n, 1))
    t = np.sin(2 * np.pi * x) + rng.uniform(0, 1, (n, 1))
    params = [rng.standard_normal(s) * 0.5 for s in [(1, hidden), (hidden,), (hidden, 1), (1,)]]
    V = [rng.standard_normal(p.shape) for p in params]

    ps = [Variable(p.copy()) for p in params]
    loss = tg.mean_squared_error(mlp(TG, x, *ps), t)
    gs = tg.grad(loss, ps, create_graph=True)
    m = tg.sum(gs[0] * V[0])
    for g, v in zip(gs[1:], V[1:], strict=True):
        m = m + tg.sum(g * v)
    hv = tg.grad(m, ps)

    pts = [torch.tensor(p, requires_grad=True) for p in params]
    loss_t = torch.nn.functional.mse_loss(mlp(T, torch.from_numpy(x), *pts), torch.from_numpy(t))
    gts = torch.autograd.grad(loss_t, pts, create_graph=True)
    mt = sum((g * torch.from_numpy(v)).sum() for g, v in zip(gts, V, strict=True))
    hvt = torch.autograd.grad(mt, pts)

    close(loss.data, loss_t.item(), "손실")
    for name, a, b in zip(["W1", "b1", "W2", "b2"], gs, gts, strict=True):
        close(a.data, b.detach().numpy(), f"{name}의 기울기")
    for name, a, b in zip(["W1", "b1", "W2", "b2"], hv, hvt, strict=True):
        close(a, b.numpy(), f"{name}의 헤세 행렬-벡터 곱")
