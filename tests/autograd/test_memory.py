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
    variables = [weakref.ref(a), weakref.ref(b)]
    functions = [weakref.ref(f) for f in (a.creator, b.creator, y.creator)]
    del a, b
    # Exp와 Add의 역전파에는 a와 b가 필요 없으므로, 사용자가 놓는 순간 풀립니다(PyTorch처럼).
    assert all(r() is None for r in variables)
    assert all(r() is not None for r in functions)  # y가 살아 있는 동안 그래프는 남습니다.
    y.backward(retain_graph=True)
    np.testing.assert_allclose(x.grad, (np.exp(1.0) + 1.0) * 2.0)
    del y
    assert all(r() is None for r in functions)


def test_an_input_that_backward_needs_stays_alive(gc_disabled):
    x = Variable(np.ones(10))
    a = tg.exp(x)
    y = tg.square(a)  # Square의 역전파는 입력 a를 씁니다.
    ref = weakref.ref(a)
    del a
    assert ref() is not None
    y.backward()
    assert ref() is None  # 역전파를 마치면(retain_graph=False) 놓아 줍니다.
    np.testing.assert_allclose(x.grad, 2 * np.exp(2.0))


def test_graph_after_backward_is_freed_too(gc_disabled):
    x = Variable(np.ones(3))
    y = tg.square(tg.square(x))
    ref = weakref.ref(y.creator)
    y.backward()
    del y
    assert ref() is None
