"""메모리 시험이 재는 값(`traced_bytes_of_this_thread_code`)이 사이트 테스트의 배경 스레드에 흔들리지 않는지.

예전의 전체 테스트에서는 장 노트북을 돌리는 스레드가 tests/site 의 코드로 메모리를 쓰는 동안 학습 메모리
시험이 돌았고, 그 할당이 섞여 시험이 엉뚱하게 실패했습니다(NumPy 바닥 버전 CI에서 393,980바이트가 늘었다고
실패). 지금은 그 일을 다른 프로세스(tests/site/site_lane.py)가 하지만, 걸러 내는 규칙은 그대로 시험합니다.
"""

import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _growth_when_allocating_as_if_in(engine_memory, path, size: int = 100_000) -> tuple[int, int]:
    """`path`의 코드가 리스트 하나를 할당한 것처럼 하고, (그 리스트의 길이, 잰 값이 는 바이트)를 돌려줍니다."""
    namespace: dict = {"size": size}
    tracemalloc.start()
    try:
        before = engine_memory()
        exec(compile("kept = [0] * size", str(path), "exec"), namespace)
        after = engine_memory()
    finally:
        tracemalloc.stop()
    return len(namespace["kept"]), after - before


def test_allocations_by_site_test_code_are_not_counted(engine_memory):
    kept, growth = _growth_when_allocating_as_if_in(
        engine_memory, ROOT / "tests" / "site" / "conftest.py"
    )
    assert kept == 100_000
    assert growth < 10_000


def test_allocations_by_engine_code_are_counted(engine_memory):
    kept, growth = _growth_when_allocating_as_if_in(
        engine_memory, ROOT / "src" / "tinygrad_ko" / "variable.py"
    )
    assert kept == 100_000
    assert growth > 700_000
