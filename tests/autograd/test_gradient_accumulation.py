"""되풀이한 역전파: 미분값은 PyTorch처럼 쌓이고, 역전파는 늘 새 시작값(1 또는 gradient=)에서 시작합니다.

중간 변수에 남겨 둔 미분값(retain_grad)이나 미리 넣어 둔 y.grad는 시작값으로 쓰지 않습니다.
"""

from __future__ import annotations

import numpy as np
import pytest
from korean_messages import korean_instruction

from tinygrad_ko import Variable


def three_x_squared():
    x = Variable(np.array(2.0))
    t = x * x
    y = t * 3.0
    return x, t, y


def test_second_backward_after_retain_grad_is_not_compounded():
    x, t, y = three_x_squared()
    y.backward(retain_grad=True, retain_graph=True)
    y.backward()
    assert x.grad == 24.0  # PyTorch: 12 + 12. 고치기 전: 36(남은 t.grad가 다시 시작값이 됨)


def test_backward_from_an_intermediate_starts_from_one_not_its_retained_grad():
    x, t, y = three_x_squared()
    y.backward(retain_grad=True, retain_graph=True)
    assert t.grad == 3.0
    x.cleargrad()
    t.backward()
    assert x.grad == 4.0  # PyTorch: dt/dx = 2x = 4. 고치기 전: 12(t.grad = 3을 시작값으로 씀)


def test_retained_grads_accumulate_like_leaf_grads_like_pytorch():
    x, t, y = three_x_squared()
    y.backward(retain_grad=True, retain_graph=True)
    y.backward(retain_grad=True)
    assert (t.grad, y.grad, x.grad) == (6.0, 2.0, 24.0)  # PyTorch의 retain_grad와 같습니다


def test_preset_grad_is_not_the_seed_the_gradient_argument_is():
    x = Variable(np.array([1.0, 2.0]))
    y = x * 3.0
    y.grad = np.array([10.0, 10.0])  # 책 7단계의 방식: 최종 엔진은 PyTorch처럼 쓰지 않습니다.
    y.backward(retain_graph=True)
    np.testing.assert_array_equal(x.grad, [3.0, 3.0])
    x.cleargrad()
    y.backward(gradient=np.array([1.0, 2.0]))
    np.testing.assert_array_equal(x.grad, [3.0, 6.0])


def test_bad_seed_gradient_and_positional_array_are_explained():
    x = Variable(np.ones(2))
    y = x * 2.0
    with pytest.raises(TypeError, match=r"backward\(gradient=\.\.\.\)") as info:
        y.backward(np.ones(2))  # PyTorch식으로 첫 인수에 시작값을 넣은 경우
    korean_instruction(info.value)
    with pytest.raises(TypeError, match="실수 배열") as info:
        y.backward(gradient=np.ones(2, dtype=np.int64))
    korean_instruction(info.value)
    assert x.grad is None


def test_leaf_backward_accumulates_like_pytorch():
    x = Variable(np.array(2.0))
    x.backward()
    x.backward()
    assert x.grad == 2.0
    with pytest.raises(RuntimeError, match="requires_grad=False") as info:
        Variable(np.array(1.0), requires_grad=False).backward()
    korean_instruction(info.value)
