"""tinygrad_ko.tools.trace: 역전파를 함수 하나씩 멈춰 기록하고 그림으로 그리는 기능의 테스트."""

from __future__ import annotations

import numpy as np
import pytest

import tinygrad_ko as tg
from tinygrad_ko.steps import step07, step08, step14, step16
from tinygrad_ko.tools.trace import backward_frames, traced_backward


def chain(module):
    """x → Square → a → Exp → b → Square → y 에 이름을 붙여 만듭니다."""
    x = module.Variable(np.array(0.5))
    a = module.Square()(x)
    b = module.Exp()(a)
    y = module.Square()(b)
    for var, name in ((x, "x"), (a, "a"), (b, "b"), (y, "y")):
        var.name = name
    y.grad = np.array(1.0)
    return x, a, b, y


def diamond(module):
    x = module.Variable(np.array(2.0))
    a = module.square(x)
    b = module.square(a)
    c = module.square(a)
    y = module.add(b, c)
    for var, name in ((x, "x"), (a, "a"), (b, "b"), (c, "c"), (y, "y")):
        var.name = name
    return x, a, b, c, y


def record(output, **kwargs):
    steps = []
    traced_backward(output, lambda step: steps.append(step), **kwargs)
    return steps


def test_recursion_shows_a_growing_call_stack():
    x, a, b, y = chain(step07)
    steps = record(y)
    assert [s.kind for s in steps] == ["stack"] * 3
    assert [s.func for s in steps] == [y.creator, b.creator, a.creator]
    assert [s.pending for s in steps] == [[y], [b, y], [a, b, y]]  # 가장 최근 호출이 앞
    assert x.grad == pytest.approx(2 * np.exp(0.5))


def test_loop_shows_the_funcs_list_after_pop():
    x, a, b, y = chain(step08)
    steps = record(y)
    assert [s.kind for s in steps] == ["funcs"] * 3
    assert [s.pending for s in steps] == [[], [], []]  # 사슬에서는 꺼내고 나면 비어 있습니다
    assert x.grad == pytest.approx(2 * np.exp(0.5))


def test_stack_order_on_a_diamond_processes_the_shared_function_twice():
    x, a, b, c, y = diamond(step14)
    steps = record(y)
    assert [s.func for s in steps] == [y.creator, c.creator, a.creator, b.creator, a.creator]
    assert steps[2].pending == [b.creator]  # a의 창조자를 꺼낼 때 b의 창조자가 아직 기다립니다
    assert x.grad == 96.0  # 14단계의 틀린 답


def test_sorted_list_waits_for_the_whole_gradient():
    x, a, b, c, y = diamond(step16)
    steps = record(y)
    assert [s.func for s in steps] == [y.creator, c.creator, b.creator, a.creator]
    assert steps[2].pending == [
        a.creator
    ]  # a의 창조자는 세대가 커서 먼저 나온 b의 창조자를 기다립니다
    assert x.grad == 64.0


def test_final_engine_heap_lists_functions_in_pop_order():
    x, a, b, c, y = diamond(tg)
    steps = record(y, retain_graph=True)
    assert {s.kind for s in steps} == {"heap"}
    assert [s.func for s in steps] == [y.creator, b.creator, c.creator, a.creator]
    assert steps[1].pending == [c.creator]
    assert steps[2].pending == [a.creator]
    assert x.grad == 64.0


def test_instrumentation_is_removed_even_when_backward_fails():
    x, a, b, y = chain(step08)

    def boom(step):
        raise RuntimeError("기록하다 멈춤")

    with pytest.raises(RuntimeError, match="기록하다 멈춤"):
        traced_backward(y, boom)
    for func in (a.creator, b.creator, y.creator):
        assert "backward" not in vars(func)
    y.backward()  # 원래의 backward로 다시 돕니다
    assert x.grad == pytest.approx(2 * np.exp(0.5))


def test_frames_mark_the_function_taken_and_the_grads_so_far():
    x, a, b, y = chain(step08)
    frames = backward_frames(y)
    assert len(frames) == 4  # 함수 셋 + 끝
    assert [f.splitlines()[1] for f in frames] == [
        "title: 1. Square → y 처리",
        "title: 2. Exp → b 처리",
        "title: 3. Square → a 처리",
        "title: 4. 끝",
    ]
    assert "class n5 now" in frames[0] and "grad = None" in frames[0]
    assert 'n4(["b = 1.284<br>grad = 2.568"])' in frames[1]
    assert "class n1 now" in frames[2] and "class n3,n5 done" in frames[2]
    assert "now" not in frames[3].split("classDef done")[0].split("classDef")[-1]
    assert "class n1,n3,n5 done" in frames[3]
    assert 'pending_items["(비어 있음)"]' in frames[3]


def test_frames_of_the_recursion_stack_the_calls():
    x, a, b, y = chain(step07)
    frames = backward_frames(y)
    third = frames[2]
    assert 'subgraph pending["호출 스택: 위가 가장 최근"]' in third
    assert 'pending_items["a.backward()<br>b.backward()<br>y.backward()"]' in third


def test_frames_show_the_generation_of_waiting_functions():
    x, a, b, c, y = diamond(step16)
    frames = backward_frames(y)
    assert 'pending_items["Square → b · 1세대"]' in frames[1]
    assert 'pending_items["Square → a · 0세대"]' in frames[2]


def test_final_engine_is_traced_through_its_observation_point_not_its_frames(monkeypatch):
    """최종 엔진의 기록은 observe_backward로만: 프레임을 읽거나 함수의 backward를 바꿔 끼우지 않습니다."""
    x, a, b, c, y = diamond(tg)

    def no_frames(*args):
        raise AssertionError("최종 엔진의 프레임을 읽었습니다")

    monkeypatch.setattr("sys._getframe", no_frames)
    swapped = []

    def on_call(step):
        swapped.extend(
            f for f in (y.creator, b.creator, c.creator, a.creator) if "backward" in vars(f)
        )

    traced_backward(y, on_call, retain_graph=True)
    assert swapped == [] and x.grad == 64.0
