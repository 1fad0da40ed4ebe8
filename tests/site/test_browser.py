"""실제 브라우저(데비안의 Chromium)로 빌드한 사이트의 모든 페이지를 열어 봅니다.

페이지마다 다음 가운데 하나라도 있으면 실패합니다: 콘솔 오류, 127.0.0.1 밖으로 나가는 요청,
404 같은 실패한 응답, 그려지지 않은 수식, SVG가 되지 않은 mermaid 블록, 10 px보다 작게 그려진 그림 글자
(데스크톱 1280 px에서; 폰 390 px에서는 그림이 있는 페이지만 따로 엽니다). 이 두 번의 페이지 순회는
빌드가 끝나자마자 사이트 줄이 다른 프로세스에서 돌립니다(`page_pass.py`). 검색 색인은 받지 않습니다
(`sitetools.WITHOUT_SEARCH_INDEX`); 검색은 test_search.py 가 봅니다.
검색, 오프라인 압축 파일을 풀어 file:// 로 연 사이트, 밝은/어두운 화면의 스크린숏도 여기서 확인합니다.
"""

from __future__ import annotations

import zipfile

import pytest
from sitetools import (
    FORMULA_PROBLEMS,
    MERMAID_PROBLEMS,
    PHONE,
    SCREENSHOTS,
    STATS,
    new_context,
    open_page,
    scroll_to,
    search,
    source_pages,
    watch,
)

pytestmark = pytest.mark.browser


def _page_pass_event(lane, kind: str, page: str | None = None) -> dict:
    """사이트 줄의 페이지 순회(`page_pass.py`)가 알린 줄. 순회가 실패했으면 그 까닭으로 실패합니다."""
    event = lane.wait_for(kind, page) if lane else None
    if event is None:
        done = lane.wait_for("page-pass-done") if lane else None
        reason = (done or {}).get("error") or (lane.stderr() if lane else "사이트 줄이 없습니다")
        pytest.fail(
            f"페이지 순회가 {page or kind}의 결과를 알리지 않았습니다:\n{reason}", pytrace=False
        )
    return event


@pytest.mark.parametrize("page_path", source_pages())
def test_page_renders_offline_without_errors(browser, built_site, running_lane, page_path):
    """페이지 순회는 빌드가 끝나자마자 사이트 줄이 다른 프로세스에서 돌렸습니다(`page_pass.py`)."""
    assert page_path in built_site.pages, f"{page_path} 페이지가 빌드되지 않았습니다"
    problems = _page_pass_event(running_lane, "page", page_path)["problems"]
    STATS["browser_pages"] = int(STATS.get("browser_pages", 0)) + 1
    assert not problems, f"{page_path}:\n" + "\n".join(problems)


def test_diagram_labels_are_readable_on_a_phone(browser, built_site, running_lane):
    """390 px 폰에서 모든 그림(mermaid, 페이지의 코드가 그린 SVG)의 글자가 10 px 이상입니다. 넓은 mermaid
    그림은 줄이지 않고 가로로 스크롤합니다
    (docs/assets/javascripts/mermaid-natural-size.js). 이 기계에서 그 스크립트 없이 재면 77개 그림 가운데
    69개가 10 px보다 작았고 가장 작은 글자는 2.3 px이었습니다. 재는 일은 페이지 순회가 했습니다."""
    pages = _page_pass_event(running_lane, "phone-done")["pages"]
    expected = [
        p
        for p in built_site.pages
        if 'class="mermaid"' in built_site.read(p) or "tinygrad-ko-plot" in built_site.read(p)
    ]
    assert pages == expected  # 그림이 있는 페이지를 모두 재었습니다
    assert len(pages) > 20, pages  # 그림이 있는 페이지를 제대로 골랐는지
    events = [_page_pass_event(running_lane, "phone", page) for page in pages]
    measured = sum(event["measured"] for event in events)
    problems = {event["page"]: event["problems"] for event in events if event["problems"]}
    assert measured > 50, measured
    assert not problems, problems


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_plots_drawn_by_the_pages_follow_the_colour_scheme(browser, site_url, scheme):
    """페이지의 코드가 그린 그림(33장)의 글자와 축은 본문 글자와 같은 색이고 바탕은 칠하지 않습니다. 그래서
    어두운 화면에서도 밝은 글자로 보입니다(tinygrad_ko.tools.plot 의 currentColor)."""
    context = new_context(browser, color_scheme=scheme)
    try:
        page = context.new_page()
        open_page(page, site_url + "part4/33-spiral.html")
        colours = page.evaluate(
            """() => {
                 const svg = document.querySelector("figure.tinygrad-ko-plot svg");
                 return {
                   count: document.querySelectorAll("figure.tinygrad-ko-plot svg").length,
                   text: getComputedStyle(svg.querySelector("text")).fill,
                   page: getComputedStyle(document.querySelector(".md-typeset")).color,
                   background: getComputedStyle(document.body).backgroundColor,
                   filled: [...svg.querySelectorAll("#patch_1 path")].map((p) => getComputedStyle(p).fill),
                 };
               }"""
        )
        scroll_to(page.locator("figure.tinygrad-ko-plot").first)
        page.screenshot(path=str(SCREENSHOTS / f"plot-{scheme}.png"))
    finally:
        context.close()
    assert colours["count"] == 2, colours
    assert colours["text"] == colours["page"], colours
    assert colours["filled"] == ["none"], colours  # 그림의 바탕은 칠하지 않습니다
    assert _contrast(colours["text"], colours["background"]) >= 4.5, colours


def test_glossary_meanings_fit_on_a_phone(browser, site_url):
    """390 px 폰에서 용어집의 "뜻" 칸이 모두 화면 안에 있습니다(표의 행을 카드로 세웁니다, extra.css)."""
    context = new_context(browser, device=PHONE)
    try:
        page = context.new_page()
        open_page(page, site_url + "glossary.html")
        cells = page.evaluate(
            """() => [...document.querySelectorAll('td[data-label="뜻"]')].map((td) => {
                 const box = td.getBoundingClientRect();
                 return { left: box.left, right: box.right, text: td.textContent.slice(0, 20) };
               })"""
        )
        overflow = page.evaluate("() => document.documentElement.scrollWidth")
        scroll_to(page.locator("table").first)
        page.screenshot(path=str(SCREENSHOTS / "phone-glossary.png"))
    finally:
        context.close()
    assert len(cells) > 100, len(cells)
    outside = [cell for cell in cells if cell["left"] < 0 or cell["right"] > 390]
    assert not outside, outside[:5]
    assert overflow <= 390, f"페이지가 폰 폭보다 넓습니다: {overflow} px"


def test_requests_outside_the_machine_fail_and_are_recorded(browser, site_url):
    """127.0.0.1 밖의 주소는 브라우저를 떠나지 못하고 실패하며, `watch`가 외부 요청으로 적습니다."""
    context = new_context(browser)
    try:
        page = context.new_page()
        visit = watch(page)
        open_page(page, site_url + "index.html")
        outcome = page.evaluate(
            """() => Promise.all(["http://example.com/x.js", "https://1.1.1.1/"].map((url) =>
                 fetch(url, { mode: "no-cors" }).then(() => "받음", () => "실패")))"""
        )
        local = page.evaluate("() => fetch('index.html').then((r) => r.status)")
    finally:
        context.close()
    assert outcome == ["실패", "실패"]
    assert visit.external_requests == ["http://example.com/x.js", "https://1.1.1.1/"]
    assert local == 200  # 사이트 자신은 그대로 받습니다


def test_every_built_page_is_tested(built_site):
    """빌드된 페이지 목록과 페이지별 테스트 목록이 같아야 빠진 페이지가 없습니다."""
    assert built_site.pages == sorted(source_pages())


def test_search_for_backpropagation_in_korean_lists_results(browser, site_url):
    context = new_context(browser)
    try:
        page = context.new_page()
        visit = watch(page)
        open_page(page, site_url + "index.html")
        found = search(page, "역전파", site_url)
    finally:
        context.close()
    assert found, "'역전파'로 검색했는데 결과가 없습니다"
    assert not visit.console_errors


def test_offline_archive_opens_from_disk_with_search_formulas_and_diagrams(
    browser, built_site, tmp_path
):
    """장 페이지가 링크하는 오프라인 압축 파일(빌드가 downloads/에 만든 것, `python3 dev.py build --zip`의
    것과 같은 파일)을 풀어, 인터넷도 서버도 없이 index.html 을 바로(file://) 열어도 검색, 수식,
    mermaid 그림이 됩니다(offline 플러그인과 벤더링한 스크립트)."""
    import site_archive

    archive = built_site.path / site_archive.IN_SITE
    STATS["archive_bytes"] = archive.stat().st_size
    with zipfile.ZipFile(archive) as opened:
        opened.extractall(tmp_path / "unpacked")
    root = tmp_path / "unpacked" / site_archive.TOP
    assert sorted(p.relative_to(root) for p in root.rglob("*") if p.is_file()) == sorted(
        p.relative_to(built_site.path)
        for p in built_site.path.rglob("*")
        if p.is_file() and p != archive
    )  # 사이트의 모든 파일(압축 파일 자신만 빼고)
    base = root.as_uri() + "/"
    diagram = _pick_pages(built_site)["diagram"]
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    context = new_context(browser)
    try:
        page = context.new_page()
        visit = watch(page)
        open_page(page, base + "index.html")
        found = search(page, "역전파", base)
        page.screenshot(path=str(SCREENSHOTS / "offline-archive-search.png"))
        open_page(page, base + diagram)
        problems = page.evaluate(FORMULA_PROBLEMS) + page.evaluate(MERMAID_PROBLEMS)
        drawn = page.evaluate(
            "() => [document.querySelectorAll('mjx-container').length,"
            " document.querySelectorAll('.mermaid').length]"
        )
        scroll_to(page.locator(".mermaid").first)
        page.screenshot(path=str(SCREENSHOTS / "offline-archive-diagram.png"))
    finally:
        context.close()
    assert found, "압축을 푼 사이트에서 '역전파' 검색 결과가 없습니다"
    assert found <= set(built_site.pages)
    assert drawn[0] > 0 and drawn[1] > 0, f"{diagram}: 수식 {drawn[0]}개, 그림 {drawn[1]}개"
    assert not problems, problems
    assert not visit.console_errors, visit.console_errors
    assert not visit.external_requests, visit.external_requests


def _relative_luminance(rgb: str) -> float:
    channels = [int(part) / 255 for part in rgb[rgb.index("(") + 1 : rgb.index(")")].split(",")[:3]]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def _contrast(a: str, b: str) -> float:
    la, lb = sorted((_relative_luminance(a), _relative_luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def _pick_pages(built_site) -> dict[str, str]:
    """스크린숏을 찍을 페이지: 처음 페이지, 수식이 있는 장, 그림이 있는 장(되도록 서로 다른 장)."""
    others = [p for p in built_site.pages if p != "index.html"]
    chapters = [p for p in others if p.startswith("part")] + others

    def first_with(*markers: str, avoid: str = "") -> str:
        for marker in markers:
            for candidate in (p for p in chapters if p != avoid):
                if marker in built_site.read(candidate):
                    return candidate
        return "index.html"

    # 가운데 정렬된 큰 수식(div)이 있는 장을 먼저 고릅니다.
    formula = first_with('<div class="arithmatex">', 'class="arithmatex"')
    diagram = first_with('class="mermaid"', avoid=formula)
    if diagram == "index.html":
        diagram = first_with('class="mermaid"')
    return {"home": "index.html", "formula": formula, "diagram": diagram}


CJK_FONT_HINTS = ("CJK", "KR", "Korean", "Gothic", "Nanum", "Malgun", "Apple SD")


def test_korean_text_is_drawn_with_a_korean_font(browser, site_url):
    """제목의 한글을 실제로 그린 글꼴을 Chromium(DevTools 프로토콜)에게 물어봅니다."""
    context = new_context(browser)
    try:
        page = context.new_page()
        open_page(page, site_url + "index.html")
        cdp = context.new_cdp_session(page)
        cdp.send("DOM.enable")
        cdp.send("CSS.enable")
        root = cdp.send("DOM.getDocument")["root"]["nodeId"]
        heading = cdp.send("DOM.querySelector", {"nodeId": root, "selector": "article h1"})
        fonts = cdp.send("CSS.getPlatformFontsForNode", {"nodeId": heading["nodeId"]})["fonts"]
    finally:
        context.close()
    names = [font["familyName"] for font in fonts]
    assert any(hint in name for name in names for hint in CJK_FONT_HINTS), (
        f"한글이 한국어 글꼴로 그려지지 않았습니다: {names}. "
        "fonts-noto-cjk 패키지(또는 다른 한국어 글꼴)를 설치하세요."
    )


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_screenshots_and_readable_colours(browser, built_site, site_url, scheme):
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    context = new_context(browser, color_scheme=scheme)
    try:
        page = context.new_page()
        for role, page_path in _pick_pages(built_site).items():
            open_page(page, site_url + page_path)
            colours = page.evaluate(
                """() => ({
                  background: getComputedStyle(document.body).backgroundColor,
                  text: getComputedStyle(document.querySelector(".md-typeset")).color,
                  scheme: document.body.getAttribute("data-md-color-scheme"),
                })"""
            )
            target = SCREENSHOTS / f"{role}-{scheme}.png"
            page.screenshot(path=str(target), full_page=True)
            assert target.stat().st_size > 10_000, f"{target}가 비어 있습니다"
            expected_scheme = "slate" if scheme == "dark" else "default"
            assert colours["scheme"] == expected_scheme, (page_path, colours)
            background = _relative_luminance(colours["background"])
            assert (background < 0.1) if scheme == "dark" else (background > 0.8), colours
            assert _contrast(colours["background"], colours["text"]) >= 4.5, (page_path, colours)
    finally:
        context.close()
