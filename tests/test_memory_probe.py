"""메모리 시험이 재는 값(`traced_bytes_of_this_thread_code`)이 사이트 테스트의 배경 스레드에 흔들리지 않는지.

전체 테스트에서는 장 노트북을 돌리는 스레드가 tests/site 의 코드로 메모리를 쓰는 동안 학습 메모리 시험이
돕니다. 그 할당이 섞이면 시험이 엉뚱하게 실패합니다(NumPy 바닥 버전 CI에서 393,980바이트가 늘었다고 실패).
"""

import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _allocate_as_if_in(path, size: int) -> list:
    namespace: dict = {"size": size}
    exec(compile("kept = [0] * size", str(path), "exec"), namespace)
    return namespace["kept"]


def test_allocations_by_site_test_code_are_not_counted(engine_memory):
    tracemalloc.start()
    try:
        before = engine_memory()
        kept = _allocate_as_if_in(ROOT / "tests" / "site" / "conftest.py", 100_000)
        after = engine_memory()
    finally:
        tracemalloc.stop()
    assert len(kept) == 100_000
    assert after - before < 10_000


def test_allocations_by_engine_code_are_counted(engine_memory):
    tracemalloc.start()
    try:
        before = engine_memory()
        kept = _allocate_as_if_in(ROOT / "src" / "tinygrad_ko" / "variable.py", 100_000)
        after = engine_memory()
    finally:
        tracemalloc.stop()
    assert len(kept) == 100_000
    assert after - before > 700_000
