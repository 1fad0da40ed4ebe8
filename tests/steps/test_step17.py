"""17단계: 약한 참조로 순환 참조 끊기. 16단계와 GC를 끈 상태로 비교합니다."""

import gc
import weakref

import numpy as np
import pytest

from tinygrad_ko.steps import step16, step17

from .test_step14 import diamond


def _graph_refs(module):
    """x → a = x² → y = a² 를 만들고, y와 그래프 안쪽 객체들의 약한 참조를 돌려줍니다."""
    x = module.Variable(np.array(2.0))
    a = module.square(x)
    y = module.square(a)
    refs = [weakref.ref(obj) for obj in (a, a.creator, y.creator)]
    return y, refs


def test_step17_outputs_are_weak_references():
    x = step17.Variable(np.array(2.0))
    f = step17.Square()
    y = f(x)
    assert isinstance(f.outputs[0], weakref.ref)
    assert f.outputs[0]() is y


@pytest.mark.usefixtures("gc_disabled")
def test_step17_graph_is_freed_as_soon_as_the_output_goes():
    y, refs = _graph_refs(step17)
    assert all(ref() is not None for ref in refs)
    del y
    assert all(ref() is None for ref in refs)  # GC 없이 참조 카운트만으로 풀려났습니다.


@pytest.mark.usefixtures("gc_disabled")
def test_step16_graph_leaks_until_the_collector_runs():
    y, refs = _graph_refs(step16)
    del y
    assert all(ref() is not None for ref in refs)  # 한계: 순환 참조라 남아 있습니다.
    gc.collect()
    assert all(ref() is None for ref in refs)


def test_step17_backward_still_correct_on_the_diamond():
    x = step17.Variable(np.array(2.0))
    diamond(step17, x).backward()
    assert x.grad == 64.0


def test_step17_intermediate_grads_are_still_kept():
    # 한계(18단계에서 고침): 중간 변수의 미분값도 남습니다.
    x = step17.Variable(np.array(2.0))
    a = step17.square(x)
    y = step17.square(a)
    y.backward()
    assert y.grad == 1.0 and a.grad == 2 * a.data
