"""사이트 테스트의 순서: 빌드만 있으면 되는 테스트가 먼저, 장 노트북의 결과를 기다리는 테스트가 그다음,
페이지 순회의 결과를 읽는 테스트가 맨 끝입니다(`conftest.pytest_collection_modifyitems`). 노트북과 순회는
빌드 뒤에 사이트 줄에서 돌므로, 이 순서라야 pytest 가 그것들을 기다리는 동안 할 일이 남지 않습니다."""

from __future__ import annotations

import pytest

from conftest import NEEDS_TAKE_HOME, PAGE_TEST, PHONE_TEST


def stage(item) -> int:
    used = set(getattr(item, "fixturenames", ()))
    if "built_site" not in used:
        return 0
    if getattr(item, "originalname", "") in (PAGE_TEST, PHONE_TEST):
        return 3
    return 2 if used & NEEDS_TAKE_HOME else 1


def test_site_tests_wait_for_the_lane_only_after_the_work_that_needs_just_the_build(request):
    stages = [stage(item) for item in request.session.items]
    if not {1, 2} <= set(stages):
        pytest.skip(
            "이번 실행에 빌드만 쓰는 사이트 테스트와 노트북을 기다리는 테스트가 함께 있지 않습니다"
        )
    assert stages == sorted(stages)
