"""스케줄러: 지연 그래프를 커널(kernel)들로 자릅니다. 커널 하나는 출력 버퍼 하나를 한 번에 씁니다.

어디서 자르는지가 이 모듈의 전부입니다. 원소별 연산은 쓰는 쪽 커널 안으로 녹아들고(융합, fusion),
다음 노드에서만 그래프를 자릅니다. 잘린 곳의 값은 버퍼에 씁니다(materialize).

1. 값을 달라고 한 노드(target).
2. `sum`: 줄이기 커널 하나가 됩니다. 입력 쪽 원소별 연산은 (3~5가 먼저 자르지 않으면) 그 안으로 녹아듭니다.
3. 움직이기(`reshape`, `expand`)의 입력이 아직 계산하지 않은 원소별 연산일 때: 뷰는 버퍼 위에만 만들 수
   있으므로 입력을 먼저 버퍼에 씁니다. 연속이 아닌 뷰를 `reshape`할 때도 그 뷰를 먼저 복사합니다.
4. 원소별 연산이 `MAX_DEPTH`단보다 깊게 이어질 때. 묶는 것은 한 커널 안의 깊이(앞 연산의 결과를 받아
   이어지는 단수)이고 연산 수는 묶지 않습니다: 넓게 갈라진 식은 연산이 많아도 커널 하나일 수 있습니다.
5. 한 커널이 읽을 (버퍼, 뷰)의 짝이 `MAX_LOADS`개를 넘을 때: 그 노드의 원소별 입력을 먼저 버퍼에 씁니다.

여러 커널이 같은 원소별 노드를 읽고 1~5가 그 노드를 버퍼에 쓰지 않으면, 그 노드는 커널마다 다시
계산합니다(버퍼에 쓰고 다시 읽는 것보다 싼 연산이 많기 때문입니다). 한 커널 안에서는 같은 노드를, 그리고 같은 입력에 같은 연산을 한 번만 계산합니다.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from . import view as views
from .graph import ELEMENTWISE, MOVEMENT, LazyBuffer, bits, toposort
from .view import View

MAX_DEPTH = 256  # 한 커널에 이어 붙이는 원소별 연산의 최대 단수(깊이). 연산 수의 한도가 아닙니다
# 한 커널이 읽는 (버퍼, 뷰) 짝의 최대 수. C 커널을 부르는 ctypes가 인수를 1,024개(출력 포인터 포함)까지만 받습니다
MAX_LOADS = 1023


@dataclass(frozen=True)
class Load:
    """커널이 읽는 버퍼(`base`)와, 그 버퍼를 커널의 반복 모양으로 읽는 뷰."""

    base: LazyBuffer
    view: View


@dataclass
class Kernel:
    """출력 `output`을 한 번에 계산하는 커널.

    - `shape`: 반복하는 모양. 원소별 커널은 출력의 모양, 줄이기 커널은 줄이기 전 입력의 모양입니다.
    - `axes`: 줄이기 커널이 더하는 축(원소별 커널은 None).
    - `loads`: 읽는 버퍼들. `stmts`의 `("load", i)`가 i번을 읽습니다.
    - `stmts`: 한 칸을 계산하는 문장들. 문장 하나는 (연산, 입력 문장 번호들, dtype, 인수)이고 마지막
      문장이 결과입니다. 인수는 `load`면 읽을 버퍼 번호, `const`면 수입니다.
    """

    output: LazyBuffer
    shape: tuple[int, ...]
    axes: tuple[int, ...] | None
    loads: list[Load] = field(default_factory=list)
    stmts: list[tuple] = field(default_factory=list)

    @property
    def op_count(self) -> int:
        """커널 안의 연산 수(읽기와 수를 뺀 것)."""
        return sum(op not in ("load", "const") for op, *_ in self.stmts) + (self.axes is not None)


def schedule(targets: list[LazyBuffer]) -> tuple[list[Kernel], dict]:
    """값을 달라고 한 노드들을 계산할 커널 목록(실행 순서)과, target마다 (버퍼 노드, 뷰)를 돌려줍니다."""
    forced: set[int] = set()
    while True:
        kernels, results, cut = _schedule_once(targets, forced)
        # MAX_LOADS 때문에 입력을 자르면, 그 입력을 먼저 녹여 넣은 다른 커널은 그 버퍼를 하나 더 읽게 됩니다.
        # 그래서 한도를 넘는 커널이 생기면, 이번에 자른 곳을 처음부터 자른 채로 다시 셉니다.
        if cut == forced or all(len(k.loads) <= MAX_LOADS for k in kernels):
            return kernels, results
        forced = cut


def _schedule_once(targets: list[LazyBuffer], forced: set[int]) -> tuple[list[Kernel], dict, set]:
    """schedule의 한 번: forced의 노드는 처음부터 자른 것으로 칩니다."""
    # --8<-- [start:cut]
    order = toposort(targets)  # 입력이 먼저 오게 늘어놓은 노드들(위상 정렬)
    cut: set[int] = set(forced)  # 버퍼에 쓸(커널의 출력이 될) 노드의 id
    moved: dict[int, tuple[LazyBuffer, View]] = {}  # 움직이기 노드 -> (버퍼 노드, 뷰)
    # 원소별 노드 id -> 커널 안 깊이. 셀 때 이미 잘린 입력은 빼고, 뒤에 잘려도 고쳐 세지 않습니다(52장).
    depth: dict[int, int] = {}
    reads: dict[int, frozenset] = {}  # 원소별 노드 id -> 커널이 거기까지 읽는 (버퍼 id, 뷰)들

    def reads_of(node: LazyBuffer) -> frozenset:
        """node를 쓰는 커널이 node 때문에 읽는 (버퍼 id, 뷰)들. 녹아든 원소별 노드면 그 노드가 읽는 것들."""
        if node.op == "const":
            return frozenset()
        if node.op in ELEMENTWISE and id(node) not in cut:
            return reads[id(node)]
        moves = node.op in MOVEMENT and id(node) not in cut
        base, v = moved[id(node)] if moves else (node, views.contiguous(node.shape))
        return frozenset([(id(base), v)])

    def union(sets: list[frozenset]) -> frozenset:
        """합집합. 한쪽이 다른 쪽을 다 담으면 그 객체를 그대로 씁니다(긴 사슬에서 집합을 복사하지 않게)."""
        result = max(sets, key=len)
        for other in sets:
            if not other <= result:
                result = result | other
        return result

    def as_load(node: LazyBuffer) -> tuple[LazyBuffer, View]:
        """node를 버퍼의 뷰로 읽는 방법. 아직 계산하지 않은 연산이면 그 자리에서 자릅니다."""
        if node.op in MOVEMENT and id(node) not in cut:
            return moved[id(node)]
        if node.realized is None:
            cut.add(id(node))
        return node, views.contiguous(node.shape)

    # --8<-- [start:cut-loop]
    for node in order:
        if node.realized is not None or node.op == "const":
            continue
        if node.op in MOVEMENT:
            base, v = as_load(node.srcs[0])
            if node.op == "expand":
                new = views.expand(v, node.shape)
            else:
                new = views.reshape_view(v, node.shape)
                if new is None:  # 연속이 아닌 뷰는 먼저 복사합니다.
                    cut.add(id(node.srcs[0]))
                    base, new = node.srcs[0], views.contiguous(node.shape)
            moved[id(node)] = (base, new)
        elif node.op in ELEMENTWISE:
            reads[id(node)] = union([reads_of(s) for s in node.srcs])
            if len(reads[id(node)]) > MAX_LOADS:  # 입력 쪽 원소별 연산을 먼저 버퍼에 씁니다
                cut.update(id(s) for s in node.srcs if s.op in ELEMENTWISE)
                reads[id(node)] = union([reads_of(s) for s in node.srcs])
            inner = [
                depth.get(id(s), 0) for s in node.srcs if s.op in ELEMENTWISE and id(s) not in cut
            ]
            depth[id(node)] = 1 + max(inner, default=0)
            if depth[id(node)] >= MAX_DEPTH:
                cut.add(id(node))
                depth[id(node)] = 0
        else:  # sum
            cut.add(id(node))
    # --8<-- [end:cut-loop]
    results = {}
    for t in targets:
        if t.realized is not None:
            results[id(t)] = (t, views.contiguous(t.shape))
        elif t.op in MOVEMENT and id(t) in moved:
            results[id(t)] = moved[id(t)]
        else:
            results[id(t)] = as_load(t)
    # --8<-- [end:cut]
    kernels = [_build(node, cut, moved) for node in order if id(node) in cut]
    return kernels, results, cut


def _build(root: LazyBuffer, cut: set[int], moved: dict) -> Kernel:
    """root를 출력으로 하는 커널: root에서 입력 쪽으로, 잘린 곳(버퍼, 수, 뷰)까지의 원소별 노드를 모읍니다."""
    if root.op == "sum":
        expr, kernel = root.srcs[0], Kernel(root, root.srcs[0].shape, root.arg)
    else:
        expr, kernel = root, Kernel(root, root.shape, None)
    index: dict = {}  # 노드 id 또는 ("load"/"const", ...) -> 문장 번호

    def leaf(node: LazyBuffer) -> int:
        if node.op == "const":
            # 열쇠는 수의 비트: 수 자체를 쓰면 0.0 == -0.0이라 relu 역전파의 0.0이 사용자의 -0.0을 대신했습니다.
            key = ("const", bits(node.arg), node.dtype)
            stmt = ("const", (), node.dtype, node.arg)
        else:
            base, v = (
                moved[id(node)]
                if node.op in MOVEMENT and (node is root or id(node) not in cut)
                else (node, views.contiguous(node.shape))
            )
            key = ("load", id(base), v)
            if key not in index:
                kernel.loads.append(Load(base, v))
            stmt = ("load", (), node.dtype, len(kernel.loads) - 1)
        if key not in index:
            index[key] = len(kernel.stmts)
            kernel.stmts.append(stmt)
        return index[key]

    stack = [(expr, False)]
    while stack:  # 재귀 없는 후위 순회: 입력의 문장이 먼저 옵니다.
        node, ready = stack.pop()
        node_id = id(node)
        if node_id in index:
            continue
        if node.op not in ELEMENTWISE or (
            node is not root and (node.realized is not None or node_id in cut)
        ):  # 잎: 버퍼, 수, 뷰, 다른 커널이 쓴 값
            index[node_id] = leaf(node)
            continue
        if not ready:
            stack.append((node, True))
            stack += [(s, False) for s in reversed(node.srcs) if id(s) not in index]
            continue
        key = (node.op, tuple([index[id(s)] for s in node.srcs]))
        if (
            key not in index
        ):  # 같은 연산을 같은 입력에 두 번 하면(역전파의 gy * x가 흔합니다) 한 번만
            index[key] = len(kernel.stmts)
            kernel.stmts.append((node.op, key[1], node.dtype, None))
        index[node_id] = index[key]
    return kernel
