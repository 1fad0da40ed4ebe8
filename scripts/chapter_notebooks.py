"""장(章) 페이지의 마크다운으로 주피터 노트북을 만듭니다("이 장을 노트북으로 받기").

페이지를 위에서 아래로 읽으며 다음처럼 옮깁니다.

- 글(prose)은 마크다운 셀이 됩니다. 알림 상자(`!!! note "제목"`, `??? note`)는 인용(`> `)으로,
  내용 탭(`=== "제목"`)은 굵은 제목 줄과 그 내용으로 펼칩니다. 다른 장으로 가는 `.md` 링크와
  페이지 안 `#앵커` 링크는 사이트의 `.html` 페이지를 가리키게 바꿉니다.
- 실행되는 ```` ```python ```` 블록은 순서대로 코드 셀이 됩니다. pytest-codeblocks와 똑같이 읽으므로
  (바깥 울타리(fence)만 보고, 들여쓴 울타리도 찾습니다) 페이지 테스트가 실행하는 블록과 노트북의
  코드 셀이 하나하나 같습니다. `<!--pytest-codeblocks:cont-->`로 이어지는 블록은 앞 셀과 같은
  묶음(block)으로 표시해 둡니다. 노트북의 셀은 이름 공간을 함께 쓰므로 이어 쓰기는 그대로 됩니다.
- `<!--pytest-codeblocks:expected-output-->` 뒤의 출력은 그 셀의 저장된 출력(stdout)이 됩니다.
  그래서 노트북을 열자마자 페이지와 같은 출력이 보이고, 테스트는 다시 실행한 출력과 비교합니다.
  출력이 ```` ```mermaid ```` 그림이면 그림을 그리는 마크다운 셀도 하나 덧붙입니다(JupyterLab 4.1 이상).
- 라이브러리 소스를 보여 주는 ```` ```py title="src/..." ```` 블록(스니펫 `--8<--`)은 실제로 포함된
  소스를 담은 마크다운 코드 블록이 됩니다. 실행하지 않는 보기이기 때문입니다.
- 맨 위 제목 다음에 `tinygrad_ko`가 없으면 설치하는 셀을 넣습니다(`setup_cell_source`).

페이지의 건너뛰기 표시도 옮깁니다. `pytest.mark.skip`은 실행하지 않는 코드 보기로,
`pytest.mark.skipif(조건, reason=...)`과 `pytest-codeblocks:importorskip(모듈)`은 같은 조건이면
셀이 건너뛴다고 알리는 조건문으로 감쌉니다. `pytest.mark.slow` 같은 분류 표시는 노트북과
상관없으므로 넘어가고, `xfail`처럼 실행 방법을 바꾸는 표시는 노트북에서 뜻을 지킬 수 없으므로
빌드를 멈추고 알려 줍니다.

표준 라이브러리만 씁니다. 스니펫 펼치기는 부르는 쪽(mkdocs 훅)이 `expand` 인자로 넘겨 줍니다.
"""

from __future__ import annotations

import ast
import base64
import io
import json
import re
import textwrap
import tokenize
import urllib.parse
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import PurePosixPath

# 장 페이지: 파일 이름이 장 번호로 시작하는 마크다운(part1/05-recursion.md, part4/22-tensors.md ...).
# 폴더 이름은 보지 않으므로 새 고지의 폴더가 생겨도 그대로 노트북이 만들어집니다.
CHAPTER_FILE = re.compile(r"^\d+-[^/]+\.md$")
DOWNLOAD_LABEL = "이 장을 노트북으로 받기"
GUARD_NOTE = "# 페이지의 테스트도 이 조건이면 이 예제를 건너뜁니다."  # 조건으로 감싼 셀의 첫 줄
SKIPPED = "이 셀을 건너뜁니다: "  # 조건에 맞아 건너뛴 셀이 출력하는 줄의 앞부분

MARKER = re.compile(r"^<!--[-\s]*pytest-codeblocks:(.*?)-->$")
MARK = re.compile(r"^<!--[-\s]*(pytest\.mark\..*?)-->$")
FENCE = re.compile(r"^(\s*)(`{3,})(.*)$")
ADMONITION = re.compile(r'^(!!!|\?\?\?\+?)\s+([\w-]+)(?:\s+"(.*)")?\s*$')
TAB = re.compile(r'^===\+?\s+"(.*)"\s*$')
TITLE = re.compile(r'title="([^"]*)"')
HL_LINES = re.compile(r'hl_lines="([^"]*)"')
LINK = re.compile(r"(!?)\[([^\]]*)\]\(([^)\s]+)((?:\s+\"[^\"]*\")?)\)")
INLINE_CODE = re.compile(r"(`+[^`]*`+)")
REFERENCE = re.compile(r"^(\s*\[[^\]]+\]:\s*)(\S+)(.*)$")
EXECUTED = {"python", "sh", "bash"}  # pytest-codeblocks가 실행하는 울타리 언어
# 블록을 실행하는 방법 자체를 바꾸는 표시: 노트북에서 그 뜻을 지킬 수 없으므로 거절합니다.
CHANGES_THE_TEST = {"pytest.mark.xfail", "pytest.mark.parametrize", "pytest.mark.usefixtures"}


class NotebookError(ValueError):
    """페이지를 노트북으로 옮길 수 없을 때(모르는 표시, 닫히지 않은 블록 등)."""


def is_chapter(src_uri: str) -> bool:
    return CHAPTER_FILE.match(PurePosixPath(src_uri).name) is not None


def notebook_uri(src_uri: str) -> str:
    """페이지 옆에 둘 노트북의 경로(part1/05-recursion.md -> part1/05-recursion.ipynb)."""
    return PurePosixPath(src_uri).with_suffix(".ipynb").as_posix()


# --- 페이지 읽기 ------------------------------------------------------------------------------


@dataclass
class Prose:
    text: str
    depth: int  # 인용(> ) 깊이: 알림 상자 안이면 1 이상


@dataclass
class Heading:
    """알림 상자나 탭의 제목 줄."""

    text: str
    depth: int


@dataclass
class Fence:
    info: str
    body: str
    line: int  # 여는 울타리의 줄 번호(1부터). pytest-codeblocks의 lineno와 같습니다.
    depth: int
    ticks: str = "```"  # 여는 백틱들: 안에 ``` 를 담은 블록은 ```` 로 엽니다


@dataclass
class Marker:
    keyword: str  # expected-output, cont, importorskip(...), 또는 mark
    value: str
    line: int


Event = Prose | Heading | Fence | Marker


def _container_body(lines: list[tuple[int, str]], start: int) -> tuple[list[tuple[int, str]], int]:
    """알림 상자/탭 머리 다음의 들여쓴 줄들을 4칸 내어쓰기 해서 돌려줍니다."""
    body = []
    index = start
    while index < len(lines):
        number, text = lines[index]
        if text.strip() and not text.startswith(("    ", "\t")):
            break
        body.append((number, text[4:] if text.startswith("    ") else text.lstrip("\t")))
        index += 1
    while body and not body[-1][1].strip():  # 끝의 빈 줄은 상자 밖의 것입니다
        body.pop()
        index -= 1
    return body, index


def _events(lines: list[tuple[int, str]], depth: int = 0) -> Iterator[Event]:
    index = 0
    while index < len(lines):
        number, text = lines[index]
        stripped = text.strip()
        marker = MARKER.match(stripped)
        mark = MARK.match(stripped)
        fence = FENCE.match(text)
        admonition = ADMONITION.match(text)
        tab = TAB.match(text)
        if marker:
            keyword = marker.group(1).strip("- ")
            yield Marker(keyword, keyword, number)
            index += 1
        elif mark:
            yield Marker("mark", mark.group(1), number)
            index += 1
        elif fence:
            # pytest-codeblocks처럼: 같은 수 이상의 백틱으로 시작하는 줄에서 닫히고,
            # 여는 줄의 들여쓰기만큼(까지) 각 줄의 앞 공백을 지웁니다.
            indent, ticks, info = len(fence.group(1)), fence.group(2), fence.group(3).strip()
            body = []
            index += 1
            while True:
                if index >= len(lines):
                    raise NotebookError(f"{number}번째 줄의 코드 블록이 닫히지 않았습니다.")
                line = lines[index][1]
                if line.lstrip().startswith(ticks):
                    break
                spaces = len(line) - len(line.lstrip(" "))
                body.append(line[min(indent, spaces) :])
                index += 1
            index += 1
            body_text = "".join(line + "\n" for line in body)
            yield Fence(info, body_text, number, depth, ticks)
        elif stripped.startswith("<!--"):
            # 그 밖의 주석(밝은 줄이 가리킬 글을 적은 <!--hl_lines … --> 등)은 독자에게 보이지 않으므로 뺍니다.
            while "-->" not in lines[index][1]:
                index += 1
                if index >= len(lines):
                    raise NotebookError(f"{number}번째 줄의 HTML 주석이 닫히지 않았습니다.")
            index += 1
        elif admonition or tab:
            body, index = _container_body(lines, index + 1)
            if admonition:
                kind, title = admonition.group(2), admonition.group(3)
                title = kind.capitalize() if title is None else title
                inner = depth + 1
            else:
                title, inner = tab.group(1), depth
            if title:
                yield Heading(title, inner)
            yield from _events(body, inner)
            yield Prose("", depth)
        else:
            yield Prose(text, depth)
            index += 1


# --- 셀 만들기 ------------------------------------------------------------------------------


@dataclass
class Guard:
    """셀을 건너뛰는 조건: 페이지의 skipif / importorskip 표시에서 옵니다."""

    condition: str  # 파이썬 식
    reason: str
    imports: tuple[str, ...] = ()


@dataclass
class Group:
    """pytest-codeblocks의 블록 하나: 첫 울타리와 cont로 이어진 울타리들."""

    line: int
    syntax: str
    guard: Guard | None = None
    skip_reason: str | None = None
    cells: list[dict] = field(default_factory=list)


def _parse_mark(text: str, line: int) -> tuple[str, Guard | None, str | None]:
    """`pytest.mark.X(...)`를 읽어 (이름, 조건, skip 이유)를 돌려줍니다."""
    try:
        call = ast.parse(text, mode="eval").body
    except SyntaxError as error:
        raise NotebookError(f"{line}번째 줄의 표시 {text!r}를 읽을 수 없습니다: {error}") from None
    name = ast.unparse(call.func) if isinstance(call, ast.Call) else ast.unparse(call)
    keywords = {k.arg: k.value for k in call.keywords} if isinstance(call, ast.Call) else {}
    reason_node = keywords.get("reason")
    reason = ast.literal_eval(reason_node) if reason_node is not None else ""
    if name == "pytest.mark.skip":
        if isinstance(call, ast.Call) and call.args and not reason:
            reason = ast.literal_eval(call.args[0])
        return name, None, reason or "이유가 적혀 있지 않습니다"
    if name == "pytest.mark.skipif" and isinstance(call, ast.Call) and call.args:
        condition = call.args[0]
        source = (
            condition.value
            if isinstance(condition, ast.Constant) and isinstance(condition.value, str)
            else ast.unparse(condition)
        )
        return name, Guard(source, reason or source, ("sys",)), None
    if name in CHANGES_THE_TEST or not name.startswith("pytest.mark."):
        raise NotebookError(
            f"{line}번째 줄의 표시 {text!r}는 노트북으로 옮길 수 없습니다. "
            "pytest.mark.skip(reason=...), pytest.mark.skipif(조건, reason=...), "
            "pytest-codeblocks:importorskip(모듈) 가운데 하나를 쓰세요."
        )
    return name, None, None  # slow 같은 분류 표시: 노트북에서는 뜻이 없습니다


def _has_multiline_string(code: str) -> bool:
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(code).readline))
    except (tokenize.TokenError, SyntaxError):
        return False
    return any(t.type == tokenize.STRING and t.start[0] != t.end[0] for t in tokens)


def guarded_source(code: str, guard: Guard, line: int) -> str:
    """조건이 참이면 건너뛴다고 알리고, 아니면 원래 코드를 실행하는 셀 소스."""
    if _has_multiline_string(code):
        raise NotebookError(
            f"{line}번째 줄의 블록은 여러 줄 문자열이 있어 조건문으로 감쌀 수 없습니다. "
            "문자열을 한 줄씩 나누거나 건너뛰기 표시를 빼세요."
        )
    imports = "".join(f"import {name}\n" for name in guard.imports)
    message = json.dumps(SKIPPED + guard.reason, ensure_ascii=False)
    return (
        f"{GUARD_NOTE}\n{imports}"
        f"if {guard.condition}:\n    print({message})\nelse:\n"
        + textwrap.indent(code, "    ", lambda text: True)
    )


def _source(text: str) -> str:
    return text[:-1] if text.endswith("\n") else text


def _line_ranges(hl_lines: str) -> str:
    """`hl_lines="2 3 4 9 11-13"` -> `2–4, 9, 11–13` (읽기 쉬운 줄 범위)."""
    numbers = []
    for token in hl_lines.split():
        first, _, last = token.partition("-")
        numbers += range(int(first), int(last or first) + 1)
    numbers = sorted(set(numbers))
    ranges: list[list[int]] = []
    for number in numbers:
        if ranges and number == ranges[-1][1] + 1:
            ranges[-1][1] = number
        else:
            ranges.append([number, number])
    return ", ".join(str(a) if a == b else f"{a}–{b}" for a, b in ranges)


def _listing(fence: Fence) -> list[str]:
    """실행하지 않는 울타리를 마크다운 셀 안의 코드 블록으로 옮깁니다."""
    language = fence.info.split()[0] if fence.info else ""
    lines = []
    title = TITLE.search(fence.info)
    if language in {"py", "python"}:
        language = "python"
        if title:
            caption = f"`{title.group(1)}`"
            highlighted = HL_LINES.search(fence.info)
            if highlighted:
                caption += f" (페이지에서 밝게 표시한 줄: {_line_ranges(highlighted.group(1))})"
            lines += [caption, ""]
    lines.append(f"{fence.ticks}{language}")
    lines += fence.body.rstrip("\n").split("\n")
    lines.append(fence.ticks)
    return lines


@dataclass
class Links:
    """노트북의 마크다운 링크를 사이트의 페이지로 바꿉니다.

    `page_url`은 이 장 페이지의 주소입니다: 사이트 주소(site_url)를 알면 절대 주소, 모르면
    노트북 자리에서 본 상대 주소(같은 폴더의 `05-recursion.html`)입니다. 노트북은 페이지 옆에
    놓이므로 상대 링크는 사이트 안(또는 푼 압축 파일 안)에서 열었을 때 맞습니다.
    """

    page_url: str

    def _target(self, target: str, image: bool) -> str:
        parsed = urllib.parse.urlsplit(target)
        if parsed.scheme or target.startswith(("/", "mailto:")):
            return target
        if target.startswith("#"):
            return self.page_url + target
        path = parsed.path
        if path.endswith((".md", ".ipynb")) and not image:
            path = str(PurePosixPath(path).with_suffix(".html"))
        new = urllib.parse.urlunsplit(("", "", path, parsed.query, parsed.fragment))
        if urllib.parse.urlsplit(self.page_url).scheme:
            return urllib.parse.urljoin(self.page_url, new)
        return new  # 노트북은 페이지와 같은 폴더에 있으므로 상대 주소는 그대로 맞습니다

    def rewrite(self, text: str) -> str:
        # 인라인 코드(`...`) 안은 건드리지 않습니다: `f[0](x)` 같은 코드가 링크로 보일 수 있습니다.
        parts = INLINE_CODE.split(text)
        for index in range(0, len(parts), 2):
            parts[index] = LINK.sub(
                lambda m: f"{m[1]}[{m[2]}]({self._target(m[3], bool(m[1]))}{m[4]})",
                parts[index],
            )
        text = "".join(parts)
        reference = REFERENCE.match(text)
        if reference:
            text = reference[1] + self._target(reference[2], False) + reference[3]
        return text


@dataclass
class Setup:
    """첫 코드 셀(설치 셀)에 넣을 휠 정보."""

    wheel_filename: str
    wheel_version: str
    relative_path: str  # 노트북 자리에서 본 휠의 상대 경로
    url: str | None  # 사이트 주소를 알 때의 절대 주소


def setup_cell_source(setup: Setup) -> str:
    """tinygrad_ko가 없을 때만 설치하는 셀. 노트북 옆의 휠, 사이트 안의 휠, 사이트 주소의 휠 순서로 찾습니다.

    독자에게 저장소나 관리자용 명령(dev.py)을 요구하지 않습니다. 휠을 찾지 못하면 무엇을 받아 어디에
    둘지 한국어로 알립니다.
    """
    return f'''\
# tinygrad_ko가 없으면 설치합니다. 이미 설치되어 있으면 설치하지 않습니다.
# tinygrad_ko는 PyPI에 없으므로, 이 노트북과 함께 만든 휠(wheel) 파일을 씁니다. 찾는 순서:
# 이 노트북과 같은 폴더, 사이트(또는 오프라인 압축 파일) 안의 downloads 폴더, 사이트의 주소.
import importlib.metadata
import importlib.util
import subprocess
import sys
from pathlib import Path

WHEEL = "{setup.wheel_filename}"
WHEEL_VERSION = "{setup.wheel_version}"
WHEEL_PLACES = [Path(WHEEL), Path("{setup.relative_path}")]
WHEEL_URL = {setup.url!r}

found = [str(place) for place in WHEEL_PLACES if place.is_file()]
source = found[0] if found else WHEEL_URL
if importlib.util.find_spec("tinygrad_ko") is None:
    if source is None:
        raise RuntimeError(
            f"tinygrad_ko가 설치되어 있지 않고 휠 파일 {{WHEEL}}도 찾지 못했습니다. "
            "이 장 페이지의 「tinygrad_ko 휠」 링크로 그 파일을 받아 이 노트북과 같은 폴더에 두고 "
            "이 셀을 다시 실행하세요."
        )
    pip = subprocess.run(
        [sys.executable, "-m", "pip", "install", source], capture_output=True, text=True
    )
    if pip.returncode != 0 and "No module named pip" in pip.stderr:
        raise RuntimeError(
            "이 커널의 파이썬에 pip이 없습니다. 새 셀에서 다음 명령으로 pip을 설치한 뒤 이 셀을 다시 "
            f"실행하세요: !{{sys.executable}} -m ensurepip --upgrade"
        )
    if pip.returncode != 0:
        raise RuntimeError(f"pip install {{source}} 이(가) 실패했습니다. 아래 내용을 확인하세요.\\n{{pip.stderr}}")
    for line in pip.stdout.strip().splitlines()[-1:]:  # Successfully installed ...(조용한 pip이면 없음)
        print(line)
    importlib.invalidate_caches()

try:
    installed = importlib.metadata.version("tinygrad_ko")
except importlib.metadata.PackageNotFoundError:
    # 방금 사용자 폴더에 처음 설치했거나, 설치하지 않은 소스가 PYTHONPATH로만 보일 때
    raise RuntimeError(
        "tinygrad_ko의 설치 정보를 이 커널이 찾지 못합니다. 커널을 다시 시작(메뉴의 Kernel → Restart)한 "
        f"뒤 이 셀부터 다시 실행하세요. 그래도 같으면 새 셀에서 실행하세요: "
        f"!{{sys.executable}} -m pip install {{source or WHEEL}}"
    ) from None
print("tinygrad_ko", installed)
if installed != WHEEL_VERSION:
    print(f"이 노트북은 tinygrad_ko {{WHEEL_VERSION}}으로 만들었습니다. 출력이 다르면 다시 설치하세요: "
          f"pip install --force-reinstall {{source or WHEEL}}")'''


class _Builder:
    def __init__(self, links: Links, setup: Setup) -> None:
        self.links = links
        self.setup = setup
        self.cells: list[dict] = []
        self.markdown: list[str] = []
        self.groups: list[Group] = []
        self.marks: list[str] = []
        self.pending: str | None = None  # "expected-output" 또는 "cont"
        self.ignore_whitespace = False
        self.setup_added = False

    # 셀 ---------------------------------------------------------------------------------------
    def _new_cell(self, cell: dict) -> dict:
        cell["id"] = f"cell-{len(self.cells)}"
        self.cells.append(cell)
        return cell

    def flush(self) -> None:
        lines: list[str] = []
        for line in (line.rstrip() for line in self.markdown):
            if not line.strip(" >") and (not lines or not lines[-1].strip(" >")):
                continue  # 빈 줄은 하나만
            lines.append(line)
        while lines and not lines[-1].strip(" >"):
            lines.pop()
        self.markdown = []
        if lines:
            self._new_cell({"cell_type": "markdown", "metadata": {}, "source": "\n".join(lines)})

    def code_cell(self, source: str, metadata: dict) -> dict:
        self.flush()
        return self._new_cell(
            {
                "cell_type": "code",
                "execution_count": None,
                "metadata": {"tinygrad_ko": metadata},
                "outputs": [],
                "source": source,
            }
        )

    # 사건 처리 --------------------------------------------------------------------------------
    def prose(self, text: str, depth: int) -> None:
        prefix = "> " * depth
        line = (prefix + self.links.rewrite(text)).rstrip() if text.strip() else prefix.rstrip()
        self.markdown.append(line)
        if not self.setup_added and depth == 0 and text.startswith("# "):
            self.markdown += [
                "",
                f"> 이 노트북은 사이트의 [「{text[2:].strip()}」 페이지]({self.links.page_url})에서 "
                "만들었습니다. 코드 셀은 페이지의 예제를 순서대로 담았고, 저장된 출력은 페이지에 "
                "적힌(테스트로 확인한) 출력입니다. 아래 첫 코드 셀부터 차례로 실행하세요.",
            ]
            self.code_cell(setup_cell_source(self.setup), {"role": "setup"})
            self.setup_added = True

    def marker(self, event: Marker) -> None:
        keyword = event.keyword
        if keyword in {"expected-output", "expected-output-ignore-whitespace", "cont"}:
            if not self.groups:
                raise NotebookError(f"{event.line}번째 줄의 {keyword} 앞에 코드 블록이 없습니다.")
            self.pending = "cont" if keyword == "cont" else "expected-output"
            self.ignore_whitespace = keyword == "expected-output-ignore-whitespace"
        elif keyword.startswith("importorskip(") and keyword.endswith(")"):
            module = keyword[len("importorskip(") : -1].strip().strip("'\"")
            self.marks.append(f"importorskip:{module}")
        elif keyword == "mark":
            self.marks.append(event.value)
        else:
            raise NotebookError(
                f"{event.line}번째 줄의 pytest-codeblocks 표시 {keyword!r}는 노트북으로 옮길 수 "
                "없습니다. expected-output, cont, importorskip(모듈) 가운데 하나를 쓰세요."
            )

    def fence(self, fence: Fence) -> None:
        pending, self.pending = self.pending, None
        if pending == "expected-output":
            self.expected_output(fence)
        elif pending == "cont":
            group = self.groups[-1]
            self.add_code(group, fence)
        else:
            group = Group(fence.line, fence.info)
            for mark in self.marks:
                if mark.startswith("importorskip:"):
                    module = mark.split(":", 1)[1]
                    group.guard = Guard(
                        f"importlib.util.find_spec({module!r}) is None",
                        f"{module}이(가) 설치되어 있지 않습니다",
                        ("importlib.util",),
                    )
                    continue
                _, guard, skip = _parse_mark(mark, fence.line)
                group.guard = guard or group.guard
                group.skip_reason = skip or group.skip_reason
            self.marks = []
            self.groups.append(group)
            if fence.info in EXECUTED:
                self.add_code(group, fence)
            else:
                self.markdown += ["> " * fence.depth + line for line in _listing(fence)]

    def add_code(self, group: Group, fence: Fence) -> None:
        if group.syntax not in EXECUTED:
            # 실행하지 않는 블록에 이어 붙인 블록도 pytest-codeblocks는 실행하지 않습니다.
            self.markdown += ["> " * fence.depth + line for line in _listing(fence)]
            return
        if group.skip_reason is not None:
            self.markdown += [
                "> " * fence.depth + line
                for line in [
                    f"페이지의 테스트도 실행하지 않는 예제입니다({group.skip_reason}).",
                    "",
                    *_listing(Fence("python", fence.body, fence.line, fence.depth, fence.ticks)),
                ]
            ]
            return
        code = fence.body
        if group.syntax in {"sh", "bash"}:
            code = f"%%{group.syntax}\n" + code
        elif group.guard is not None:
            code = guarded_source(code, group.guard, fence.line)
        metadata = {"line": fence.line, "block": group.line}
        if group.guard is not None:
            metadata["skip_if"] = group.guard.condition
        group.cells.append(self.code_cell(_source(code), metadata))

    def expected_output(self, fence: Fence) -> None:
        group = self.groups[-1]
        if not group.cells:
            # 실행하지 않는 블록의 "출력"은 보기 블록으로 남깁니다.
            self.markdown += ["> " * fence.depth + line for line in _listing(fence)]
            return
        if group.cells:
            cell = group.cells[-1]
            cell["outputs"] = [{"name": "stdout", "output_type": "stream", "text": fence.body}]
            cell["metadata"]["tinygrad_ko"]["expected_output"] = True
            if self.ignore_whitespace:
                cell["metadata"]["tinygrad_ko"]["ignore_whitespace"] = True
        if fence.info.split()[:1] == ["output"]:
            # 출력에 든 SVG(tinygrad_ko.tools.plot.to_svg)는 그림으로도 보여 줍니다(페이지에서처럼).
            prefix = "> " * fence.depth
            for svg in re.findall(r"<svg\b.*?</svg>", fence.body, flags=re.S):
                data = base64.b64encode(svg.encode("utf-8")).decode("ascii")
                self.markdown += [
                    prefix + f"![블록이 그린 그림](data:image/svg+xml;base64,{data})",
                    prefix,
                ]
        if fence.info.split()[:1] == ["mermaid"]:
            # 출력이 그림 글이면 그림으로도 보여 줍니다(페이지에서는 이 울타리가 그림이 됩니다).
            prefix = "> " * fence.depth
            self.markdown += [prefix + "```mermaid"]
            self.markdown += [prefix + line for line in fence.body.rstrip("\n").split("\n")]
            self.markdown += [prefix + "```"]


def _strip_front_matter(lines: list[str]) -> list[tuple[int, str]]:
    numbered = list(enumerate(lines, start=1))
    if lines and lines[0].strip() == "---":
        for index in range(1, len(lines)):
            if lines[index].strip() in {"---", "..."}:
                return numbered[index + 1 :]
    return numbered


def page_to_notebook(
    markdown: str,
    *,
    links: Links,
    setup: Setup,
    expand: Callable[[list[str]], list[str]] = lambda lines: lines,
) -> dict:
    """장 페이지의 마크다운을 nbformat 4 노트북(dict)으로 바꿉니다.

    `expand`는 스니펫(`--8<--`)을 펼치는 함수입니다. 줄 번호는 펼치기 전의 페이지 기준이어야
    pytest-codeblocks의 줄 번호와 맞으므로, 스니펫은 실행하지 않는 보기 블록 안에서만 펼칩니다.
    """
    builder = _Builder(links, setup)
    for event in _events(_strip_front_matter(markdown.split("\n"))):
        if isinstance(event, Prose):
            builder.prose(event.text, event.depth)
        elif isinstance(event, Heading):
            builder.markdown += ["> " * event.depth + f"**{event.text}**", "> " * event.depth]
        elif isinstance(event, Marker):
            builder.marker(event)
        else:
            if event.info not in EXECUTED and "--8<--" in event.body:
                expanded = expand(event.body.rstrip("\n").split("\n"))
                event.body = "".join(line + "\n" for line in expanded)
            builder.fence(event)
    if not builder.setup_added:
        raise NotebookError(
            "페이지에 `# 제목` 줄이 없습니다. 장 페이지는 `# N장. 제목`으로 시작하세요."
        )
    builder.flush()
    title = next(line[2:].strip() for line in markdown.split("\n") if line.startswith("# "))
    return {
        "cells": builder.cells,
        "metadata": {
            "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
            "language_info": {"name": "python"},
            "title": title,
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    }


def dumps(notebook: dict) -> str:
    """노트북 JSON(주피터가 저장하는 모양: 들여쓰기 1칸, 한글 그대로, 끝에 줄바꿈)."""
    return json.dumps(notebook, ensure_ascii=False, indent=1, sort_keys=True) + "\n"
