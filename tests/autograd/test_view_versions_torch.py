"""뷰와 detach의 버전: 같은 프로그램에서 이 엔진이 멈추는 곳과 PyTorch가 멈추는 곳이 같은지 봅니다.

프로그램은 모두 같습니다: W(2×2)에서 무엇을 만들고, x와 곱해 더한 손실로 역전파하고(그래프는 남김),
W를 SGD로 한 번 고친 뒤 같은 그래프로 다시 역전파합니다. 뷰와 detach는 멈추고(PyTorch의 "modified by an
inplace operation"), 복사본은 멈추지 않고 순전파 때의 값으로 미분합니다.
"""

from __future__ import annotations

import numpy as np
import pytest
from oracle import import_torch

import tinygrad_ko as tg
from tinygrad_ko import Parameter, Variable
from tinygrad_ko.optimizers import SGD

torch = import_torch(__name__)

# 이름 -> (이 엔진에서 만드는 법, PyTorch에서 만드는 법)
MAKERS = {
    "W.T": (lambda W: W.T, lambda W: W.T),
    "transpose": (lambda W: W.transpose(1, 0), lambda W: W.transpose(1, 0)),
    "reshape": (lambda W: W.reshape(4), lambda W: W.reshape(4)),
    "slice": (lambda W: W[0:1], lambda W: W[0:1]),
    "row": (lambda W: W[1], lambda W: W[1]),
    "broadcast_to": (lambda W: tg.broadcast_to(W, (3, 2, 2)), lambda W: W.expand(3, 2, 2)),
    "W.T[0]": (lambda W: W.T[0], lambda W: W.T[0]),
    "W.reshape(oc, -1).T": (lambda W: W.reshape(1, -1).T, lambda W: W.reshape(1, -1).T),
    "detach": (lambda W: W.detach(), lambda W: W.detach()),
    "W.T.detach()": (lambda W: W.T.detach(), lambda W: W.T.detach()),
    # 복사본
    "index array": (lambda W: W[np.array([1, 0])], lambda W: W[torch.tensor([1, 0])]),
    "reshape of W.T": (lambda W: W.T.reshape(4), lambda W: W.T.reshape(4)),
    "W * 1": (lambda W: W * 1.0, lambda W: W * 1.0),
}
START = [[1.0, 2.0], [3.0, 4.0]]


def _ours(make):
    W = Parameter(np.array(START))
    made = make(W)
    x = Variable(np.ones(made.shape))
    loss = tg.sum(x * made)
    loss.backward(retain_graph=True)
    W.grad = np.ones((2, 2))
    SGD([W], lr=1.0).step()
    x.cleargrad()
    try:
        loss.backward()
    except RuntimeError:
        return "stops"
    return x.grad.tolist()


def _torch(make):
    W = torch.tensor(START, dtype=torch.float64, requires_grad=True)
    made = make(W)
    x = torch.ones(made.shape, dtype=torch.float64, requires_grad=True)
    loss = (x * made).sum()
    loss.backward(retain_graph=True)
    W.grad = torch.ones(2, 2, dtype=torch.float64)
    torch.optim.SGD([W], lr=1.0).step()
    x.grad = None
    try:
        loss.backward()
    except RuntimeError as error:
        assert "modified by an inplace operation" in str(error)
        return "stops"
    return x.grad.tolist()


@pytest.mark.parametrize("ours, theirs", MAKERS.values(), ids=MAKERS.keys())
def test_stops_exactly_where_pytorch_stops(ours, theirs):
    assert _ours(ours) == _torch(theirs)


def test_the_table_has_both_outcomes():
    outcomes = [_torch(theirs) for _, theirs in MAKERS.values()]
    assert outcomes.count("stops") == 10 and len(outcomes) == 13
