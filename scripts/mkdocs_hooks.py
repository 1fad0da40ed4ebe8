"""mkdocs 훅: 사이트를 빌드할 때 끼어드는 일들을 한곳에서 합니다.

1. 노트북 페이지의 한국어 제목에도 마크다운 페이지와 같은 앵커를 붙입니다.
   mkdocs-jupyter 0.26.3 은 노트북 제목의 id를 ASCII 글자만 남기는 slugify로 만들므로, 한국어 제목은
   id가 빈 문자열이 되고(`<h2 id="">`), 오른쪽 목차는 파이썬 Markdown의 기본 slugify로 `#_1` 같은
   다른 앵커를 가리킵니다. 여기서는 두 곳 모두 mkdocs.yml 의 `toc`와 같은 `pymdownx.slugs.slugify`
   (유니코드, 소문자)를 쓰게 바꿉니다. 그래서 `## 가장 좋은 $h$`는 어디서나 `#가장-좋은-h`가 됩니다.
2. 노트북 페이지에서 mermaid를 CDN에서 `import()`하는 스크립트를 뺍니다. nbconvert의 lab 템플릿이
   넣는 것으로, 노트북에 mermaid 출력이 없으면 실행되지 않지만 주소는 페이지에 남습니다.
   오프라인이거나 엄격한 보안 정책 아래의 독자에게는 그런 요청이 시도조차 되지 않아야 하므로,
   mkdocs-jupyter의 템플릿을 이어받아 그 블록만 비운 `scripts/nbconvert_templates/`의 템플릿을 씁니다.
3. 장 페이지(`chapter_notebooks.is_chapter`)마다 노트북을 만들어 페이지 옆에 두고, 제목 아래에
   "이 장을 노트북으로 받기" 링크와 휠, 오프라인 압축 파일의 링크를 넣습니다. 노트북의 첫 코드 셀이 설치할
   `tinygrad_ko` 휠은 `downloads/`에 둡니다(`site_wheel.py`). 사이트 전체를 묶은 압축 파일
   (`site_archive.py`)도 빌드가 끝날 때 `downloads/`에 만듭니다(serve에서는 만들지 않고 링크도
   넣지 않습니다). 페이지 원본은 고치지 않습니다.
4. 실험 노트북의 실행: `mkdocs build`는 늘 새로 실행하고 그 결과를 캐시에 적습니다.
   `mkdocs serve`(`python3 dev.py serve`)는 실행하지 않고 캐시의 결과를 씁니다
   (`notebook_cache.py`: 노트북과 라이브러리 소스가 같을 때만).
5. 용어집의 표에서 칸마다 그 열의 이름을 `data-label`로 붙입니다. 폰에서는 extra.css 가 표의 한 행을
   카드 하나로 세워(열 이름: 값) 뜻 열이 화면 밖으로 밀려나지 않게 합니다.
6. ```` ```output ```` 울타리(블록의 출력: 글 줄과 `tinygrad_ko.tools.plot.to_svg`가 그린 SVG)에서 글은 글로,
   SVG는 그림으로 보여 줍니다. 울타리는 그 블록의 출력이라 pytest-codeblocks가 글자 하나까지 확인합니다.
7. 검색 색인을 독자가 읽을 수 있게 다듬고, 용어를 소개하는 장을 그 용어의 검색 결과 맨 앞에 둡니다
   (`search_index.py`). 검색 플러그인이 색인을 쓴 뒤, offline 플러그인이 그것을 search_index.js 로
   옮기기 전에 돕니다.

mkdocs-jupyter의 내부 함수를 바꿔 끼우므로, 그 함수가 없어졌으면 조용히 넘어가지 않고 빌드를
멈춥니다(버전을 올린 뒤 이 훅이 아직 필요한지 확인하라는 뜻입니다).
"""

from __future__ import annotations

import html
import logging
import posixpath
import re
import time
import urllib.parse
from pathlib import Path

# chapter_notebooks 와 site_wheel 은 이 폴더의 모듈입니다(mkdocs는 훅을 불러오는 동안 훅의 폴더를
# sys.path에 넣습니다).
import chapter_notebooks
import dirty_serve
import markdown
import notebook_cache
import search_index
import site_archive
import site_wheel
from markdown.extensions.toc import TocExtension
from mkdocs.exceptions import PluginError
from mkdocs.plugins import CombinedEvent, event_priority
from mkdocs.structure.files import File
from mkdocs.structure.toc import get_toc
from pymdownx.slugs import slugify

_slugify = slugify(case="lower")
log = logging.getLogger("mkdocs.hooks.tinygrad_ko")
TEMPLATES = Path(__file__).resolve().parent / "nbconvert_templates"
NOTEBOOK_TEMPLATE = "mkdocs_html/notebook.html.j2"  # mkdocs-jupyter 가 쓰는 템플릿
OUR_NOTEBOOK_TEMPLATE = "tinygrad_ko_notebook.html.j2"
DOWNLOADS = "downloads"
JUPYTER_PLUGIN = "mkdocs-jupyter"
# `mkdocs serve`로 띄웠는지(on_startup). serve는 다시 빌드할 때마다 설정을 새로 읽지만 훅 모듈은
# 한 번만 불러오므로 이 값이 남습니다.
_RUN = {"serving": False}


def _heading_id(text: str) -> str:
    return _slugify(text, "-")


def _add_anchor(html: str, anchor_link_text: str = "¶") -> str:
    """제목 HTML에 유니코드 id와 앵커 링크(¶)를 붙입니다. mkdocs-jupyter의 같은 함수를 대신합니다."""
    from xml.etree.ElementTree import Element

    from defusedxml import ElementTree
    from nbconvert.filters.strings import html2text

    try:
        heading = ElementTree.fromstring(html)
    except Exception:
        return html  # 해석할 수 없는 제목은 원래 함수처럼 그대로 둡니다.
    anchor = _heading_id(html2text(heading))
    heading.set("id", anchor)
    link = Element("a", {"class": "anchor-link", "href": "#" + anchor})
    link.text = anchor_link_text
    heading.append(link)
    return ElementTree.tostring(heading).decode("utf-8", "replace")


def _markdown_toc(markdown_source: str, toc_depth: int) -> list:
    """노트북의 목차를 본문과 같은 slugify로 만듭니다."""
    md = markdown.Markdown(extensions=[TocExtension(toc_depth=toc_depth, slugify=_slugify)])
    md.convert(markdown_source)
    return md.toc_tokens


def _exporter_without_cdn(base):
    """mkdocs-jupyter 의 노트북 템플릿 대신 mermaid CDN 블록을 비운 우리 템플릿을 쓰는 HTMLExporter."""

    class Exporter(base):
        tinygrad_ko_template = True

        def __init__(self, *args, **kwargs):
            if kwargs.get("template_file") != NOTEBOOK_TEMPLATE:
                raise PluginError(
                    f"mkdocs-jupyter 가 {kwargs.get('template_file')!r} 템플릿을 씁니다"
                    f"({NOTEBOOK_TEMPLATE!r}가 아님). scripts/nbconvert_templates/ 를 확인해 주세요."
                )
            kwargs["template_file"] = OUR_NOTEBOOK_TEMPLATE
            kwargs["extra_template_paths"] = [
                str(TEMPLATES),
                *kwargs.get("extra_template_paths", []),
            ]
            super().__init__(*args, **kwargs)

    return Exporter


def on_startup(command, dirty):
    _RUN["serving"] = command == "serve"
    _RUN["dirty"] = dirty


def on_config(config):
    import mkdocs_jupyter.convert as convert
    import mkdocs_jupyter.nbconvert2 as nbconvert2
    import mkdocs_jupyter.plugin as plugin

    for module, name in (
        (convert, "add_anchor_lower_id"),
        (plugin, "_get_markdown_toc"),
        (nbconvert2, "HTMLExporter"),
    ):
        if not callable(getattr(module, name, None)):
            raise PluginError(
                f"{module.__name__}.{name} 이(가) 없습니다. mkdocs-jupyter 버전이 바뀐 것 같습니다. "
                f"scripts/mkdocs_hooks.py 가 아직 필요한지 확인해 주세요."
            )
    _add_output_fence(config)
    convert.add_anchor_lower_id = _add_anchor
    plugin._get_markdown_toc = _markdown_toc
    if not getattr(
        nbconvert2.HTMLExporter, "tinygrad_ko_template", False
    ):  # serve 는 여러 번 부릅니다
        nbconvert2.HTMLExporter = _exporter_without_cdn(nbconvert2.HTMLExporter)
    if _RUN["serving"]:
        # serve는 노트북을 실행하지 않습니다: 캐시에 실행 결과가 있으면 그것을, 없으면 코드만 그립니다.
        config.plugins[JUPYTER_PLUGIN].config["execute"] = False
    return config


# --- 실험 노트북의 캐시 ---------------------------------------------------------------------


def on_pre_build(config):
    _RUN["environment"] = notebook_cache.environment_digest()
    if _RUN["serving"] and _RUN.get("dirty"):
        # --dirty는 원본이 바뀐 페이지만 다시 그리므로, src/ 가 바뀌어 낡은 페이지는 HTML을 지워 다시 그리게 합니다.
        root = Path(config["config_file_path"]).parent
        for built in dirty_serve.stale_pages(
            root, Path(config["docs_dir"]), Path(config["site_dir"])
        ):
            built.unlink()


def on_pre_page(page, config, files):
    """mkdocs-jupyter가 바꿔 끼운 노트북 페이지의 render를 캐시를 거치게 감쌉니다(훅은 플러그인 뒤에 돕니다)."""
    render = vars(page).get("render")
    if render is None or not page.file.src_uri.endswith(".ipynb"):
        return page
    notebook = Path(page.file.abs_src_path)
    options = config.plugins[JUPYTER_PLUGIN].config
    executed_key = notebook_cache.key(notebook, _RUN["environment"], options, executed=True)

    def apply(rendered: notebook_cache.Rendered, note: str = "") -> None:
        page.content = note + rendered.content
        page.toc = get_toc(rendered.toc_tokens)
        if rendered.title is not None:
            page.title = rendered.title

    def cached_render(config, files):
        if not _RUN["serving"]:
            start = time.perf_counter()
            render(config, files)  # 실행합니다(execute: true)
            log.info(f"{page.file.src_uri}: 실행하고 그리는 데 {time.perf_counter() - start:.1f}초")
            if options["execute"]:  # 실행을 끈 빌드의 결과는 "실행한 결과"로 적지 않습니다
                rendered = notebook_cache.Rendered(
                    page.content, notebook_cache.toc_tokens(page.toc), page.title
                )
                notebook_cache.store(notebook, True, executed_key, rendered)
            return
        hit = notebook_cache.load(notebook, True, executed_key)
        if hit is not None:
            log.info(f"{page.file.src_uri}: 캐시의 실행 결과를 씁니다.")
            return apply(hit)
        plain_key = notebook_cache.key(notebook, _RUN["environment"], options, executed=False)
        plain = notebook_cache.load(notebook, False, plain_key)
        if plain is None:
            render(config, files)  # execute: false (on_config)
            plain = notebook_cache.Rendered(
                page.content, notebook_cache.toc_tokens(page.toc), page.title
            )
            notebook_cache.store(notebook, False, plain_key, plain)
        apply(plain, notebook_cache.UNEXECUTED_NOTE)

    page.render = cached_render
    return page


# --- 장 노트북 ------------------------------------------------------------------------------


def snippet_expander(settings: dict):
    """pymdownx.snippets 설정(mkdocs.yml 의 것)대로 `--8<--` 줄을 펼치는 함수."""
    md = markdown.Markdown(
        extensions=["pymdownx.snippets"], extension_configs={"pymdownx.snippets": settings}
    )
    snippets = md.preprocessors["snippet"]
    return lambda lines: snippets.run(list(lines))


def _page_url(config, src_uri: str) -> str:
    html = posixpath.basename(src_uri)[: -len(".md")] + ".html"
    if config.site_url:
        return config.site_url.rstrip("/") + "/" + posixpath.dirname(src_uri) + "/" + html
    return html


def on_files(files, config):
    wheel = site_wheel.build_wheel()
    wheel_uri = f"{DOWNLOADS}/{wheel.filename}"
    files.append(File.generated(config, wheel_uri, content=wheel.content))
    _RUN["wheel_uri"] = wheel_uri
    if not _RUN["serving"]:
        # 자리만 잡아 둡니다(링크 검사가 찾도록). 내용은 on_post_build 가 사이트를 묶어 채웁니다.
        files.append(File.generated(config, site_archive.IN_SITE, content=b""))
    expand = snippet_expander(dict(config.mdx_configs.get("pymdownx.snippets", {})))
    made = 0
    for page in list(files.documentation_pages()):
        if not chapter_notebooks.is_chapter(page.src_uri):
            continue
        folder = posixpath.dirname(page.src_uri)
        setup = chapter_notebooks.Setup(
            wheel_filename=wheel.filename,
            wheel_version=wheel.version,
            relative_path=posixpath.relpath(wheel_uri, folder or "."),
            # 파일 이름의 `+`(로컬 버전)는 %2B로: `+`를 공백으로 읽는 서버도 있습니다.
            url=(config.site_url.rstrip("/") + "/" + urllib.parse.quote(wheel_uri))
            if config.site_url
            else None,
        )
        try:
            notebook = chapter_notebooks.page_to_notebook(
                page.content_string,
                links=chapter_notebooks.Links(_page_url(config, page.src_uri)),
                setup=setup,
                expand=expand,
            )
        except chapter_notebooks.NotebookError as error:
            raise PluginError(f"{page.src_uri} 를 노트북으로 만들 수 없습니다: {error}") from None
        content = chapter_notebooks.dumps(notebook)
        uri = chapter_notebooks.notebook_uri(page.src_uri)
        files.append(File.generated(config, uri, content=content))
        made += 1
    log.info(f"장 노트북 {made}개와 {wheel_uri} 를 만들었습니다.")
    return files


def download_links(src_uri: str, wheel_uri: str, archive: bool) -> list[str]:
    """장 페이지 제목 아래에 넣을 마크다운 줄들: 노트북 단추, 휠과 오프라인 압축 파일의 링크."""
    folder = posixpath.dirname(src_uri) or "."
    notebook = posixpath.basename(chapter_notebooks.notebook_uri(src_uri))
    wheel = posixpath.relpath(wheel_uri, folder)
    lines = [
        f"[{chapter_notebooks.DOWNLOAD_LABEL}]({notebook})"
        f'{{ .md-button .tinygrad-ko-notebook download="{notebook}" '
        'title="이 장의 글과 예제를 주피터 노트북(.ipynb)으로 받습니다" }',
        "",
        f"노트북의 첫 코드 셀은 [tinygrad_ko 휠]({wheel}){{ download }}을 설치합니다. 노트북만 따로 "
        "받았다면 휠 파일을 노트북과 같은 폴더에 두세요.",
    ]
    if archive:
        # 따로 둔 문단: 압축 파일 안에는 그 파일이 없으므로 묶을 때 이 문단을 뺍니다(site_archive).
        # 검색 색인에도 넣지 않습니다(푼 사이트의 검색이 빠진 문장을 찾지 않게).
        zipped = posixpath.relpath(site_archive.IN_SITE, folder)
        lines += [
            "",
            f"사이트 전체는 [오프라인 압축 파일]({zipped}){{ download }}로 받아 인터넷 없이 "
            "읽을 수 있습니다.",
            f"{{: .{site_archive.LINK_CLASS} data-search-exclude }}",
        ]
    return lines


def on_page_markdown(markdown_text, page, config, files):
    """장 페이지의 첫 제목 아래에 노트북·휠·압축 파일 링크를 넣습니다(원본 파일은 그대로)."""
    if not chapter_notebooks.is_chapter(page.file.src_uri):
        return markdown_text
    links = download_links(page.file.src_uri, _RUN["wheel_uri"], not _RUN["serving"])
    lines = markdown_text.split("\n")
    for index, line in enumerate(lines):
        if line.startswith("# "):
            lines[index + 1 : index + 1] = ["", *links, ""]
            return "\n".join(lines)
    raise PluginError(f"{page.file.src_uri}: 장 페이지에 `# 제목` 줄이 없습니다.")


@event_priority(-1000)  # 다른 플러그인이 다 쓴 뒤에(offline 플러그인의 search_index.js, sitemap 등)
def _pack_site(config):
    """사이트 전체를 downloads/ 의 오프라인 압축 파일로 묶습니다(그 파일 자신은 빼고)."""
    if _RUN["serving"]:
        return
    site = Path(config.site_dir)
    count = site_archive.pack(site, site / site_archive.IN_SITE)
    log.info(f"{site_archive.IN_SITE} 에 사이트를 묶었습니다(파일 {count}개).")


# --- 글과 그림이 섞인 출력(```output 울타리) -------------------------------------------------------

_SVG = re.compile(r"(<svg\b.*?</svg>)", re.S)


def output_fence(source, language, css_class, options, md, **kwargs):
    """블록의 출력(글 줄들과 `tinygrad_ko.tools.plot.to_svg`가 낸 SVG)을 글은 글로, SVG는 그림으로 보여 줍니다.

    울타리의 내용은 그 블록의 출력 전체이고 pytest-codeblocks가 글자 하나까지 확인합니다. 그림은 검색
    색인에서 뺍니다(눈금 숫자가 검색 결과에 나오지 않게).
    """
    parts = _SVG.split(source)
    html_parts = []
    for index, part in enumerate(parts):
        if index % 2:
            if re.search(r"<script|\son\w+=", part, re.I):
                raise PluginError("```output 울타리의 SVG에는 스크립트를 둘 수 없습니다.")
            html_parts.append(
                f'<figure class="tinygrad-ko-plot" data-search-exclude>{part}</figure>'
            )
        elif part.strip("\n"):
            text = html.escape(part.strip("\n"))
            html_parts.append(f'<div class="highlight"><pre><code>{text}</code></pre></div>')
    return f'<div class="{css_class}">{"".join(html_parts)}</div>'


def _add_output_fence(config) -> None:
    fences = config.mdx_configs.setdefault("pymdownx.superfences", {}).setdefault(
        "custom_fences", []
    )
    if not any(fence.get("name") == "output" for fence in fences):  # serve 는 여러 번 부릅니다
        fences.append({"name": "output", "class": "tinygrad-ko-output", "format": output_fence})


# --- 용어집 표 ------------------------------------------------------------------------------

GLOSSARY = "glossary.md"
_TABLE = re.compile(r"<table>(.*?)</table>", re.S)
_CELL = re.compile(r"<(th|td)>(.*?)</\1>", re.S)


def label_cells(table_html: str) -> str:
    """표의 `<td>`마다 같은 열의 제목(`<th>`의 글자)을 data-label 로 붙입니다."""
    head, _, body = table_html.partition("</thead>")
    names = [re.sub(r"<[^>]+>", "", cell) for kind, cell in _CELL.findall(head) if kind == "th"]
    labels = [f'<td data-label="{html.escape(name, quote=True)}">' for name in names]
    rows = []
    for row in body.split("</tr>"):
        cells = row.split("<td>")
        rows.append(
            cells[0] + "".join(lab + cell for lab, cell in zip(labels, cells[1:], strict=False))
        )
    return head + "</thead>" + "</tr>".join(rows)


def on_page_content(html_text, page, config, files):
    if page.file.src_uri != GLOSSARY:
        return html_text
    return _TABLE.sub(lambda m: f"<table data-glossary>{label_cells(m[1])}</table>", html_text)


# --- 검색 색인 -----------------------------------------------------------------------------

_NAV: dict = {}
NOT_INTRODUCING = {"index.md", "glossary.md"}  # 용어를 소개하는 장이 아닌 페이지


def on_nav(nav, config, files):
    _NAV["nav"] = nav
    return nav


@event_priority(-50)  # 검색 플러그인(0) 뒤, offline 플러그인(-100) 앞
def _tidy_search_index(config):
    index = Path(config.site_dir) / "search" / "search_index.json"
    titles = [
        (page.url, page.title or "")
        for page in _NAV["nav"].pages
        if page.file.src_uri not in NOT_INTRODUCING
    ]
    glossary = (Path(config.docs_dir) / "glossary.md").read_text(encoding="utf-8")
    intro = search_index.introducing_pages(search_index.korean_terms(glossary), titles)
    search_index.rewrite(index, intro)


# 빌드가 끝난 뒤의 일 둘은 차례가 다릅니다: 검색 색인 다듬기(-50), 그다음 압축 파일(-1000).
on_post_build = CombinedEvent(_tidy_search_index, _pack_site)
