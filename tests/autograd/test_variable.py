"""Variable의 편의 기능과 잘못된 입력에 대한 한국어 오류."""

import numpy as np
import pytest
from korean_messages import korean_instruction

import tinygrad_ko as tg
from tinygrad_ko import Variable


def test_array_like_properties():
    x = Variable(np.arange(6.0).reshape(2, 3), name="x")
    assert (x.shape, x.ndim, x.size, x.dtype, len(x), x.name) == ((2, 3), 2, 6, np.float64, 2, "x")


def test_repr_indents_rows():
    x = Variable(np.array([[1, 2], [3, 4]]), requires_grad=False)
    assert repr(x) == "variable([[1 2]\n          [3 4]])"
    assert repr(Variable(None)) == "variable(None)"
    assert repr(Variable(np.array(2.0))) == "variable(2.0)"


def test_repr_of_a_variable_whose_constructor_failed():
    """생성자가 예외를 내면 디버거와 traceback의 지역 변수 표시가 반쯤 만든 self를 repr합니다."""
    try:
        Variable("abc")
    except TypeError as error:
        half_built = error.__traceback__.tb_next.tb_frame.f_locals["self"]
    assert repr(half_built) == "variable(<값을 넣기 전>)"
    assert repr(object.__new__(tg.Parameter)) == "parameter(<값을 넣기 전>)"


@pytest.mark.parametrize(
    ("value", "type_name"),
    [
        (1.0, "float"),
        ([1.0, 2.0], "list"),
        ("abc", "str"),
        ((1, 2), "tuple"),
        (np.float64(1), "float64"),
    ],
)
def test_wrong_type_is_refused_with_korean_message(value, type_name):
    with pytest.raises(TypeError) as info:
        Variable(value)
    message = str(info.value)
    assert f"받은 값: {type_name}" in message
    assert "np.array(...)" in message


@pytest.mark.parametrize("data", [np.array(["a"]), np.array([object()]), np.array([b"x"])])
def test_non_numeric_dtype_is_refused(data):
    with pytest.raises(TypeError, match="수치형"):
        Variable(data)


def test_as_variable_refuses_lists_and_none():
    with pytest.raises(TypeError, match="받은 값: list"):
        tg.as_variable([1, 2])
    with pytest.raises(TypeError, match="받은 값: NoneType"):
        Variable(np.array(1.0)) + None
    with pytest.raises(TypeError, match="받은 값: str"):
        Variable(np.array(1.0)) * "2"


def test_as_array_turns_scalars_into_arrays():
    assert isinstance(tg.as_array(np.float64(2.0)), np.ndarray)
    assert isinstance(tg.as_array(3), np.ndarray)
    arr = np.array([1.0])
    assert tg.as_array(arr) is arr


def test_int_and_bool_arrays_are_constants_only():
    # 정수와 bool 배열은 미분이 필요한 변수로 받지 않고(PyTorch와 같음),
    # 미분하지 않는 상수로는 받습니다. 실수 변수와 섞으면 실수 변수의 미분은 그대로 맞습니다.
    with pytest.raises(TypeError, match="astype"):
        Variable(np.array([1, 2, 3]))
    n = Variable(np.array([0, 1]), requires_grad=False)
    w = Variable(np.array([2.0, 3.0]))
    y = tg.exp(w * n)
    assert not n.requires_grad and y.requires_grad
    y.backward()
    np.testing.assert_allclose(w.grad, [0.0, np.exp(3.0)])
    assert n.grad is None
    # bool 배열은 마스크 같은 상수로 흔히 씁니다.
    w.cleargrad()
    (w * np.array([True, False])).backward()
    np.testing.assert_array_equal(w.grad, [1.0, 0.0])


def test_bool_and_len_of_a_variable_are_explained():
    assert bool(Variable(np.array(2.0))) is True  # 고치기 전: TypeError len() of unsized object
    assert bool(Variable(np.array([0.0]))) is False
    with pytest.raises(ValueError, match="원소가 2개") as info:
        bool(Variable(np.array([0.0, 0.0])))  # 고치기 전: True(길이가 2라서)
    korean_instruction(info.value)
    with pytest.raises(TypeError, match="x.size") as info:
        len(Variable(np.array(1.0)))
    korean_instruction(info.value)


def test_variable_with_none_data_in_an_operation_is_explained():
    with pytest.raises(TypeError, match="data가 None") as info:
        Variable(None, name="w") + 1  # 고치기 전: unsupported operand type(s) ... 'NoneType'
    assert "'w'" in korean_instruction(info.value)
    with pytest.raises(TypeError, match="data가 None"):
        tg.square(Variable(None))
