"""`Function.inputs`를 읽는 것(책의 `f.inputs`, `tools.viz`의 그림)은 그 뒤의 계산을 바꾸지 않습니다."""

from __future__ import annotations

import numpy as np
import pytest

from tinygrad_ko import Variable


def _gradient(dtype, look: bool, create_graph: bool):
    rng = np.random.default_rng(0)
    x = Variable(rng.standard_normal(1000).astype(dtype))
    a = 2.5 * x  # 파이썬 수 상수를 붙잡는 함수들의 사슬(Mul의 앞과 뒤, Div)
    b = a * 0.1
    y = b / 3.0
    if look:
        for v in (a, b, y):
            assert len(v.creator.inputs) == 2
    y.backward(gradient=rng.standard_normal(1000).astype(dtype), create_graph=create_graph)
    return x.grad.data if create_graph else x.grad


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
@pytest.mark.parametrize("create_graph", [False, True])
def test_reading_inputs_does_not_change_the_gradient(dtype, create_graph):
    unseen = _gradient(dtype, look=False, create_graph=create_graph)
    seen = _gradient(dtype, look=True, create_graph=create_graph)
    assert unseen.dtype == seen.dtype == dtype
    assert unseen.tobytes() == seen.tobytes()


def test_reading_inputs_leaves_the_constants_of_the_graph_as_they_were():
    x = Variable(np.ones(3, np.float32))
    y = x * 0.1
    edges = list(y.creator.edges)
    shown = y.creator.inputs
    assert [type(v).__name__ for v in shown] == ["Variable", "Variable"]
    assert shown[1].data == np.float64(0.1) and not shown[1].requires_grad
    assert y.creator.edges == edges and type(y.creator.edges[1]) is float


def test_a_diagram_shows_one_node_per_constant_and_leaves_the_gradient_alone():
    from tinygrad_ko.tools.viz import to_mermaid

    x = Variable(np.arange(4, dtype=np.float32))
    y = x * 0.1
    before = to_mermaid(y)
    assert to_mermaid(y) == before  # 두 번 그려도 같은 그림
    assert before.count('"0.1"') == 1
    y.backward(gradient=np.full(4, 1.7, np.float32), create_graph=True)
    assert x.grad.data.dtype == np.float32
