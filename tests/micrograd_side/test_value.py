"""micrograd 방식 `Value`의 값, 기울기, 그래프 구조, 오류 메시지 테스트."""

from __future__ import annotations

import math
import re
import weakref

import numpy as np
import pytest

from tinygrad_ko.micrograd.value import Value, topological_order

from .orders import recursive_order

EPS = 1e-6


def numerical_derivative(f, x: float, eps: float = EPS) -> float:
    """중앙 차분: (f(x+h) - f(x-h)) / 2h."""
    return (f(x + eps) - f(x - eps)) / (2 * eps)


# ---------------------------------------------------------------------------------------
# 연산마다 값과 기울기를 수치 미분과 비교합니다.

UNARY_CASES = [
    ("neg", lambda v: -v, lambda x: -x, [-1.5, 0.3, 2.0]),
    ("relu", lambda v: v.relu(), lambda x: max(0.0, x), [-1.5, 0.3, 2.0]),
    ("tanh", lambda v: v.tanh(), math.tanh, [-1.5, 0.0, 0.3, 2.0]),
    ("exp", lambda v: v.exp(), math.exp, [-1.5, 0.0, 0.3, 2.0]),
    ("log", lambda v: v.log(), math.log, [0.2, 1.0, 3.5]),
    ("pow2", lambda v: v**2, lambda x: x**2, [-1.5, 0.0, 0.3, 2.0]),
    ("pow3", lambda v: v**3, lambda x: x**3, [-1.5, 0.3, 2.0]),
    ("pow-1", lambda v: v**-1, lambda x: x**-1, [-1.5, 0.3, 2.0]),
    ("pow0.5", lambda v: v**0.5, lambda x: x**0.5, [0.3, 2.0]),
    ("pow0", lambda v: v**0, lambda x: x**0, [-1.5, 0.3, 2.0]),
    ("add-right", lambda v: v + 2.5, lambda x: x + 2.5, [-1.5, 0.3]),
    ("add-left", lambda v: 2.5 + v, lambda x: 2.5 + x, [-1.5, 0.3]),
    ("sub-right", lambda v: v - 2.5, lambda x: x - 2.5, [-1.5, 0.3]),
    ("sub-left", lambda v: 2.5 - v, lambda x: 2.5 - x, [-1.5, 0.3]),
    ("mul-right", lambda v: v * 2.5, lambda x: x * 2.5, [-1.5, 0.3]),
    ("mul-left", lambda v: 2.5 * v, lambda x: 2.5 * x, [-1.5, 0.3]),
    ("div-right", lambda v: v / 2.5, lambda x: x / 2.5, [-1.5, 0.3]),
    ("div-left", lambda v: 2.5 / v, lambda x: 2.5 / x, [-1.5, 0.3]),
    ("int-mul", lambda v: 3 * v, lambda x: 3 * x, [0.7]),
]


@pytest.mark.parametrize(
    ("name", "op", "reference", "x"),
    [(name, op, ref, x) for name, op, ref, xs in UNARY_CASES for x in xs],
)
def test_unary_value_and_gradient(name, op, reference, x):
    v = Value(x)
    out = op(v)
    assert isinstance(out, Value)
    assert out.data == pytest.approx(reference(x), rel=1e-12, abs=1e-12)
    out.backward()
    assert v.grad == pytest.approx(numerical_derivative(reference, x), rel=1e-6, abs=1e-6)


BINARY_CASES = [
    ("+", lambda a, b: a + b),
    ("-", lambda a, b: a - b),
    ("*", lambda a, b: a * b),
    ("/", lambda a, b: a / b),
]


@pytest.mark.parametrize(("symbol", "op"), BINARY_CASES)
@pytest.mark.parametrize(("x", "y"), [(1.5, -0.4), (-2.0, 3.0), (0.25, 0.5)])
def test_binary_value_and_both_gradients(symbol, op, x, y):
    a, b = Value(x), Value(y)
    out = op(a, b)
    assert out.data == pytest.approx(op(x, y), rel=1e-12)
    assert out._op == symbol
    assert out._prev == (a, b)  # 입력 순서를 그대로 기억합니다
    out.backward()
    assert a.grad == pytest.approx(numerical_derivative(lambda t: op(t, y), x), rel=1e-6)
    assert b.grad == pytest.approx(numerical_derivative(lambda t: op(x, t), y), rel=1e-6)


def test_multiplication_sends_each_input_the_other_inputs_value():
    a, b = Value(3.0), Value(-4.0)
    out = a * b
    out.backward()
    assert (a.grad, b.grad) == (-4.0, 3.0)


def test_relu_gradient_is_zero_at_zero_and_below():
    for x in (0.0, -2.0):
        v = Value(x)
        out = v.relu()
        out.backward()
        assert (out.data, v.grad) == (0.0, 0.0)


def test_reflected_operand_keeps_expression_order():
    x = Value(2.0)
    out = 10 - x
    assert out.data == 8.0
    assert out._prev[0].data == 10.0 and out._prev[1] is x
    out = 10 / x
    assert out.data == 5.0 and out._prev[1] is x


def test_numpy_scalars_become_python_floats():
    for raw in (np.float64(1.5), np.float32(1.5), np.int64(3), 3, True):
        v = Value(raw)
        assert type(v.data) is float
        assert v.data == float(raw)
    assert type((Value(1.0) * np.float64(2.0)).data) is float


# ---------------------------------------------------------------------------------------
# 그래프 구조: 재사용된 노드, 순서, 누적


def naive_recursive_backward(out: Value) -> None:
    """위상 정렬 없이 '내 규칙을 부르고 입력마다 재귀'하는 소박한 역전파 (틀린 답을 냅니다)."""
    out.grad = 1.0

    def visit(node: Value) -> None:
        node._backward()
        for child in node._prev:
            visit(child)

    visit(out)


def test_reused_intermediate_gets_the_right_gradient():
    a = Value(3.0)
    b = a + a
    c = b + b  # c = 4a
    c.backward()
    assert (c.data, b.grad, a.grad) == (12.0, 2.0, 4.0)


def test_naive_recursive_backward_gets_the_reused_case_wrong():
    a = Value(3.0)
    b = a + a
    c = b + b
    naive_recursive_backward(c)
    assert a.grad != 4.0  # b의 규칙이 b의 기울기가 다 모이기 전에, 그리고 두 번 불립니다
    assert a.grad == 8.0


def test_diamond_graph_orders_shared_node_after_all_its_users():
    x = Value(0.5)
    a = x.exp()
    b = a * 2.0
    c = a.tanh()
    y = b + c
    order = topological_order(y)
    position = {id(node): i for i, node in enumerate(order)}
    for node in order:
        for child in node._prev:
            assert position[id(child)] < position[id(node)]
    y.backward()
    expected = numerical_derivative(lambda t: 2 * math.exp(t) + math.tanh(math.exp(t)), 0.5)
    assert x.grad == pytest.approx(expected, rel=1e-6)


def test_iterative_order_equals_recursive_depth_first_order():
    x, y = Value(1.0, label="x"), Value(2.0, label="y")
    p = x * y
    q = p + x
    r = (q * p).tanh() + y.exp() - q
    assert topological_order(r) == recursive_order(r)
    assert topological_order(r)[-1] is r
    assert topological_order(x) == [x]


def test_order_is_the_same_on_every_build():
    def build():
        x = Value(0.3)
        h = x * x
        return (h + x).exp() * h + h.relu()

    orders = [[node._op for node in topological_order(build())] for _ in range(3)]
    assert orders[0] == orders[1] == orders[2]
    assert orders[0][-1] == "+"


def test_backward_twice_accumulates_and_reset_restores():
    x = Value(1.0)
    b = x * 2.0
    c = b * 3.0
    c.backward()
    assert x.grad == 6.0
    c.backward()  # 중간 노드 b의 기울기도 쌓여서 6 + 2*(3+3) = 18이 됩니다
    assert (c.grad, b.grad, x.grad) == (1.0, 6.0, 18.0)
    for node in topological_order(c):
        node.grad = 0.0
    c.backward()
    assert x.grad == 6.0


def test_backward_on_a_leaf_sets_its_grad_to_one():
    x = Value(4.0)
    x.backward()
    assert x.grad == 1.0


def test_augmented_assignment_builds_a_new_node():
    x = Value(1.0)
    y = Value(2.0)
    original = x
    x += y
    assert x is not original
    assert original.data == 1.0 and x.data == 3.0
    assert x._prev == (original, y)
    x *= 2
    assert x.data == 6.0 and x._op == "*"
    x.backward()
    assert (original.grad, y.grad) == (2.0, 2.0)


def test_micrograd_field_names_and_backward_callable():
    a, b = Value(2.0), Value(5.0)
    out = a * b
    assert (out.data, out.grad, out._op) == (10.0, 0.0, "*")
    assert out._prev == (a, b)
    out.grad = 1.0
    out._backward()  # micrograd처럼 인수 없이 한 단계 전합니다
    assert (a.grad, b.grad) == (5.0, 2.0)
    a._backward()  # 말단 노드: 아무 일도 하지 않습니다
    assert (a.grad, b.grad) == (5.0, 2.0)


def test_micrograd_style_closure_can_be_assigned_to_backward():
    x = Value(3.0)
    out = Value(x.data**3, (x,), "cube")

    def _backward():
        x.grad += 3 * x.data**2 * out.grad

    out._backward = _backward
    out.backward()
    assert x.grad == 27.0
    with pytest.raises(TypeError, match="인수 없는 함수"):
        out._backward = 3


def test_slots_and_weak_references():
    v = Value(1.0)
    assert not hasattr(v, "__dict__")
    with pytest.raises(AttributeError):
        v.something = 1  # type: ignore[attr-defined]
    ref = weakref.ref(v)
    assert ref() is v


def test_graph_is_freed_by_reference_counting_without_the_cycle_collector():
    import gc

    was_enabled = gc.isenabled()
    gc.disable()
    try:
        x = Value(0.5)
        y = ((x * 2.0).tanh() + x).exp()
        middle = weakref.ref(y._prev[0])
        y.backward()
        del y
        assert middle() is None  # 규칙 함수가 노드를 붙잡지 않으므로 순환 참조가 없습니다
        assert x.grad != 0.0
    finally:
        if was_enabled:
            gc.enable()


def test_label_and_repr():
    v = Value(2.0, label="w")
    assert v.label == "w"
    assert (v * 3).label == ""
    assert repr(Value(1.5)) == "Value(data=1.5, grad=0.0)"


# ---------------------------------------------------------------------------------------
# 잘못된 입력에는 받은 것을 밝히는 한국어 오류를 냅니다.


@pytest.mark.parametrize(
    ("bad", "words"),
    [
        ("3", ["str", "'3'", "float('3')"]),
        (None, ["NoneType", "None"]),
        (1 + 2j, ["complex"]),
        ([1.0], ["list"]),
        (np.array([1.0, 2.0]), ["ndarray", ".item()"]),
    ],
)
def test_constructor_rejects_non_numbers_and_names_them(bad, words):
    with pytest.raises(TypeError, match="Value에는 실수 하나를") as info:
        Value(bad)
    for word in words:
        assert word in str(info.value)


def test_constructor_rejects_a_value_inside_a_value():
    with pytest.raises(TypeError, match="Value 안에 Value"):
        Value(Value(1.0))


@pytest.mark.parametrize("symbol", ["+", "-", "*", "/"])
def test_operators_reject_strings_on_either_side(symbol):
    x = Value(1.0)
    ops = {
        "+": (lambda: x + "a", lambda: "a" + x),
        "-": (lambda: x - "a", lambda: "a" - x),
        "*": (lambda: x * "a", lambda: "a" * x),
        "/": (lambda: x / "a", lambda: "a" / x),
    }
    for call in ops[symbol]:
        with pytest.raises(TypeError, match=f"'{re.escape(symbol)}' 연산") as info:
            call()
        assert "str 'a'" in str(info.value)


def test_none_operand_names_nonetype():
    with pytest.raises(TypeError, match="NoneType"):
        Value(1.0) * None


def test_power_with_value_exponent_is_rejected_with_a_hint():
    with pytest.raises(TypeError, match=r"지수로 Value를 쓸 수 없습니다.*log\(\) \* y\)\.exp\(\)"):
        Value(2.0) ** Value(3.0)
    with pytest.raises(TypeError, match="지수는 int나 float"):
        Value(2.0) ** "2"
    with pytest.raises(TypeError, match=r"\*\* Value 는 지원하지 않습니다"):
        2 ** Value(3.0)


@pytest.mark.parametrize("x", [0.0, -1.0, float("nan")])
def test_log_of_non_positive_raises_value_error(x):
    with pytest.raises(ValueError, match="log는 양수에서만") as info:
        Value(x).log()
    assert repr(x) in str(info.value)


def test_division_by_zero_and_negative_power_of_zero():
    with pytest.raises(ZeroDivisionError, match="0으로 나눌 수 없습니다"):
        Value(1.0) / 0
    with pytest.raises(ZeroDivisionError, match="0의 음수 거듭제곱"):
        Value(0.0) ** -1


def test_fractional_power_of_negative_number_raises():
    with pytest.raises(ValueError, match="실수가 아닙니다"):
        Value(-8.0) ** 0.5


def test_gradient_of_sqrt_at_zero_raises_a_clear_error():
    x = Value(0.0)
    y = x**0.5
    assert y.data == 0.0
    with pytest.raises(ZeroDivisionError, match="x = 0 에서 정의되지 않습니다"):
        y.backward()


def test_overflow_is_reported_in_korean():
    with pytest.raises(OverflowError, match="float 범위"):
        Value(1000.0).exp()
    with pytest.raises(OverflowError, match="float 범위"):
        Value(10.0) ** 400


def test_int_too_large_for_float_is_reported_in_korean():
    # float(10**400)은 파이썬의 영어 OverflowError를 냅니다. 받은 것과 고칠 방법을 한국어로 알립니다.
    for make in (
        lambda: Value(10**400),
        lambda: Value(2.0) * 10**400,
        lambda: 10**400 + Value(1.0),
    ):
        with pytest.raises(
            OverflowError, match=r"float 범위.*받은 것: int 1000.*\.\.\..*줄이"
        ) as info:
            make()
        assert info.value.__cause__ is None and info.value.__suppress_context__


def test_children_must_be_values():
    with pytest.raises(TypeError, match="_children 의 원소는 Value"):
        Value(1.0, (Value(1.0), 2.0))
    with pytest.raises(TypeError, match="_children 에는 Value들의 튜플"):
        Value(1.0, 5)
    node = Value(1.0, [Value(2.0)])  # 리스트도 튜플로 바꿔 받습니다
    assert type(node._prev) is tuple


def test_relu_keeps_nan_and_passes_its_gradient_like_pytorch():
    x = Value(math.nan)
    y = x.relu()
    assert math.isnan(y.data)  # 고치기 전: 0.0
    y.backward()
    assert x.grad == 1.0  # PyTorch: relu의 기울기는 출력이 0 이하일 때만 0입니다(NaN은 아님).


def test_relu_zeroes_negatives_and_keeps_the_sign_of_zero():
    assert Value(-2.0).relu().data == 0.0
    assert Value(3.0).relu().data == 3.0
    assert math.copysign(1.0, Value(-0.0).relu().data) == -1.0  # micrograd, PyTorch와 같음
    zero = Value(0.0)
    zero.relu().backward()
    assert zero.grad == 0.0  # 0에서의 기울기는 0(PyTorch와 같음)


def test_failed_backward_leaves_every_gradient_as_it_was():
    v = Value(0.0)
    # x ** 0.5의 기울기는 0에서 0의 음수 거듭제곱: ZeroDivisionError. 곱셈 쪽 가지가 먼저 처리됩니다.
    y = v**0.5 + v * 3.0
    with pytest.raises(ZeroDivisionError, match="x = 0"):
        y.backward()
    assert v.grad == 0.0  # 고치기 전: 3.0(곱셈 쪽 가지에서 온 기울기)
    assert y.grad == 0.0


def test_accumulated_gradients_survive_a_failed_backward():
    a = Value(2.0)
    (a * a).backward()
    assert a.grad == 4.0
    bad = (a - 2.0) ** 0.5 + a * 5.0
    with pytest.raises(ZeroDivisionError):
        bad.backward()
    assert a.grad == 4.0  # 앞의 역전파로 쌓인 값 그대로
    a.data = 3.0  # 실패의 원인을 고치고 다시 계산하면 이어서 누적됩니다.
    ((a - 2.0) ** 0.5 + a * 5.0).backward()
    assert a.grad == pytest.approx(4.0 + 5.0 + 0.5)
