"""계산 그래프를 그림 텍스트(mermaid, Graphviz DOT)로 바꿉니다.

라이브러리가 실제로 만든 그래프를 출력 노드에서 거꾸로 따라가며 읽으므로, 페이지에 그린 그림이
코드가 만든 그래프와 다를 수 없습니다. 노드는 모양으로 구별합니다.

- 변수(`Variable`, micrograd 방식의 `Value`): 둥근 상자(mermaid) / 타원(DOT)
- 함수(`Function`의 클래스 이름, `Value`의 연산 `_op`): 직사각형

클래스를 import하지 않고 속성만 보고(덕 타이핑) 다음 세 가지 그래프를 모두 읽습니다.

1. 7~10단계: `var.creator`, 함수의 `input` / `output`(변수 하나)
2. 11단계 이후와 최종 엔진: 함수의 `inputs` 리스트, `outputs` 리스트(변수, 또는 17단계부터는
   변수를 가리키는 `weakref.ref`)
3. micrograd 방식의 `Value`: `_prev`(자식 노드의 집합이나 튜플), `_op`(연산 이름), `data`, `grad`

노드 번호(n0, n1, ...)는 입력 쪽부터 매기는 후위 순회 순서이고, 객체의 주소(`id`)에 기대지
않으므로 같은 그래프는 언제나 같은 텍스트가 됩니다. 순회는 재귀 없이 스택으로 하므로 아주 깊은
그래프에서도 `RecursionError`가 나지 않습니다.
"""

from __future__ import annotations

import hashlib
import numbers
import weakref
from dataclasses import dataclass, field

import numpy as np

__all__ = ["DEFAULT_MAX_NODES", "to_dot", "to_mermaid"]

# 이보다 큰 그림은 페이지에서 읽을 수 없고 mermaid도 그리기를 거부합니다(기본 간선 한도 500).
DEFAULT_MAX_NODES = 200

_VARIABLE = "variable"
_FUNCTION = "function"


@dataclass
class _Graph:
    """그림 형식과 상관없는 중간 표현: 번호 순서의 노드와 (출발, 도착) 간선."""

    kinds: list[str] = field(default_factory=list)
    labels: list[list[str]] = field(default_factory=list)
    edges: list[tuple[int, int]] = field(default_factory=list)


def to_mermaid(
    output: object, show_grad: bool = False, *, max_nodes: int = DEFAULT_MAX_NODES
) -> str:
    """출력 노드(또는 출력 노드의 리스트)에서 시작한 계산 그래프를 mermaid flowchart 텍스트로 바꿉니다.

    `show_grad=True`이면 변수마다 `grad` 값을 한 줄 더 적습니다. 노드가 `max_nodes`개를 넘으면
    `ValueError`를 냅니다.
    """
    graph = _collect(output, show_grad, max_nodes)
    lines = ["flowchart LR"]
    for index, (kind, label) in enumerate(zip(graph.kinds, graph.labels, strict=True)):
        text = "<br>".join(_mermaid_escape(line) for line in label)
        if kind == _VARIABLE:
            lines.append(f'    n{index}(["{text}"])')
        else:
            lines.append(f'    n{index}["{text}"]')
    lines.extend(f"    n{source} --> n{target}" for source, target in graph.edges)
    return "\n".join(lines)


def to_dot(output: object, show_grad: bool = False, *, max_nodes: int = DEFAULT_MAX_NODES) -> str:
    """`to_mermaid`와 같은 그래프를 Graphviz DOT 텍스트로 바꿉니다(`dot -Tsvg`로 그릴 수 있습니다)."""
    graph = _collect(output, show_grad, max_nodes)
    lines = ["digraph computational_graph {", "    rankdir=LR;"]
    for index, (kind, label) in enumerate(zip(graph.kinds, graph.labels, strict=True)):
        text = "\\n".join(_dot_escape(line) for line in label)
        shape = "ellipse" if kind == _VARIABLE else "box"
        lines.append(f'    n{index} [label="{text}", shape={shape}];')
    lines.extend(f"    n{source} -> n{target};" for source, target in graph.edges)
    lines.append("}")
    return "\n".join(lines)


# --- 그래프 읽기 ------------------------------------------------------------------------


class _ReleasedVariable:
    """최종 엔진에서 역전파에 필요 없어 이미 풀린 중간 변수의 자리표시자입니다(값 없이 창조자만)."""

    __slots__ = ("creator",)

    def __init__(self, creator: object) -> None:
        self.creator = creator


class _OpNode:
    """micrograd 방식 `Value`의 연산(`_op`)을 함수 노드로 그리기 위한 자리표시자입니다."""

    __slots__ = ("value",)

    def __init__(self, value: object) -> None:
        self.value = value


def _collect(output: object, show_grad: bool, max_nodes: int) -> _Graph:
    if isinstance(max_nodes, bool) or not isinstance(max_nodes, int) or max_nodes < 1:
        raise ValueError(f"max_nodes는 1 이상의 정수여야 합니다. 받은 값: {max_nodes!r}")
    roots = list(output) if isinstance(output, list | tuple) else [output]
    if not roots:
        raise ValueError("그릴 출력 노드가 없습니다. 변수(Variable)나 Value를 하나 이상 주세요.")
    for root in roots:
        looks_like_early_variable = hasattr(root, "data") and not isinstance(root, np.ndarray)
        if not _is_graph_variable(root) and looks_like_early_variable:
            raise TypeError(
                f"받은 값: {type(root).__name__}. 창조자(creator) 연결이 없어 그릴 계산 그래프가 "
                f"없습니다. 변수와 함수의 연결은 7단계(tinygrad_ko.steps.step07)부터 생깁니다."
            )
        if not _is_graph_variable(root):
            raise TypeError(
                f"계산 그래프의 출력 노드(Variable 또는 Value)가 필요합니다. "
                f"받은 값: {type(root).__name__}. 함수를 호출해서 얻은 출력 변수를 넘겨 주세요."
            )
    return _GraphReader(max_nodes).read(roots, show_grad)


class _GraphReader:
    """출력에서 거꾸로 후위 순회(입력이 먼저)하며 노드 번호와 간선을 정합니다.

    노드는 `id()`로 구별하지만 출력에는 번호만 씁니다. 순회하는 동안 만난 객체를 모두 붙잡아
    두므로(`_keep_alive`) 그사이 주소가 다른 객체에 재사용되지 않습니다.
    """

    def __init__(self, max_nodes: int) -> None:
        self.max_nodes = max_nodes
        self.signatures: dict[int, str] = {}
        self._op_nodes: dict[int, _OpNode] = {}
        self._released: dict[tuple[int, int], _ReleasedVariable] = {}
        self._keep_alive: list[object] = []

    def read(self, roots: list[object], show_grad: bool) -> _Graph:
        self._sign_values(roots)
        graph = _Graph()
        number: dict[int, int] = {}
        seen: set[int] = set()

        def emit(node: object) -> None:
            number[id(node)] = len(graph.kinds)
            if _is_graph_variable(node):
                graph.kinds.append(_VARIABLE)
                graph.labels.append(_variable_label(node, show_grad))
            else:
                graph.kinds.append(_FUNCTION)
                graph.labels.append([_function_label(node)])
            for dep in self.dependencies(node):
                graph.edges.append((number[id(dep)], number[id(node)]))

        def mark(node: object) -> None:
            seen.add(id(node))
            self._keep_alive.append(node)
            self._check_size(len(seen))

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
            for dep in reversed(self.dependencies(node)):
                if id(dep) not in seen:
                    stack.append((dep, False))
        return graph

    def _check_size(self, count: int) -> None:
        if count > self.max_nodes:
            raise ValueError(
                f"계산 그래프의 노드가 {self.max_nodes}개를 넘어 그리지 않습니다. 이렇게 큰 그림은 "
                f"페이지에서 읽을 수 없습니다. 더 작은 그래프를 그리거나 max_nodes를 늘려 주세요."
            )

    def dependencies(self, node: object) -> list[object]:
        """노드가 기대는 앞쪽 노드들. 함수의 입력은 중복도 그대로 둡니다(같은 변수를 두 번 쓴 경우)."""
        if isinstance(node, _OpNode):
            return self.value_children(node.value)
        if _is_value(node):
            if getattr(node, "_prev", None) or getattr(node, "_op", ""):
                return [self._op_node(node)]
            return []
        if _is_graph_variable(node):
            creator = getattr(node, "creator", None)
            return [] if creator is None else [creator]
        edges = getattr(node, "edges", None)
        if edges is not None:  # 최종 엔진: 붙잡지 않은 중간 변수는 (창조자, 출력 번호)입니다.
            return [self._edge_variable(edge) for edge in edges]
        inputs = getattr(node, "inputs", None)
        if inputs is not None:
            return list(inputs)
        single = getattr(node, "input", None)
        return [] if single is None else [single]

    def _edge_variable(self, edge: object) -> object:
        if not isinstance(edge, tuple):
            return edge
        creator, index = edge
        variable = creator.outputs[index]()
        if variable is not None:
            return variable
        key = (id(creator), index)  # 같은 자리는 같은 자리표시자로 그립니다.
        if key not in self._released:
            self._released[key] = _ReleasedVariable(creator)
        return self._released[key]

    def _op_node(self, value: object) -> _OpNode:
        # Value마다 자리표시자를 하나만 만들어야 같은 노드로 인식됩니다.
        node = self._op_nodes.get(id(value))
        if node is None:
            node = self._op_nodes[id(value)] = _OpNode(value)
        return node

    def value_children(self, value: object) -> list[object]:
        """`_prev`가 순서 없는 집합이면 구조 서명으로 정렬해 순서를 고정합니다."""
        prev = getattr(value, "_prev", ())
        if isinstance(prev, set | frozenset):
            return sorted(prev, key=lambda child: self.signatures[id(child)])
        return list(prev)

    def _sign_values(self, roots: list[object]) -> None:
        """Value 노드마다 (이름, 연산, 값, 자식들의 서명)의 해시를 후위 순회로 구합니다.

        집합의 순회 순서는 객체 주소에 따라 달라지므로, 주소 대신 이 서명으로 자식을 정렬합니다.
        구조까지 똑같은 두 자식은 어느 쪽이 먼저 와도 같은 텍스트가 됩니다.
        """
        signatures = self.signatures
        pending: set[int] = set()
        stack = [(root, False) for root in roots if _is_value(root)]
        while stack:
            node, expanded = stack.pop()
            children = list(getattr(node, "_prev", ()))
            if expanded:
                parts = [
                    _node_name(node) or "",
                    str(getattr(node, "_op", "")),
                    _format_value(getattr(node, "data", None)),
                    *sorted(signatures[id(child)] for child in children),
                ]
                digest = hashlib.sha256("\x1f".join(parts).encode("utf-8")).hexdigest()
                signatures[id(node)] = digest
                continue
            if id(node) in pending:
                continue
            pending.add(id(node))
            self._keep_alive.append(node)
            self._check_size(len(pending))  # Value 수만으로 넘치면 연산 노드까지 세도 넘칩니다.
            stack.append((node, True))
            stack.extend((child, False) for child in children if id(child) not in pending)


def _is_value(node: object) -> bool:
    return hasattr(node, "_prev")


def _is_graph_variable(node: object) -> bool:
    # 1~6단계의 변수에는 creator가 없으므로 data와 grad로도 알아봅니다(ndarray에도 data는 있습니다).
    if isinstance(node, _ReleasedVariable):
        return True
    return not isinstance(node, _OpNode) and (
        _is_value(node)
        or hasattr(node, "creator")
        or (hasattr(node, "data") and hasattr(node, "grad"))
    )


def _other_outputs(node: object) -> list[object]:
    """함수 노드의 출력 가운데 아직 살아 있는 변수들(약한 참조는 풀어서)."""
    if _is_graph_variable(node) or isinstance(node, _OpNode):
        return []
    outputs = getattr(node, "outputs", None)
    if outputs is None:
        single = getattr(node, "output", None)
        outputs = [] if single is None else [single]
    alive = []
    for out in outputs:
        if isinstance(out, weakref.ReferenceType):
            out = out()
        if out is not None:
            alive.append(out)
    return alive


# --- 라벨 -----------------------------------------------------------------------------


def _node_name(node: object) -> str | None:
    for attribute in ("name", "label"):
        name = getattr(node, attribute, None)
        if isinstance(name, str) and name:
            return name
    return None


def _variable_label(node: object, show_grad: bool) -> list[str]:
    if isinstance(node, _ReleasedVariable):
        return ["(해제됨)"]
    value = _format_value(getattr(node, "data", None))
    name = _node_name(node)
    lines = [f"{name} = {value}" if name else value]
    if show_grad:
        lines.append(f"grad = {_format_value(getattr(node, 'grad', None))}")
    return lines


def _function_label(node: object) -> str:
    if isinstance(node, _OpNode):
        op = getattr(node.value, "_op", "")
        return str(op) if op else "?"
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


def _mermaid_escape(text: str) -> str:
    # mermaid는 라벨 안의 HTML과 따옴표를 해석하므로 #코드; 형식으로 바꿉니다. '#'을 먼저 바꿉니다.
    text = text.replace("\n", " ").replace("#", "#35;")
    return text.replace('"', "#quot;").replace("<", "#lt;").replace(">", "#gt;")


def _dot_escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ")
