"""장 노트북을 페이지와 비교하는 도구: 페이지 테스트가 실행하는 블록과 노트북의 코드 셀을 맞춰 봅니다.

기대 출력은 노트북이 아니라 페이지에서 pytest-codeblocks가 읽은 그대로 가져옵니다. 그래서
노트북 생성기가 블록을 빠뜨리거나 바꾸면 드러납니다.
"""

from __future__ import annotations

import json
import re
import sys
import textwrap

import chapter_notebooks
import pytest
from pytest_codeblocks.main import extract_from_file
from pytest_codeblocks.plugin import TestBlock
from sitetools import DOCS


def chapter_pages() -> list[str]:
    """docs/ 의 장 페이지들(빌드 훅이 노트북을 만드는 페이지와 같은 규칙)."""
    return sorted(
        path.relative_to(DOCS).as_posix()
        for path in DOCS.rglob("*.md")
        if chapter_notebooks.is_chapter(path.relative_to(DOCS).as_posix())
    )


NOTEBOOK_TEST = "test_chapter_notebook_runs_in_a_fresh_kernel_and_matches_the_page"


def chosen_notebook_pages(session) -> list[str]:
    """이번 실행에서 고른(-k 등) 장 노트북 테스트의 페이지들."""
    return [
        item.callspec.params["page"]
        for item in session.items
        if getattr(item, "originalname", "") == NOTEBOOK_TEST
    ]


def split_blocks_for_notebooks(items) -> tuple[list, list]:
    """테스트 목록을 (장 노트북이 대신 확인할 페이지 블록, 나머지)로 나눕니다.

    장 노트북 테스트는 페이지의 블록마다 그 셀의 출력을 페이지의 기대 출력과 비교합니다(`compare`).
    그러니 어느 장의 노트북 테스트가 목록에 있으면, 독자 환경에서도 실행되는 그 장의 블록(건너뛰기
    조건이 없는 블록. `slow` 표시만 있는 블록도)을 페이지 테스트(pytest-codeblocks)로 한 번 더 돌릴 필요가 없습니다: 한 번의
    실행에서 같은 코드는 한 번만, 더 엄격한 새 환경에서 돕니다. 조건이 붙은 블록(PyTorch가 있어야
    하는 것 등)은 독자 환경에서 건너뛰므로 페이지 테스트에 남깁니다. 노트북 테스트가 없는 목록
    (`-m "not slow"` 등)은 그대로 둡니다.
    """
    pages = {
        item.callspec.params["page"]
        for item in items
        if getattr(item, "originalname", "") == NOTEBOOK_TEST
    }
    covered, kept = [], []
    for item in items:
        block = getattr(item, "obj", None)
        path = getattr(item, "path", None)
        page = (
            path.relative_to(DOCS).as_posix()
            if path is not None and path.is_relative_to(DOCS)
            else None
        )
        runs_in_both = isinstance(item, TestBlock) and not _may_skip(block)
        (covered if page in pages and runs_in_both else kept).append(item)
    return covered, kept


def _may_skip(block) -> bool:
    """건너뛸 조건(importorskip, skip, skipif)이 붙은 블록인지. `slow` 같은 표시는 실행을 바꾸지 않습니다."""
    if block.importorskip is not None:
        return True
    return any(mark.name in {"skip", "skipif"} for mark in _marks(block))


def _marks(block) -> list:
    """블록에 붙은 `<!--pytest.mark...-->` 표시들(pytest의 Mark)."""
    return [eval(text, {"sys": sys, "pytest": pytest}).mark for text in block.marks]


def page_blocks(page: str) -> list:
    """페이지 테스트가 실행하는 블록들(pytest-codeblocks가 읽은 그대로)."""
    return [b for b in extract_from_file(DOCS / page) if b.syntax in {"python", "sh", "bash"}]


def skipped_by_page_test(block) -> bool | None:
    """페이지 테스트가 이 블록을 건너뛰는지: True/False, 무조건 건너뛰면 None."""
    if block.importorskip is not None:
        try:
            __import__(block.importorskip)
        except ImportError:
            return True
    for mark in _marks(block):
        if mark.name == "skip":
            return None
        if mark.name == "skipif" and any(
            eval(c, {"sys": sys}) if isinstance(c, str) else c for c in mark.args
        ):
            return True
    return False


def code_lines(code: str) -> list[str]:
    """빈 줄을 뺀 코드 줄들. pytest-codeblocks는 들여쓴 블록(알림 상자 안)의 빈 줄을 지운 채
    실행하므로(빈 줄의 줄바꿈까지 잘라 냅니다), 빈 줄은 비교에서 뺍니다."""
    return [line for line in code.splitlines() if line.strip()]


def unguarded(source: str) -> str:
    """건너뛰기 조건으로 감싼 셀(`guarded_source`)이면 else 아래의 원래 코드만 돌려줍니다."""
    if not source.startswith(chapter_notebooks.GUARD_NOTE):
        return source
    return textwrap.dedent(source.split("\nelse:\n", 1)[1])


# ANSI 색 부호(ESC [ ... m). ipykernel이 FORCE_COLOR=1을 넣어 파이썬 3.13 이상의 하위 프로세스가
# 오류 줄에 붙입니다. 주피터는 이것을 색으로만 그리므로 독자가 읽는 글자에서는 뺍니다.
ANSI_COLOR = re.compile(r"\x1b\[[0-9;]*m")


def stdout_of(cell) -> str:
    """셀의 stdout 글자(색 부호를 뺀, 독자가 주피터에서 읽는 그대로)."""
    return ANSI_COLOR.sub(
        "",
        "".join(
            o["text"]
            for o in cell.outputs
            if o.get("output_type") == "stream" and o["name"] == "stdout"
        ),
    )


def other_outputs(cell) -> list[str]:
    """stdout 말고 나온 것들(stderr, 그림 같은 표시 결과). 페이지에는 없는 출력입니다.

    셀의 마지막 식의 값(`gc.collect()`가 돌려준 0 같은 execute_result)은 주피터가 늘 보여 주는
    것이므로 세지 않습니다. 페이지 테스트도 print 로 나온 stdout 만 비교합니다.
    """
    found = []
    for output in cell.outputs:
        kind = output.get("output_type")
        if (kind == "stream" and output["name"] == "stdout") or kind == "execute_result":
            continue
        text = output.get("text") or json.dumps(output.get("data", {}), ensure_ascii=False)
        found.append(f"{kind}: {text[:300]}")
    return found


def guard_header(source: str) -> str:
    """조건으로 감싼 셀에서 조건을 판정하는 부분(가져오기와 `if 조건:` 줄)만 실행할 수 있는 코드로."""
    header, _, _ = source.partition("\nelse:\n")
    lines = header.splitlines()
    condition = lines[-2].removeprefix("if ").removesuffix(":")  # 마지막 줄은 print(건너뜁니다)
    return "\n".join(lines[:-2] + [f"print(bool({condition}))"])


def compare(page: str, executed, guard_holds=None) -> list[str]:
    """실행한 노트북의 출력을 페이지의 기대 출력과 비교해 문제 목록을 돌려줍니다.

    `guard_holds(코드)`가 있으면 조건으로 감싼 셀이 건너뛸지를 페이지 테스트의 환경이 아니라 노트북을
    실행한 환경에서 판정합니다(`guard_header`의 코드를 그 환경에서 실행해 True/False).
    """
    problems = []
    code_cells = [c for c in executed.cells if c.cell_type == "code"]
    setup = [c for c in code_cells if c.metadata.get("tinygrad_ko", {}).get("role") == "setup"]
    if len(setup) != 1 or code_cells[0] is not setup[0]:
        problems.append("첫 코드 셀이 설치 셀이 아닙니다")
    by_block: dict[int, list] = {}
    for cell in code_cells:
        line = cell.metadata.get("tinygrad_ko", {}).get("block")
        if line is not None:
            by_block.setdefault(line, []).append(cell)
    for block in page_blocks(page):
        cells = by_block.pop(block.lineno, [])
        skipped = skipped_by_page_test(block)
        if skipped is None:
            if cells:
                problems.append(f"{block.lineno}번째 줄: skip 표시된 블록이 코드 셀이 되었습니다")
            continue
        if not cells:
            problems.append(f"{block.lineno}번째 줄의 블록이 노트북에 없습니다")
            continue
        guarded = "skip_if" in cells[0].metadata["tinygrad_ko"]
        source = "".join(c.source + "\n" for c in cells)
        if guarded and guard_holds is not None:
            skipped = guard_holds(guard_header(cells[0].source))
        if not guarded and code_lines(source) != code_lines(block.code):
            problems.append(f"{block.lineno}번째 줄: 코드 셀이 페이지의 블록과 다릅니다")
        if guarded and not all(line in source for line in code_lines(block.code)):
            problems.append(f"{block.lineno}번째 줄: 조건문 안의 코드가 페이지의 블록과 다릅니다")
        got = "".join(stdout_of(c) for c in cells)
        if skipped:
            expected = None  # 페이지 테스트도 건너뛰므로, 셀이 건너뛴다고 알리기만 하면 됩니다
            if not got.startswith(chapter_notebooks.SKIPPED):
                problems.append(
                    f"{block.lineno}번째 줄: 건너뛰어야 할 셀이 실행되었습니다: {got!r}"
                )
        else:
            expected = block.expected_output
        if expected is not None:
            same = (
                re.sub(r"\s+", "", got) == re.sub(r"\s+", "", expected)
                if block.expected_output_ignore_whitespace
                else got == expected
            )
            if not same:
                problems.append(
                    f"{block.lineno}번째 줄의 출력이 페이지와 다릅니다.\n"
                    f"--- 페이지 ---\n{expected}--- 노트북 ---\n{got}"
                )
        for cell in cells:
            extra = other_outputs(cell)
            if extra:
                problems.append(f"{block.lineno}번째 줄: 페이지에 없는 출력 {extra}")
    for line in by_block:
        problems.append(f"{line}번째 줄의 셀은 페이지 테스트가 실행하는 블록이 아닙니다")
    return problems
