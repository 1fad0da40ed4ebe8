"""Function 인스턴스를 다시 부를 때: 스레드 둘이 함께 불러도, 다른 모양으로 다시 불러도 그래프마다 따로입니다.

두 그래프가 함께 쓰게 될 바뀌는 속성(리스트 등)이 있으면 새 인스턴스를 만들라고 알립니다.
"""

from __future__ import annotations

import threading

import numpy as np
import pytest
from korean_messages import korean_instruction

import tinygrad_ko as tg
from tinygrad_ko import Function, Variable


def test_one_instance_first_called_by_two_threads_gives_two_correct_graphs():
    both_inside = threading.Barrier(2, timeout=10)

    class Slow(Function):
        def forward(self, x):
            both_inside.wait()  # 두 스레드가 같은 인스턴스의 forward 안에 함께 있게 합니다
            return x * x

        def backward(self, gy):
            return 2 * self.inputs[0].data * gy

    f = Slow()
    xs = [Variable(np.array(3.0)), Variable(np.array(5.0))]
    ys = [None, None]

    def call(i):
        ys[i] = f(xs[i])

    threads = [threading.Thread(target=call, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert ys[0].creator is not ys[1].creator  # 고치기 전: 두 출력의 창조자가 같은 객체
    for y in ys:
        y.backward()
    assert (xs[0].grad, xs[1].grad) == (6.0, 10.0)


def test_reused_instance_does_not_inherit_the_first_graphs_broadcast_shapes():
    f = tg.Add()
    f(Variable(np.ones(3)), Variable(np.ones(1)))  # 브로드캐스트: 입력의 모양을 기억합니다
    a, b = Variable(np.ones(3)), Variable(np.ones(3))
    f(a, b).backward()
    np.testing.assert_array_equal(b.grad, np.ones(3))  # 고치기 전: [3.](첫 그래프의 모양으로 더함)


def test_reuse_with_a_mutable_attribute_is_refused_clearly():
    class Remember(Function):
        def __init__(self):
            self.saved = []

        def forward(self, x):
            self.saved.append(x)
            return x * 2.0

        def backward(self, gy):
            return gy * 2.0

    f = Remember()
    f(Variable(np.array(1.0)))
    with pytest.raises(TypeError, match="saved") as info:
        f(Variable(np.array(2.0)))  # 고치기 전: 두 그래프가 같은 리스트를 나눠 씀
    assert "Remember(...)(x)" in korean_instruction(info.value)
    # 그래프에 들지 않은 호출(no_grad)은 인스턴스를 차지하지 않습니다.
    g = Remember()
    with tg.no_grad():
        g(Variable(np.array(1.0)))
    g(Variable(np.array(2.0)))
    assert len(g.saved) == 2
