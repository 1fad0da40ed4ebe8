"""사이트 줄(빌드와 장 노트북을 맡은 프로세스)이 도는 동안, 페이지 블록을 돌리는 pytest 프로세스에는
다른 스레드가 없습니다. 예전에는 장 노트북의 커널을 이 프로세스의 스레드(nbclient, zmq)가 몰았고,
그 할당이 부록의 `tracemalloc` 최대 사용량에 섞여 32 MB가 33 MB로 찍힌 실행이 있었습니다."""

from __future__ import annotations

import threading

import pytest


def test_page_blocks_share_the_test_process_with_no_background_thread(running_lane):
    if running_lane is None:
        pytest.skip("사이트 테스트를 고르지 않은 실행이라 사이트 줄이 없습니다(-m 'not slow' 등)")
    others = [
        thread.name for thread in threading.enumerate() if thread is not threading.main_thread()
    ]
    assert others == []
    assert running_lane.process.pid is not None  # 빌드와 커널은 다른 프로세스가 몹니다
