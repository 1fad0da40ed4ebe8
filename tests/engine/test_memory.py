"""약한 참조 덕분에, 출력이 사라지면 순환 참조 수거기(GC) 없이도 그래프 전체가 풀립니다."""

import weakref

import numpy as np

import tinygrad_ko as tg
from tinygrad_ko import Variable


def test_deleting_the_output_frees_the_whole_graph(gc_disabled):
    x = Variable(np.ones(10))
    a = tg.square(x)
    b = tg.exp(a)
    y = tg.add(b, a)
    refs = [weakref.ref(o) for o in (a, b, a.creator, b.creator, y.creator)]
    del a, b
    assert all(r() is not None for r in refs)  # y가 살아 있는 동안은 그래프가 남습니다.
    del y
    assert all(r() is None for r in refs)
    assert x.grad is None


def test_graph_after_backward_is_freed_too(gc_disabled):
    x = Variable(np.ones(3))
    y = tg.square(tg.square(x))
    ref = weakref.ref(y.creator)
    y.backward()
    del y
    assert ref() is None
