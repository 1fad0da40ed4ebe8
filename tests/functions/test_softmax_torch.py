"""소프트맥스와 교차 엔트로피의 값과 미분(1계, 2계)을 PyTorch와 비교합니다. MLP 한 스텝도 비교합니다.

PyTorch는 선택 의존성입니다(`TINYGRAD_KO_ORACLE=1 python3 dev.py test`가 설치합니다).
"""

import numpy as np
import pytest
from oracle import import_torch

import tinygrad_ko as tg
from tinygrad_ko import Variable
from tinygrad_ko.functions.activations import relu
from tinygrad_ko.functions.softmax import log_softmax, softmax, softmax_cross_entropy
from tinygrad_ko.nn.models import MLP
from tinygrad_ko.optimizers import Adam

torch = import_torch(__name__)
F = torch.nn.functional

SCALES = [1.0, 30.0, 1000.0]  # 1000이면 순진한 exp는 넘칩니다.


def logits(scale, shape=(6, 4), seed=0):
    return np.random.default_rng(seed).normal(size=shape) * scale


@pytest.mark.parametrize("scale", SCALES)
def test_cross_entropy_value_and_gradient_match_torch(scale):
    data = logits(scale)
    t = np.array([0, 1, 2, 3, 0, 2])
    x = Variable(data.copy())
    loss = softmax_cross_entropy(x, t)
    loss.backward()
    xt = torch.tensor(data, requires_grad=True)
    lt = F.cross_entropy(xt, torch.tensor(t))
    lt.backward()
    np.testing.assert_allclose(loss.data, lt.item(), rtol=1e-12)
    np.testing.assert_allclose(x.grad, xt.grad.numpy(), rtol=1e-10, atol=1e-15)


@pytest.mark.parametrize("scale", SCALES)
@pytest.mark.parametrize("axis", [0, 1])
def test_softmax_and_log_softmax_gradients_match_torch(scale, axis):
    data = logits(scale)
    weights = np.random.default_rng(1).normal(size=data.shape)
    for ours, theirs in ((softmax, F.softmax), (log_softmax, F.log_softmax)):
        x = Variable(data.copy())
        y = ours(x, axis=axis)
        tg.sum(y * weights).backward()
        xt = torch.tensor(data, requires_grad=True)
        yt = theirs(xt, dim=axis)
        (yt * torch.tensor(weights)).sum().backward()
        np.testing.assert_allclose(y.data, yt.detach().numpy(), rtol=1e-10, atol=1e-300)
        np.testing.assert_allclose(x.grad, xt.grad.numpy(), rtol=1e-9, atol=1e-14)


@pytest.mark.parametrize("which", ["softmax", "log_softmax", "cross_entropy"])
def test_second_order_gradients_match_torch(which):
    data = logits(2.0)
    t = np.array([3, 1, 0, 0, 2, 1])
    weights = np.random.default_rng(2).normal(size=data.shape)
    ours = {
        "softmax": lambda x: tg.sum(softmax(x, axis=1) * weights),
        "log_softmax": lambda x: tg.sum(log_softmax(x, axis=1) * weights),
        "cross_entropy": lambda x: softmax_cross_entropy(x, t),
    }[which]
    theirs = {
        "softmax": lambda x: (F.softmax(x, dim=1) * torch.tensor(weights)).sum(),
        "log_softmax": lambda x: (F.log_softmax(x, dim=1) * torch.tensor(weights)).sum(),
        "cross_entropy": lambda x: F.cross_entropy(x, torch.tensor(t)),
    }[which]
    x = Variable(data.copy())
    (gx,) = tg.grad(ours(x), [x], create_graph=True)
    (ggx,) = tg.grad(tg.sum(gx * gx), [x])
    xt = torch.tensor(data, requires_grad=True)
    (gxt,) = torch.autograd.grad(theirs(xt), [xt], create_graph=True)
    (ggxt,) = torch.autograd.grad((gxt * gxt).sum(), [xt])
    np.testing.assert_allclose(gx.data, gxt.detach().numpy(), rtol=1e-10, atol=1e-14)
    np.testing.assert_allclose(ggx, ggxt.numpy(), rtol=1e-8, atol=1e-12)


def test_mlp_training_steps_match_torch():
    """같은 가중치에서 시작한 2층 MLP를 Adam으로 5스텝: 손실과 가중치가 PyTorch와 같습니다."""
    rng = np.random.default_rng(0)
    x = rng.normal(size=(8, 5))
    t = rng.integers(0, 3, size=8)
    model = MLP((7, 3), relu, seed=0, dtype=np.float64)
    model(x)  # 입력 크기를 정합니다
    first, second = model.layers
    net = torch.nn.Sequential(
        torch.nn.Linear(5, 7), torch.nn.ReLU(), torch.nn.Linear(7, 3)
    ).double()
    with torch.no_grad():
        for ours, theirs in ((first, net[0]), (second, net[2])):
            theirs.weight.copy_(torch.tensor(ours.W.data.T))  # PyTorch는 (출력, 입력) 모양입니다.
            theirs.bias.copy_(torch.tensor(ours.b.data))
    optimizer = Adam(model.parameters(), lr=0.01)
    reference = torch.optim.Adam(net.parameters(), lr=0.01)
    for _ in range(5):
        loss = softmax_cross_entropy(model(x), t)
        model.cleargrads()
        loss.backward()
        optimizer.step()
        lt = F.cross_entropy(net(torch.tensor(x)), torch.tensor(t))
        reference.zero_grad()
        lt.backward()
        reference.step()
        np.testing.assert_allclose(loss.data, lt.item(), rtol=1e-10)
    np.testing.assert_allclose(first.W.data, net[0].weight.detach().numpy().T, rtol=1e-9)
    np.testing.assert_allclose(second.b.data, net[2].bias.detach().numpy(), rtol=1e-9, atol=1e-12)
