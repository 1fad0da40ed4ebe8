"""25~29단계: DOT으로 그리기, 테일러 급수 sin, 경사 하강법, 손으로 쓴 2계 미분의 뉴턴 방법."""

import math
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tinygrad_ko.steps import step22, step24, step26, step27, step28

from .helpers import numerical_partials

NODE = re.compile(r'^(\d+) \[label="([^"]*)", color=(\w+), style=filled(, shape=box)?\]$')
EDGE = re.compile(r"^(\d+) -> (\d+)$")


def _parse_dot(text):
    """get_dot_graph의 텍스트를 {노드 id: (라벨, 색)}과 간선 목록으로 읽습니다."""
    lines = text.splitlines()
    assert lines[0] == "digraph g {" and lines[-1] == "}"
    nodes, edges = {}, []
    for line in lines[1:-1]:
        if match := NODE.match(line):
            nodes[int(match[1])] = (match[2], match[3])
        else:
            match = EDGE.match(line)
            assert match, line
            edges.append((int(match[1]), int(match[2])))
    return nodes, edges


def test_step26_uses_the_book_engine_of_step24():
    for name in ("Variable", "Function", "Config", "goldstein"):
        assert getattr(step26, name) is getattr(step24, name)
    assert step26.Variable is step22.Variable


def test_dot_graph_names_variables_and_functions_and_draws_the_flow():
    x0 = step26.Variable(np.array(1.0), name="x0")
    x1 = step26.Variable(np.array(1.0), name="x1")
    y = x0 + x1
    y.name = "y"
    nodes, edges = _parse_dot(step26.get_dot_graph(y, verbose=False))
    assert nodes == {
        id(x0): ("x0", "orange"),
        id(x1): ("x1", "orange"),
        id(y): ("y", "orange"),
        id(y.creator): ("Add", "lightblue"),
    }
    assert sorted(edges) == sorted(
        [(id(x0), id(y.creator)), (id(x1), id(y.creator)), (id(y.creator), id(y))]
    )


def test_verbose_adds_shape_and_dtype():
    x = step26.Variable(np.ones((2, 3), dtype=np.float32), name="x")
    y = x * 2.0
    text = step26.get_dot_graph(y)
    assert '[label="x: (2, 3) float32"' in text
    # 이름 없는 변수(출력과 상수 2.0)는 모양과 dtype만 적습니다. 책의 엔진은 상수 2.0을 float64
    # 배열로 감싸므로 출력이 float64가 된 것도 그림에서 보입니다.
    assert f'{id(y)} [label="(2, 3) float64"' in text
    assert '[label="() float64"' in text


def test_function_boxes_match_the_graph_of_goldstein():
    x0, x1 = step26.Variable(np.array(1.0)), step26.Variable(np.array(1.0))
    nodes, edges = _parse_dot(step26.get_dot_graph(step26.goldstein(x0, x1)))
    functions = [label for label, color in nodes.values() if color == "lightblue"]
    assert len(functions) == 38  # 15장에서 센 함수 노드 수와 같습니다.
    assert all(source in nodes and target in nodes for source, target in edges)


def test_the_text_changes_from_run_to_run_because_names_are_addresses():
    def graph():
        x = step26.Variable(np.array(2.0), name="x")
        return x, x * x + 1.0

    x1, y1 = graph()
    x2, y2 = graph()  # 두 그래프를 함께 살려 두어야 주소가 겹치지 않습니다.
    first, second = step26.get_dot_graph(y1), step26.get_dot_graph(y2)
    assert first != second

    def canonical(text):
        numbers = {}
        return re.sub(r"\d{6,}", lambda m: str(numbers.setdefault(m[0], len(numbers))), text)

    assert canonical(first) == canonical(second)


def test_sin_value_and_derivative():
    x = step27.Variable(np.array(np.pi / 4))
    y = step27.sin(x)
    y.backward()
    assert y.data == pytest.approx(np.sqrt(0.5), rel=1e-15)
    assert x.grad == pytest.approx(np.sqrt(0.5), rel=1e-15)


def test_taylor_sin_reproduces_the_books_numbers():
    x = step27.Variable(np.array(np.pi / 4))
    y = step27.taylor_sin(x)
    y.backward()
    # 책의 27단계가 출력하는 값과 마지막 자리까지 같습니다.
    assert float(y.data) == 0.7071064695751781
    assert float(x.grad) == 0.7071032148228457


def _terms(threshold, value=np.pi / 4):
    """taylor_sin이 더하는 항의 수(그래프에서 Pow 노드의 수)."""
    x = step27.Variable(np.array(value))
    y = step27.taylor_sin(x, threshold)
    count, stack, seen = 0, [y.creator], set()
    while stack:
        f = stack.pop()
        if f is None or f in seen:
            continue
        seen.add(f)
        count += isinstance(f, step27.Pow)
        stack.extend(v.creator for v in f.inputs)
    return count, y


def test_smaller_threshold_means_more_terms_and_a_better_value():
    few, rough = _terms(1e-4)
    many, fine = _terms(1e-150)
    assert few == 4 and many > few  # x, x³, x⁵, x⁷
    assert abs(fine.data - np.sin(np.pi / 4)) < abs(rough.data - np.sin(np.pi / 4))
    assert float(fine.data) == pytest.approx(np.sin(np.pi / 4), rel=1e-15)


@settings(max_examples=25, deadline=None)
@given(st.floats(-3.0, 3.0))
def test_taylor_sin_converges_and_its_gradient_is_cos(value):
    x = step27.Variable(np.array(value))
    y = step27.taylor_sin(x, threshold=1e-12)
    y.backward()
    assert float(y.data) == pytest.approx(math.sin(value), abs=1e-11)
    assert float(x.grad) == pytest.approx(math.cos(value), abs=1e-10)


@pytest.mark.parametrize("threshold", [0, -1e-3, float("nan")])
def test_taylor_sin_refuses_a_threshold_it_could_never_reach(threshold):
    # 항은 결국 0이 되므로 threshold가 0 이하(또는 nan)이면 멈출 수 없습니다. 예전 코드는 여기서 멈추지 않았습니다.
    with pytest.raises(ValueError, match=r"threshold는 0보다 큰 수여야 합니다\. 받은 값: "):
        step27.taylor_sin(step27.Variable(np.array(1.0)), threshold)


@pytest.mark.parametrize("value", [30.0, -200.0, float("inf"), float("nan")])
def test_taylor_sin_stops_even_where_the_series_cannot_be_summed_in_float(value):
    # 항이 inf를 거쳐 nan(inf × 0)이 되어도 멈춥니다. 결과가 유한한지는 묻지 않습니다.
    with np.errstate(over="ignore", invalid="ignore"):
        y = step27.taylor_sin(step27.Variable(np.array(value)), 1e-12)
    assert isinstance(y, step27.Variable)


def test_rosenbrock_value_and_gradient():
    x0, x1 = step28.Variable(np.array(0.0)), step28.Variable(np.array(2.0))
    y = step28.rosenbrock(x0, x1)
    y.backward()
    assert (y.data, x0.grad, x1.grad) == (401.0, -2.0, 400.0)
    x0, x1 = step28.Variable(np.array(1.0)), step28.Variable(np.array(1.0))
    y = step28.rosenbrock(x0, x1)
    y.backward()
    assert (y.data, x0.grad, x1.grad) == (0.0, 0.0, 0.0)  # 최솟값


@settings(max_examples=20, deadline=None)
@given(st.floats(-2.0, 2.0), st.floats(-1.0, 3.0))
def test_rosenbrock_gradient_matches_numerical_diff(a, b):
    x0, x1 = step28.Variable(np.array(a)), step28.Variable(np.array(b))
    y = step28.rosenbrock(x0, x1)
    y.backward()
    expected = numerical_partials(step28.rosenbrock, step28.Variable, a, b)
    np.testing.assert_allclose([x0.grad, x1.grad], expected, rtol=1e-5, atol=1e-4)


def _descend(iters, lr=0.001):
    x0, x1 = step28.Variable(np.array(0.0)), step28.Variable(np.array(2.0))
    for _ in range(iters):
        y = step28.rosenbrock(x0, x1)
        x0.cleargrad()
        x1.cleargrad()
        y.backward()
        x0.data -= lr * x0.grad
        x1.data -= lr * x1.grad
    return float(x0.data), float(x1.data)


def test_gradient_descent_on_rosenbrock_gives_the_books_point_after_1000_steps():
    a, b = _descend(1000)
    assert (round(a, 4), round(b, 4)) == (0.6837, 0.4660)


@pytest.mark.slow
def test_gradient_descent_on_rosenbrock_is_near_the_minimum_after_10000_steps():
    a, b = _descend(10000)
    assert (round(a, 4), round(b, 4)) == (0.9945, 0.989)


def _newton_by_hand(iters):
    """29단계: 1계 미분은 역전파로, 2계 미분은 손으로 구한 식 12x² - 4로."""

    def f(x):
        return x**4 - 2 * x**2

    def second(x):
        return 12 * x**2 - 4

    x = step28.Variable(np.array(2.0))
    path = [float(x.data)]
    for _ in range(iters):
        y = f(x)
        x.cleargrad()
        y.backward()
        x.data -= x.grad / second(x.data)
        path.append(float(x.data))
    return path


def test_newton_by_hand_reaches_one_in_seven_steps_as_in_the_book():
    path = _newton_by_hand(9)
    assert path[:3] == [2.0, 1.4545454545454546, 1.1510467893775467]
    assert path[6] != 1.0 and path[7:] == [1.0, 1.0, 1.0]


def test_gradient_descent_needs_many_more_steps_for_the_same_function():
    x = step28.Variable(np.array(2.0))
    steps = 0
    while abs(float(x.data) - 1.0) >= 1e-10:
        y = x**4 - 2 * x**2
        x.cleargrad()
        y.backward()
        x.data -= 0.01 * x.grad
        steps += 1
    newton = next(i for i, v in enumerate(_newton_by_hand(9)) if abs(v - 1.0) < 1e-10)
    assert (newton, steps) == (6, 264)


def test_step28_gradients_are_plain_arrays_so_no_second_derivative():
    x = step28.Variable(np.array(2.0))
    y = x**4 - 2 * x**2
    y.backward()
    assert isinstance(x.grad, np.ndarray | np.generic)  # 0차원 계산이라 np.float64
    with pytest.raises(AttributeError, match="backward"):
        x.grad.backward()
