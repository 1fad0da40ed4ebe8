"""뷰(`W.T`, `reshape`, 인덱싱, `broadcast_to`)와 `detach()`는 원본과 버전을 함께 씁니다(PyTorch와 같음).

그래프가 W의 뷰를 붙잡은 뒤 옵티마이저가 W를 고치면, 뷰의 data도 함께 바뀝니다. 그대로 역전파하면 옛 W와
새 W가 섞인 미분값이 나오므로, 엔진은 W를 붙잡았을 때와 같은 오류로 멈춰야 합니다.
"""

from __future__ import annotations

import threading
import weakref

import numpy as np
import pytest
from korean_messages import korean_instruction

import tinygrad_ko as tg
from tinygrad_ko import Parameter, Variable
from tinygrad_ko.optimizers import SGD

# 뷰를 만드는 방법마다: W(2×2)에서 뷰를 만드는 함수
VIEWS = {
    "T": lambda W: W.T,
    "transpose": lambda W: W.transpose(1, 0),
    "reshape": lambda W: W.reshape(4),
    "slice": lambda W: W[0:1],
    "row": lambda W: W[1],
    "broadcast_to": lambda W: tg.broadcast_to(W, (3, 2, 2)),
    "view of a view": lambda W: W.T[0],
}


def _weight():
    return Parameter(np.array([[1.0, 2.0], [3.0, 4.0]]), name="W")


@pytest.mark.parametrize("make_view", VIEWS.values(), ids=VIEWS.keys())
def test_a_step_after_the_graph_kept_a_view_stops_backward(make_view):
    W = _weight()
    view = make_view(W)
    x = Variable(np.ones(view.shape), name="x")
    loss = tg.sum(x * view)  # Mul은 x의 미분에 view를 붙잡습니다
    loss.backward(retain_graph=True)
    first = x.grad.copy()
    SGD([W], lr=1.0).step()
    x.cleargrad()
    with pytest.raises(RuntimeError, match="제자리에서 고쳐졌습니다") as info:
        loss.backward()
    assert "원본을 고쳐도" in korean_instruction(info.value)
    assert x.grad is None  # 전부 아니면 전무: 아무 grad도 바뀌지 않았습니다
    np.testing.assert_array_equal(first, make_view(_weight()).data)  # 순전파 때의 값


def test_the_issue_example_with_w_transposed():
    W = _weight()
    x = Variable(np.array([[1.0, 1.0]]))
    loss = tg.sum(x @ W.T)
    loss.backward(retain_graph=True)
    np.testing.assert_array_equal(x.grad, [[4.0, 6.0]])
    SGD([W], lr=1.0).step()
    x.cleargrad()
    with pytest.raises(RuntimeError, match="MatMul의 1번 입력"):
        loss.backward()


def test_conv2d_simple_keeps_a_view_of_the_filter_and_stops_after_a_step():
    rng = np.random.default_rng(0)
    x = Variable(rng.standard_normal((1, 2, 4, 4)))
    W = Parameter(rng.standard_normal((3, 2, 3, 3)))
    loss = tg.sum(tg.conv2d_simple(x, W))
    loss.backward(retain_graph=True)
    SGD([W], lr=0.1).step()
    x.cleargrad()
    with pytest.raises(RuntimeError, match="제자리에서 고쳐졌습니다"):
        loss.backward()


@pytest.mark.parametrize("make_view", VIEWS.values(), ids=VIEWS.keys())
def test_a_view_reads_the_version_of_its_base(make_view):
    W = _weight()
    view = make_view(W)
    assert view.version == W.version == 0
    W.grad = np.ones_like(W.data)
    SGD([W], lr=1.0).step()
    assert view.version == W.version == 1


def test_copies_do_not_share_the_version():
    # 복사본은 W가 바뀌어도 순전파 때의 값 그대로이므로 멈출 까닭이 없습니다(PyTorch와 같음).
    W = _weight()
    copies = [W[np.array([0, 1])], W.T.reshape(4), W * 1.0]
    x = Variable(np.ones(2))
    loss = tg.sum(x * copies[0][0]) + tg.sum(copies[1]) + tg.sum(copies[2])
    loss.backward(retain_graph=True)
    W.grad = np.ones_like(W.data)
    SGD([W], lr=1.0).step()
    assert [c.version for c in copies] == [0, 0, 0]
    x.cleargrad()
    loss.backward()
    np.testing.assert_array_equal(x.grad, [1.0, 2.0])


def test_detach_shares_the_version_with_its_source():
    W = Parameter(np.array([1.0, 2.0]), name="W")
    x = Variable(np.array([1.0, 1.0]))
    loss = tg.sum(x * W.detach())
    loss.backward(retain_graph=True)
    np.testing.assert_array_equal(x.grad, [1.0, 2.0])
    # W는 detach 너머라 미분값을 받지 않았습니다: step이 건너뛰지 않게 넣어 둡니다.
    W.grad = np.ones(2)
    SGD([W], lr=10.0).step()
    assert W.detach().version == W.version == 1
    x.cleargrad()
    with pytest.raises(RuntimeError, match="제자리에서 고쳐졌습니다"):
        loss.backward()


def test_detach_does_not_keep_the_old_graph_alive(gc_disabled):
    # 잘린 역전파(truncated BPTT)가 detach로 앞 그래프를 놓아 주는 것은 그대로여야 합니다.
    x = Variable(np.ones(3))
    h = tg.tanh(x * 2.0)
    graph = weakref.ref(h.creator)
    h = h.detach()
    assert graph() is None
    assert not h.requires_grad and h.creator is None


def test_two_threads_that_make_the_first_counter_end_up_sharing_one(monkeypatch):
    # 상자는 처음 필요할 때 만듭니다. 한 스레드가 상자를 만드는 사이에 다른 스레드가 뷰를 만들면, 두 상자가
    # 생겨 뷰와 원본이 서로 다른 버전을 볼 수 있었습니다.
    from tinygrad_ko.autograd import variable as variable_module

    W = _weight()
    making, made_view = threading.Event(), threading.Event()
    real_init = variable_module.VersionCounter.__init__

    def slow_init(self):
        real_init(self)
        if threading.current_thread().name == "A":  # 상자를 만든 직후, W에 달기 전에 멈춥니다
            making.set()
            made_view.wait(timeout=1.0)  # 자물쇠가 있으면 뷰는 기다리므로 1초 뒤 계속합니다

    monkeypatch.setattr(variable_module.VersionCounter, "__init__", slow_init)
    views = []
    stepping = threading.Thread(target=variable_module.mark_modified, args=(W,), name="A")
    stepping.start()
    assert making.wait(timeout=60)
    viewing = threading.Thread(target=lambda: (views.append(W.T), made_view.set()))
    viewing.start()
    stepping.join(timeout=60)
    viewing.join(timeout=60)
    assert views[0].version == W.version == 1  # 고치기 전: 뷰는 0(다른 상자)
