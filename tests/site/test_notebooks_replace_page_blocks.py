"""한 번의 실행에서 장의 블록은 한 번만 돕니다: 그 장의 노트북 테스트를 고르면, 독자 환경에서도 도는
블록은 페이지 테스트에서 빠지고(노트북이 실행하고 출력을 비교합니다), 조건이 붙은 블록은 남습니다."""

from __future__ import annotations

import subprocess
import sys

from sitetools import ROOT, tool_env

PAGE = "docs/part4/22-tensors.md"  # 조건 없는 블록과 PyTorch 조건이 붙은 블록이 함께 있는 장


def collected(page: str, *options: str) -> list[str]:
    """`page`와 장 노트북 테스트를 모았을 때(--co) 남는 테스트 id들."""
    completed = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "--codeblocks",
            "--co",
            "-q",
            "-p",
            "no:cacheprovider",
            page,
            "tests/site/test_chapter_notebooks.py",
            *options,
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=tool_env(),
        check=True,
    )
    return [line for line in completed.stdout.splitlines() if "::" in line]


def test_page_blocks_that_the_notebook_checks_leave_the_page_test():
    alone = [i for i in collected(PAGE, "-m", "not slow") if i.startswith(PAGE)]
    both = collected(PAGE, "-k", "22-tensors or line")
    assert any("22-tensors" in i for i in both if "test_chapter_notebooks" in i)
    left = [i for i in both if i.startswith(PAGE)]
    assert len(alone) > len(left) >= 1  # 조건이 붙은(PyTorch) 블록은 남습니다
    assert set(left) < set(alone)


def test_a_block_marked_only_slow_is_left_to_the_notebook_too():
    page = "docs/micrograd/46-training.md"  # `<!--pytest.mark.slow-->`만 붙은 학습 블록이 있는 장
    left = [i for i in collected(page, "-k", "46-training or line") if i.startswith(page)]
    slow = [
        i for i, line in enumerate(open(ROOT / page, encoding="utf-8"), 1) if "mark.slow" in line
    ]
    assert slow  # 이 장에 그런 블록이 있어야 시험이 뜻이 있습니다
    assert not any(f"line {n + 2}" in line for n in slow for line in left), left
