"""무작위 그래프의 2계·3계 미분을 PyTorch(`torch.autograd.grad(..., create_graph=True)`)와 비교합니다.

1계 미분과 같은 무작위 그래프(random_graphs.py, 최종 엔진의 모든 라이브러리 함수)를 두 엔진으로
만들고, 미분을 세 번 거듭합니다. 출력이 배열이므로 미분할 때마다 무작위 방향(grad_outputs)을
줍니다. 그러면 2계는 헤세 행렬과 벡터의 곱(Hv), 3계는 그것을 한 번 더 미분한 값입니다.
`tg.grad`와 `x.grad.backward()` 두 길을 모두 비교합니다.

PyTorch가 있어야 돌며, `TINYGRAD_KO_ORACLE=1 python3 dev.py test`가 설치합니다(test_torch_oracle.py와 같음).
"""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from oracle import import_torch

import tinygrad_ko as tg
from tinygrad_ko import Variable

from .random_graphs import build, operations, programs

torch = import_torch(__name__)

TG_OPS = operations(tg)
TORCH_OPS = operations(torch)
SHAPE = (2, 2)
ORDERS = 3

arrays = st.lists(st.floats(-2, 2), min_size=4, max_size=4).map(
    lambda v: np.array(v).reshape(SHAPE)
)
three = st.lists(arrays, min_size=3, max_size=3)


def _zeros_if_none(g):
    return np.zeros(SHAPE) if g is None else g


def tinygrad_orders(program, datas, directions):
    """1~3계 미분(방향 미분)을 tg.grad로 구합니다. 미분이 없는 입력(쓰이지 않음)은 None."""
    xs = [Variable(d.copy()) for d in datas]
    outputs, seeds = [build(program, xs, TG_OPS)], None
    found = []
    for order in range(ORDERS):
        grads = tg.grad(outputs, xs, grad_outputs=seeds, create_graph=True, allow_unused=True)
        found.append([None if g is None else g.data.copy() for g in grads])
        outputs = [g for g in grads if g is not None]
        if not outputs or order + 1 == ORDERS:
            break
        seeds = [directions[order][i] for i, g in enumerate(grads) if g is not None]
    return found


def tinygrad_orders_by_backward(program, datas, directions):
    """같은 것을 책처럼 backward(create_graph=True)와 cleargrad로 구합니다(입력마다 한 방향)."""
    xs = [Variable(d.copy()) for d in datas]
    y = build(program, xs, TG_OPS)
    y.backward(create_graph=True)
    found = [[None if x.grad is None else x.grad.data.copy() for x in xs]]
    for order in range(1, ORDERS):
        # Σᵢ ⟨gᵢ, vᵢ⟩를 만들어 한 번 더 미분합니다. 미분이 없는 입력은 0으로 칩니다.
        total = None
        for x, v in zip(xs, directions[order - 1], strict=True):
            if x.grad is not None:
                term = x.grad * v
                total = term if total is None else total + term
        for x in xs:
            x.cleargrad()
        if total is None or total.creator is None:
            break
        total.backward(create_graph=True)
        found.append([None if x.grad is None else x.grad.data.copy() for x in xs])
    return found


def torch_orders(program, datas, directions):
    ts = [torch.tensor(d, dtype=torch.float64, requires_grad=True) for d in datas]
    out = build(program, ts, TORCH_OPS)
    outputs, seeds = [out], [torch.ones_like(out)]
    found = []
    for order in range(ORDERS):
        pairs = [(o, s) for o, s in zip(outputs, seeds, strict=True) if o.requires_grad]
        if not pairs:
            found.append([None] * len(ts))
            continue
        grads = torch.autograd.grad(
            [o for o, _ in pairs],
            ts,
            grad_outputs=[s for _, s in pairs],
            create_graph=True,
            allow_unused=True,
        )
        found.append([None if g is None else g.detach().numpy().copy() for g in grads])
        if order + 1 == ORDERS:
            break
        outputs = [g for g in grads if g is not None]
        seeds = [torch.tensor(directions[order][i]) for i, g in enumerate(grads) if g is not None]
    return found


def assert_same(got, expected):
    for order, (mine, theirs) in enumerate(zip(got, expected, strict=False), start=1):
        for i, (a, b) in enumerate(zip(mine, theirs, strict=True)):
            np.testing.assert_allclose(
                _zeros_if_none(a),
                _zeros_if_none(b),
                rtol=1e-9,
                atol=1e-10,
                err_msg=f"{order}계 미분, 입력 {i}",
            )
    # tinygrad_ko가 일찍 멈췄다면(미분이 모두 상수) 남은 계의 PyTorch 값은 모두 0이어야 합니다.
    for theirs in expected[len(got) :]:
        for b in theirs:
            np.testing.assert_array_equal(_zeros_if_none(b), np.zeros(SHAPE))


@settings(max_examples=100, deadline=None)
@given(program=programs, datas=three, directions=st.lists(three, min_size=2, max_size=2))
def test_second_and_third_derivatives_match_pytorch(program, datas, directions):
    # 1계의 시작값은 1(출력과 같은 모양), 2계와 3계는 무작위 방향입니다.
    expected = torch_orders(program, datas, directions)
    assert_same(tinygrad_orders(program, datas, directions), expected)


@settings(max_examples=50, deadline=None)
@given(program=programs, datas=three, directions=st.lists(three, min_size=2, max_size=2))
def test_backward_with_create_graph_matches_pytorch_too(program, datas, directions):
    expected = torch_orders(program, datas, directions)
    assert_same(tinygrad_orders_by_backward(program, datas, directions), expected)


def test_broadcasting_second_derivatives_match_pytorch():
    a, b = np.arange(6.0).reshape(2, 3) / 5, np.array([0.5, -1.0, 2.0])
    x0, x1 = Variable(a), Variable(b)
    y = tg.sin(x0 * x1) / (x1 * x1 + 1.0) - x0 * tg.exp(x1)
    g0, g1 = tg.grad(y, [x0, x1], create_graph=True)
    h0, h1 = tg.grad([g0, g1], [x0, x1], grad_outputs=[np.ones((2, 3)), np.ones(3)])

    t0 = torch.tensor(a, requires_grad=True)
    t1 = torch.tensor(b, requires_grad=True)
    ty = torch.sin(t0 * t1) / (t1 * t1 + 1.0) - t0 * torch.exp(t1)
    u0, u1 = torch.autograd.grad(ty, [t0, t1], torch.ones_like(ty), create_graph=True)
    w0, w1 = torch.autograd.grad([u0, u1], [t0, t1], [torch.ones(2, 3), torch.ones(3)])
    np.testing.assert_allclose(g0.data, u0.detach().numpy(), rtol=1e-12)
    np.testing.assert_allclose(g1.data, u1.detach().numpy(), rtol=1e-12)
    np.testing.assert_allclose(h0, w0.numpy(), rtol=1e-12)
    np.testing.assert_allclose(h1, w1.numpy(), rtol=1e-12)
