"""페이지와 소스 사이의 약속: 페이지가 넣는 코드 구역과 소스의 구역 표시가 서로 맞는지.

페이지는 pymdownx.snippets로 라이브러리 소스의 일부를 그대로 넣습니다::

    --8<-- "src/tinygrad_ko/steps/step08.py:backward"

소스에서는 그 부분을 ``# --8<-- [start:backward]``와 ``# --8<-- [end:backward]``로 감쌉니다.
이 테스트는 손으로 적은 목록 없이 두 쪽을 직접 읽어서 확인합니다.

- 페이지가 넣는 파일과 구역은 있어야 합니다. 구역 이름을 바꾸거나 지우면 실패합니다.
- ``src/``의 구역 표시는 모두 어떤 페이지가 넣어야 합니다. 아무 페이지도 보여 주지 않는 표시는
  코드를 읽기 어렵게 할 뿐이므로 지웁니다.
- 표시는 짝이 맞게 포개지고, 구역 하나하나가 그 자체로 문법에 맞는 파이썬 코드입니다.
- 페이지가 밝게 표시한 줄(``hl_lines``)마다, 펜스 위의 ``<!--hl_lines`` 주석이 그 줄에 있어야 할 글을
  적고, 넣은 코드의 그 줄에 그 글이 있습니다. 소스에 줄을 더하면 번호가 조용히 밀리기 때문입니다.
"""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = sorted((ROOT / "docs").rglob("*.md"))
SOURCES = sorted((ROOT / "src").rglob("*.py"))

# pymdownx.snippets가 알아보는 모양을 따릅니다(pymdownx/snippets.py의 RE_ALL_SNIPPETS와
# RE_SNIPPET_SECTION). 줄 맨 앞의 `;`는 이스케이프라서 넣기가 아닙니다.
INCLUDE = re.compile(r"""^[ \t]*-+8<-+[ \t]+(["'])(?P<target>.+?)\1[ \t]*$""")
BLOCK = re.compile(r"^[ \t]*-+8<-+[ \t]*$")
MARKER = re.compile(
    r"(?<![;-])-+8<-+[ \t]+\[[ \t]*(?P<kind>start|end)[ \t]*:[ \t]*(?P<name>[a-z][-_0-9a-z]*)[ \t]*\]",
    re.IGNORECASE,
)
SECTION_TARGET = re.compile(r"(?P<path>.+):(?P<section>[a-z][-_0-9a-z]*)", re.IGNORECASE)
HL_LINES = re.compile(r'hl_lines="(?P<numbers>[-0-9 ]+)"')
LINES_TARGET = re.compile(r"(?P<path>.+?)(?P<lines>(:-?[0-9]*){1,2}(,[-0-9:]*)*)")


@dataclass(frozen=True)
class Include:
    """페이지의 `--8<--` 한 줄: 어느 페이지 몇째 줄이 어느 파일의 어느 구역을 넣는지."""

    page: str
    line: int
    path: str
    section: str | None = None
    lines: str | None = None  # `파일:1:5`처럼 줄 번호로 넣은 경우

    @property
    def where(self) -> str:
        return f"{self.page}:{self.line}"


def _relative(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def _targets(lines: list[str]):
    """(줄 번호, 넣을 대상) 쌍. 한 줄짜리 모양과, `--8<--` 두 줄 사이에 경로를 적는 모양을 모두 읽습니다."""
    in_block = False
    for number, line in enumerate(lines, 1):
        if BLOCK.match(line):
            in_block = not in_block
        elif in_block:
            if line.strip():
                yield number, line.strip()
        elif match := INCLUDE.match(line):
            yield number, match["target"]


def includes() -> list[Include]:
    found = []
    for page in PAGES:
        for number, target in _targets(page.read_text(encoding="utf-8").splitlines()):
            where = (_relative(page), number)
            if match := SECTION_TARGET.fullmatch(target):
                found.append(Include(*where, match["path"], section=match["section"]))
            elif (match := LINES_TARGET.fullmatch(target)) and (ROOT / match["path"]).is_file():
                found.append(Include(*where, match["path"], lines=match["lines"]))
            else:
                found.append(Include(*where, target))
    return found


def markers(path: Path) -> list[tuple[str, str, int]]:
    """(start 또는 end, 구역 이름, 줄 번호)의 목록."""
    return [
        (match["kind"].lower(), match["name"], number)
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if (match := MARKER.search(line))
    ]


def section_text(path: Path, name: str) -> str:
    """구역의 본문. pymdownx처럼 안쪽의 다른 표시 줄은 빼고 들여쓰기를 걷어 냅니다."""
    lines = path.read_text(encoding="utf-8").splitlines()
    start = end = None
    for number, line in enumerate(lines):
        match = MARKER.search(line)
        if match and match["name"] == name:
            if match["kind"].lower() == "start":
                start = number
            else:
                end = number
    body = [line for line in lines[start + 1 : end] if not MARKER.search(line)]
    return textwrap.dedent("\n".join(body))


SOURCES_WITH_MARKERS = [path for path in SOURCES if markers(path)]
SECTIONS = [
    (_relative(path), name)
    for path in SOURCES_WITH_MARKERS
    for kind, name, _ in markers(path)
    if kind == "start"
]


def test_the_checks_see_includes_and_sections():
    # 이 검사가 아무것도 읽지 못한 채 통과하지 않도록, 읽은 것이 있는지부터 봅니다.
    assert len(includes()) > 50
    assert len(SECTIONS) > 50


def test_pages_include_only_files_and_sections_that_exist():
    problems = []
    for inc in includes():
        path = ROOT / inc.path
        if inc.lines is not None:
            # 줄 번호는 소스를 고칠 때마다 조용히 어긋납니다.
            problems.append(f"{inc.where}: 줄 번호({inc.lines}) 대신 구역 이름으로 넣으세요")
        elif not path.is_file():
            problems.append(f"{inc.where}: 없는 파일 {inc.path}")
        elif inc.section is not None:
            names = {name for kind, name, _ in markers(path) if kind == "start"}
            if inc.section not in names:
                problems.append(
                    f"{inc.where}: {inc.path}에 구역 [{inc.section}]이 없습니다 "
                    f"(있는 구역: {', '.join(sorted(names)) or '없음'})"
                )
    assert not problems, "\n".join(problems)


def test_every_section_marker_in_src_is_included_by_some_page():
    shown = {(inc.path, inc.section) for inc in includes()}
    unused = [f"{path}:{name}" for path, name in SECTIONS if (path, name) not in shown]
    assert not unused, (
        "어느 페이지도 넣지 않는 구역 표시입니다. 페이지에서 쓰거나 표시를 지우세요:\n"
        + "\n".join(unused)
    )


@pytest.mark.parametrize("path", SOURCES_WITH_MARKERS, ids=_relative)
def test_markers_are_comments_that_pair_up_and_nest(path):
    lines = path.read_text(encoding="utf-8").splitlines()
    open_sections: list[str] = []
    seen: set[str] = set()
    for kind, name, number in markers(path):
        where = f"{_relative(path)}:{number}"
        assert lines[number - 1].lstrip().startswith("# --8<-- ["), f"{where}: 주석 한 줄로 쓰세요"
        if kind == "start":
            assert name not in seen, f"{where}: 구역 [{name}]이 두 번 시작합니다"
            seen.add(name)
            open_sections.append(name)
        else:
            assert name in open_sections, f"{where}: 시작하지 않은 구역 [{name}]을 닫습니다"
            inner = open_sections.pop()
            assert inner == name, f"{where}: [{name}]보다 안쪽 구역 [{inner}]을 먼저 닫으세요"
    assert not open_sections, f"{_relative(path)}: 닫히지 않은 구역 {open_sections}"


@pytest.mark.parametrize(("path", "name"), SECTIONS, ids=[f"{p}:{n}" for p, n in SECTIONS])
def test_each_section_is_whole_python_code(path, name):
    text = section_text(ROOT / path, name)
    assert text.strip(), f"{path}:{name} 구역이 비었습니다"
    compile(text, f"{path}:{name}", "exec")  # 문법 오류면 SyntaxError로 실패합니다.


def test_pymdownx_includes_each_section_as_this_test_reads_it():
    markdown = pytest.importorskip("markdown", reason="문서 의존성(markdown)이 없는 환경입니다")
    pytest.importorskip("pymdownx", reason="문서 의존성(pymdown-extensions)이 없는 환경입니다")
    md = markdown.Markdown(
        extensions=["pymdownx.snippets"],
        extension_configs={  # mkdocs.yml과 같은 설정
            "pymdownx.snippets": {
                "base_path": [str(ROOT)],
                "check_paths": True,
                "dedent_subsections": True,
            }
        },
    )
    snippet = md.preprocessors["snippet"]
    for inc in includes():
        if inc.section is None:
            continue
        got = "\n".join(snippet.run([f'--8<-- "{inc.path}:{inc.section}"'])).strip("\n")
        assert got == section_text(ROOT / inc.path, inc.section).strip("\n"), inc.where


def _hl_numbers(spec: str) -> list[int]:
    """`hl_lines="4-6 9"` → [4, 5, 6, 9](범위는 양 끝을 넣어)."""
    numbers = []
    for token in spec.split():
        first, _, last = token.partition("-")
        numbers.extend(range(int(first), int(last or first) + 1))
    return numbers


def _hl_notes(page: list[str], fence: int) -> list[tuple[int, str]] | None:
    """펜스 바로 위(빈 줄 하나를 건너)의 `<!--hl_lines` … `-->` 주석: (줄 번호, 그 줄에 있어야 할 글) 목록."""
    end = fence - 1
    while end >= 0 and not page[end].strip():
        end -= 1
    if end < 0 or page[end].strip() != "-->":
        return None
    start = end - 1
    while start >= 0 and page[start].strip() != "<!--hl_lines":
        if page[start].strip() in {"", "-->"} or "<!--" in page[start]:
            return None
        start -= 1
    notes = []
    for line in page[start + 1 : end]:
        number, _, text = line.strip().partition(":")
        notes.append((int(number), text.strip()))
    return notes


def highlights() -> list[tuple[Include, str, list[tuple[int, str]] | None, list[str]]]:
    """밝게 표시한 넣기마다 (넣기, hl_lines 값, 페이지의 주석, 넣은 코드의 줄들)."""
    found, pages = [], {}
    for inc in includes():
        if inc.lines is not None or not (ROOT / inc.path).is_file():
            continue  # 줄 번호로 넣기와 없는 파일은 위의 검사가 알립니다
        if inc.page not in pages:
            pages[inc.page] = (ROOT / inc.page).read_text(encoding="utf-8").splitlines()
        page = pages[inc.page]
        fence = HL_LINES.search(page[inc.line - 2])  # 넣기 바로 위의 ```py 줄
        if fence is None:
            continue
        path = ROOT / inc.path
        if inc.section is None:
            text = "\n".join(
                s for s in path.read_text(encoding="utf-8").splitlines() if not MARKER.search(s)
            )
        else:
            text = section_text(path, inc.section)
        found.append((inc, fence["numbers"], _hl_notes(page, inc.line - 2), text.splitlines()))
    return found


def test_the_highlight_check_sees_every_highlight():
    assert len(highlights()) > 100


def test_highlighted_lines_hold_the_text_the_page_says_they_mark():
    """밝은 줄은 번호만으로는 조용히 어긋납니다(소스에 줄을 더하면 번호가 밀립니다). 그래서 페이지는 펜스
    바로 위의 주석에 밝힐 줄마다 그 줄의 글을 적고, 이 검사는 넣은 코드의 그 줄에 그 글이 있는지 봅니다::

        <!--hl_lines
        7: def backward(self, gy):
        8: return gy * cos(x)
        -->

        ```py title="..." hl_lines="7 8"

    빈 글은 빈 줄(범위 안의 빈 줄)입니다. 범위의 양 끝은 비어 있으면 안 됩니다.
    """
    problems = []
    for inc, spec, notes, lines in highlights():
        numbers = _hl_numbers(spec)
        if notes is None:
            problems.append(f"{inc.where}: hl_lines 위에 <!--hl_lines … --> 주석이 없습니다")
            continue
        if [number for number, _ in notes] != numbers:
            problems.append(
                f"{inc.where}: 주석의 줄 번호 {[n for n, _ in notes]} ≠ hl_lines {numbers}"
            )
            continue
        ends = [int(n) for token in spec.split() for n in token.split("-")]
        for number, text in notes:
            line = lines[number - 1] if number <= len(lines) else None
            if line is None:
                problems.append(
                    f"{inc.where}: {number}번 줄이 {inc.path} 구역({len(lines)}줄)에 없습니다"
                )
            elif (text and text not in line) or (not text and line.strip()):
                problems.append(f"{inc.where}: {number}번 줄은 {line.strip()!r}, 주석은 {text!r}")
            elif not text and number in ends:
                problems.append(f"{inc.where}: hl_lines의 {number}번 줄(범위의 끝)이 비었습니다")
    assert not problems, "\n".join(problems)
