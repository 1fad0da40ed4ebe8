"""처음 페이지(docs/index.md)가 장들에 대해 하는 말이 장 원본과 맞는지 빌드 없이 검사합니다.

- "각 장은 「이 장을 마치면」 상자로 시작해 `## 연습 문제`로 끝나고": 장마다 제목 바로 다음 상자가 그 요약
  상자이고, 마지막 `## ` 절이 연습 문제입니다.
- "1–44장은 대부분 … 단계 번호가 붙은 모듈로 불러 씁니다": 1–44장 가운데 9할 이상이
  `tinygrad_ko.steps`에서 모듈을 불러옵니다.
- "이 사이트는 제4고지와 제5고지를 둘씩 나눕니다": 목차(mkdocs.yml의 nav)에 제4고지와 제5고지로 시작하는
  절이 둘씩, 제1·2·3고지로 시작하는 절은 하나씩 있습니다.

장을 고쳐 이 말이 틀리게 되면 이 테스트가 실패하므로, 장이나 처음 페이지 가운데 하나를 고칩니다.
"""

from __future__ import annotations

import re

import pytest
from sitetools import CHAPTER_FILE, DOCS, load_site_config

HOME = (DOCS / "index.md").read_text(encoding="utf-8")
TITLE = re.compile(r"^# (\d+)장\. ")
CHAPTERS = {
    int(TITLE.match(path.read_text(encoding="utf-8"))[1]): path
    for path in sorted(DOCS.rglob("*.md"))
    if CHAPTER_FILE.match(path.name) and TITLE.match(path.read_text(encoding="utf-8"))
}
STEP_IMPORT = re.compile(
    r"^\s*(from tinygrad_ko\.steps(\.step\d\d)? import|import tinygrad_ko\.steps)", re.M
)


def test_the_home_page_still_makes_these_claims():
    # 처음 페이지의 문장을 바꾸면 이 테스트도 함께 고치라는 표시입니다.
    flat = " ".join(HOME.split())
    assert '각 장은 "이 장을 마치면" 상자로 시작해 `## 연습 문제`로 끝나고' in flat
    assert "1–44장은 대부분 책의 단계를 `tinygrad_ko.steps.step07`처럼" in flat
    assert "이 사이트는 제4고지와 제5고지를 둘씩 나눕니다" in flat
    assert sorted(CHAPTERS) == list(range(1, len(CHAPTERS) + 1)), sorted(CHAPTERS)


@pytest.mark.parametrize("number", sorted(CHAPTERS))
def test_chapter_opens_with_the_summary_box_and_ends_with_exercises(number):
    lines = CHAPTERS[number].read_text(encoding="utf-8").splitlines()
    first = next(line for line in lines[1:] if line.strip())
    assert first == '!!! abstract "이 장을 마치면"', f"{number}장: 제목 다음이 {first!r}"
    sections = [line for line in lines if line.startswith("## ")]
    assert sections and sections[-1] == "## 연습 문제", f"{number}장의 마지막 절: {sections[-1:]}"


def test_most_book_chapters_load_a_step_module():
    book = [n for n in CHAPTERS if n <= 44]
    assert len(book) == 44, book
    without = [n for n in book if not STEP_IMPORT.search(CHAPTERS[n].read_text(encoding="utf-8"))]
    assert len(without) * 10 <= len(book), f"단계 모듈을 불러오지 않는 장: {without}"


def test_the_site_splits_the_fourth_and_fifth_plateaus_in_two():
    sections = [next(iter(item)) for item in load_site_config()["nav"] if isinstance(item, dict)]
    counts = {n: sum(title.startswith(f"제{n}고지") for title in sections) for n in range(1, 6)}
    assert counts == {1: 1, 2: 1, 3: 1, 4: 2, 5: 2}, sections
