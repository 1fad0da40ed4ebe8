"""처음 페이지(docs/index.md)의 지도 그림과 부분 목록이 mkdocs.yml의 nav와 맞는지 빌드 없이 검사합니다.

- 페이지의 그림은 mermaid 흐름도 하나입니다. 상자(노드) 하나가 nav의 장 묶음(절) 하나이고, 상자의 첫 줄
  "제1고지 · 1–8장"의 이름과 장 범위가 nav의 그 절과 같습니다. 상자는 nav의 순서대로 적고, 실선 화살표는
  nav에서 이웃한 절끼리만 잇습니다.
- 상자와 화살표 글자에 적은 다른 장 번호("두 층 신경망(28장)")는 그 상자(화살표는 가리키는 상자)의 범위
  안에 있습니다.
- 그림 아래의 "- [제1고지 · 1–8장](...)" 목록도 절마다 한 줄이고, 링크가 그 절의 첫 장을 가리킵니다.

장을 옮기거나 번호를 바꾸면 그림과 목록을 고치라고 이 테스트가 실패합니다.
"""

from __future__ import annotations

import posixpath
import re
from itertools import pairwise

import pytest
from sitetools import CHAPTER_FILE, DOCS, load_site_config

INDEX = DOCS / "index.md"
TITLE = re.compile(r"^# (\d+)장\. ")
NODE = re.compile(r'^\s*(\w+)\["(.*)"\]\s*$')
HEAD = re.compile(r"^(?P<part>.+?) · (?P<first>\d+)–(?P<last>\d+)장<br>")
MENTION = re.compile(r"(?<![\d–~])(\d+)장")
SOLID = re.compile(r"\s*-->\s*")
DOTTED = re.compile(r'^\s*(\w+)\s*-\.->\|"(.*)"\|\s*(\w+)\s*$')
PART_LINE = re.compile(
    r"^- \[(?P<part>.+?) · (?P<first>\d+)–(?P<last>\d+)장\]\((?P<link>[^)\s]+)\)"
)


def chapter_number(path: str) -> int:
    first = (DOCS / path).read_text(encoding="utf-8").splitlines()[0]
    match = TITLE.match(first)
    assert match, f"{path}의 첫 줄이 '# N장. 제목'이 아닙니다"
    return int(match[1])


def nav_sections() -> list[tuple[str, list[str], list[int]]]:
    """장이 든 nav 절마다 (절 이름의 " · " 앞부분, 장 파일들, 장 번호들)을 nav 순서대로."""
    sections = []
    for item in load_site_config()["nav"]:
        if not isinstance(item, dict):
            continue
        ((title, entries),) = item.items()
        if not isinstance(entries, list):
            continue
        files = []
        for entry in entries:
            path = entry if isinstance(entry, str) else next(iter(entry.values()))
            if CHAPTER_FILE.match(posixpath.basename(path)):
                files.append(path)
        if files:
            sections.append((title.split(" · ")[0], files, [chapter_number(f) for f in files]))
    return sections


def figures(text: str) -> list[list[str]]:
    """페이지의 ```mermaid 울타리마다 그 안의 줄들."""
    found = []
    for match in re.finditer(r"^```mermaid\n(.*?)^```$", text, flags=re.S | re.M):
        found.append(match[1].splitlines())
    return found


SECTIONS = nav_sections()
TEXT = INDEX.read_text(encoding="utf-8")


def test_the_nav_has_the_sections_the_map_expects():
    assert len(SECTIONS) >= 8, SECTIONS
    numbers = [n for _, _, chapter_numbers in SECTIONS for n in chapter_numbers]
    assert numbers == list(range(1, len(numbers) + 1)), "장 번호가 nav 순서대로 이어지지 않습니다"


@pytest.fixture(scope="module")
def figure() -> list[str]:
    found = figures(TEXT)
    assert len(found) == 1, f"처음 페이지의 그림은 하나여야 합니다: mermaid 블록 {len(found)}개"
    assert found[0][0].startswith("flowchart"), found[0][0]
    return found[0][1:]


def nodes_of(figure: list[str]) -> dict[str, str]:
    nodes = {}
    for line in figure:
        match = NODE.match(line)
        if match:
            assert match[1] not in nodes, f"상자 {match[1]}을(를) 두 번 정의했습니다"
            nodes[match[1]] = match[2]
    return nodes


def node_range(label: str) -> tuple[str, int, int]:
    head = HEAD.match(label)
    assert head, f"상자의 첫 줄이 '이름 · N–M장'이 아닙니다: {label!r}"
    return head["part"], int(head["first"]), int(head["last"])


def test_each_box_is_one_nav_section_in_nav_order(figure):
    nodes = nodes_of(figure)
    boxes = [node_range(label) for label in nodes.values()]
    expected = [(part, min(numbers), max(numbers)) for part, _, numbers in SECTIONS]
    assert boxes == expected, f"그림의 상자 {boxes}\nnav의 절 {expected}"
    for part, _, numbers in SECTIONS:
        assert numbers == list(range(min(numbers), max(numbers) + 1)), (part, numbers)


def test_other_chapter_numbers_in_the_figure_fall_inside_their_box(figure):
    nodes = nodes_of(figure)
    problems = []
    checked = 0
    for name, label in nodes.items():
        _, first, last = node_range(label)
        rest = HEAD.sub("", label)
        for number in map(int, MENTION.findall(rest)):
            checked += 1
            if not first <= number <= last:
                problems.append(f"{name}: {number}장은 {first}–{last}장 밖입니다")
    for line in figure:
        dotted = DOTTED.match(line)
        if dotted:
            _, first, last = node_range(nodes[dotted[3]])
            for number in map(int, MENTION.findall(dotted[2])):
                checked += 1
                if not first <= number <= last:
                    problems.append(f"{line.strip()}: {number}장은 {first}–{last}장 밖입니다")
    assert checked >= 3, "그림에 장 번호가 거의 없습니다"
    assert not problems, problems


def test_solid_arrows_follow_the_reading_order(figure):
    order = list(nodes_of(figure))
    pairs = []
    for line in figure:
        if NODE.match(line) or DOTTED.match(line) or "-->" not in line:
            continue
        chain = SOLID.split(line.strip())
        assert all(name in order for name in chain), f"모르는 상자: {line.strip()}"
        pairs += list(pairwise(chain))
    assert pairs == list(pairwise(order)), pairs


def test_part_list_has_one_line_per_section_linking_its_first_chapter():
    lines = [m for m in map(PART_LINE.match, TEXT.splitlines()) if m]
    got = [(m["part"], int(m["first"]), int(m["last"]), m["link"]) for m in lines]
    expected = [(part, min(numbers), max(numbers), files[0]) for part, files, numbers in SECTIONS]
    assert got == expected, f"목록 {got}\nnav {expected}"
