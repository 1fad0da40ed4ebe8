"""tinygrad_ko.viz: 계산 그래프를 mermaid / DOT 텍스트로 바꾸는 기능의 테스트.

viz는 클래스를 import하지 않고 속성만 보고 그래프를 읽습니다. 그래서 여기서는 이 저장소에 있는
세 가지 노드 모양을 흉내 낸 작은 클래스로 먼저 시험하고, 실제 엔진으로도 시험합니다.
"""

from __future__ import annotations

import importlib
import re
import weakref

import numpy as np
import pytest

from tinygrad_ko.viz import DEFAULT_MAX_NODES, to_dot, to_mermaid

# --- 7~10단계 모양: var.creator, 함수의 input / output(변수 하나) ---------------------------


class StepVariable:
    def __init__(self, data):
        self.data = np.asarray(data)
        self.grad = None
        self.creator = None


class StepFunction:
    def __call__(self, input):
        output = StepVariable(self.forward(input.data))
        output.creator = self
        self.input = input
        self.output = output
        return output


class Square(StepFunction):
    def forward(self, x):
        return x**2


class Exp(StepFunction):
    def forward(self, x):
        return np.exp(x)


# --- 11단계 이후와 최종 엔진 모양: inputs 리스트, outputs 리스트(변수 또는 weakref) -----------


class ListVariable:
    def __init__(self, data, name=None):
        self.data = np.asarray(data)
        self.name = name
        self.grad = None
        self.creator = None


class ListFunction:
    use_weakref = False

    def __call__(self, *inputs):
        ys = self.forward(*[x.data for x in inputs])
        outputs = [ListVariable(y) for y in (ys if isinstance(ys, tuple) else (ys,))]
        for output in outputs:
            output.creator = self
        self.inputs = list(inputs)
        self.outputs = [weakref.ref(o) for o in outputs] if self.use_weakref else outputs
        return outputs if len(outputs) > 1 else outputs[0]


class Add(ListFunction):
    def forward(self, a, b):
        return a + b


class Mul(ListFunction):
    def forward(self, a, b):
        return a * b


class Split(ListFunction):
    """출력이 둘인 함수: 배열을 앞뒤 절반으로 나눕니다."""

    def forward(self, x):
        half = len(x) // 2
        return x[:half], x[half:]


class WeakSplit(Split):
    use_weakref = True


# --- micrograd 모양: _prev, _op, data, grad ------------------------------------------------


class FakeValue:
    def __init__(self, data, children=(), op="", label="", prev_type=tuple):
        self.data = data
        self.grad = 0.0
        self._prev = prev_type(children)
        self._op = op
        self.label = label

    def __add__(self, other):
        return FakeValue(self.data + other.data, (self, other), "+", prev_type=type(self._prev))

    def __mul__(self, other):
        return FakeValue(self.data * other.data, (self, other), "*", prev_type=type(self._prev))


class ReversedSet(set):
    """반복 순서가 보통 집합과 반대인 집합: viz가 집합의 순서에 기대지 않는지 봅니다."""

    def __iter__(self):
        return reversed(list(super().__iter__()))


# --- 그림 텍스트를 다시 읽는 작은 파서 --------------------------------------------------------

MERMAID_VARIABLE = re.compile(r'^    n(\d+)\(\["(.*)"\]\)$')
MERMAID_FUNCTION = re.compile(r'^    n(\d+)\["(.*)"\]$')
MERMAID_EDGE = re.compile(r"^    n(\d+) --> n(\d+)$")
DOT_NODE = re.compile(r'^    n(\d+) \[label="(.*)", shape=(ellipse|box)\];$')
DOT_EDGE = re.compile(r"^    n(\d+) -> n(\d+);$")


def parse_mermaid(text):
    """mermaid 텍스트를 ({번호: (종류, 라벨 줄들)}, [간선]) 으로 읽습니다. 모르는 줄은 실패입니다."""
    lines = text.split("\n")
    assert lines[0] == "flowchart LR"
    nodes, edges = {}, []
    for line in lines[1:]:
        if m := MERMAID_VARIABLE.match(line):
            nodes[int(m[1])] = ("variable", m[2].split("<br>"))
        elif m := MERMAID_FUNCTION.match(line):
            nodes[int(m[1])] = ("function", [m[2]])
        elif m := MERMAID_EDGE.match(line):
            edges.append((int(m[1]), int(m[2])))
        else:
            raise AssertionError(f"알 수 없는 mermaid 줄: {line!r}")
    return nodes, edges


def parse_dot(text):
    lines = text.split("\n")
    assert lines[:2] == ["digraph computational_graph {", "    rankdir=LR;"]
    assert lines[-1] == "}"
    nodes, edges = {}, []
    for line in lines[2:-1]:
        if m := DOT_NODE.match(line):
            kind = "variable" if m[3] == "ellipse" else "function"
            nodes[int(m[1])] = (kind, m[2].split("\\n"))
        elif m := DOT_EDGE.match(line):
            edges.append((int(m[1]), int(m[2])))
        else:
            raise AssertionError(f"알 수 없는 DOT 줄: {line!r}")
    return nodes, edges


def check_well_formed(nodes, edges):
    """번호는 0부터 빈틈없이, 간선은 선언된 노드끼리, 변수와 함수가 번갈아 이어져야 합니다."""
    assert sorted(nodes) == list(range(len(nodes)))
    for source, target in edges:
        assert source in nodes and target in nodes
        assert nodes[source][0] != nodes[target][0], "변수끼리나 함수끼리 이어지면 안 됩니다"
        assert source < target, "입력 쪽 노드가 먼저 번호를 받아야 합니다"


# --- 7~10단계 모양 ---------------------------------------------------------------------


def test_step_style_chain_exact_text():
    x = StepVariable(2.0)
    y = Exp()(Square()(x))
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


def test_step_style_dot_matches_mermaid_structure():
    x = StepVariable(0.5)
    y = Square()(Exp()(Square()(x)))
    assert parse_dot(to_dot(y)) == parse_mermaid(to_mermaid(y))
    nodes, edges = parse_mermaid(to_mermaid(y))
    check_well_formed(nodes, edges)
    functions = [label[0] for kind, label in nodes.values() if kind == "function"]
    assert functions == ["Square", "Exp", "Square"]


def test_leaf_variable_alone_is_one_node():
    assert to_mermaid(StepVariable(3.0)) == 'flowchart LR\n    n0(["3.0"])'


# --- 11단계 이후 모양 ---------------------------------------------------------------------


def test_same_variable_twice_gives_two_edges():
    x = ListVariable(3.0, name="x")
    y = Add()(x, x)
    nodes, edges = parse_mermaid(to_mermaid(y))
    assert nodes[0] == ("variable", ["x = 3.0"])
    assert nodes[1] == ("function", ["Add"])
    assert edges.count((0, 1)) == 2


def test_shared_variable_is_drawn_once():
    x = ListVariable(2.0, name="x")
    a = Mul()(x, x)
    b = Add()(x, a)
    y = Mul()(a, b)
    nodes, edges = parse_mermaid(to_mermaid(y))
    check_well_formed(nodes, edges)
    labels = [label[0] for _, label in nodes.values()]
    assert labels.count("x = 2.0") == 1
    assert labels.count("4.0") == 1  # a
    assert len(nodes) == 7  # x, a, b, y 와 함수 셋
    assert len(edges) == 2 + 2 + 2 + 3  # 함수마다 입력 둘, 출력 하나


def test_multiple_outputs_are_all_drawn():
    x = ListVariable(np.arange(4.0), name="x")
    first, second = Split()(x)
    y = Mul()(first, first)
    nodes, edges = parse_mermaid(to_mermaid(y))
    check_well_formed(nodes, edges)
    split = next(i for i, (_, label) in nodes.items() if label == ["Split"])
    outputs = [target for source, target in edges if source == split]
    assert sorted(nodes[i][1][0] for i in outputs) == ["[0.0, 1.0]", "[2.0, 3.0]"]
    assert second is not None  # 두 번째 출력이 살아 있어야 그림에 나옵니다


def test_dead_weakref_output_is_skipped_and_live_one_is_kept():
    x = ListVariable(np.arange(4.0))
    first, second = WeakSplit()(x)
    keep = to_mermaid(Add()(first, first))
    del second
    nodes_before, _ = parse_mermaid(keep)
    y = Add()(first, first)
    nodes_after, edges = parse_mermaid(to_mermaid(y))
    check_well_formed(nodes_after, edges)
    assert len(nodes_before) == len(nodes_after) + 1
    assert "[2.0, 3.0]" not in [label[0] for _, label in nodes_after.values()]


def test_multiple_roots():
    x = ListVariable(1.0, name="x")
    first, second = Split()(ListVariable(np.arange(2.0)))
    nodes, edges = parse_mermaid(to_mermaid([Add()(x, x), second]))
    check_well_formed(nodes, edges)
    assert len(nodes) == 3 + 4  # x, Add, 출력 / 입력, Split, 두 출력


# --- 라벨 -------------------------------------------------------------------------------


def test_show_grad_adds_a_grad_line():
    x = ListVariable(3.0, name="x")
    y = Mul()(x, x)
    x.grad = np.array(6.0)
    nodes, _ = parse_mermaid(to_mermaid(y, show_grad=True))
    assert nodes[0] == ("variable", ["x = 3.0", "grad = 6.0"])
    assert nodes[2] == ("variable", ["9.0", "grad = None"])
    nodes, _ = parse_mermaid(to_mermaid(y))
    assert nodes[0] == ("variable", ["x = 3.0"])


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (np.array(2.0), "2.0"),
        (np.array(1.0) / 3.0, "0.3333"),
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
    var = ListVariable(0.0)
    var.data = data
    assert to_mermaid(var) == f'flowchart LR\n    n0(["{expected}"])'


def test_gradient_that_is_a_variable_is_shown_by_its_data():
    x = ListVariable(1.0, name="x")
    x.grad = ListVariable(4.0)
    assert to_mermaid(x, show_grad=True) == 'flowchart LR\n    n0(["x = 1.0<br>grad = 4.0"])'


def test_labels_are_escaped():
    x = ListVariable(1.0, name='a"<b>#c')
    mermaid = to_mermaid(x)
    assert mermaid == 'flowchart LR\n    n0(["a#quot;#lt;b#gt;#35;c = 1.0"])'
    dot = to_dot(x)
    assert 'label="a\\"<b>#c = 1.0"' in dot


# --- micrograd 모양 -----------------------------------------------------------------------


def build_neuron(prev_type):
    a = FakeValue(2.0, label="a", prev_type=prev_type)
    b = FakeValue(-3.0, label="b", prev_type=prev_type)
    c = FakeValue(10.0, label="c", prev_type=prev_type)
    d = a * b + c
    d.label = "d"
    return d


def test_value_graph_ops_become_function_nodes():
    d = build_neuron(tuple)
    nodes, edges = parse_mermaid(to_mermaid(d))
    check_well_formed(nodes, edges)
    assert [nodes[i] for i in range(len(nodes))] == [
        ("variable", ["a = 2.0"]),
        ("variable", ["b = -3.0"]),
        ("function", ["*"]),
        ("variable", ["-6.0"]),
        ("variable", ["c = 10.0"]),
        ("function", ["+"]),
        ("variable", ["d = 4.0"]),
    ]


def test_value_graph_with_set_prev_does_not_depend_on_set_order():
    forward = to_mermaid(build_neuron(set))
    backward = to_mermaid(build_neuron(ReversedSet))
    assert forward == backward
    assert to_dot(build_neuron(set)) == to_dot(build_neuron(ReversedSet))
    nodes, edges = parse_mermaid(forward)
    check_well_formed(nodes, edges)
    assert len(nodes) == 7


def test_value_grad_is_shown():
    d = build_neuron(tuple)
    d.grad = 1.0
    nodes, _ = parse_mermaid(to_mermaid(d, show_grad=True))
    assert nodes[len(nodes) - 1] == ("variable", ["d = 4.0", "grad = 1.0"])


# --- 결정성, 깊은 그래프, 크기 한도, 잘못된 입력 ---------------------------------------------


def test_output_never_contains_addresses_and_is_repeatable():
    def build():
        x = ListVariable(np.array([1.0, 2.0]), name="x")
        return Mul()(Add()(x, x), x)

    first, second = build(), build()
    assert to_mermaid(first) == to_mermaid(second) == to_mermaid(first)
    assert "0x" not in to_mermaid(first) + to_dot(first)


def test_deep_chain_does_not_recurse():
    x = StepVariable(1.0)
    y = x
    depth = 3000  # 재귀로 순회했다면 파이썬의 재귀 한도(1000)를 넘습니다.
    for _ in range(depth):
        y = Square()(y)
    nodes, edges = parse_mermaid(to_mermaid(y, max_nodes=2 * depth + 1))
    assert len(nodes) == 2 * depth + 1
    assert len(edges) == 2 * depth


def test_deep_value_chain_does_not_recurse():
    v = FakeValue(1.0, prev_type=set)
    for _ in range(3000):
        v = v + FakeValue(0.0, prev_type=set)
    nodes, _ = parse_mermaid(to_mermaid(v, max_nodes=10_000))
    assert len(nodes) == 1 + 3 * 3000


def test_too_large_graph_raises_korean_error():
    y = StepVariable(1.0)
    for _ in range(DEFAULT_MAX_NODES):
        y = Square()(y)
    with pytest.raises(ValueError, match="max_nodes"):
        to_mermaid(y)
    with pytest.raises(ValueError, match="노드가 5개를 넘어"):
        to_dot(y, max_nodes=5)


def test_too_large_value_graph_raises():
    v = FakeValue(1.0)
    for _ in range(10):
        v = v * FakeValue(2.0)
    with pytest.raises(ValueError, match="max_nodes"):
        to_mermaid(v, max_nodes=10)


@pytest.mark.parametrize("bad", [3.0, "y", np.array(1.0), object()])
def test_non_graph_input_raises_type_error(bad):
    with pytest.raises(TypeError, match="받은 값"):
        to_mermaid(bad)


@pytest.mark.parametrize("bad", [0, -1, 2.5, True])
def test_bad_max_nodes(bad):
    with pytest.raises(ValueError, match="max_nodes"):
        to_mermaid(StepVariable(1.0), max_nodes=bad)


def test_empty_list_of_outputs():
    with pytest.raises(ValueError, match="출력 노드가 없습니다"):
        to_mermaid([])


# --- 실제 엔진으로 -------------------------------------------------------------------------


def test_final_engine_graph():
    import tinygrad_ko as tg

    x = tg.Variable(np.array(0.5), name="x")
    y = tg.square(tg.exp(tg.square(x)))
    nodes, edges = parse_mermaid(to_mermaid(y))
    check_well_formed(nodes, edges)
    assert [label[0] for _, label in nodes.values()] == [
        "x = 0.5",
        "Square",
        "(해제됨)",  # Exp의 역전파에는 입력이 필요 없어, 아무도 쥐지 않은 x**2는 이미 풀렸습니다.
        "Exp",
        repr(float(format(np.exp(0.25), ".4g"))),
        "Square",
        repr(float(format(np.exp(0.25) ** 2, ".4g"))),
    ]
    assert parse_dot(to_dot(y)) == (nodes, edges)


def test_final_engine_operators_and_grad():
    import tinygrad_ko as tg

    x = tg.Variable(np.array(3.0), name="x")
    y = tg.Variable(np.array(2.0), name="y")
    z = x * y + x
    x.grad = np.array(3.0)  # 표시만 확인합니다: 실제 역전파 값은 엔진의 테스트가 봅니다.
    nodes, edges = parse_mermaid(to_mermaid(z, show_grad=True))
    check_well_formed(nodes, edges)
    assert ("variable", ["x = 3.0", "grad = 3.0"]) in nodes.values()
    assert sorted(label[0] for kind, label in nodes.values() if kind == "function") == [
        "Add",
        "Mul",
    ]


def _import_or_skip(module):
    try:
        return importlib.import_module(module)
    except ImportError:
        pytest.skip(f"{module} 모듈이 아직 없습니다(다른 이슈에서 만듭니다)")


def test_step07_snapshot_graph():
    step07 = _import_or_skip("tinygrad_ko.steps.step07")
    x = step07.Variable(np.array(0.5))
    y = step07.Square()(step07.Exp()(step07.Square()(x)))
    nodes, edges = parse_mermaid(to_mermaid(y))
    check_well_formed(nodes, edges)
    assert [label[0] for kind, label in nodes.values() if kind == "function"] == [
        "Square",
        "Exp",
        "Square",
    ]


def test_value_engine_graph():
    value = _import_or_skip("tinygrad_ko.value")
    a = value.Value(2.0)
    b = value.Value(-3.0)
    d = a * b + a
    nodes, edges = parse_mermaid(to_mermaid(d))
    check_well_formed(nodes, edges)
    kinds = [kind for kind, _ in nodes.values()]
    assert kinds.count("function") == 2
    assert kinds.count("variable") == 4  # a, b, a*b, d


def test_variable_without_links_explains_which_step_adds_them():
    import numpy as np
    import pytest

    from tinygrad_ko.steps import step01
    from tinygrad_ko.viz import to_mermaid

    with pytest.raises(TypeError, match="7단계"):
        to_mermaid(step01.Variable(np.array(1.0)))
