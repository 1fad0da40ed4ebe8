"""무작위 식 그래프(공유된 부분식 포함)의 역전파를 수치 미분과 비교하는 속성 기반 테스트."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import tinygrad_ko as tg
from tinygrad_ko import Variable

UNARY = {
    "sin": tg.sin,
    "cos": tg.cos,
    "tanh": tg.tanh,
    "exp": lambda v: tg.exp(tg.tanh(v)),  # 값이 너무 커지지 않도록 감쌉니다.
    "square": lambda v: tg.tanh(v) ** 2,
    "neg": tg.neg,
}
BINARY = {
    "add": tg.add,
    "sub": tg.sub,
    "mul": lambda a, b: tg.tanh(a) * tg.tanh(b),
    "div": lambda a, b: tg.div(a, tg.exp(tg.tanh(b))),  # 분모는 항상 양수
}

step = st.one_of(
    st.tuples(st.just("u"), st.sampled_from(sorted(UNARY)), st.integers(0, 99)),
    st.tuples(
        st.just("b"), st.sampled_from(sorted(BINARY)), st.integers(0, 99), st.integers(0, 99)
    ),
)


def build(program, inputs):
    """프로그램의 각 단계가 앞서 만든 노드(입력 포함)를 골라 쓰므로 부분식이 자주 공유됩니다."""
    nodes = list(inputs)
    for op in program:
        if op[0] == "u":
            nodes.append(UNARY[op[1]](nodes[op[2] % len(nodes)]))
        else:
            nodes.append(BINARY[op[1]](nodes[op[2] % len(nodes)], nodes[op[3] % len(nodes)]))
    total = nodes[len(inputs)] if len(nodes) > len(inputs) else nodes[0]
    for node in nodes[len(inputs) + 1 :]:
        total = total + node
    return total


@settings(max_examples=60, deadline=None)
@given(
    program=st.lists(step, min_size=1, max_size=12),
    values=st.lists(st.floats(-2, 2), min_size=3, max_size=3),
)
def test_random_graphs_match_numerical_gradients(program, values):
    datas = [np.array([v, v / 2 + 0.1]) for v in values]

    def f(*xs):
        return build(program, xs)

    xs = [Variable(d.copy()) for d in datas]
    f(*xs).backward()
    expected = tg.numerical_grad(f, *datas)
    for x, g in zip(xs, expected, strict=True):
        got = np.zeros_like(g) if x.grad is None else x.grad
        np.testing.assert_allclose(got, g, rtol=1e-4, atol=1e-6)
