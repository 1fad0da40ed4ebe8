"""지연 그래프를 mermaid 그림 텍스트로: 아직 계산하지 않은 노드와, 스케줄러가 자른 커널을 상자로 묶어 그립니다.

그림은 스케줄러가 실제로 만든 커널 목록(`scheduler.schedule`)에서 읽으므로, 페이지의 그림과 계산이 다를 수
없습니다. 노드 이름은 입력 쪽부터 매긴 번호(n0, n1, ...)라 같은 그래프는 늘 같은 텍스트입니다.

- 둥근 상자: 값이 있는 버퍼(입력)
- 직사각형: 연산(이름과 모양). 수(const)는 그 연산의 이름표에 적습니다.
- `커널 k` 상자: k번째 커널이 한 반복문에서 계산하는 노드들. 여러 커널이 다시 계산하는 노드는 처음 쓰는 커널에 그립니다.
"""

from __future__ import annotations

from .graph import MOVEMENT, LazyBuffer, toposort
from .scheduler import schedule


def to_mermaid(*tensors) -> str:
    targets = [t.lazydata for t in tensors]
    order = [n for n in toposort(targets) if n.op != "const"]
    number = {id(n): i for i, n in enumerate(order)}
    kernels, _ = schedule([t for t in targets if t.realized is None])
    home: dict[int, int] = {}  # 노드 id -> 그 노드를 그릴 커널 번호
    outputs = {id(kernel.output) for kernel in kernels}
    for k, kernel in enumerate(kernels):
        for node in _members(kernel, outputs):
            home.setdefault(id(node), k)
    lines = ["flowchart LR"]
    for k in range(len(kernels)):
        lines.append(f'  subgraph k{k}["커널 {k}"]')
        lines += [f"    {_node(n, number)}" for n in order if home.get(id(n)) == k]
        lines.append("  end")
    lines += [f"  {_node(n, number)}" for n in order if id(n) not in home]
    for n in order:
        for src in n.srcs:
            if src.op != "const":
                lines.append(f"  n{number[id(src)]} --> n{number[id(n)]}")
    return "\n".join(lines)


def _members(kernel, outputs: set[int]) -> list[LazyBuffer]:
    """커널이 계산하거나 바로 읽는 노드: 출력에서 입력 쪽으로, 버퍼나 다른 커널의 출력에 닿기 전까지. 뷰(움직이기)에서 멈춥니다."""
    found, stack, seen = [], [kernel.output], set()
    while stack:
        node = stack.pop()
        if id(node) in seen or node.op in ("const", "buffer"):
            continue
        seen.add(id(node))
        if node is not kernel.output and id(node) in outputs:
            continue  # 다른 커널이 버퍼에 써 둔 값
        found.append(node)
        # 뷰에서 멈춥니다. 복사 커널의 출력인 뷰도 그 입력 뷰를 읽지 않습니다.
        if node.op not in MOVEMENT:
            stack.extend(node.srcs)
    return found


def _node(node: LazyBuffer, number: dict) -> str:
    shape = "×".join(map(str, node.shape)) or "0차원"
    if node.op == "buffer":
        return f'n{number[id(node)]}(["{shape}"])'
    consts = [f"{s.arg:g}" for s in node.srcs if s.op == "const"]
    label = node.op + (" " + ", ".join(consts) if consts else "")
    return f'n{number[id(node)]}["{label}<br/>{shape}"]'
