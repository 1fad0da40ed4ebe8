"""아주 긴 사슬: 재귀 없는 위상 정렬과, 사슬을 지울 때 인터프리터가 무사한지."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from tinygrad_ko.micrograd.value import Value, topological_order

pytestmark = pytest.mark.slow  # 노드 100만 개: 몇 초씩 걸립니다

MILLION = 1_000_000


def test_chain_of_a_million_nodes_backpropagates():
    # y = x * c * c * ... (노드 1,000,000개). 재귀로 정렬하면 깊이 약 1000에서 멈춥니다.
    x = Value(0.5)
    c = Value(1.0)
    y = x
    for _ in range(MILLION - 4):
        y = y * c
    # x, c, 곱셈 노드 MILLION - 4개, 상수 0.0의 말단 노드, 덧셈 노드: 정확히 MILLION개입니다.
    y = y + 0.0
    assert len(topological_order(y)) == MILLION
    y.backward()
    assert x.grad == 1.0
    # c는 곱셈마다 한 번씩 쓰였고 그때마다 상대 값 0.5를 받습니다.
    assert c.grad == 0.5 * (MILLION - 4)
    assert y.data == 0.5


def test_deleting_a_million_node_chain_does_not_crash_the_interpreter():
    # 깊은 해제 재귀로 인터프리터가 죽으면 테스트 프로세스까지 죽지 않도록 따로 실행합니다.
    script = textwrap.dedent(
        f"""
        import gc, weakref
        from tinygrad_ko.micrograd.value import Value
        gc.disable()  # 순환 수집기 없이 참조 카운트만으로 풀려야 합니다
        x = Value(0.5)
        y = x
        for _ in range({MILLION}):
            y = y + 1.0
        first = weakref.ref(y._prev[0])
        y.backward()
        del y
        print("freed:", first() is None, "grad:", x.grad)
        """
    )
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.strip() == "freed: True grad: 1.0"
