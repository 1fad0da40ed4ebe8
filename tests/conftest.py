"""여러 테스트 폴더가 함께 쓰는 준비물(fixture)입니다."""

import gc

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
