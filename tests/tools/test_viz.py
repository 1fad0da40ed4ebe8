"""tinygrad_ko.tools.viz: 계산 그래프를 mermaid / DOT 텍스트로 바꾸는 기능의 테스트.

viz는 클래스를 import하지 않고 속성만 보고 그래프를 읽습니다. 여기서는 이 프로젝트가 실제로 그리는
그래프, 곧 단계별 스냅숏(7·8·13·16·17·22단계), 최종 엔진, `Value`와 45장의 클로저 방식 `Value`로
시험합니다.
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from korean_messages import korean_instruction

import tinygrad_ko as tg
from tinygrad_ko.micrograd import closure as closure_value
from tinygrad_ko.micrograd import value
from tinygrad_ko.steps import step01, step07, step08, step12, step13, step16, step17, step22
from tinygrad_ko.tools.viz import DEFAULT_MAX_NODES, nodes, to_dot, to_mermaid

# --- 그림 텍스트를 다시 읽는 작은 파서 --------------------------------------------------------

MERMAID_VARIABLE = re.compile(r'^    n(\d+)\(\["(.*)"\]\)$')
MERMAID_FUNCTION = re.compile(r'^    n(\d+)\["(.*)"\]$')
MERMAID_EDGE = re.compile(r'^    n(\d+) (-->|-\.->)(?:\|"(.*)"\|)? n(\d+)$')
MERMAID_CLASS = re.compile(r"^    (classDef \w+ .*|class [n\d,]+ \w+)$")
DOT_NODE = re.compile(r'^    n(\d+) \[label="(.*)", shape=(ellipse|box)\];$')
DOT_EDGE = re.compile(
    r'^    n(\d+) -> n(\d+)(?: \[(?:label="([^"]*)")?(?:, )?(style=dashed)?\])?;$'
)


def parse_mermaid(text):
    """mermaid 텍스트를 ({번호: (종류, 라벨 줄들)}, [(출발, 도착, 이름표, 약한가)]) 로 읽습니다."""
    lines = text.split("\n")
    assert lines[0] == "flowchart LR"
    nodes_, edges = {}, []
    for line in lines[1:]:
        if m := MERMAID_VARIABLE.match(line):
            nodes_[int(m[1])] = ("variable", m[2].split("<br>"))
        elif m := MERMAID_FUNCTION.match(line):
            nodes_[int(m[1])] = ("function", [m[2]])
        elif m := MERMAID_EDGE.match(line):
            edges.append((int(m[1]), int(m[4]), m[3] or "", m[2] == "-.->"))
        elif not MERMAID_CLASS.match(line):
            raise AssertionError(f"알 수 없는 mermaid 줄: {line!r}")
    return nodes_, edges


def parse_dot(text):
    lines = text.split("\n")
    assert lines[:2] == ["digraph computational_graph {", "    rankdir=LR;"]
    assert lines[-1] == "}"
    nodes_, edges = {}, []
    for line in lines[2:-1]:
        if m := DOT_NODE.match(line):
            kind = "variable" if m[3] == "ellipse" else "function"
            nodes_[int(m[1])] = (kind, m[2].split("\\n"))
        elif m := DOT_EDGE.match(line):
            edges.append((int(m[1]), int(m[2]), m[3] or "", m[4] is not None))
        else:
            raise AssertionError(f"알 수 없는 DOT 줄: {line!r}")
    return nodes_, edges


def check_data_flow(nodes_, edges):
    """값의 흐름 그림: 번호는 빈틈없이, 변수와 함수가 번갈아, 입력 쪽 노드가 먼저 번호를 받습니다."""
    assert sorted(nodes_) == list(range(len(nodes_)))
    for source, target, label, weak in edges:
        assert source in nodes_ and target in nodes_
        assert nodes_[source][0] != nodes_[target][0], "변수끼리나 함수끼리 이어지면 안 됩니다"
        assert source < target, "입력 쪽 노드가 먼저 번호를 받아야 합니다"
        assert (label, weak) == ("", False)


def labels(nodes_):
    return [lines[0] for _, (_, lines) in sorted(nodes_.items())]


def named(module, data, name):
    var = module.Variable(np.array(data))
    var.name = name  # 이름이 없는 단계의 변수에도 속성으로 붙일 수 있습니다.
    return var


# --- 값의 흐름: 7~10단계 -------------------------------------------------------------------


def test_step07_chain_exact_text():
    x = step07.Variable(np.array(2.0))
    y = step07.Exp()(step07.Square()(x))
    assert to_mermaid(y) == "\n".join(
        [
            "flowchart LR",
            '    n0(["2.0"])',
            '    n1["Square"]',
            '    n2(["4.0"])',
            '    n3["Exp"]',
            '    n4(["54.6"])',
            "    n0 --> n1",
            "    n1 --> n2",
            "    n2 --> n3",
            "    n3 --> n4",
        ]
    )


def test_step07_dot_matches_mermaid_structure():
    x = step07.Variable(np.array(0.5))
    y = step07.Square()(step07.Exp()(step07.Square()(x)))
    assert parse_dot(to_dot(y)) == parse_mermaid(to_mermaid(y))
    nodes_, edges = parse_mermaid(to_mermaid(y))
    check_data_flow(nodes_, edges)
    functions = [label[0] for kind, label in nodes_.values() if kind == "function"]
    assert functions == ["Square", "Exp", "Square"]


def test_leaf_variable_alone_is_one_node():
    assert to_mermaid(step07.Variable(np.array(3.0))) == 'flowchart LR\n    n0(["3.0"])'


def test_function_reused_on_its_own_output_is_a_cycle_refused_with_korean_error():
    # 함수 객체는 마지막 호출만 기억하므로 A(A(x))의 연결은 x에 닿지 않고 A ↔ 중간 변수를 맴돕니다.
    x = step07.Variable(np.array(1.1))
    square = step07.Square()
    y = square(square(x))
    middle = square.input
    assert middle.creator is square and y.creator is square
    for draw in (to_mermaid, to_dot, nodes):
        with pytest.raises(ValueError) as error:
            draw(y)
        message = korean_instruction(error.value)
        assert "Square" in message and "순환" in message
        assert "새 함수 객체" in message and "refs=True" in message
    # 참조 그림은 지금의 참조를 그대로 그리므로 순환도 그대로 보입니다.
    nodes_, edges = parse_mermaid(to_mermaid(y, refs=True))
    assert labels(nodes_) == ["1.21", "Square", "1.464"]
    assert sorted(edges) == [
        (0, 1, "creator", False),
        (1, 0, "input", False),
        (1, 2, "output", False),
        (2, 1, "creator", False),
    ]


def test_longer_cycle_names_the_reused_function():
    square = step07.Square()
    y = square(step07.Exp()(square(step07.Variable(np.array(0.5)))))
    with pytest.raises(ValueError, match="Square 함수 객체"):
        to_mermaid(y)


def test_variable_without_links_explains_which_step_adds_them():
    with pytest.raises(TypeError, match="7단계"):
        to_mermaid(step01.Variable(np.array(1.0)))


# --- 값의 흐름: 11단계 이후와 최종 엔진 -----------------------------------------------------


def test_same_variable_twice_gives_two_edges():
    x = named(step13, 3.0, "x")
    y = step13.add(x, x)
    nodes_, edges = parse_mermaid(to_mermaid(y))
    assert nodes_[0] == ("variable", ["x = 3.0"])
    assert nodes_[1] == ("function", ["Add"])
    assert [(s, t) for s, t, _, _ in edges].count((0, 1)) == 2


def test_shared_variable_is_drawn_once():
    x = step22.Variable(np.array(2.0), name="x")
    a = x * x
    b = x + a
    y = a * b
    nodes_, edges = parse_mermaid(to_mermaid(y))
    check_data_flow(nodes_, edges)
    assert labels(nodes_).count("x = 2.0") == 1
    assert labels(nodes_).count("4.0") == 1  # a
    assert len(nodes_) == 7  # x, a, b, y 와 함수 셋
    assert len(edges) == 2 + 2 + 2 + 3  # 함수마다 입력 둘, 출력 하나


class Split(step12.Function):
    """출력이 둘인 함수: 배열을 앞뒤 절반으로 나눕니다(12단계는 출력을 강한 참조로 기억합니다)."""

    def forward(self, x):
        half = len(x) // 2
        return x[:half], x[half:]


class WeakSplit(step17.Function):
    """같은 일을 17단계의 Function으로: 출력을 약한 참조로 기억합니다."""

    def forward(self, x):
        half = len(x) // 2
        return x[:half], x[half:]


def test_multiple_outputs_are_all_drawn():
    first, second = Split()(step12.Variable(np.arange(4.0)))
    y = step12.add(first, first)
    nodes_, edges = parse_mermaid(to_mermaid(y))
    check_data_flow(nodes_, edges)
    split = labels(nodes_).index("Split")
    outputs = [target for source, target, _, _ in edges if source == split]
    assert sorted(nodes_[i][1][0] for i in outputs) == ["[0.0, 1.0]", "[2.0, 3.0]"]
    assert second is not None  # 쓰지 않은 두 번째 출력도 함수가 쥐고 있어 그림에 나옵니다


def test_dead_weakref_output_is_skipped_and_live_one_is_kept():
    first, second = WeakSplit()(step17.Variable(np.arange(4.0)))
    before, _ = parse_mermaid(to_mermaid(step17.add(first, first)))
    del second  # 약한 참조만 남아 사라집니다
    after, edges = parse_mermaid(to_mermaid(step17.add(first, first)))
    check_data_flow(after, edges)
    assert len(before) == len(after) + 1
    assert "[2.0, 3.0]" in labels(before)
    assert "[2.0, 3.0]" not in labels(after)


def test_multiple_roots_share_nothing():
    x = step22.Variable(np.array(1.0), name="x")
    first, second = Split()(step12.Variable(np.arange(2.0)))
    nodes_, edges = parse_mermaid(to_mermaid([x + x, second]))
    check_data_flow(nodes_, edges)
    assert len(nodes_) == 3 + 4  # x, Add, 출력 / 입력, Split, 두 출력


def test_final_engine_graph():
    x = tg.Variable(np.array(0.5), name="x")
    y = tg.square(tg.exp(tg.square(x)))
    nodes_, edges = parse_mermaid(to_mermaid(y))
    check_data_flow(nodes_, edges)
    assert labels(nodes_) == [
        "x = 0.5",
        "Square",
        "(해제됨)",  # Exp의 역전파에는 입력이 필요 없어, 아무도 쥐지 않은 x**2는 이미 풀렸습니다.
        "Exp",
        repr(float(format(np.exp(0.25), ".4g"))),
        "Square",
        repr(float(format(np.exp(0.25) ** 2, ".4g"))),
    ]
    assert parse_dot(to_dot(y)) == (nodes_, edges)


def test_final_engine_graph_released_by_backward_is_refused_not_drawn_wrong():
    """retain_graph=False인 역전파는 함수의 입력을 놓아 줍니다. 값의 흐름을 그리면 마지막 함수만 남은
    틀린 그림이 되므로 retain_graph=True를 알려 주며 거부합니다."""
    x = tg.Variable(np.array(3.0), name="x")
    y = tg.square(tg.square(x))
    y.backward(retain_graph=True)
    assert len(parse_mermaid(to_mermaid(y))[0]) == 5
    y.backward()
    for draw in (to_mermaid, to_dot):
        with pytest.raises(RuntimeError, match=r"retain_graph=True"):
            draw(y, show_grad=True)


@pytest.mark.parametrize("draw", [to_mermaid, to_dot])
def test_drawing_a_graph_released_by_backward_says_retain_graph(draw):
    x = tg.Variable(np.array(2.0), name="x")
    y = tg.exp(tg.square(x))
    y.backward()
    with pytest.raises(RuntimeError, match=r"retain_graph=True") as info:
        draw(y, show_grad=True)  # 고치기 전: 마지막 노드만 그린 틀린 그림
    korean_instruction(info.value)
    kept = tg.Variable(np.array(2.0), name="x")
    z = tg.exp(tg.square(kept))
    z.backward(retain_graph=True)
    assert "grad = " in draw(z, show_grad=True) and "Square" in draw(z)


# --- 라벨 -------------------------------------------------------------------------------


def test_show_grad_adds_a_grad_line():
    x = tg.Variable(np.array(3.0), name="x")
    y = x * x
    y.backward(retain_grad=True, retain_graph=True)
    nodes_, _ = parse_mermaid(to_mermaid(y, show_grad=True))
    assert nodes_[0] == ("variable", ["x = 3.0", "grad = 6.0"])
    assert nodes_[2] == ("variable", ["9.0", "grad = 1.0"])
    assert parse_mermaid(to_mermaid(y))[0][0] == ("variable", ["x = 3.0"])


def test_missing_grad_is_shown_as_none():
    x = step16.Variable(np.array(3.0))
    nodes_, _ = parse_mermaid(to_mermaid(step16.square(x), show_grad=True))
    assert nodes_[2] == ("variable", ["9.0", "grad = None"])


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (np.array(2.0), "2.0"),
        (np.array(1.0 / 3.0), "0.3333"),
        (np.array(7), "7"),
        (np.array(1e-8), "1e-08"),
        (np.array(True), "True"),
        (np.array([1.0, 2.5]), "[1.0, 2.5]"),
        (np.zeros((2, 3)), "shape (2, 3)"),
        (np.zeros(10), "shape (10,)"),
        (None, "None"),
    ],
)
def test_value_formatting(data, expected):
    # 정수와 bool 배열은 미분하지 않는 변수로만 담을 수 있습니다.
    variable = tg.Variable(data, requires_grad=data is None or data.dtype.kind == "f")
    assert to_mermaid(variable) == f'flowchart LR\n    n0(["{expected}"])'


def test_gradient_that_is_a_variable_is_shown_by_its_data():
    x = tg.Variable(np.array(1.0), name="x")
    x.grad = tg.Variable(np.array(4.0))  # 미분값을 다시 미분하는 장(고계 미분)에서 생기는 모양
    assert to_mermaid(x, show_grad=True) == 'flowchart LR\n    n0(["x = 1.0<br>grad = 4.0"])'


def test_labels_are_escaped():
    x = tg.Variable(np.array(1.0), name='a"<b>#c')
    assert to_mermaid(x) == 'flowchart LR\n    n0(["a#quot;#lt;b#gt;#35;c = 1.0"])'
    assert 'label="a\\"<b>#c = 1.0"' in to_dot(x)


# --- micrograd 방식 Value ----------------------------------------------------------------


def value_expression(module):
    a = module.Value(2.0)
    b = module.Value(-3.0)
    c = module.Value(10.0)
    for node, name in ((a, "a"), (b, "b"), (c, "c")):
        node.label = name
    d = a * b + c
    d.label = "d"
    return d


@pytest.mark.parametrize("module", [value, closure_value])
def test_value_graph_ops_become_function_nodes(module):
    d = value_expression(module)
    nodes_, edges = parse_mermaid(to_mermaid(d))
    check_data_flow(nodes_, edges)
    assert [nodes_[i] for i in range(len(nodes_))] == [
        ("variable", ["a = 2.0"]),
        ("variable", ["b = -3.0"]),
        ("function", ["*"]),
        ("variable", ["-6.0"]),
        ("variable", ["c = 10.0"]),
        ("function", ["+"]),
        ("variable", ["d = 4.0"]),
    ]


def test_value_grad_is_shown():
    d = value_expression(value)
    d.backward()
    nodes_, _ = parse_mermaid(to_mermaid(d, show_grad=True))
    assert nodes_[0] == ("variable", ["a = 2.0", "grad = -3.0"])
    assert nodes_[len(nodes_) - 1] == ("variable", ["d = 4.0", "grad = 1.0"])


def test_unordered_prev_is_refused():
    """입력을 집합에 담은 노드는 실행마다 그림이 달라질 수 있어 그리지 않습니다."""
    node = closure_value.Value(1.0)
    node._prev = {closure_value.Value(2.0)}
    with pytest.raises(TypeError, match="집합"):
        to_mermaid(node)


# --- 참조 그림(refs=True) ----------------------------------------------------------------


def test_step07_references_exact_text():
    x = named(step07, 0.5, "x")
    a = step07.Square()(x)
    a.name = "a"
    assert to_mermaid(a, refs=True) == "\n".join(
        [
            "flowchart LR",
            '    n0(["x = 0.5"])',
            '    n1["Square"]',
            '    n2(["a = 0.25"])',
            '    n1 -->|"input"| n0',
            '    n1 -->|"output"| n2',
            '    n2 -->|"creator"| n1',
        ]
    )


def test_step16_cycle_is_strong_and_step17_output_is_weak():
    for module, weak in ((step16, False), (step17, True)):
        x = named(module, 2.0, "x")
        y = module.square(x)
        nodes_, edges = parse_mermaid(to_mermaid(y, refs=True))
        assert (2, 1, "creator", False) in edges  # 출력 → 창조자는 늘 강한 참조
        assert (1, 2, "outputs[0]", weak) in edges  # 창조자 → 출력
        assert (1, 0, "inputs[0]", False) in edges
        assert parse_dot(to_dot(y, refs=True)) == (nodes_, edges)


def test_references_follow_what_the_final_engine_keeps_after_backward():
    x = tg.Variable(np.array(3.0), name="x")
    y = tg.square(x)
    before = parse_mermaid(to_mermaid(y, refs=True))[1]
    y.backward()  # retain_graph=False: 함수가 입력을 놓아 줍니다
    after = parse_mermaid(to_mermaid(y, refs=True))[1]
    assert (1, 0, "inputs[0]", False) in before
    assert [label for _, _, label, _ in after] == ["outputs[0]", "creator"]


def test_closure_value_shows_the_cycle_through_its_closure():
    a = closure_value.Value(2.0)
    b = closure_value.Value(3.0)
    c = a * b
    nodes_, edges = parse_mermaid(to_mermaid(c, refs=True))
    closure = labels(nodes_).index("_backward (클로저)")
    out = labels(nodes_).index("6.0")
    assert (out, closure, "_backward", False) in edges
    assert (closure, out, "out", False) in edges  # 출력 → 클로저 → 출력: 순환 참조


def test_value_rules_are_shared_functions_without_cycles():
    a = value.Value(2.0)
    d = a * 3.0 * 4.0
    nodes_, edges = parse_mermaid(to_mermaid(d, refs=True))
    assert labels(nodes_).count("_mul_backward") == 1  # 두 곱셈이 같은 규칙 함수를 가리킵니다
    rule = labels(nodes_).index("_mul_backward")
    assert not [edge for edge in edges if edge[0] == rule]  # 규칙은 아무 노드도 가리키지 않습니다


# --- 강조와 흐리게 ------------------------------------------------------------------------


def test_highlight_and_fade_add_classes():
    x = step08.Variable(np.array(0.5))
    a = step08.Square()(x)
    y = step08.Exp()(a)
    text = to_mermaid(y, highlight=[y.creator], fade=[a.creator, y.creator, x])
    assert text.splitlines()[-4:] == [
        "    classDef now fill:#ff980040,stroke:#e65100,stroke-width:3px",
        "    class n3 now",
        "    classDef done fill:#9e9e9e33,stroke:#9e9e9e,stroke-dasharray:4 3",
        "    class n0,n1 done",
    ]


def test_highlight_of_a_foreign_object_is_refused():
    y = step08.Square()(step08.Variable(np.array(1.0)))
    other = step08.Square()(step08.Variable(np.array(2.0)))
    with pytest.raises(ValueError, match="그래프에 없습니다"):
        to_mermaid(y, highlight=[other.creator])


def test_nodes_returns_the_objects_in_drawing_order():
    x = step08.Variable(np.array(0.5))
    a = step08.Square()(x)
    y = step08.Exp()(a)
    assert nodes(y) == [x, a.creator, a, y.creator, y]
    d = value_expression(value)
    assert [n.label for n in nodes(d)] == ["a", "b", "", "c", "d"]  # 연산 자리표시자는 빠집니다


# --- 결정성, 깊은 그래프, 크기 한도, 잘못된 입력 ---------------------------------------------


def test_output_never_contains_addresses_and_is_repeatable():
    def build():
        x = tg.Variable(np.array([1.0, 2.0]), name="x")
        return (x + x) * x

    first, second = build(), build()
    assert to_mermaid(first) == to_mermaid(second) == to_mermaid(first)
    assert to_mermaid(first, refs=True) == to_mermaid(second, refs=True)
    assert "0x" not in to_mermaid(first) + to_dot(first) + to_mermaid(first, refs=True)


def test_deep_chain_does_not_recurse():
    y = step08.Variable(np.array(1.0))
    depth = 3000  # 재귀로 순회했다면 파이썬의 재귀 한도(1000)를 넘습니다.
    for _ in range(depth):
        y = step08.Square()(y)
    nodes_, edges = parse_mermaid(to_mermaid(y, max_nodes=2 * depth + 1))
    assert len(nodes_) == 2 * depth + 1
    assert len(edges) == 2 * depth


def test_deep_value_chain_does_not_recurse():
    v = value.Value(1.0)
    for _ in range(3000):
        v = v + 0.0
    nodes_, _ = parse_mermaid(to_mermaid(v, max_nodes=10_000))
    assert len(nodes_) == 1 + 3 * 3000


def test_too_large_graph_raises_korean_error():
    y = step08.Variable(np.array(1.0))
    for _ in range(DEFAULT_MAX_NODES):
        y = step08.Square()(y)
    with pytest.raises(ValueError, match="max_nodes"):
        to_mermaid(y)
    with pytest.raises(ValueError, match="노드가 5개를 넘어"):
        to_dot(y, max_nodes=5)


def test_too_large_value_graph_raises():
    v = value.Value(1.0)
    for _ in range(10):
        v = v * 2.0
    with pytest.raises(ValueError, match="max_nodes"):
        to_mermaid(v, max_nodes=10)


@pytest.mark.parametrize("bad", [3.0, "y", np.array(1.0), object()])
def test_non_graph_input_raises_type_error(bad):
    with pytest.raises(TypeError, match="받은 값"):
        to_mermaid(bad)


@pytest.mark.parametrize(
    ("bad", "error"), [(0, ValueError), (-1, ValueError), (2.5, TypeError), (True, TypeError)]
)
def test_bad_max_nodes(bad, error):
    with pytest.raises(error, match="max_nodes"):
        to_mermaid(step07.Variable(np.array(1.0)), max_nodes=bad)


def test_empty_list_of_outputs():
    with pytest.raises(ValueError, match="출력 노드가 없습니다"):
        to_mermaid([])
    with pytest.raises(ValueError, match="출력 노드가 없습니다"):
        nodes([])
