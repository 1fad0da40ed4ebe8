"""역전파를 지켜보는 곳(`observe_backward`): 반복문이 backward를 부르기 직전마다 알리는 것의 테스트."""

from __future__ import annotations

import threading

import numpy as np
import pytest

import tinygrad_ko as tg
from tinygrad_ko import BackwardStep, Variable, observe_backward


def diamond():
    x = Variable(np.array(2.0))
    a = tg.square(x)
    b = tg.square(a)
    c = tg.square(a)
    return x, a, b, c, tg.add(b, c)


def test_each_step_names_the_function_the_heap_and_the_grads_it_receives():
    x, a, b, c, y = diamond()
    steps: list[BackwardStep] = []
    with observe_backward(steps.append):
        y.backward()
    assert [s.func for s in steps] == [y.creator, b.creator, c.creator, a.creator]
    assert [s.waiting for s in steps] == [[], [c.creator], [a.creator], []]
    assert [s.entry[:2] for s in steps] == [(-2, 0), (-1, 1), (-1, 2), (0, 3)]
    assert [float(s.output_grads[0]) for s in steps] == [1.0, 1.0, 1.0, 16.0]
    # b를 처리하기 직전: c의 칸에는 이미 1이, a의 칸은 아직 비어 있습니다.
    assert [(f, [float(g) for g in slots]) for f, slots in steps[1].arrived] == [(c.creator, [1.0])]
    assert [(f, [float(g) for g in slots]) for f, slots in steps[3].arrived] == []
    assert x.grad == 64.0


def test_nobody_listens_outside_the_block_and_blocks_nest_in_order():
    x, a, b, c, y = diamond()
    calls = []
    with observe_backward(lambda s: calls.append("outer")):
        with observe_backward(lambda s: calls.append("inner")):
            tg.square(Variable(np.array(1.0))).backward()
        tg.square(Variable(np.array(1.0))).backward()
    y.backward()
    assert calls == ["outer", "inner", "outer"]


def test_grad_and_create_graph_are_observed_too():
    x = Variable(np.array(3.0))
    y = tg.square(tg.sin(x))
    names = []
    with observe_backward(lambda s: names.append(type(s.func).__name__)):
        (gx,) = tg.grad(y, x, create_graph=True)
        gx.backward()
    assert names[:2] == ["Square", "Sin"]
    assert len(names) > 2 and isinstance(gx, Variable)


def test_a_listener_in_one_thread_does_not_see_another_threads_backward():
    registered, finished = threading.Event(), threading.Event()
    seen_by_worker = []

    def worker():
        with observe_backward(seen_by_worker.append):
            registered.set()
            finished.wait()  # 주 스레드가 역전파하는 동안 블록 안에서 기다립니다.

    thread = threading.Thread(target=worker)
    thread.start()
    registered.wait()
    x, a, b, c, y = diamond()
    y.backward()
    finished.set()
    thread.join()
    assert seen_by_worker == [] and x.grad == 64.0


def test_a_thread_started_inside_the_block_is_not_observed():
    seen = []
    with observe_backward(seen.append):
        thread = threading.Thread(target=lambda: diamond()[-1].backward())
        thread.start()
        thread.join()
    assert seen == []


def test_a_listener_that_raises_fails_the_backward_and_leaves_no_grads():
    x, a, b, c, y = diamond()
    x.grad = np.array(5.0)

    def stop_at_a(step):
        if step.func is a.creator:
            raise RuntimeError("여기서 멈춤")

    with observe_backward(stop_at_a), pytest.raises(RuntimeError, match="여기서 멈춤"):
        y.backward()
    assert x.grad == 5.0
    y.backward()  # 그래프를 놓아 주지 않았으므로 다시 됩니다.
    assert x.grad == 69.0


@pytest.mark.parametrize("bad", [None, 3, "print"])
def test_a_listener_must_be_callable(bad):
    with pytest.raises(TypeError, match="observe_backward에는 .*받은 값"):
        with observe_backward(bad):
            pass


def test_the_grads_a_listener_was_shown_are_not_changed_afterwards():
    """역전파는 칸의 배열을 제자리에서 고치지 않습니다: 본 값은 역전파가 끝난 뒤에도 그대로입니다."""
    rng = np.random.default_rng(0)
    x, c = Variable(rng.uniform(size=(50, 50))), Variable(rng.uniform(size=(50, 50)))
    y = tg.exp(x)
    z = y * (c * 3.0) + y * (c * 2.0) + (-y) + x * (c * 3.0) + (-x)
    shown = []
    with observe_backward(
        lambda s: shown.extend(
            (g, g.copy()) for _, slots in s.arrived for g in slots if g is not None
        )
    ):
        z.backward(gradient=np.ones((50, 50)))
    assert shown and all(np.array_equal(held, copied) for held, copied in shown)
