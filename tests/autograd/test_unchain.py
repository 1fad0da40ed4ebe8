"""그래프 끊기: Variable.unchain, unchain_backward(DeZero), detach(PyTorch)."""

import gc
import weakref

import numpy as np
import pytest
from oracle import import_torch

import tinygrad_ko as tg
from tinygrad_ko import Variable

torch = import_torch(__name__)


def _chain(x, length=5):
    """x → (tanh → ×2) × length. 중간 함수들의 약한 참조와 끝 변수를 돌려줍니다."""
    refs, y = [], x
    for _ in range(length):
        y = tg.tanh(y) * 2.0
        refs.append(weakref.ref(y.creator))
    return y, refs


@pytest.fixture
def no_gc():
    """순환 참조 수거기를 끄고 잽니다: 참조 수만으로 풀려야 합니다."""
    gc.disable()
    yield
    gc.enable()


def test_unchain_makes_a_leaf():
    x = Variable(np.array(2.0))
    y = x * 3.0
    z = y * y
    y.unchain()
    assert y.creator is None
    z.backward()
    assert y.grad == pytest.approx(12.0) and x.grad is None  # 미분값은 y에서 멈춥니다


def test_unchain_backward_frees_the_upstream_graph_without_gc(no_gc):
    x = Variable(np.ones(10_000))
    y, refs = _chain(x)
    loss = y.sum()
    held = weakref.ref(y)
    del y
    assert all(r() is not None for r in refs)
    loss.unchain_backward()
    assert [r() for r in refs] == [None] * len(refs)  # 앞의 함수들과 붙잡은 배열이 모두 풀림
    assert held() is None and loss.creator is not None  # loss 자신은 그대로
    loss.backward()  # 남은 마디(sum)만 거슬러 올라가고, 사라진 입력의 미분은 구하지 않습니다.
    assert x.grad is None


def test_unchain_backward_keeps_live_intermediates_as_leaves():
    x = Variable(np.array([0.5, -1.0]))
    h = tg.tanh(x * 2.0)
    loss = (h * h).sum()
    loss.unchain_backward()
    assert h.creator is None
    loss.backward()  # DeZero처럼 loss의 창조자 한 마디만: 그 입력(h * h)은 이미 말단입니다.
    assert h.grad is None and x.grad is None
    (h * 3.0).sum().backward()  # h는 미분값을 받는 말단 변수로 남습니다(새 그래프의 시작)
    np.testing.assert_allclose(h.grad, [3.0, 3.0])
    assert x.grad is None


def test_unchain_backward_after_a_released_backward_cannot_reach_the_state():
    """backward()가 그래프를 놓아 주면(retain_graph=False) 입력 쪽을 따라갈 수 없습니다: 책의 순서
    (backward → unchain_backward)는 unchain_backward가 바로 알립니다(예전에는 아무것도 끊지 못한 채 지나가
    다음 구간의 역전파에서야 실패했습니다). 남겨 두었다가(retain_graph=True) 끊으면 됩니다."""
    W = Variable(np.array(0.5))
    h = tg.tanh(W * 1.0)
    loss = h * h
    loss.backward()
    with pytest.raises(RuntimeError, match="unchain_backward가 거슬러 갈 수 없습니다") as info:
        loss.unchain_backward()
    assert "retain_graph=True" in str(info.value) and "detach" in str(info.value)
    assert h.creator is not None  # 아무것도 바꾸지 않았습니다

    h = tg.tanh(W * 1.0)
    loss = h * h
    loss.backward(retain_graph=True)
    loss.unchain_backward()
    assert h.creator is None
    W.cleargrad()
    (tg.tanh(W * h) ** 2).backward()
    t = torch.tensor(0.5, requires_grad=True)
    th = torch.tanh(t * 1.0).detach()
    (torch.tanh(t * th) ** 2).backward()
    assert W.grad == pytest.approx(t.grad.item())


def test_unchain_backward_on_a_diamond_and_multi_output_graph():
    x = Variable(np.arange(6.0).reshape(2, 3))
    a = x * 2.0
    b = tg.exp(a) + tg.sin(a)  # a를 두 함수가 씁니다
    c = b.sum(axis=0) * b.sum(axis=0)
    refs = [weakref.ref(v.creator) for v in (a, b)]
    c.unchain_backward()
    assert a.creator is None and b.creator is None
    assert [r() for r in refs] == [None, None]
    (b * b).sum().backward()
    np.testing.assert_allclose(b.grad, 2 * b.data)
    assert a.grad is None and x.grad is None


def test_detach_shares_data_and_needs_no_grad():
    x = Variable(np.array([1.0, 2.0]))
    y = x * 3.0
    d = y.detach()
    assert d.data is y.data and d.creator is None and not d.requires_grad
    t = torch.tensor([1.0, 2.0], requires_grad=True)
    td = (t * 3.0).detach()
    assert td.requires_grad is d.requires_grad
    z = (d * x).sum()
    z.backward()
    np.testing.assert_allclose(x.grad, y.data)  # d는 상수: 미분값은 x로만
    assert y.creator is not None  # 원래 변수는 그대로


def test_detach_lets_the_graph_behind_go(no_gc):
    x = Variable(np.ones(1000))
    y, refs = _chain(x)
    d = y.detach()
    del y
    assert [r() for r in refs] == [None] * len(refs)
    assert d.data.shape == (1000,)


def test_a_cut_variable_is_a_leaf_also_in_graphs_built_before_the_cut():
    """두 손실이 같은 h를 쓸 때 h.unchain() 뒤의 역전파는 h에서 멈춥니다: 끊기 전에 만든 l2의 그래프도
    h를 말단으로 봅니다(DeZero: h.grad = [5, 5], x.grad = None). 예전에는 l2가 h의 옛 창조자를 거쳐
    x까지 미분값을 보냈습니다(x.grad = [10, 20])."""
    x = Variable(np.array([1.0, 2.0]))
    h = x * x  # h는 붙잡히지 않은 중간 변수: 아래의 곱셈들은 (창조자, 출력 번호)만 기억합니다
    l1, l2 = tg.sum(h * 2.0), tg.sum(h * 5.0)
    l1.backward(retain_graph=True)
    np.testing.assert_array_equal(x.grad, [4.0, 8.0])
    x.cleargrad()
    h.unchain()
    l2.backward()
    np.testing.assert_array_equal(h.grad, [5.0, 5.0])
    assert x.grad is None
