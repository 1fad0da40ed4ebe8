"""미분할 배열의 dtype: 정수·bool·복소수는 미분이 필요한 변수로 받지 않고(고치는 법을 알려 줌), 상수로는 받습니다.

float32 말단 변수의 미분값은 float64 상수와 계산해도 float32입니다(PyTorch와 같음).
"""

from __future__ import annotations

import numpy as np
import pytest
from korean_messages import korean_instruction

import tinygrad_ko as tg
from tinygrad_ko import Variable


@pytest.mark.parametrize(
    ("data", "op"),
    [
        (np.array(3, dtype=np.uint8), lambda x: -x),  # 고치기 전: 미분값 255
        (np.array(100, dtype=np.int8), tg.square),  # 고치기 전: 값 16, 미분값 -56
        (np.array(True), lambda x: x + x),  # 고치기 전: 미분값 True
        (np.array([1, 2], dtype=np.int64), lambda x: x * 2.0),
    ],
)
def test_integer_and_bool_variables_are_refused_with_how_to_convert(data, op):
    with pytest.raises(TypeError) as info:
        op(Variable(data)).backward()
    message = korean_instruction(info.value)
    assert f"dtype: {data.dtype}" in message
    assert "astype(np.float32)" in message and "astype(np.float64)" in message
    assert "requires_grad=False" in message


def test_uint8_image_converted_as_the_message_says_gives_the_right_gradient():
    image = np.array([[0, 128, 255]], dtype=np.uint8)
    x = Variable(image.astype(np.float32) / 255)
    y = -x
    y.backward()
    assert x.grad.dtype == np.float32
    np.testing.assert_array_equal(x.grad, -np.ones((1, 3), dtype=np.float32))


def test_integer_constants_still_work_without_gradient():
    mask = Variable(np.array([1, 0, 1]), requires_grad=False)
    w = Variable(np.array([0.5, 0.5, 0.5]))
    y = w * mask
    y.backward()
    np.testing.assert_array_equal(w.grad, [1.0, 0.0, 1.0])
    assert mask.grad is None and not (-mask).requires_grad


def test_complex_variable_is_refused():
    with pytest.raises(TypeError) as info:
        tg.square(Variable(np.array(1 + 2j))).backward()  # 고치기 전: 미분값 2+4j(켤레 없이)
    assert "data.real, data.imag" in korean_instruction(info.value)


def test_backward_from_a_complex_output_is_refused_like_pytorch():
    x = Variable(np.array(2.0))
    y = x * np.array(1j)  # 상수가 복소수라 출력이 복소수
    with pytest.raises(TypeError, match="복소수 출력") as info:
        y.backward()
    korean_instruction(info.value)
    assert x.grad is None


def test_integer_to_a_negative_power_is_refused_with_a_float_hint():
    n = Variable(np.array(2), requires_grad=False)
    with pytest.raises(ValueError, match="음수 거듭제곱") as info:
        n**-1  # 고치기 전: "입력의 모양"(모양 문제처럼 보고), 그 뒤 영어 NumPy 메시지
    assert "astype(np.float64)" in korean_instruction(info.value)
    assert (n**-1.0).data == 0.5


def test_float32_leaf_grad_keeps_the_leaf_dtype_like_pytorch():
    x = Variable(np.array([1.0, 2.0], dtype=np.float32))
    y = x * np.array([2.0, 3.0])  # float64 상수: 출력은 NumPy 규칙대로 float64
    assert y.dtype == np.float64
    y.backward()
    assert x.grad.dtype == np.float32  # 고치기 전: float64
    np.testing.assert_array_equal(x.grad, [2.0, 3.0])
    y2 = tg.exp(x) * np.float64(1.5)
    y2.backward()  # 누적해도 float32
    assert x.grad.dtype == np.float32
    (gx,) = tg.grad(x * np.array([2.0, 3.0]), x)
    assert gx.dtype == np.float32
