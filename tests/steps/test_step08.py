"""8단계: 반복문으로 도는 역전파와 funcs 추적."""

import gc
import inspect
import re

import numpy as np
import pytest

from tinygrad_ko.steps import step04, step07, step08

from .helpers import composite, seeded_graph


class Negate(step08.Function):
    """테스트용으로 값싼 함수: y = -x. 사슬을 n개 이으면 미분값은 (-1)ⁿ입니다."""

    def forward(self, x):
        return -x

    def backward(self, gy):
        return -gy


def _small_graph(value=0.5):
    return seeded_graph(step08, value)


@pytest.mark.parametrize("value", [-0.7, 0.5, 1.1])
def test_loop_backward_matches_numerical_diff(value):
    x, y = _small_graph(value)
    y.backward()
    np.testing.assert_allclose(x.grad, step04.numerical_diff(composite(step08), x), rtol=1e-6)


def test_loop_and_recursion_agree():
    x7, y7 = seeded_graph(step07, 0.3)
    y7.backward()
    x8, y8 = _small_graph(0.3)
    y8.backward()
    assert x8.grad == x7.grad


@pytest.mark.slow
def test_very_long_chain_backpropagates():
    length = 200_001  # 홀수이므로 미분값은 -1이어야 합니다.
    x = step08.Variable(np.array(1.0))
    y = x
    for _ in range(length):
        y = Negate()(y)
    y.grad = np.array(1.0)
    y.backward()
    assert x.grad == -1.0
    # 사슬은 순환 참조(변수 ↔ 함수)이므로 GC가 치웁니다. 20만 단을 치워도 멈추지 않아야 합니다.
    del y
    assert gc.collect() >= 2 * length


def test_trace_shows_funcs_at_every_iteration():
    x, y = _small_graph()
    lines = []
    step08.traced_backward(y, show=lines.append)
    assert lines == [
        "funcs = [Square]",
        "funcs = [Exp]",
        "funcs = [Square]",
        "funcs = []  (비었으므로 끝)",
    ]


def test_trace_prints_by_default(capsys):
    x, y = _small_graph()
    step08.traced_backward(y)
    assert capsys.readouterr().out.splitlines()[0] == "funcs = [Square]"


def test_trace_computes_the_same_grad_as_backward():
    x1, y1 = _small_graph()
    y1.backward()
    x2, y2 = _small_graph()
    step08.traced_backward(y2, show=lambda line: None)
    assert x2.grad == x1.grad


def _code_lines(func, *, drop):
    """함수 몸통에서 funcs 반복문 부분만, 주석과 ``drop``이 든 줄을 빼고 꺼냅니다."""
    source = inspect.getsource(func)
    body = source[source.index("funcs = [") :]
    lines = [re.sub(r"\s+#.*$", "", line).strip() for line in body.splitlines()]
    return [line for line in lines if line and drop not in line]


def test_traced_loop_is_the_same_code_as_backward():
    # 추적용 함수가 책의 backward에서 멀어지지 않았는지 확인합니다(show 줄만 다릅니다).
    book = _code_lines(step08.Variable.backward, drop="show(")
    traced = _code_lines(step08.traced_backward, drop="show(")
    assert traced == [line.replace("self.", "output.") for line in book]
