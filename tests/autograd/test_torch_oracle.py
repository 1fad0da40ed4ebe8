"""같은 무작위 그래프를 PyTorch(CPU)로도 만들어, 두 엔진의 미분값이 같은지 확인합니다.

PyTorch는 무거운 선택 의존성입니다. `TINYGRAD_KO_ORACLE=1 python3 dev.py test`로 실행하면
가상 환경에 `torch==2.13.0`(CPU)이 설치되고 이 테스트가 돕니다. CI는 늘 그렇게 실행합니다.
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


@settings(max_examples=100, deadline=None)
@given(
    program=programs,
    values=st.lists(st.lists(st.floats(-3, 3), min_size=4, max_size=4), min_size=3, max_size=3),
)
def test_gradients_match_pytorch(program, values):
    datas = [np.array(v).reshape(2, 2) for v in values]
    xs = [Variable(d.copy()) for d in datas]
    build(program, xs, TG_OPS).backward()

    ts = [torch.tensor(d, dtype=torch.float64, requires_grad=True) for d in datas]
    build(program, ts, TORCH_OPS).sum().backward()

    for x, t in zip(xs, ts, strict=True):
        expected = np.zeros((2, 2)) if t.grad is None else t.grad.numpy()
        got = np.zeros((2, 2)) if x.grad is None else x.grad
        np.testing.assert_allclose(got, expected, rtol=1e-10, atol=1e-12)


def test_broadcasting_gradients_match_pytorch():
    a, b = np.arange(6.0).reshape(2, 3) / 5, np.array([0.5, -1.0, 2.0])
    x0, x1 = Variable(a), Variable(b)
    (tg.sin(x0 * x1) / (x1 * x1 + 1.0) - x0).backward()
    t0 = torch.tensor(a, requires_grad=True)
    t1 = torch.tensor(b, requires_grad=True)
    (torch.sin(t0 * t1) / (t1 * t1 + 1.0) - t0).sum().backward()
    np.testing.assert_allclose(x0.grad, t0.grad.numpy(), rtol=1e-12)
    np.testing.assert_allclose(x1.grad, t1.grad.numpy(), rtol=1e-12)
