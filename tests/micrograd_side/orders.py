"""Value 테스트가 함께 쓰는 비교 기준: 정의 그대로의 재귀 위상 정렬."""

from __future__ import annotations

from tinygrad_ko.micrograd.value import Value


def recursive_order(root: Value) -> list[Value]:
    """정의 그대로의 재귀 후위 순회 (작은 그래프에서 반복 구현과 비교하는 용도)."""
    order, seen = [], set()

    def visit(node: Value) -> None:
        if node not in seen:
            seen.add(node)
            for child in node._prev:
                visit(child)
            order.append(node)

    visit(root)
    return order
