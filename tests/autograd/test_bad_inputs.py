"""잘못되었거나 까다로운 입력: 바르게 계산되거나, 알맞은 예외와 한국어 메시지로 거부됩니다."""

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from korean_messages import korean_instruction

import tinygrad_ko as tg
from tinygrad_ko import Function, Variable
from tinygrad_ko.steps import step04

HANGUL = "받은"  # 거부 메시지는 늘 "받은 값"/"받은 배열"로 무엇을 받았는지 밝힙니다.

refused_values = st.one_of(
    st.none(),
    st.text(max_size=5),
    st.lists(st.floats(allow_nan=False), max_size=3),
    st.lists(st.lists(st.integers(), max_size=2), max_size=2),
    st.floats(),
    st.integers(),
    st.dictionaries(st.text(max_size=2), st.integers(), max_size=2),
    st.just(np.array(["a", "b"])),
    st.just(np.array([object(), 1], dtype=object)),
)


@settings(max_examples=80, deadline=None)
@given(value=refused_values)
def test_variable_refuses_non_arrays_with_korean_message(value):
    if value is None:
        assert Variable(value).data is None  # None은 "아직 값이 없는 상자"로 허용합니다.
        return
    with pytest.raises(TypeError) as info:
        Variable(value)
    assert HANGUL in str(info.value)


@settings(max_examples=60, deadline=None)
@given(value=st.one_of(st.none(), st.text(max_size=3), st.lists(st.integers(), max_size=3)))
def test_operators_refuse_non_numbers_with_korean_message(value):
    x = Variable(np.array([1.0, 2.0]))
    for op in (lambda: x + value, lambda: value * x, lambda: x - value, lambda: x / value):
        with pytest.raises(TypeError) as info:
            op()
        assert HANGUL in str(info.value)
    assert x.creator is None and x.grad is None


float_arrays = hnp.arrays(
    dtype=st.sampled_from([np.float64, np.float32]),
    shape=hnp.array_shapes(min_dims=0, max_dims=2, min_side=0, max_side=3),
    elements=st.floats(allow_nan=True, allow_infinity=True, width=32),
)


@settings(max_examples=80, deadline=None)
@given(data=float_arrays)
def test_nan_inf_and_empty_arrays_follow_ieee_rules(data):
    x = Variable(data.copy())
    with np.errstate(all="ignore"):
        y = x * x + tg.sin(x)
        y.backward()
        expected = 2 * data + np.cos(data)
    assert y.shape == data.shape
    assert x.grad.shape == data.shape
    np.testing.assert_array_equal(np.isnan(x.grad), np.isnan(expected))
    finite = np.isfinite(expected)
    np.testing.assert_allclose(x.grad[finite], expected[finite], rtol=1e-5)


int_arrays = hnp.arrays(
    dtype=st.sampled_from([np.int64, np.int32, np.uint8, np.int8, np.bool_, np.complex128]),
    shape=hnp.array_shapes(min_dims=0, max_dims=2, min_side=1, max_side=3),
)


@settings(max_examples=60, deadline=None)
@given(data=int_arrays)
def test_int_bool_and_complex_arrays_need_no_gradient_or_are_refused(data):
    # 미분이 필요한 변수로는 거부하고(무엇을 하라는지 알려 줌), 상수로는 받습니다.
    with pytest.raises(TypeError, match="astype|data.real") as info:
        Variable(data)
    assert str(info.value).endswith("세요.")
    x = Variable(data, requires_grad=False)
    with np.errstate(all="ignore"):  # 복소수 원소의 inf, nan
        y = x * 3.0 + 1.0
        expected = data * 3.0 + 1.0
    assert not y.requires_grad and y.creator is None
    np.testing.assert_array_equal(y.data, expected)


@settings(max_examples=40, deadline=None)
@given(
    a=hnp.array_shapes(min_dims=1, max_dims=2, min_side=2, max_side=4),
    b=hnp.array_shapes(min_dims=1, max_dims=2, min_side=2, max_side=4),
)
def test_mismatched_shapes_are_refused_or_broadcast(a, b):
    x0, x1 = Variable(np.ones(a)), Variable(np.ones(b))
    try:
        expected = np.broadcast_shapes(a, b)
    except ValueError:
        with pytest.raises(ValueError) as info:
            tg.add(x0, x1)
        assert "입력의 모양" in str(info.value) and str(a) in str(info.value)
        assert x0.creator is None and x0.grad is None
        return
    y = tg.mul(x0, x1)
    assert y.shape == expected
    y.backward()
    assert x0.grad.shape == a and x1.grad.shape == b


def test_flags_of_backward_and_grad_must_be_bool():
    x = Variable(np.array(2.0))
    y = x * 3.0
    for call in (
        lambda: y.backward(retain_grad="yes"),
        lambda: y.backward(create_graph=1),
        lambda: tg.grad(y, x, create_graph="True"),
        lambda: tg.grad(y, x, allow_unused=None),
    ):
        with pytest.raises(TypeError, match="True나 False") as info:
            call()
        korean_instruction(info.value)
    assert x.grad is None


def test_zeroth_power_at_zero_has_gradient_zero_like_pytorch():
    x = Variable(np.array([0.0, 2.0]))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # 고치기 전: 0으로 나누기 경고와 NaN
        (x**0).backward()
    np.testing.assert_array_equal(x.grad, [0.0, 0.0])


def test_gradient_check_counts_an_unused_input_as_zero_gradient():
    def f(a, b):
        return a * 2.0  # b는 쓰지 않습니다

    assert tg.gradient_check(f, np.array(1.0), np.array(2.0))  # 고치기 전: False
    assert not tg.gradient_check(lambda a: BadSquare()(a), np.array(1.5))


class BadSquare(Function):
    def forward(self, x):
        return x**2

    def backward(self, gy):
        return 3 * self.inputs[0].data * gy  # 일부러 틀린 미분


def test_book_style_set_creator_is_refused_with_what_to_do():
    f = tg.Square()
    y = Variable(np.array(4.0))
    with pytest.raises(RuntimeError, match=r"Square\(\)\(x\)") as info:
        y.set_creator(f)  # 고치기 전: backward에서 "그래프는 이미 해제되었습니다"
    assert "step07" in korean_instruction(info.value)
    y.creator = f  # 속성을 직접 바꾼 경우에도 역전파가 같은 설명을 합니다
    with pytest.raises(RuntimeError, match="호출되어 그래프에 든 함수가 아닙니다"):
        y.backward()


def test_backward_returning_a_list_is_explained():
    class ListBack(Function):
        def forward(self, a, b):
            return a + b

        def backward(self, gy):
            return [gy, gy]

    a, b = Variable(np.array(1.0)), Variable(np.array(2.0))
    with pytest.raises(TypeError, match="리스트") as info:
        ListBack()(a, b).backward()  # 고치기 전: "미분값 1개를 돌려주었지만"
    assert "return gx0, gx1" in korean_instruction(info.value)
    assert a.grad is None and b.grad is None


def test_step04_numerical_diff_with_the_final_engine_is_explained():
    with pytest.raises(TypeError, match="다른 모듈") as info:
        step04.numerical_diff(tg.square, Variable(np.array(2.0)))
    assert "tinygrad_ko.numerical_diff" in korean_instruction(info.value)
    assert tg.numerical_diff(tg.square, Variable(np.array(2.0))) == pytest.approx(4.0)


def _made_with_requires_grad_false():
    return Variable(np.array(1.0), requires_grad=False)


def _detached():
    return Variable(np.array(1.0)).detach()


def _computed_under_no_grad():
    x = Variable(np.array(1.0))
    with tg.no_grad():
        return x * 2.0


def _computed_from_values_needing_no_grad():
    return Variable(np.array(1.0), requires_grad=False) * 2.0


@pytest.mark.parametrize(
    ("make_root", "cause"),
    [
        (_made_with_requires_grad_false, "requires_grad=False로 만든"),
        (_detached, "detach()"),
        (_computed_under_no_grad, "no_grad 안에서 계산"),
        (_computed_from_values_needing_no_grad, "미분이 필요 없는 값만으로 계산"),
    ],
    ids=["leaf", "detach", "no_grad", "constants"],
)
def test_backward_from_a_root_needing_no_grad_names_its_real_cause(make_root, cause):
    # 고치기 전: 사용자가 requires_grad=False로 만든 변수에도 "no_grad 안에서 계산했거나 상수만으로
    # 계산한 결과"라고만 말해, 실제 원인이 메시지에 없었습니다.
    root = make_root()
    assert root.creator is None and not root.requires_grad
    with pytest.raises(RuntimeError) as info:
        root.backward()
    message = korean_instruction(info.value)
    assert cause in message
    assert repr(root) in message


@pytest.mark.parametrize("given", [np.array(1.0), 1.0, [Variable(np.array(1.0)), np.array(2.0)]])
def test_grad_refuses_inputs_that_are_not_variables_with_a_korean_type_error(given):
    """고치기 전: tg.grad(y, np.array(1.0))은 '출력을 계산하는 데 쓰이지 않았습니다'라는 RuntimeError를 내고 그래프까지
    놓았습니다. 받은 것의 타입을 말하는 TypeError를 내고, 그래프는 그대로 둡니다."""
    x = Variable(np.array(3.0))
    y = x * x
    with pytest.raises(TypeError, match="inputs") as info:
        tg.grad(y, given)
    assert "Variable" in str(info.value) and korean_instruction(info.value)
    (gx,) = tg.grad(y, x)  # 그래프가 남아 있어 다시 미분할 수 있습니다
    assert gx == 6.0
