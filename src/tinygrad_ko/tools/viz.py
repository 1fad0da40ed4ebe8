"""계산 그래프를 그림 텍스트(mermaid, Graphviz DOT)로 바꿉니다.

라이브러리가 실제로 만든 그래프를 출력 노드에서 거꾸로 따라가며 읽으므로, 페이지에 그린 그림이
코드가 만든 그래프와 다를 수 없습니다. 노드는 모양으로 구별합니다.

- 변수(`Variable`, micrograd 방식의 `Value`): 둥근 상자(mermaid) / 타원(DOT)
- 함수(`Function`의 클래스 이름, `Value`의 연산 `_op`): 직사각형

클래스를 import하지 않고 속성만 보고(덕 타이핑) 이 프로젝트가 만드는 세 가지 그래프를 읽습니다.

1. 7~10단계: `var.creator`, 함수의 `input` / `output`(변수 하나)
2. 11단계 이후와 최종 엔진: 함수의 `inputs` 리스트, `outputs` 리스트(변수, 또는 17단계부터는
   변수를 가리키는 `weakref.ref`)
3. micrograd 방식의 `Value`(45장): `_prev`(입력 노드의 튜플), `_op`(연산 이름), `data`, `grad`

최종 엔진에서 기본값(`retain_graph=False`)으로 역전파한 그래프는 함수가 입력을 놓아 주었으므로 값의
흐름을 그릴 수 없습니다. 그때는 마지막 함수만 남은 틀린 그림 대신 `retain_graph=True`를 알려 주는
RuntimeError를 냅니다.

그림은 두 가지입니다. 기본 그림은 값이 흐르는 방향(입력 → 함수 → 출력)으로 화살표를 긋고,
`refs=True`이면 객체가 다른 객체를 가리키는 참조(`creator`, `inputs[0]`, `outputs[0]`, `_prev[0]`)를
이름표를 단 화살표로 긋습니다. 약한 참조(`weakref.ref`)는 점선입니다.

노드 번호(n0, n1, ...)는 입력 쪽부터 매기는 후위 순회 순서이고, 객체의 주소(`id`)에 기대지
않으므로 같은 코드와 같은 값으로 다시 만든 그래프는 언제나 같은 텍스트가 됩니다(라벨에 값이 들어갑니다). 순회는 재귀 없이 스택으로 하므로 아주 깊은
그래프에서도 `RecursionError`가 나지 않습니다. 같은 함수 객체를 자기 출력에 다시 써서 연결이 맴도는
그래프는 값의 흐름으로 그릴 수 없으므로 ValueError로 알려 줍니다(참조 그림은 그대로 그립니다).
"""

from __future__ import annotations

import numbers
import weakref
from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np

from .._checks import check_count

__all__ = ["DEFAULT_MAX_NODES", "mermaid_text", "node_name", "nodes", "to_dot", "to_mermaid"]

# 이보다 큰 그림은 페이지에서 읽을 수 없고 mermaid도 그리기를 거부합니다(기본 간선 한도 500).
DEFAULT_MAX_NODES = 200

_VARIABLE = "variable"
_FUNCTION = "function"

# 강조(highlight)와 흐리게(fade) 표시의 색. 밝은 화면과 어두운 화면에서 모두 읽히도록 글자색을 정합니다.
_MERMAID_CLASSES = {
    "now": "fill:#ff980040,stroke:#e65100,stroke-width:3px",
    "done": "fill:#9e9e9e33,stroke:#9e9e9e,stroke-dasharray:4 3",
}


@dataclass
class _Edge:
    source: int
    target: int
    label: str = ""
    weak: bool = False


@dataclass
class _Graph:
    """그림 형식과 상관없는 중간 표현: 번호 순서의 노드와 간선."""

    kinds: list[str] = field(default_factory=list)
    labels: list[list[str]] = field(default_factory=list)
    edges: list[_Edge] = field(default_factory=list)
    classes: dict[int, str] = field(default_factory=dict)


def to_mermaid(
    output: object,
    show_grad: bool = False,
    *,
    refs: bool = False,
    highlight: Iterable[object] = (),
    fade: Iterable[object] = (),
    max_nodes: int = DEFAULT_MAX_NODES,
) -> str:
    """출력 노드(또는 출력 노드의 리스트)에서 시작한 계산 그래프를 mermaid flowchart 텍스트로 바꿉니다.

    - `show_grad=True`: 변수마다 `grad` 값을 한 줄 더 적습니다.
    - `refs=True`: 값의 흐름 대신 객체 사이의 참조를 이름표 단 화살표로 그립니다(약한 참조는 점선).
    - `highlight`, `fade`: 그래프 안의 노드(변수나 함수 객체)를 강조하거나 흐리게 칠합니다.

    노드가 `max_nodes`개를 넘으면 `ValueError`를 냅니다.
    """
    graph = _collect(output, show_grad, refs, highlight, fade, max_nodes)
    lines = ["flowchart LR"]
    for index, (kind, label) in enumerate(zip(graph.kinds, graph.labels, strict=True)):
        text = "<br>".join(mermaid_text(line) for line in label)
        if kind == _VARIABLE:
            lines.append(f'    n{index}(["{text}"])')
        else:
            lines.append(f'    n{index}["{text}"]')
    for edge in graph.edges:
        arrow = "-.->" if edge.weak else "-->"
        label = f'|"{mermaid_text(edge.label)}"|' if edge.label else ""
        lines.append(f"    n{edge.source} {arrow}{label} n{edge.target}")
    for name in _MERMAID_CLASSES:
        members = [f"n{i}" for i, cls in sorted(graph.classes.items()) if cls == name]
        if members:
            lines.append(f"    classDef {name} {_MERMAID_CLASSES[name]}")
            lines.append(f"    class {','.join(members)} {name}")
    return "\n".join(lines)


def to_dot(
    output: object,
    show_grad: bool = False,
    *,
    refs: bool = False,
    max_nodes: int = DEFAULT_MAX_NODES,
) -> str:
    """`to_mermaid`와 같은 그래프를 Graphviz DOT 텍스트로 바꿉니다(`dot -Tsvg`로 그릴 수 있습니다)."""
    graph = _collect(output, show_grad, refs, (), (), max_nodes)
    lines = ["digraph computational_graph {", "    rankdir=LR;"]
    for index, (kind, label) in enumerate(zip(graph.kinds, graph.labels, strict=True)):
        text = "\\n".join(_dot_escape(line) for line in label)
        shape = "ellipse" if kind == _VARIABLE else "box"
        lines.append(f'    n{index} [label="{text}", shape={shape}];')
    for edge in graph.edges:
        attributes = []
        if edge.label:
            attributes.append(f'label="{_dot_escape(edge.label)}"')
        if edge.weak:
            attributes.append("style=dashed")
        suffix = f" [{', '.join(attributes)}]" if attributes else ""
        lines.append(f"    n{edge.source} -> n{edge.target}{suffix};")
    lines.append("}")
    return "\n".join(lines)


def nodes(output: object, *, max_nodes: int = DEFAULT_MAX_NODES) -> list[object]:
    """그림에 나오는 변수와 함수 객체를 그림의 번호 순서(n0, n1, ...)대로 돌려줍니다.

    micrograd 방식 `Value`의 연산 노드처럼 그림에만 있는 자리표시자는 빼고, 실제 객체만 담습니다.
    """
    reader, _ = _read(output, show_grad=False, refs=False, max_nodes=max_nodes)
    return [obj for obj in reader.emitted if not isinstance(obj, _OpNode | _CodeNode)]


# --- 그래프 읽기 ------------------------------------------------------------------------


class _OpNode:
    """micrograd 방식 `Value`의 연산(`_op`)을 함수 노드로 그리기 위한 자리표시자입니다."""

    __slots__ = ("value",)

    def __init__(self, value: object) -> None:
        self.value = value


class _FreedVariable:
    """최종 엔진에서 아무도 붙잡지 않아 이미 풀린 중간 변수의 자리표시자입니다(값 없이 창조자만).

    역전파가 그래프를 놓아 준 함수(`_released_by_backward`)와는 다릅니다. 그 함수는 입력을 모르므로
    그리지 않고 거부합니다.
    """

    __slots__ = ("creator",)

    def __init__(self, creator: object) -> None:
        self.creator = creator


class _CodeNode:
    """참조 그림에서 노드가 가리키는 역전파 규칙(클로저나 모듈 함수)을 그리기 위한 자리표시자입니다."""

    __slots__ = ("function",)

    def __init__(self, function: object) -> None:
        self.function = function


def _collect(
    output: object,
    show_grad: bool,
    refs: bool,
    highlight: Iterable[object],
    fade: Iterable[object],
    max_nodes: int,
) -> _Graph:
    reader, graph = _read(output, show_grad, refs, max_nodes)
    for objects, name in ((fade, "done"), (highlight, "now")):  # 둘 다면 강조가 이깁니다.
        for obj in objects:
            index = reader.number.get(id(obj))
            if index is None:
                raise ValueError(
                    f"강조하거나 흐리게 할 노드가 그래프에 없습니다. 받은 값: {type(obj).__name__}. "
                    f"그리는 그래프 안의 변수나 함수 객체를 넘겨 주세요."
                )
            graph.classes[index] = name
    return graph


def _read(
    output: object, show_grad: bool, refs: bool, max_nodes: int
) -> tuple[_GraphReader, _Graph]:
    max_nodes = check_count("max_nodes", max_nodes)
    roots = list(output) if isinstance(output, list | tuple) else [output]
    if not roots:
        raise ValueError("그릴 출력 노드가 없습니다. 변수(Variable)나 Value를 하나 이상 주세요.")
    for root in roots:
        _check_root(root)
    reader = _GraphReader(max_nodes)
    return reader, reader.read(roots, show_grad, refs)


def _check_root(root: object) -> None:
    if is_variable_node(root):
        prev = getattr(root, "_prev", ())
        if isinstance(prev, set | frozenset):
            raise TypeError(
                "_prev가 순서 없는 집합(set)인 노드는 그리지 않습니다: 실행할 때마다 그림이 "
                "달라질 수 있습니다. tinygrad_ko.micrograd.value.Value처럼 입력을 튜플로 기억하는 노드를 "
                "넘겨 주세요."
            )
        return
    if hasattr(root, "data") and not isinstance(root, np.ndarray):
        raise TypeError(
            f"받은 값: {type(root).__name__}. 창조자(creator) 연결이 없어 그릴 계산 그래프가 "
            f"없습니다. 변수와 함수의 연결은 7단계(tinygrad_ko.steps.step07)부터 생깁니다."
        )
    raise TypeError(
        f"계산 그래프의 출력 노드(Variable 또는 Value)가 필요합니다. "
        f"받은 값: {type(root).__name__}. 함수를 호출해서 얻은 출력 변수를 넘겨 주세요."
    )


class _GraphReader:
    """출력에서 거꾸로 후위 순회(입력이 먼저)하며 노드 번호와 간선을 정합니다.

    노드는 `id()`로 구별하지만 출력에는 번호만 씁니다. 순회하는 동안 만난 객체를 모두 붙잡아
    두므로(`_keep_alive`) 그사이 주소가 다른 객체에 재사용되지 않습니다.
    """

    def __init__(self, max_nodes: int) -> None:
        self.max_nodes = max_nodes
        self.number: dict[int, int] = {}
        self.emitted: list[object] = []
        self._placeholders: dict[tuple[type, int], object] = {}
        self._freed: dict[tuple[int, int], _FreedVariable] = {}
        self._inputs: dict[int, list | None] = {}
        self._keep_alive: list[object] = []

    def read(self, roots: list[object], show_grad: bool, refs: bool) -> _Graph:
        graph = _Graph()
        number = self.number
        seen: set[int] = set()
        emitted = self.emitted

        def emit(node: object) -> None:
            number[id(node)] = len(graph.kinds)
            emitted.append(node)
            if is_variable_node(node):
                graph.kinds.append(_VARIABLE)
                graph.labels.append(_variable_label(node, show_grad))
            else:
                graph.kinds.append(_FUNCTION)
                graph.labels.append([_function_label(node)])
            if not refs:
                for dep in self.dependencies(node):
                    # 입력 쪽 노드가 아직 번호가 없다면 지나온 조상이므로 연결이 맴돕니다.
                    if id(dep) not in number:
                        raise _cycle_error(node, dep)
                    graph.edges.append(_Edge(number[id(dep)], number[id(node)]))

        def mark(node: object) -> None:
            seen.add(id(node))
            self._keep_alive.append(node)
            if len(seen) > self.max_nodes:
                raise ValueError(
                    f"계산 그래프의 노드가 {self.max_nodes}개를 넘어 그리지 않습니다. 이렇게 큰 "
                    f"그림은 페이지에서 읽을 수 없습니다. 더 작은 그래프를 그리거나 max_nodes를 "
                    f"늘려 주세요."
                )

        stack: list[tuple[object, bool]] = [(root, False) for root in reversed(roots)]
        while stack:
            node, expanded = stack.pop()
            if expanded:
                emit(node)
                # 출력이 여럿인 함수: 아직 보지 못한 다른 출력도 함수 바로 뒤에 그립니다.
                for sibling in _other_outputs(node):
                    if id(sibling) not in seen:
                        mark(sibling)
                        emit(sibling)
                continue
            if id(node) in seen:
                continue
            mark(node)
            stack.append((node, True))
            for dep in reversed(self.dependencies(node, refs)):
                if id(dep) not in seen:
                    stack.append((dep, False))
        if refs:
            for node in emitted:
                for label, target, weak in self.references(node):
                    if id(target) in number:
                        graph.edges.append(_Edge(number[id(node)], number[id(target)], label, weak))
        return graph

    def dependencies(self, node: object, refs: bool = False) -> list[object]:
        """노드가 기대는 앞쪽 노드들. 함수의 입력은 중복도 그대로 둡니다(같은 변수를 두 번 쓴 경우)."""
        if isinstance(node, _CodeNode):
            return []
        if isinstance(node, _OpNode):
            return list(getattr(node.value, "_prev", ()))
        if _is_value(node):
            if refs:  # 참조 그림에서는 연산 노드 없이 Value가 _prev를 직접 가리킵니다.
                code = self._code_of(node)
                return list(node._prev) + ([] if code is None else [code])
            if node._prev or getattr(node, "_op", ""):
                return [self._placeholder(_OpNode, node)]
            return []
        if is_variable_node(node):
            creator = getattr(node, "creator", None)
            return [] if creator is None else [creator]
        inputs = self._inputs_of(node)
        if inputs is None and not refs and _released_by_backward(node):
            raise RuntimeError(
                f"{type(node).__name__}의 그래프는 앞선 역전파(retain_graph=False)에서 해제되어 입력을 "
                f"알 수 없습니다. 이대로 그리면 마지막 함수만 남은 틀린 그림이 됩니다(참조 그림 "
                f"refs=True는 해제된 지금의 참조를 그대로 그립니다). 역전파한 뒤에도 그래프를 그리려면 "
                f"backward(retain_graph=True)로 역전파하거나, 역전파하기 전에 그리세요."
            )
        if inputs is not None:
            if (
                getattr(node, "edges", None) is not None
            ):  # 최종 엔진: 풀린 중간 변수가 있을 수 있습니다.
                return [
                    self._live_or_freed(x, edge) for x, edge in zip(inputs, node.edges, strict=True)
                ]
            return list(inputs)
        single = getattr(node, "input", None)
        return [] if single is None else [single]

    def _inputs_of(self, node: object) -> list | None:
        """함수의 `inputs`를 한 그림에서 한 번만 읽습니다. 최종 엔진은 상수를 읽을 때마다 새 변수로
        감싸 보여 주므로(그래프는 그대로 두려고), 처음 읽은 목록을 다시 써야 상수 하나가 노드 하나가 됩니다."""
        key = id(node)
        if key not in self._inputs:
            inputs = getattr(node, "inputs", None)
            self._inputs[key] = None if inputs is None else list(inputs)
            self._keep_alive.append(node)
        return self._inputs[key]

    def _live_or_freed(self, x: object, edge: object) -> object:
        """살아 있는 입력은 그대로, 이미 풀린 중간 변수는 (창조자, 출력 번호)마다 자리표시자 하나."""
        if x is not None:
            return x
        creator, index = edge
        key = (id(creator), index)
        if key not in self._freed:
            self._freed[key] = _FreedVariable(creator)
            self._keep_alive.append(creator)
        return self._freed[key]

    def references(self, node: object) -> list[tuple[str, object, bool]]:
        """참조 그림의 간선: (속성 이름, 가리키는 객체, 약한 참조인가)."""
        if isinstance(node, _CodeNode):
            cells = getattr(node.function, "__closure__", None) or ()
            names = getattr(getattr(node.function, "__code__", None), "co_freevars", ())
            return [
                (name, cell.cell_contents, False) for name, cell in zip(names, cells, strict=True)
            ]
        if _is_value(node):
            found = [(f"_prev[{i}]", child, False) for i, child in enumerate(node._prev)]
            code = self._code_of(node)
            if code is not None:
                found.append((_code_attribute(node), code, False))
            return found
        if is_variable_node(node):
            creator = getattr(node, "creator", None)
            return [] if creator is None else [("creator", creator, False)]
        found = []
        inputs = self._inputs_of(node)
        if inputs is not None:
            found += [(f"inputs[{i}]", x, False) for i, x in enumerate(inputs)]
        elif getattr(node, "input", None) is not None:
            found.append(("input", node.input, False))
        outputs = getattr(node, "outputs", None)
        if outputs is not None:
            for i, out in enumerate(outputs):
                weak = isinstance(out, weakref.ReferenceType)
                target = out() if weak else out
                if target is not None:
                    found.append((f"outputs[{i}]", target, weak))
        elif getattr(node, "output", None) is not None:
            found.append(("output", node.output, False))
        return found

    def _code_of(self, value: object) -> _CodeNode | None:
        """Value가 가리키는 역전파 규칙: 노드마다의 클로저(`_backward`)나 연산마다의 함수(`_rule`)."""
        function = _code_target(value)
        return None if function is None else self._placeholder(_CodeNode, function)

    def _placeholder(self, kind: type, obj: object) -> object:
        # 같은 대상에는 자리표시자를 하나만 만들어야 같은 노드로 인식됩니다.
        key = (kind, id(obj))
        node = self._placeholders.get(key)
        if node is None:
            node = self._placeholders[key] = kind(obj)
            self._keep_alive.append(obj)
        return node


def _cycle_error(node: object, dep: object) -> ValueError:
    """값의 흐름을 거슬러 가다가 지나온 노드로 되돌아온 경우의 오류."""
    function = dep if is_variable_node(node) else node
    return ValueError(
        f"계산 그래프에 순환이 있어 값의 흐름을 그릴 수 없습니다: {type(function).__name__} 함수 객체의 "
        f"입력을 거슬러 가면 그 함수가 만든 변수로 되돌아옵니다. 같은 함수 객체를 자기 출력(이나 그 "
        f"출력에서 계산한 값)에 다시 쓰면(예: A = Square(); y = A(A(x))) 함수는 마지막 호출의 입력과 출력만 기억하므로 연결이 "
        f"처음 입력에 닿지 못하고 맴돕니다. 함수를 부를 때마다 Square()(Square()(x))처럼 새 함수 "
        f"객체를 만들어 주세요. 지금의 참조를 그대로 보려면 refs=True로 그리세요."
    )


def _code_target(value: object) -> object | None:
    rule = getattr(value, "_rule", None)
    if rule is not None:
        return rule
    backward = value.__dict__.get("_backward") if hasattr(value, "__dict__") else None
    if backward is not None and getattr(backward, "__closure__", None):
        return backward
    return None


def _code_attribute(value: object) -> str:
    return "_rule" if getattr(value, "_rule", None) is not None else "_backward"


def _is_value(node: object) -> bool:
    return hasattr(node, "_prev") and not isinstance(node, _OpNode | _CodeNode)


def is_variable_node(node: object) -> bool:
    """그래프의 노드가 변수(단계별 Variable, 최종 엔진의 Variable, `Value`)인지. 아니면 함수입니다.

    `trace`도 이것으로 함수와 변수를 가릅니다.
    """
    # 1~6단계의 변수에는 creator가 없으므로 data와 grad로도 알아봅니다(ndarray에도 data는 있습니다).
    if isinstance(node, _FreedVariable):
        return True
    return not isinstance(node, _OpNode | _CodeNode) and (
        _is_value(node)
        or hasattr(node, "creator")
        or (hasattr(node, "data") and hasattr(node, "grad"))
    )


def _released_by_backward(node: object) -> bool:
    """최종 엔진의 함수가 그래프에 들었다가(outputs가 있음) 역전파에서 입력을 놓아 주었는지(edges가 None)."""
    return getattr(node, "edges", False) is None and getattr(node, "outputs", None) is not None


def _other_outputs(node: object) -> list[object]:
    """함수 노드의 출력 가운데 아직 살아 있는 변수들(약한 참조는 풀어서)."""
    if is_variable_node(node) or isinstance(node, _OpNode | _CodeNode):
        return []
    return live_outputs(node)


def live_outputs(func: object) -> list[object]:
    """함수의 출력 변수들 가운데 살아 있는 것. 7~10단계의 `output`과 이후의 `outputs`(약한 참조)를 모두 읽습니다."""
    outputs = getattr(func, "outputs", None)
    if outputs is None:
        single = getattr(func, "output", None)
        outputs = [] if single is None else [single]
    alive = []
    for out in outputs:
        if isinstance(out, weakref.ReferenceType):
            out = out()
        if out is not None:
            alive.append(out)
    return alive


# --- 라벨 -----------------------------------------------------------------------------


def node_name(node: object) -> str | None:
    """노드의 이름: 변수의 `name`이나 `Value`의 `label`. 없으면 None."""
    for attribute in ("name", "label"):
        name = getattr(node, attribute, None)
        if isinstance(name, str) and name:
            return name
    return None


def _variable_label(node: object, show_grad: bool) -> list[str]:
    if isinstance(node, _FreedVariable):
        return ["(해제됨)"]
    value = _format_value(getattr(node, "data", None))
    name = node_name(node)
    lines = [f"{name} = {value}" if name else value]
    if show_grad:
        lines.append(f"grad = {_format_value(getattr(node, 'grad', None))}")
    return lines


def _function_label(node: object) -> str:
    if isinstance(node, _OpNode):
        op = getattr(node.value, "_op", "")
        return str(op) if op else "?"
    if isinstance(node, _CodeNode):
        name = getattr(node.function, "__name__", type(node.function).__name__)
        return f"{name} (클로저)" if getattr(node.function, "__closure__", None) else name
    return type(node).__name__


def _format_value(value: object) -> str:
    """스칼라와 0차원 배열은 짧은 수로, 작은 1차원 배열은 원소로, 큰 배열은 모양으로 적습니다."""
    if value is None:
        return "None"
    if not isinstance(value, np.ndarray | numbers.Number) and hasattr(value, "data"):
        return _format_value(value.data)  # 미분값이 Variable인 경우
    if isinstance(value, np.ndarray):
        if value.ndim == 0:
            return _format_scalar(value.item())
        if value.ndim == 1 and value.size <= 4:
            return "[" + ", ".join(_format_scalar(item) for item in value.tolist()) + "]"
        return f"shape {tuple(value.shape)}"
    if isinstance(value, numbers.Number):
        return _format_scalar(value)
    text = repr(value)
    return text if len(text) <= 20 else text[:17] + "..."


def _format_scalar(value: object) -> str:
    if isinstance(value, bool | np.bool_):
        return str(bool(value))
    if isinstance(value, numbers.Integral):
        return str(int(value))
    if isinstance(value, numbers.Real):
        # 유효숫자 네 자리로 줄이되 2.0처럼 실수임은 보이게 합니다.
        return repr(float(format(float(value), ".4g")))
    return str(value)


def mermaid_text(text: str) -> str:
    """mermaid 라벨 안에 그대로 넣을 수 있게 글자를 바꿉니다."""
    # mermaid는 라벨 안의 HTML과 따옴표를 해석하므로 #코드; 형식으로 바꿉니다. '#'을 먼저 바꿉니다.
    text = text.replace("\n", " ").replace("#", "#35;")
    return text.replace('"', "#quot;").replace("<", "#lt;").replace(">", "#gt;")


def _dot_escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ")
