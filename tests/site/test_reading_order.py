"""읽는 순서와 장 번호가 맞는지 빌드 없이 검사합니다(mkdocs.yml의 nav가 읽는 순서입니다).

- nav에 놓인 장 페이지의 제목 번호(`# N장. ...`)가 1, 2, 3, ... 으로 빈 곳 없이 이어지고, 파일 이름의
  번호와 같습니다. 쓰는 동안 비워 둔 번호는 아래 `RESERVED`에만 적습니다. 파일 이름에 번호가 없는
  페이지(부록 등)는 장 번호를 세지 않고, 제목에 장 번호를 달지도 않습니다.
- 장 번호로 시작하는 실험 노트북(`notebooks/NN-...ipynb`)은 nav에서 NN장 바로 뒤(다음 장 앞)에 있습니다.
- "[N장](...)"처럼 장 번호를 글자로 적은 링크는 N장을 가리키고, "[앞 장](...)", "[다음 장](...)"은 nav에서
  바로 앞, 바로 뒤의 장을 가리킵니다.
- 이전/다음 링크는 Material의 바닥글(`navigation.footer`)이 nav에서 만들므로 페이지에 손으로 적지 않습니다.
"""

from __future__ import annotations

import json
import posixpath
import re

import pytest
from sitetools import CHAPTER_FILE, DOCS, load_site_config

# 쓰는 동안 비워 둔 장 번호. 장을 쓰는 동안만 채우고, 그 장들이 nav에 들어오면 비웁니다(비우지 않으면
# 아래 테스트가 그 번호를 "비워 둔 번호"로 보고 실패합니다). 제5고지 39~44장이 들어와 지금은 없습니다.
RESERVED: frozenset[int] = frozenset()

TITLE = re.compile(r"^# (\d+)장\. ")
# 링크 글자가 장 번호로 시작하는 링크: [16장](...), [16장. 제목](...), [45~46장](...), [16장의 규칙](...)
NUMBERED_LINK = re.compile(r"\[(\d+)(?:\s*([~–·])\s*(\d+))?장[^\]]*\]\(([^)\s]+)\)")
RELATIVE_LINK = re.compile(r"\[(앞 장|다음 장)\]\(([^)\s]+)\)")
# 손으로 쓴 이전/다음 링크: [← 제목](...) 또는 [제목 →](...)
HAND_WRITTEN_NAV = re.compile(r"\[← [^\]]*\]\(|\[[^\]]* →\]\(")


def nav_files(items=None) -> list[str]:
    """nav에 적힌 파일을 위에서 아래로(docs/ 기준 경로)."""
    if items is None:
        items = load_site_config()["nav"]
    files: list[str] = []
    for item in items:
        if isinstance(item, str):
            files.append(item)
        elif isinstance(item, dict):
            for value in item.values():
                files += nav_files(value) if isinstance(value, list) else [value]
    return files


def title_number(path: str) -> int:
    first = (DOCS / path).read_text(encoding="utf-8").splitlines()[0]
    match = TITLE.match(first)
    assert match, f"{path}의 첫 줄이 '# N장. 제목'이 아닙니다: {first!r}"
    return int(match[1])


NAV = nav_files()
CHAPTERS = [f for f in NAV if CHAPTER_FILE.match(posixpath.basename(f))]
NUMBER = {f: title_number(f) for f in CHAPTERS}


def test_nav_lists_every_chapter_page_once():
    on_disk = sorted(
        p.relative_to(DOCS).as_posix()
        for p in DOCS.rglob("*.md")
        if CHAPTER_FILE.match(p.name) and "assets" not in p.parts
    )
    assert len(CHAPTERS) == len(set(CHAPTERS))
    assert sorted(CHAPTERS) == on_disk


def test_chapter_numbers_follow_the_nav_with_only_the_reserved_gap():
    numbers = [NUMBER[f] for f in CHAPTERS]
    expected = [n for n in range(1, max(numbers) + 1) if n not in RESERVED]
    assert numbers == expected, list(zip(CHAPTERS, numbers, strict=True))
    if RESERVED:
        # 비워 둔 번호는 한 덩어리이고, 그 앞뒤에 장이 있습니다(끝에 붙은 빈 번호는 빈 곳이 아닙니다).
        assert max(RESERVED) - min(RESERVED) + 1 == len(RESERVED)
        assert min(RESERVED) - 1 in numbers and max(RESERVED) + 1 in numbers


def test_pages_without_a_chapter_number_have_no_chapter_title():
    """부록처럼 파일 이름에 번호가 없는 nav 페이지는 장 번호를 달지 않습니다(번호 검사에서 빠지므로)."""
    unnumbered = [f for f in NAV if f.endswith(".md") and f not in NUMBER]
    assert "appendix/final-engine-backward.md" in unnumbered
    titled = [
        f for f in unnumbered if TITLE.match((DOCS / f).read_text(encoding="utf-8").splitlines()[0])
    ]
    assert not titled, f"번호 없는 파일에 'N장.' 제목이 있습니다: {titled}"


def test_file_names_carry_the_chapter_number():
    wrong = {
        f: n for f, n in NUMBER.items() if int(CHAPTER_FILE.match(posixpath.basename(f))[1]) != n
    }
    assert not wrong, wrong


def test_numbered_notebooks_follow_their_chapter():
    """notebooks/NN-...ipynb 는 nav에서 NN장 뒤, 다음 장 앞에 놓입니다."""
    checked = 0
    last_chapter = None
    for f in NAV:
        if f in NUMBER:
            last_chapter = NUMBER[f]
        elif f.startswith("notebooks/") and re.match(r"\d+-", posixpath.basename(f)):
            number = int(posixpath.basename(f).split("-")[0])
            assert number == last_chapter, f"{f}가 {last_chapter}장 뒤에 있습니다"
            checked += 1
    assert checked >= 5


def _page_links(path: str) -> list[tuple[str, str]]:
    """(링크 전체, 대상 파일의 docs/ 기준 경로). 노트북은 마크다운 셀만, .html 대상은 .md로 읽습니다."""
    source = (DOCS / path).read_text(encoding="utf-8")
    if path.endswith(".ipynb"):
        cells = json.loads(source)["cells"]
        source = "\n".join(
            "".join(c["source"]) if isinstance(c["source"], list) else c["source"]
            for c in cells
            if c["cell_type"] == "markdown"
        )
    links = []
    for match in re.finditer(r"\[[^\]]*\]\(([^)\s]+)\)", source):
        target = match[1].split("#")[0]
        if not target or "://" in target:
            continue
        target = posixpath.normpath(posixpath.join(posixpath.dirname(path), target))
        if target.endswith(".html"):
            target = target[: -len(".html")] + ".md"
        links.append((match[0], target))
    return links


LINKING_PAGES = sorted(
    p.relative_to(DOCS).as_posix()
    for p in list(DOCS.rglob("*.md")) + list(DOCS.rglob("*.ipynb"))
    if "assets" not in p.parts and ".ipynb_checkpoints" not in p.parts
)


@pytest.mark.parametrize("page", LINKING_PAGES)
def test_links_that_name_a_chapter_number_point_at_that_chapter(page):
    problems = []
    for link, target in _page_links(page):
        match = NUMBERED_LINK.fullmatch(link)
        if not match:
            continue
        first, sep, last = int(match[1]), match[2], match[3]
        if sep is None:
            allowed = {first}
        elif sep == "·":
            allowed = {first, int(last)}
        else:
            allowed = set(range(first, int(last) + 1))
        got = NUMBER.get(target)
        if got not in allowed:
            problems.append(f"{link}: 대상 {target}은(는) {got}장")
    assert not problems, problems


@pytest.mark.parametrize("page", CHAPTERS)
def test_previous_and_next_chapter_links_follow_the_nav(page):
    index = CHAPTERS.index(page)
    neighbour = {
        "앞 장": CHAPTERS[index - 1] if index > 0 else None,
        "다음 장": CHAPTERS[index + 1] if index + 1 < len(CHAPTERS) else None,
    }
    source = (DOCS / page).read_text(encoding="utf-8")
    problems = []
    for match in RELATIVE_LINK.finditer(source):
        words, target = match[1], match[2].split("#")[0]
        target = posixpath.normpath(posixpath.join(posixpath.dirname(page), target))
        if target != neighbour[words]:
            problems.append(f"{match[0]}: nav의 {words}은(는) {neighbour[words]}")
    assert not problems, problems


def test_previous_next_links_come_from_the_footer_not_from_the_pages():
    assert "navigation.footer" in load_site_config()["theme"]["features"]
    written = []
    for path in DOCS.rglob("*.md"):
        if "assets" in path.parts:
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if HAND_WRITTEN_NAV.search(line):
                written.append(f"{path.relative_to(DOCS)}:{number}")
    assert not written, f"이전/다음 링크는 바닥글이 만듭니다. 페이지에서 지우세요: {written}"


def _footer_targets(html: str, page: str) -> dict[str, str]:
    """빌드한 페이지의 바닥글에서 이전/다음 링크가 가리키는 페이지(docs/ 기준 .md 경로)."""
    targets = {}
    for tag in re.findall(r"<a [^>]*md-footer__link--(?:prev|next)[^>]*>", html):
        kind = "prev" if "md-footer__link--prev" in tag else "next"
        href = re.search(r'href="([^"]+)"', tag)[1]
        target = posixpath.normpath(posixpath.join(posixpath.dirname(page), href))
        targets[kind] = target.removesuffix(".html") + ".md"
    return targets


def test_built_footer_walks_the_chapters_in_nav_order(built_site):
    """바닥글의 '다음'은 nav의 다음 페이지입니다. 제3고지 끝에서 제4고지로, 제5고지 끝에서 곁가지로."""
    for page in ("part3/21-double-backprop.md", "part5/38-dropout.md", "micrograd/46-training.md"):
        index = NAV.index(page)
        html = built_site.read(page.removesuffix(".md") + ".html")
        footer = _footer_targets(html, page)
        # nav의 다음 항목이 노트북이면 바닥글도 노트북 페이지를 가리킵니다.
        following = NAV[index + 1].removesuffix(".ipynb").removesuffix(".md") + ".md"
        assert footer.get("next") == following, (page, footer)
        assert (
            footer.get("prev") == NAV[index - 1].removesuffix(".ipynb").removesuffix(".md") + ".md"
        )
