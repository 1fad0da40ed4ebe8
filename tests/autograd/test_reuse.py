"""역전파가 미분값 배열을 다시 쓰는 것(덮어쓰기와 제자리 덧셈)이 결과를 바꾸지 않고 메모리를 줄이는지.

최종 엔진은 칸 하나만 가진 큰 미분값 배열(`backprop._owned`)을 라이브러리 함수의 backward가 덮어쓰게
하고, 그런 배열에 다음 미분값을 제자리에서 더합니다. 여기서는 (1) 다시 쓰지 않게 한 엔진과 결과가
비트까지 같은지, (2) 사용자나 다른 변수가 가진 배열은 절대 바뀌지 않는지, (3) 정말로 덜 할당하는지를
봅니다.
"""

from __future__ import annotations

import tracemalloc
from contextlib import contextmanager

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tinygrad_ko as tg
from tinygrad_ko.autograd import backprop

from .random_graphs import build, operations, programs

SHAPE = (40, 50)  # 2,000개: 다시 쓰는 최소 크기(_REUSE_MIN_SIZE)보다 큽니다.
OPS = operations(tg)


@contextmanager
def plain_engine():
    """다시 쓰지 않는 엔진: 어떤 배열도 다시 쓸 만큼 크지 않다고 여기게 합니다."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(backprop, "_REUSE_MIN_SIZE", 10**18)
        yield


def grads_of(program, arrays):
    xs = [tg.Variable(a.copy()) for a in arrays]
    build(program, xs, OPS).backward()
    return [x.grad for x in xs]


def test_owned_sees_only_arrays_held_by_one_slot():
    # assert 문 안에서 부르면 pytest가 중간값을 붙잡아 참조 수가 늘므로, 결과를 먼저 구합니다.
    slot = [np.ones(SHAPE)]
    alone = backprop._owned(slot[0])
    other = slot[0]  # 다른 이름이 가지면 덮어쓰면 안 됩니다.
    with_name = backprop._owned(slot[0])
    del other
    view = slot[0][:10]  # 뷰도 바탕 배열을 가집니다.
    with_view = backprop._owned(slot[0])
    del view
    alone_again = backprop._owned(slot[0])
    small = backprop._owned([np.ones(10)][0])  # 너무 작은 배열
    views = [np.ones(SHAPE)[:, :30]]
    a_view = backprop._owned(views[0])  # 뷰 자체도 쓰지 않습니다.
    assert (alone, with_name, with_view, alone_again, small, a_view) == (
        True,
        False,
        False,
        True,
        False,
        False,
    )


@settings(max_examples=60, deadline=None)
@given(program=programs, seed=st.integers(0, 2**32 - 1))
def test_random_graphs_give_the_same_bits_with_and_without_reuse(program, seed):
    rng = np.random.default_rng(seed)
    arrays = [rng.uniform(-1.0, 1.0, SHAPE) for _ in range(2)]
    reused = grads_of(program, arrays)
    with plain_engine():
        plain = grads_of(program, arrays)
    for got, want in zip(reused, plain, strict=True):
        if want is None:
            assert got is None
        else:
            np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize(
    "f",
    [tg.square, tg.exp, tg.neg, tg.sin, tg.cos, tg.tanh, tg.sigmoid, tg.relu],
    ids=lambda f: f.__name__,
)
def test_each_function_that_overwrites_gy_matches_the_plain_engine(f):
    data = np.random.default_rng(0).uniform(-2.0, 2.0, SHAPE)

    def grad():
        x = tg.Variable(data.copy())
        y = f(f(x) * 0.5)  # 두 번: 앞의 f는 뒤의 곱셈이 덮어쓴 배열을 받습니다.
        y.backward()
        return x.grad

    reused = grad()
    with plain_engine():
        np.testing.assert_array_equal(reused, grad())


def test_user_arrays_and_earlier_grads_are_never_written():
    data = np.random.default_rng(1).uniform(-1.0, 1.0, SHAPE)
    seed = np.full(SHAPE, 2.0)
    x = tg.Variable(data)
    y = tg.exp(tg.square(x) * 0.5)
    y.backward(gradient=seed, retain_graph=True)
    first = x.grad  # 사용자가 가진 배열
    kept = first.copy()
    y.backward(gradient=seed)
    np.testing.assert_array_equal(seed, 2.0)  # 시작 미분값은 그대로
    np.testing.assert_array_equal(first, kept)  # 앞선 역전파의 grad도 그대로
    np.testing.assert_allclose(x.grad, 2 * kept)
    assert x.grad is not first


def test_retained_intermediate_grads_keep_their_values():
    data = np.random.default_rng(2).uniform(-1.0, 1.0, SHAPE)
    x = tg.Variable(data)
    h = tg.exp(x)
    y = tg.square(h) * 3.0
    y.backward(retain_grad=True)
    np.testing.assert_allclose(h.grad, 6.0 * np.exp(data))
    np.testing.assert_allclose(x.grad, 6.0 * np.exp(data) * np.exp(data))


def test_gradient_passed_to_two_inputs_is_not_overwritten_by_either():
    # 덧셈은 같은 미분값 배열을 두 입력에 넘깁니다. 한쪽이 덮어쓰면 다른 쪽이 틀립니다.
    data = np.random.default_rng(3).uniform(-1.0, 1.0, SHAPE)
    x = tg.Variable(data)
    y = tg.exp(x) + tg.neg(tg.sin(x))
    y.backward()
    np.testing.assert_allclose(x.grad, np.exp(data) - np.cos(data))


def test_user_function_that_keeps_gy_sees_it_unchanged():
    class KeepGy(tg.Function):
        def forward(self, x):
            return x

        def backward(self, gy):
            self.seen = gy  # 사용자가 미분값을 붙잡아 둡니다.
            self.copy = gy.copy()
            return gy  # 그대로 넘기므로, 앞쪽 함수가 덮어쓰면 self.seen이 바뀝니다.

    data = np.random.default_rng(4).uniform(-1.0, 1.0, SHAPE)
    x = tg.Variable(data)
    keep = KeepGy()
    y = tg.exp(tg.square(keep(tg.exp(x))))
    y.backward()
    np.testing.assert_array_equal(keep.seen, keep.copy)
    e = np.exp(data)
    np.testing.assert_allclose(x.grad, np.exp(e**2) * 2 * e * e)


def test_graph_kept_for_a_second_backward_is_not_changed_by_the_first():
    data = np.random.default_rng(5).uniform(-1.0, 1.0, SHAPE)
    x = tg.Variable(data)
    y = tg.tanh(tg.exp(x) * tg.sin(x))
    y.backward(retain_graph=True)
    first = x.grad.copy()
    x.grad = None
    y.backward()
    np.testing.assert_array_equal(x.grad, first)


def test_grad_function_and_float32_leaves_are_unaffected():
    data = np.random.default_rng(6).uniform(-1.0, 1.0, SHAPE)

    def run():
        x = tg.Variable(data.copy())
        w = tg.Variable(data.astype(np.float32))
        (gx,) = tg.grad(tg.exp(x) * 2.0, [x])
        y = tg.exp(w) * np.float64(2.0)  # float64 상수: 결과의 dtype이 gy와 달라 덮어쓰지 못합니다.
        y.backward()
        return gx, w.grad

    reused = run()
    assert reused[1].dtype == np.float32
    with plain_engine():
        plain = run()
    for got, want in zip(reused, plain, strict=True):
        np.testing.assert_array_equal(got, want)


def test_backward_of_a_chain_holds_about_one_gradient_array():
    # 다시 쓰면 출력 쪽에서 들어온 배열 하나에 차례로 덮어쓰므로, 역전파 동안 새로 드는 메모리가
    # 배열 하나 정도입니다. 다시 쓰지 않으면 미분값과 새 결과, 배열 두 개가 함께 있습니다.
    data = np.random.default_rng(7).uniform(-1.0, 1.0, (500, 400))
    x = tg.Variable(data)
    y = x
    for _ in range(10):
        y = tg.exp(-tg.square(y))
    tracemalloc.start()
    y.backward()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert peak < 1.5 * data.nbytes, f"역전파 동안 최대 {peak / data.nbytes:.2f}개 배열"
