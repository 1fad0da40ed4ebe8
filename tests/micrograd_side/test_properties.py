"""무작위 식(공유된 부분식 포함)의 기울기를 수치 미분과 비교하는 속성 기반 테스트."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tinygrad_ko.micrograd.value import Value, topological_order

from .orders import recursive_order

# 정의역 걱정이 없는 연산만 씁니다: log와 나눗셈은 항상 양수인 식에만 적용합니다.
UNARY = {
    "tanh": (lambda v: v.tanh(), math.tanh),
    "neg": (lambda v: -v, lambda x: -x),
    "square": (lambda v: v**2, lambda x: x**2),
    "softplus": (
        lambda v: (v.tanh().exp() + 1.0).log(),
        lambda x: math.log(math.exp(math.tanh(x)) + 1.0),
    ),
    "scaled": (lambda v: 0.5 * v - 0.25, lambda x: 0.5 * x - 0.25),
}
BINARY = {
    "+": (lambda a, b: a + b, lambda a, b: a + b),
    "-": (lambda a, b: a - b, lambda a, b: a - b),
    "*": (lambda a, b: a * b, lambda a, b: a * b),
    "safe/": (lambda a, b: a / (b * b + 1.0), lambda a, b: a / (b * b + 1.0)),
}

# 식은 명령의 목록입니다. 각 명령은 이전까지 만든 노드(말단 포함)를 번호로 골라 쓰므로
# 같은 부분식이 여러 번 쓰이는 그래프가 자연스럽게 나옵니다.
unary_step = st.tuples(st.just("u"), st.sampled_from(sorted(UNARY)), st.integers(0, 10**6))
binary_step = st.tuples(
    st.just("b"), st.sampled_from(sorted(BINARY)), st.integers(0, 10**6), st.integers(0, 10**6)
)
programs = st.lists(st.one_of(unary_step, binary_step), min_size=1, max_size=12)
inputs = st.lists(
    st.floats(-2.0, 2.0, allow_nan=False, allow_infinity=False), min_size=1, max_size=3
)


def run(program, leaves, use_value):
    nodes = list(leaves)
    for step in program:
        if step[0] == "u":
            value_op, float_op = UNARY[step[1]]
            arg = nodes[step[2] % len(nodes)]
            nodes.append(value_op(arg) if use_value else float_op(arg))
        else:
            value_op, float_op = BINARY[step[1]]
            a = nodes[step[2] % len(nodes)]
            b = nodes[step[3] % len(nodes)]
            nodes.append(value_op(a, b) if use_value else float_op(a, b))
    # 만든 노드를 모두 합해 출력 하나로 만듭니다 (모든 노드가 출력에 기여합니다).
    total = nodes[len(leaves)]
    for node in nodes[len(leaves) + 1 :]:
        total = total + node
    return total


@settings(max_examples=150, deadline=None)
@given(program=programs, xs=inputs)
def test_random_expression_gradients_match_numerical_differentiation(program, xs):
    leaves = [Value(x) for x in xs]
    out = run(program, leaves, use_value=True)
    assert out.data == pytest.approx(run(program, xs, use_value=False), rel=1e-9, abs=1e-12)
    out.backward()
    h = 1e-6
    for i, x in enumerate(xs):
        plus = list(xs)
        minus = list(xs)
        plus[i] = x + h
        minus[i] = x - h
        numeric = (run(program, plus, False) - run(program, minus, False)) / (2 * h)
        assert leaves[i].grad == pytest.approx(numeric, rel=1e-4, abs=1e-4)


@settings(max_examples=100, deadline=None)
@given(program=programs, xs=inputs)
def test_order_puts_every_node_after_its_inputs_and_repeats(program, xs):
    out = run(program, [Value(x) for x in xs], use_value=True)
    order = topological_order(out)
    position = {id(node): i for i, node in enumerate(order)}
    assert len(position) == len(order)  # 같은 노드가 두 번 들어가지 않습니다
    assert order[-1] is out
    for node in order:
        for child in node._prev:
            assert position[id(child)] < position[id(node)]
    assert order == recursive_order(out)  # 재귀 깊이 우선 후위 순서와 똑같습니다
    # 같은 식을 다시 만들면 같은 순서(연산 이름의 나열)가 나옵니다.
    again = topological_order(run(program, [Value(x) for x in xs], use_value=True))
    assert [n._op for n in again] == [n._op for n in order]
    assert [n.data for n in again] == [n.data for n in order]
