"""순전파 뒤에 역전파가 쓸 입력의 data가 바뀌면, 틀린 미분값 대신 그 입력을 알려 주며 멈춥니다(PyTorch의 버전 검사)."""

from __future__ import annotations

import numpy as np
import pytest
from korean_messages import korean_instruction

import tinygrad_ko as tg
from tinygrad_ko import Function, Variable


def test_reassigned_data_of_a_kept_input_is_detected_and_named():
    x = Variable(np.array(2.0), name="x")
    y = tg.square(x)
    original = x.data
    x.data = np.array(5.0)  # 고치기 전: 미분값 10(5에서의 미분), 오류 없음
    with pytest.raises(RuntimeError, match="'x'") as info:
        y.backward()
    korean_instruction(info.value)
    assert x.grad is None
    x.data = original  # 순전파 때의 배열로 되돌리면 같은 그래프로 역전파할 수 있습니다
    y.backward()
    assert x.grad == 4.0


def test_a_replaced_array_that_was_freed_is_still_detected():
    # 기억하는 것은 약한 참조입니다. 옛 배열이 사라져 주소가 새 배열에 다시 쓰여도 잡습니다.
    x = Variable(np.array([2.0, 3.0]))
    y = x * x
    for value in (5.0, 2.0, 2.0):
        x.data = np.array([value, 3.0])
    with pytest.raises(RuntimeError, match="다른 배열로 바뀌었습니다"):
        y.backward()


def test_constants_shown_by_inputs_do_not_confuse_the_check():
    x = Variable(np.array(2.0))
    y = x * np.array(3.0)
    assert [v.requires_grad for v in y.creator.inputs] == [True, False]  # 상수를 감싸 보여 줍니다
    y.backward()
    assert x.grad == 3.0


def test_changed_input_is_detected_in_book_style_user_functions_and_create_graph():
    class Cube(Function):
        def forward(self, x):
            return x**3

        def backward(self, gy):
            x = self.inputs[0].data
            return 3 * x**2 * gy

    x = Variable(np.array(2.0))
    y = Cube()(x)
    x.data = np.array(1.0)
    with pytest.raises(RuntimeError, match="Cube의 0번 입력"):
        y.backward()
    z = Variable(np.array(2.0), name="z")
    w = tg.sin(z)
    z.data = np.array(0.0)
    with pytest.raises(RuntimeError, match=r"Sin의 0번 입력\(.z.\)"):
        w.backward(create_graph=True)


def test_inputs_that_backward_does_not_need_may_change():
    x = Variable(np.array(2.0))
    y = x * 3.0 + tg.exp(x)  # Mul(상수)와 Exp는 x의 값을 쓰지 않습니다
    x.data = np.array(100.0)
    y.backward()
    assert x.grad == pytest.approx(3.0 + np.exp(2.0))
