"""옵티마이저가 제자리에서 고친 매개변수를 붙잡은 그래프로 다시 역전파하면 멈춥니다(이슈 22의 6, PyTorch와 같음).

PyTorch는 같은 경우에 "modified by an inplace operation"으로 멈춥니다. 고치기 전에는 옛 가중치와 새 가중치가
섞인 값([1.98, 5.28])을 조용히 돌려주었습니다.
"""

import numpy as np
import pytest

import tinygrad_ko as tg
from tinygrad_ko.optimizers import SGD, Adam, MomentumSGD


def _retained_loss():
    W = tg.Parameter(np.array([1.0, 2.0]))
    L = tg.sum(W * W * W)  # dL/dW = 3W² = [3, 12]
    L.backward(retain_graph=True)
    return W, L


@pytest.mark.parametrize("make", [SGD, MomentumSGD, Adam])
def test_backward_through_a_graph_whose_weights_the_optimizer_changed_is_refused(make):
    W, L = _retained_loss()
    np.testing.assert_array_equal(W.grad, [3.0, 12.0])
    make([W], lr=0.01).step()
    W.cleargrad()
    with pytest.raises(RuntimeError, match="제자리에서 고쳐졌습니다") as info:
        L.backward()
    assert "순전파를 다시" in str(info.value)
    assert W.grad is None  # 전부 아니면 전무: 아무 미분값도 바뀌지 않았습니다


def test_a_fresh_forward_after_the_step_backpropagates_as_usual():
    W, L = _retained_loss()
    SGD([W], lr=0.1).step()
    W.cleargrad()
    tg.sum(W * W * W).backward()  # 새 순전파는 새 값을 붙잡습니다
    np.testing.assert_allclose(W.grad, 3 * W.data**2)
