"""브라우저 없이 빌드 결과와 설정을 검사합니다.

- 엄격한 빌드(`--strict`)가 깨진 링크, 없는 앵커, nav에서 빠진 페이지, 절대 링크, 알 수 없는
  링크를 실제로 잡아내는지(작은 시험용 사이트로)
- HTML이 외부 자원을 불러오지 않는지(태그의 주소뿐 아니라 인라인 스크립트의 import()와 스타일의
  @import/url()까지, 조건문 뒤에 숨은 주소도), 한국어 제목 앵커와 페이지 안 링크가 맞는지
- 장 페이지마다 옆에 노트북이 있고 노트북·휠·오프라인 압축 파일이 링크되는지, 저장소/고치기 링크는
  실제 주소가 있을 때만인지
- 처음 페이지의 장 지도가 있는 장을 모두 링크하는지
- 노트북이 빌드할 때 실행되었는지, 벤더링한 파일이 고정된 해시와 같은지
"""

from __future__ import annotations

import functools
import json
import posixpath
import re
import subprocess
import sys
import urllib.parse
import zipfile
from html.parser import HTMLParser
from pathlib import Path

import pytest
from sitetools import DOCS, ROOT, load_site_config, tool_env

HANGUL = re.compile(r"[가-힣]")


# 불러오지 않고 가리키기만 하는 <link>: 검색 엔진용 대표 주소, 이전/다음 페이지 등.
NAVIGATION_RELS = {"canonical", "alternate", "prev", "next", "author", "license"}
OUTSIDE = re.compile(r"^(https?:)?//", re.IGNORECASE)
# 인라인 스크립트와 스타일 안의 밖 주소. XML 이름공간(www.w3.org/2000/svg 등)은 주소가 아닙니다.
ADDRESS_IN_CODE = re.compile(
    r"(?:https?:)?//(?!www\.w3\.org/)[a-z0-9.-]+\.[a-z]{2,}[^\s\"'`)]*", re.I
)


class _ResourceParser(HTMLParser):
    """브라우저가 페이지를 열 때 불러오는 주소(script, link, img, iframe, source)와 id, 앵커,
    인라인 스크립트와 스타일의 내용을 모읍니다."""

    def __init__(self) -> None:
        super().__init__()
        self.loads: list[str] = []
        self.ids: set[str] = set()
        self.fragments: list[str] = []
        self.links: list[str] = []
        self.inline_code: list[str] = []  # <script> 와 <style> 의 내용, style="" 속성
        self._in_code = False

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if "id" in attributes:
            self.ids.add(attributes["id"])
        if attributes.get("style"):
            self.inline_code.append(attributes["style"])
        if tag in {"script", "style"}:
            self._in_code = True
        if tag in {"script", "img", "iframe", "source", "audio", "video"} and attributes.get("src"):
            self.loads.append(attributes["src"])
        rels = set((attributes.get("rel") or "").lower().split())
        if tag == "link" and attributes.get("href") and not rels <= NAVIGATION_RELS:
            self.loads.append(attributes["href"])
        if tag == "a" and attributes.get("href") is not None:
            href = attributes["href"]
            self.links.append(href)
            if href.startswith("#"):
                self.fragments.append(urllib.parse.unquote(href[1:]))

    def handle_endtag(self, tag):
        if tag in {"script", "style"}:
            self._in_code = False

    def handle_data(self, data):
        if self._in_code:
            self.inline_code.append(data)


@functools.cache  # 같은 페이지를 여러 테스트가 읽습니다(사이트와 압축 파일 안의 같은 HTML도). 읽기만 합니다.
def parse(html: str) -> _ResourceParser:
    parser = _ResourceParser()
    parser.feed(html)
    return parser


# --- 실제 사이트 ---------------------------------------------------------------------------


def outside_addresses(html: str) -> list[str]:
    """페이지가 사이트 밖에서 불러오거나 불러올 수 있는 주소들.

    태그가 불러오는 주소(script/link/img...)와, 인라인 스크립트와 스타일 안에 적힌 모든 밖 주소
    (`import("https://...")`, `@import url(...)`). 스크립트 안의 주소는 조건문 뒤에 있어 실제로는
    불리지 않더라도 실패로 칩니다: 오프라인 독자나 엄격한 보안 정책 아래에서는 시도조차 없어야 합니다.
    """
    parsed = parse(html)
    found = [url for url in parsed.loads if OUTSIDE.match(url)]
    for code in parsed.inline_code:
        found += ADDRESS_IN_CODE.findall(code)
    return found


def test_outside_address_check_catches_scripts_modules_styles_and_guarded_imports():
    cases = {
        '<script src="https://cdn.example.org/a.js"></script>': True,
        '<link rel="stylesheet" href="//cdn.example.org/a.css">': True,
        '<link rel="modulepreload" href="https://esm.example.org/m.js">': True,
        '<script type="module">if (x) { await import("https://cdnjs.cloudflare.com/m.mjs"); }</script>': True,
        "<style>@import url(https://fonts.example.org/x.css);</style>": True,
        '<div style="background: url(https://img.example.org/a.png)"></div>': True,
        '<link rel="canonical" href="https://example.org/page.html">': False,
        '<a href="https://github.com/nschloe/pytest-codeblocks">링크</a>': False,
        '<svg xmlns="http://www.w3.org/2000/svg"></svg><script>const ns = "http://www.w3.org/2000/svg";</script>': False,
        '<script src="assets/javascripts/bundle.js"></script>': False,
    }
    for html, outside in cases.items():
        assert bool(outside_addresses(html)) is outside, html


def test_pages_load_nothing_from_outside(built_site):
    for page in built_site.pages:
        outside = outside_addresses(built_site.read(page))
        assert not outside, f"{page}가 사이트 밖의 주소를 불러오거나 담고 있습니다: {outside}"


def test_stylesheets_import_nothing_from_outside(built_site):
    for css in built_site.path.rglob("*.css"):
        text = css.read_text(encoding="utf-8", errors="replace")
        imports = re.findall(r"@import[^;]*|url\(\s*['\"]?(?:https?:)?//[^)]*\)", text)
        assert not imports, f"{css.relative_to(built_site.path)}: {imports}"


def test_in_page_links_point_to_existing_ids(built_site):
    """목차와 ¶ 링크가 가리키는 id가 페이지에 있어야 합니다(노트북 페이지 포함)."""
    for page in built_site.pages:
        parsed = parse(built_site.read(page))
        missing = sorted({f for f in parsed.fragments if f and f not in parsed.ids})
        assert not missing, f"{page}: 없는 앵커로의 링크 {missing}"


def test_korean_headings_get_korean_anchors(built_site):
    for page in built_site.pages:
        headings = re.findall(r'<h[2-6] id="([^"]*)"', built_site.read(page))
        assert "" not in headings, f"{page}: id가 빈 제목이 있습니다"
        assert not [h for h in headings if re.fullmatch(r"_\d+", h)], f"{page}: {headings}"
    glossary = re.findall(r'<h2 id="([^"]*)"', built_site.read("glossary.html"))
    assert "계산-그래프의-기본" in glossary
    assert all(HANGUL.search(anchor) for anchor in glossary)


def chapter_sources() -> list[Path]:
    """장 지도에 링크되어야 하는 원본: 처음 페이지를 뺀 모든 페이지(장, 부록, 노트북)."""
    sources = sorted(DOCS.rglob("*.md")) + sorted((DOCS / "notebooks").glob("*.ipynb"))
    return [p for p in sources if p != DOCS / "index.md" and "assets" not in p.parts]


def test_home_page_map_links_every_chapter(built_site):
    # 왼쪽 nav는 모든 페이지를 링크하므로 본문(article)의 링크만 봅니다.
    page = built_site.read("index.html")
    article = page[page.index("<article") : page.index("</article>")]
    links = {urllib.parse.unquote(href.split("#", 1)[0]) for href in parse(article).links}
    chapters = [p.relative_to(DOCS).with_suffix(".html").as_posix() for p in chapter_sources()]
    assert chapters, "장 페이지가 하나도 없습니다"
    missing = [page for page in chapters if page not in links]
    assert not missing, f"처음 페이지의 장 지도에 링크가 없습니다: {missing}"


def test_notebooks_are_saved_without_outputs():
    """docs/notebooks 는 출력 없이 저장합니다. 그래야 사이트에 보이는 출력이 빌드 때 실행한 결과입니다."""
    notebooks = sorted((DOCS / "notebooks").glob("*.ipynb"))
    assert notebooks
    for path in notebooks:
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        assert not [c for c in cells if c["cell_type"] == "code" and c.get("outputs")], path.name


def test_every_notebook_was_executed_at_build_time(built_site):
    """실험 노트북은 테스트 실행마다 한 번, 여기(엄격 빌드)에서만 실행됩니다(dev.py 의 설명)."""
    for path in sorted((DOCS / "notebooks").glob("*.ipynb")):
        html = built_site.read(f"notebooks/{path.stem}.html")
        assert f"Converting notebook (execute=True): {path}" in built_site.log, path.name
        assert "jp-OutputArea-output" in html, f"{path.name}: 실행 결과가 페이지에 없습니다"
    html = built_site.read("notebooks/numerical-diff-error.html")
    assert "data:image/png;base64," in html, "그래프 이미지가 없습니다: 셀이 실행되지 않았습니다"
    assert "전진 차분: 가장 좋은 h = " in html  # print()의 출력은 실행해야만 생깁니다


def test_every_chapter_page_links_its_notebook_the_wheel_and_the_offline_archive(built_site):
    import chapter_notebooks
    import site_archive
    from notebook_checks import chapter_pages

    [wheel] = (built_site.path / "downloads").glob("tinygrad_ko-*-py3-none-any.whl")
    pages = chapter_pages()
    assert len(pages) >= 17
    for page in pages:
        notebook = chapter_notebooks.notebook_uri(page)
        assert (built_site.path / notebook).is_file(), f"{notebook} 가 사이트에 없습니다"
        html = built_site.read(page.replace(".md", ".html"))
        article = html[html.index("<article") : html.index("</article>")]
        links = parse(article).links
        assert Path(notebook).name in links, f"{page}: 노트북 링크가 없습니다"
        assert chapter_notebooks.DOWNLOAD_LABEL in article
        # 휠과 오프라인 압축 파일의 링크도: 페이지 자리에서 풀어 사이트 안의 파일을 가리켜야 합니다.
        targets = {
            posixpath.normpath(posixpath.join(posixpath.dirname(page), urllib.parse.unquote(link)))
            for link in links
        }
        assert f"downloads/{wheel.name}" in targets, f"{page}: 휠 링크가 없습니다"
        assert site_archive.IN_SITE in targets, f"{page}: 오프라인 압축 파일 링크가 없습니다"
    made = sorted(
        p.relative_to(built_site.path).as_posix() for p in built_site.path.rglob("*.ipynb")
    )
    assert made == sorted(chapter_notebooks.notebook_uri(p) for p in pages)
    assert f"장 노트북 {len(pages)}개" in built_site.log
    with zipfile.ZipFile(built_site.path / site_archive.IN_SITE) as archive:
        assert f"{site_archive.TOP}/downloads/{wheel.name}" in archive.namelist()
    # 압축을 푼 사이트에는 죽은 링크가 없습니다(압축 파일 자신을 가리키던 링크도).
    assert links_missing_from_archive(built_site.path / site_archive.IN_SITE) == []


def links_missing_from_archive(archive_path: Path) -> list[str]:
    """압축 파일 안의 HTML이 상대 주소로 가리키지만 압축 파일 안에 없는 것들("페이지 -> 링크").

    압축을 푼 독자에게는 그 링크가 죽은 링크입니다. 사이트 밖 주소와 페이지 안 앵커는 보지 않습니다.
    """
    missing = []
    with zipfile.ZipFile(archive_path) as archive:
        names = set(archive.namelist())
        for name in sorted(n for n in names if n.endswith(".html")):
            folder = posixpath.dirname(name)
            for link in parse(archive.read(name).decode("utf-8")).links:
                parts = urllib.parse.urlsplit(link)
                if parts.scheme or parts.netloc or not parts.path or link.startswith("/"):
                    continue
                target = posixpath.normpath(
                    posixpath.join(folder, urllib.parse.unquote(parts.path))
                )
                if target not in names and f"{target}/index.html" not in names:
                    missing.append(f"{name} -> {link}")
    return missing


def test_the_offline_archive_does_not_link_to_itself_inside(tmp_path):
    """장 페이지는 오프라인 압축 파일을 링크하지만, 압축 파일 안에는 그 파일 자신이 없습니다. 그래서
    압축 파일에 넣은 장 페이지에서는 그 링크의 문단을 빼고(사이트의 페이지에는 그대로), 검색 색인에도
    넣지 않습니다(압축 파일 안의 검색이 없는 문장을 찾지 않게). 빌드 훅이 만드는 링크 줄을 그대로
    렌더링해 작은 사이트를 만들고 묶어 봅니다."""
    import markdown
    import mkdocs_hooks
    import site_archive

    site = tmp_path / "site"
    (site / "part1").mkdir(parents=True)
    (site / "downloads").mkdir()
    (site / "downloads" / "tinygrad_ko-0.1.0-py3-none-any.whl").write_bytes(b"wheel")
    (site / "part1" / "01-a.ipynb").write_text("{}", encoding="utf-8")
    lines = mkdocs_hooks.download_links(
        "part1/01-a.md", "downloads/tinygrad_ko-0.1.0-py3-none-any.whl", archive=True
    )
    body = markdown.markdown(
        "\n".join(["# 1장", "", *lines, "", "본문입니다."]), extensions=["attr_list"]
    )
    (site / "part1" / "01-a.html").write_text(f"<article>{body}</article>", encoding="utf-8")
    (site / "index.html").write_text('<a href="part1/01-a.html">1장</a>', encoding="utf-8")
    # 사이트의 장 페이지는 압축 파일을 링크하고, 그 문단은 검색에서 뺍니다.
    page = parse(body)
    assert "../" + site_archive.IN_SITE in page.links
    [paragraph] = re.findall(r"<p [^>]*>.*?</p>", body, flags=re.S)
    assert site_archive.IN_SITE in paragraph and "data-search-exclude" in paragraph
    site_archive.pack(site, site / site_archive.IN_SITE)
    assert links_missing_from_archive(site / site_archive.IN_SITE) == []
    with zipfile.ZipFile(site / site_archive.IN_SITE) as archive:
        packed = archive.read(f"{site_archive.TOP}/part1/01-a.html").decode("utf-8")
    assert "tinygrad_ko-0.1.0-py3-none-any.whl" in packed and "본문입니다." in packed
    assert "오프라인 압축 파일" not in packed


def test_notebook_pages_load_no_requirejs_or_cdn_mathjax(built_site):
    for page in built_site.pages:
        loads = parse(built_site.read(page)).loads
        assert not [u for u in loads if "require" in u or "mathjax/2" in u], (page, loads)


# --- 설정 --------------------------------------------------------------------------------


def test_jupyter_plugin_settings_fail_on_errors_and_never_use_a_stale_cache():
    plugins = load_site_config()["plugins"]
    jupyter = next(
        p["mkdocs-jupyter"] for p in plugins if isinstance(p, dict) and "mkdocs-jupyter" in p
    )
    assert jupyter["execute"] is True
    assert jupyter["allow_errors"] is False
    assert jupyter["cache"] is False
    assert jupyter["include"] == ["*.ipynb"]
    # 페이지(.md)는 노트북으로 읽어 보지도 않습니다(jupytext로 읽는 데 serve 빌드 CPU의 절반이 들었음).
    assert set(jupyter["ignore"]) >= {"*.md", "*.py"}
    assert jupyter.get("include_requirejs", False) is False


def test_search_separator_splits_korean_prose(built_site):
    """사이트에 실린 검색 설정으로, 한국어 문장 속 괄호 안 영어와 코드 이름이 따로 토큰이 됩니다.

    (같은 정규식을 브라우저의 lunr가 씁니다. 실제 검색 결과는 test_search.py가 봅니다.)
    """
    config = built_site.search_config()
    assert config["pipeline"] == ["stopWordFilter"], "stemmer/trimmer는 한국어 토큰을 망가뜨립니다"
    separator = re.compile(config["separator"])

    def tokens(text: str) -> list[str]:
        return [t for t in separator.split(text) if t]

    assert tokens("역전파(backpropagation)는") == ["역전파", "backpropagation", "는"]
    assert "weakref" in tokens("함수는 출력을 `weakref.ref`로 가리킵니다")
    # 조사는 붙은 채 남지만, Material이 검색어 끝에 *를 붙이므로 `creator`로 찾을 수 있습니다.
    assert tokens("y.creator가") == ["y", "creator가"]
    assert "retain" in tokens("retain_grad=True")
    assert tokens("「세대」·창조자") == ["세대", "창조자"]


LINK_VARIABLES = ("TINYGRAD_KO_REPO_URL", "TINYGRAD_KO_EDIT_URI", "TINYGRAD_KO_SITE_URL")


def test_repository_edit_and_site_addresses_come_only_from_the_environment(monkeypatch):
    """자리표시 주소를 적어 두지 않습니다: 환경 변수가 없으면 저장소/고치기 링크도 사이트 주소도 없습니다."""
    for name in LINK_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    config = load_site_config()
    assert (config["repo_url"], config["edit_uri"], config["site_url"]) == (None, None, None)
    values = (
        "https://github.com/someone/fork",
        "edit/main/docs/",
        "https://someone.github.io/fork/",
    )
    for name, value in zip(LINK_VARIABLES, values, strict=True):
        monkeypatch.setenv(name, value)
    config = load_site_config()
    assert (config["repo_url"], config["edit_uri"], config["site_url"]) == values


@pytest.mark.slow
def test_repository_link_is_a_plain_link_that_calls_no_github_api(tmp_path):
    """repo_url 이 있을 때 Material 은 GitHub API에서 별 수를 받아 오는데, 우리 템플릿은 링크만 둡니다."""
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "index.md").write_text("# 처음\n\n본문입니다.\n", encoding="utf-8")
    theme = load_site_config()["theme"]
    (tmp_path / "mkdocs.yml").write_text(
        "site_name: 시험\n"
        "use_directory_urls: false\n"
        "repo_url: https://github.com/someone/fork\n"
        "edit_uri: edit/main/docs/\n"
        "theme:\n"
        "  name: material\n"
        f"  custom_dir: {ROOT / theme['custom_dir']}\n"
        f"  features: {json.dumps(theme['features'])}\n",
        encoding="utf-8",
    )
    completed = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(tmp_path / "out")],
        cwd=tmp_path,
        env=tool_env(),
        capture_output=True,
        text=True,
    )
    assert completed.returncode == 0, completed.stdout + completed.stderr
    html = (tmp_path / "out" / "index.html").read_text(encoding="utf-8")
    assert 'class="md-source"' in html and 'href="https://github.com/someone/fork"' in html
    assert 'data-md-component="source"' not in html, "Material 이 GitHub API 를 부르게 됩니다"
    assert "https://github.com/someone/fork/edit/main/docs/index.md" in html


# --- 엄격한 빌드가 잡아내는 것 ---------------------------------------------------------------

GOOD_OTHER = "# 다른 페이지\n\n## 역전파 이론\n\n본문입니다.\n"

CASES = {
    "broken_link": ("[없는 페이지](missing.md)", "missing.md"),
    "missing_anchor": ("[없는 제목](other.md#없는-제목)", "없는-제목"),
    "absolute_link": ("[절대 링크](/other.md)", "absolute link"),
    "unrecognized_link": ("[폴더 링크](sub/)", "unrecognized relative link"),
    "omitted_file": ("본문입니다.", 'not included in the "nav"'),
}


def build_small_site(
    tmp_path: Path, index_body: str, extra_file: bool
) -> subprocess.CompletedProcess:
    """이 사이트와 같은 validation과 toc(한글 slugify) 설정으로 작은 사이트를 만듭니다."""
    docs = tmp_path / "docs"
    (docs / "sub").mkdir(parents=True)
    (docs / "index.md").write_text(
        f"# 처음\n\n[다른 페이지의 제목](other.md#역전파-이론)\n\n{index_body}\n", encoding="utf-8"
    )
    (docs / "other.md").write_text(GOOD_OTHER, encoding="utf-8")
    (docs / "sub" / "image.txt").write_text("정적 파일", encoding="utf-8")
    if extra_file:
        (docs / "extra.md").write_text("# nav에 없는 페이지\n", encoding="utf-8")
    validation = json.dumps(load_site_config()["validation"], ensure_ascii=False)
    (tmp_path / "mkdocs.yml").write_text(
        "site_name: 시험\n"
        "use_directory_urls: false\n"
        "nav: [index.md, other.md]\n"
        "markdown_extensions:\n"
        "  - toc:\n"
        "      slugify: !!python/object/apply:pymdownx.slugs.slugify {kwds: {case: lower}}\n"
        f"validation: {validation}\n",
        encoding="utf-8",
    )
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(tmp_path / "out")],
        cwd=tmp_path,
        env=tool_env(),
        capture_output=True,
        text=True,
    )


@pytest.mark.slow
def test_small_site_with_korean_anchor_link_builds(tmp_path):
    completed = build_small_site(tmp_path, "본문입니다.", extra_file=False)
    assert completed.returncode == 0, completed.stdout + completed.stderr


@pytest.mark.slow
@pytest.mark.parametrize("case", sorted(CASES))
def test_strict_build_rejects(tmp_path, case):
    body, message = CASES[case]
    completed = build_small_site(tmp_path, body, extra_file=case == "omitted_file")
    log = completed.stdout + completed.stderr
    assert completed.returncode != 0, f"{case}: 엄격한 빌드가 통과했습니다\n{log}"
    assert message in log, log


# --- 벤더링한 파일 ---------------------------------------------------------------------------


def test_vendored_files_match_their_pinned_hashes():
    completed = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "vendor.py"), "--check"],
        capture_output=True,
        text=True,
    )
    assert completed.returncode == 0, completed.stdout + completed.stderr


def test_every_vendored_package_has_its_licence_and_no_page_sources():
    vendor = DOCS / "assets" / "vendor"
    packages = [p for p in vendor.iterdir() if p.is_dir()]
    assert {p.name for p in packages} == {"mathjax", "mermaid", "iframe-worker"}
    for package in packages:
        assert (package / "LICENSE").stat().st_size > 500, package
    # .md / .ipynb 는 mkdocs가 페이지로, pytest가 테스트로 모읍니다.
    assert not [p for p in (DOCS / "assets").rglob("*") if p.suffix in {".md", ".ipynb"}]
