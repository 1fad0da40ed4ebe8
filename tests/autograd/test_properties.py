"""무작위 식 그래프(공유된 부분식 포함)의 역전파를 수치 미분과 비교하는 속성 기반 테스트."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import tinygrad_ko as tg
from tinygrad_ko import Variable

from .random_graphs import build, operations, programs

OPS = operations(tg)


@settings(max_examples=60, deadline=None)
@given(program=programs, values=st.lists(st.floats(-2, 2), min_size=3, max_size=3))
def test_random_graphs_match_numerical_gradients(program, values):
    datas = [np.array([v, v / 2 + 0.1]) for v in values]

    def f(*xs):
        return build(program, xs, OPS)

    xs = [Variable(d.copy()) for d in datas]
    f(*xs).backward()
    expected = tg.numerical_grad(f, *datas)
    for x, g in zip(xs, expected, strict=True):
        got = np.zeros_like(g) if x.grad is None else x.grad
        np.testing.assert_allclose(got, g, rtol=1e-4, atol=1e-6)
