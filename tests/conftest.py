"""여러 테스트 폴더가 함께 쓰는 준비물(fixture)입니다."""

import gc
import tracemalloc

import pytest


@pytest.fixture
def gc_disabled():
    """순환 참조를 치우는 GC를 끈 채로 테스트를 돌리고, 끝나면 원래 상태로 되돌립니다."""
    was_enabled = gc.isenabled()
    gc.collect()  # 앞 테스트가 남긴 쓰레기를 먼저 치워, 이 테스트의 관찰을 흐리지 않게 합니다.
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def traced_bytes_of_this_thread_code() -> int:
    """tracemalloc이 추적하는 메모리 가운데 tinygrad_ko와 테스트 코드의 줄이 할당한 바이트.

    같은 프로세스에 다른 스레드가 있으면(예전에는 장 노트북을 돌리는 nbclient와 zmq의 스레드가 있었습니다)
    `get_traced_memory()`의 합계에 그 스레드의 할당도 섞입니다. 할당한 줄의 파일로 걸러 냅니다.
    """
    snapshot = tracemalloc.take_snapshot().filter_traces(
        [
            tracemalloc.Filter(True, "*/tinygrad_ko/*"),
            tracemalloc.Filter(True, "*/tests/*"),
            # 장 노트북을 돌리는 배경 스레드의 코드(tests/site)는 빼고 셉니다.
            tracemalloc.Filter(False, "*/tests/site/*"),
        ]
    )
    return sum(stat.size for stat in snapshot.statistics("filename"))


@pytest.fixture
def engine_memory():
    """`traced_bytes_of_this_thread_code`를 테스트에 건넵니다."""
    return traced_bytes_of_this_thread_code
