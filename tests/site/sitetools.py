"""사이트 테스트가 함께 쓰는 도구: 페이지 목록, 브라우저 문맥, 렌더링 대기, 검색."""

from __future__ import annotations

import http.server
import json
import os
import re
import shutil
import sys
import urllib.parse
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
# 빌드 훅이 쓰는 모듈(scripts/chapter_notebooks.py 등)을 테스트에서도 그대로 불러옵니다.
if str(ROOT / "scripts") not in sys.path:
    sys.path.insert(0, str(ROOT / "scripts"))
SCREENSHOTS = ROOT / "test-output" / "screenshots"
# 장 페이지: 파일 이름이 장 번호로 시작하는 마크다운(part4/22-tensors.md). 첫 괄호 묶음이 그 번호입니다.
CHAPTER_FILE = re.compile(r"^(\d+)-[^/]+\.md$")

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

# 빌드 시간과 연 페이지 수를 테스트가 끝날 때 요약에 적습니다.
STATS: dict[str, object] = {}


def load_site_config() -> dict:
    """mkdocs.yml 을 읽습니다. `!relative`(빌드할 때만 뜻이 있는 태그)는 글자 그대로 둡니다."""
    from mkdocs.utils.yaml import get_yaml_loader, yaml_load

    class Loader(get_yaml_loader()):
        pass

    Loader.add_constructor("!relative", lambda loader, node: loader.construct_scalar(node))
    with open(ROOT / "mkdocs.yml", encoding="utf-8") as file:
        return yaml_load(file, loader=Loader)


def source_pages() -> list[str]:
    """docs/ 의 원본에서 계산한 사이트 페이지 경로들(use_directory_urls: false 이므로 1:1).

    수집할 때 빌드 없이 알 수 있어야 페이지마다 테스트를 따로 만들 수 있습니다.
    """
    pages = []
    for path in sorted(DOCS.rglob("*")):
        if path.suffix not in {".md", ".ipynb"} or "assets" in path.relative_to(DOCS).parts:
            continue
        if ".ipynb_checkpoints" in path.parts:
            continue
        pages.append(path.relative_to(DOCS).with_suffix(".html").as_posix())
    return pages


@dataclass
class BuiltSite:
    path: Path
    seconds: float
    log: str
    pages: list[str] = field(default_factory=list)

    def read(self, page: str) -> str:
        return (self.path / page).read_text(encoding="utf-8")

    def search_documents(self) -> list[dict]:
        index = json.loads((self.path / "search" / "search_index.json").read_text("utf-8"))
        return index["docs"]

    def search_config(self) -> dict:
        index = json.loads((self.path / "search" / "search_index.json").read_text("utf-8"))
        return index["config"]


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    """요청마다 줄을 찍지 않는 정적 파일 서버."""

    def log_message(self, format, *args):
        pass


def tool_env() -> dict[str, str]:
    env = dict(os.environ)
    env["NO_MKDOCS_2_WARNING"] = "1"
    env.setdefault("PYTHONHASHSEED", "0")
    return env


def find_chromium() -> str | None:
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    return "/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None


# 테스트가 닫힌(closed) 섀도 DOM 안을 볼 수 있게 합니다. Material은 mermaid 그림을 닫힌
# 섀도 루트에 그리므로, 페이지 스크립트보다 먼저 attachShadow가 열린 루트를 만들게 바꿉니다.
OPEN_SHADOW_ROOTS = """
(() => {
  const attach = Element.prototype.attachShadow;
  Element.prototype.attachShadow = function (init) {
    return attach.call(this, { ...init, mode: "open" });
  };
})();
"""


@dataclass
class PageVisit:
    """한 페이지를 여는 동안 브라우저가 보고한 문제들."""

    console_errors: list[str] = field(default_factory=list)
    external_requests: list[str] = field(default_factory=list)
    failed_responses: list[str] = field(default_factory=list)

    def clear(self) -> None:
        """같은 탭에서 다음 페이지로 넘어갈 때: 앞 페이지가 보고한 것을 지웁니다."""
        self.console_errors.clear()
        self.external_requests.clear()
        self.failed_responses.clear()


def is_local(url: str) -> bool:
    if url.startswith(("data:", "blob:", "about:", "file:")):
        return True
    return re.match(r"^https?://127\.0\.0\.1(:\d+)?/", url) is not None


# 폰 크기: 390 x 844 CSS 픽셀(흔한 폰의 세로 화면), 터치, 모바일 레이아웃.
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
DESKTOP = {"viewport": {"width": 1280, "height": 900}}


# 127.0.0.1 밖으로 가는 요청은 아무도 듣지 않는 127.0.0.1:9 의 프록시로 보내 실패하게 합니다(인터넷에 닿지
# 않습니다). 요청은 `watch`가 그대로 기록하므로 페이지 테스트는 그런 요청을 문제로 적습니다. Playwright의
# `route`로 막으면 브라우저의 HTTP 캐시가 꺼져, 페이지마다 mermaid(3.6 MB)와 MathJax(2.3 MB)를 다시 받았습니다.
OFFLINE_PROXY = {"server": "http://127.0.0.1:9", "bypass": "127.0.0.1"}


# 페이지를 차례로 여는 검사(모든 페이지, 폰의 그림 페이지)에서는 Material이 검색 색인을 받지 않게 합니다.
# Material은 `document.forms.namedItem("search")`가 있을 때만 색인(search_index.json, 1.6 MB)을 받아 검색
# 워커에서 lunr 색인을 만드는데, 그 일이 페이지를 열 때마다 되풀이되어 이 기계에서 72쪽에 CPU 약 55초가
# 들었습니다(페이지 검사 전체의 40 %). 색인이 어느 폴더 깊이의 페이지에서나 받아지고 검색이 되는지는
# test_search.py 가 따로 확인합니다.
WITHOUT_SEARCH_INDEX = """
(() => {
  const namedItem = HTMLCollection.prototype.namedItem;
  HTMLCollection.prototype.namedItem = function (name) {
    return this === document.forms && name === "search" ? null : namedItem.call(this, name);
  };
})();
"""


def new_context(
    browser, color_scheme: str = "light", device: dict | None = None, search_index: bool = True
):
    """브라우저 문맥(context)을 만듭니다. 기본은 데스크톱 크기입니다. 외부 요청은 브라우저를 띄울 때 준
    `OFFLINE_PROXY`가 막습니다. `search_index=False`면 페이지가 검색 색인을 받지 않습니다."""
    context = browser.new_context(color_scheme=color_scheme, locale="ko-KR", **(device or DESKTOP))
    context.add_init_script(OPEN_SHADOW_ROOTS)
    if not search_index:
        context.add_init_script(WITHOUT_SEARCH_INDEX)
    return context


def watch(page) -> PageVisit:
    visit = PageVisit()
    page.on(
        "console",
        lambda message: (
            visit.console_errors.append(message.text) if message.type == "error" else None
        ),
    )
    page.on("pageerror", lambda error: visit.console_errors.append(f"pageerror: {error}"))
    page.on(
        "request",
        lambda request: (
            None if is_local(request.url) else visit.external_requests.append(request.url)
        ),
    )
    page.on(
        "response",
        lambda response: (
            visit.failed_responses.append(f"{response.status} {response.url}")
            if response.status >= 400
            else None
        ),
    )
    return visit


WAIT_FOR_RENDERING = """
async () => {
  if (window.MathJax && MathJax.startup && MathJax.startup.promise) {
    await MathJax.startup.promise;
  }
  // Material은 mermaid 블록을 비동기로 그립니다. 모든 블록에 SVG가 생길 때까지 기다립니다.
  const deadline = Date.now() + 15000;
  const done = () => [...document.querySelectorAll(".mermaid")].every(
    (el) => el.shadowRoot && el.shadowRoot.querySelector("svg")
  );
  while (!done() && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
"""


def open_page(page, url: str) -> None:
    page.goto(url, wait_until="load")
    page.evaluate(WAIT_FOR_RENDERING)


# 두 프레임을 기다린 뒤(스크롤이 바꾼 클래스로 전환이 시작되도록) 돌고 있는 CSS 전환과 애니메이션이 모두
# 끝나기를 기다립니다. 머리글은 스크롤하면 사이트 이름과 장 제목을 0.25초쯤 겹쳐 바꾸므로, 바로 찍은
# 스크린숏에는 두 글자가 겹쳐 보였습니다.
SETTLE = """async () => {
  for (let i = 0; i < 2; i++) await new Promise((resolve) => requestAnimationFrame(resolve));
  await Promise.all(document.getAnimations().map((animation) => animation.finished));
}"""


def scroll_to(locator) -> None:
    """요소가 보이게 스크롤하고, 스크롤이 일으킨 화면 전환이 끝날 때까지 기다립니다(스크린숏 전에)."""
    locator.scroll_into_view_if_needed()
    locator.page.evaluate(SETTLE)


def search(page, query: str, base: str) -> set[str]:
    """Material의 검색창에 입력하고, 결과에 나온 페이지 경로를 모두 모읍니다(스크롤해서 더 불러옴).

    `base`는 사이트의 뿌리 주소(http://127.0.0.1:포트/ 또는 file:///.../)입니다.
    """
    field = page.locator("input.md-search__input")
    field.click()
    # 같은 페이지에서 앞서 검색했다면 검색창을 비워, 앞 검색의 결과 줄을 이번 것으로 읽지 않게 합니다.
    # 그러면 검색 색인을 페이지마다 새로 만들지 않고 한 번 만든 것을 다시 씁니다.
    field.fill("")
    field.press("End")
    # 색인이 준비되고 검색창이 비면 Material은 안내문("검색어를 입력하세요")을 보입니다. 색인을 만드는 중에
    # 질의를 넣으면 바쁜 기계에서는 빈 색인으로 "없습니다"가 나오므로(전체 테스트 중 한 번), 안내문을 기다립니다.
    page.wait_for_function(
        """() => !document.querySelector("li.md-search-result__item") &&
                 /검색어를 입력하세요/.test(
                   (document.querySelector(".md-search-result__meta") || {}).textContent || "")""",
        timeout=60000,
    )
    field.fill(query)
    # Material은 색인이 준비된 뒤에는 키 입력이 있어야 검색합니다(fill은 키 이벤트를 내지 않습니다).
    field.press("End")
    page.wait_for_function(
        """() => {
          const meta = document.querySelector(".md-search-result__meta");
          return meta && /(\\d+개의 일치하는 문서|없습니다)/.test(meta.textContent);
        }""",
        timeout=15000,
    )
    meta = page.inner_text(".md-search-result__meta")
    match = re.search(r"(\d+)개", meta)
    expected = int(match.group(1)) if match else 0
    # 결과는 10개를 먼저 보이고, 목록 끝에 새로 닿을 때마다 4개씩 더 그립니다. 이미 끝에 있으면
    # 새로 닿은 것으로 치지 않으므로, 맨 위로 올렸다가 다시 끝까지 내립니다.
    for _ in range(100):
        if page.locator("li.md-search-result__item").count() >= expected:
            break
        for position in ("0", "w.scrollHeight"):
            page.evaluate(
                f"""() => {{ const w = document.querySelector(".md-search__scrollwrap");
                            w.scrollTop = {position}; }}"""
            )
            page.wait_for_timeout(150)
    loaded = page.locator("li.md-search-result__item").count()
    assert loaded >= expected, f"'{query}' 검색 결과를 {expected}개 중 {loaded}개만 불러왔습니다"
    hrefs = page.eval_on_selector_all(
        "li.md-search-result__item a.md-search-result__link", "els => els.map(e => e.href)"
    )
    return {page_path(href, base) for href in hrefs}


def page_path(url: str, base: str) -> str:
    """결과 링크에서 사이트 안의 페이지 경로만 남깁니다(질의 문자열과 앵커는 버립니다)."""
    assert url.startswith(base), f"사이트 밖을 가리키는 검색 결과: {url}"
    path = url[len(base) :].split("#", 1)[0].split("?", 1)[0]
    return urllib.parse.unquote(path) or "index.html"


# 그림(mermaid 그림과 페이지의 코드가 그린 SVG 그림) 글자의 화면 위 크기: 글꼴 크기(CSS px) x 그 글자가 놓인 SVG 좌표계가 화면에서 늘거나 준 배율.
# 접힌 상자(details)와 보이지 않는 탭 안의 그림도 재도록 먼저 펼칩니다(그래서 재고 나면 페이지 모양이
# 바뀝니다. 다른 검사를 모두 마친 뒤에 부릅니다).
DIAGRAM_LABEL_SIZES = """
() => {
  document.querySelectorAll("details").forEach((d) => { d.open = true; });
  document.querySelectorAll(".tabbed-block").forEach((b) => { b.style.display = "block"; });
  // mermaid 그림(섀도 루트 안)과 페이지의 코드가 그린 그림(figure.tinygrad-ko-plot, ```output 울타리)
  const drawings = [
    ...[...document.querySelectorAll(".mermaid")].map((h) => h.shadowRoot && h.shadowRoot.querySelector("svg")),
    ...document.querySelectorAll("figure.tinygrad-ko-plot svg"),
  ];
  return drawings.map((svg, index) => {
    const sizes = [];
    if (svg) {
      svg.querySelectorAll("text, foreignObject *").forEach((el) => {
        const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
        if (!own) return;
        const anchor = el instanceof SVGElement ? el : el.closest("foreignObject");
        const ctm = anchor.getScreenCTM();
        sizes.push(parseFloat(getComputedStyle(el).fontSize) * Math.hypot(ctm.a, ctm.b));
      });
    }
    return { index: index + 1, labels: sizes.length, smallest: sizes.length ? Math.min(...sizes) : 0 };
  });
}
"""

# 이보다 작은 글자는 읽을 수 없다고 봅니다(본문은 16 px 안팎).
SMALLEST_READABLE_PX = 10


def small_diagram_labels(page) -> list[str]:
    """열린 페이지의 그림 가운데 가장 작은 글자가 SMALLEST_READABLE_PX 보다 작은 것들."""
    problems = []
    for diagram in page.evaluate(DIAGRAM_LABEL_SIZES):
        if diagram["labels"] == 0:
            problems.append(f"그림 {diagram['index']}에서 글자를 찾지 못했습니다")
        elif diagram["smallest"] < SMALLEST_READABLE_PX:
            problems.append(
                f"그림 {diagram['index']}의 가장 작은 글자가 {diagram['smallest']:.1f} px입니다"
                f"({SMALLEST_READABLE_PX} px보다 작음)"
            )
    return problems


# 페이지에서 그려지지 않은 수식과 mermaid 그림을 찾습니다(test_browser.py, page_pass.py).
FORMULA_PROBLEMS = r"""
() => {
  const problems = [];
  document.querySelectorAll(".arithmatex").forEach((el, i) => {
    if (!el.querySelector("mjx-container")) {
      problems.push(`수식 ${i + 1}이(가) 그려지지 않았습니다: ${el.textContent.slice(0, 80)}`);
    }
  });
  document.querySelectorAll("mjx-merror, [data-mjx-error]").forEach((el) => {
    problems.push(`TeX 오류: ${el.getAttribute("data-mjx-error") || el.textContent}`);
  });
  // 코드와 이미 그려진 수식을 뺀 본문에 TeX 구분자가 남아 있으면 그려지지 않은 수식입니다.
  const article = document.querySelector("article") || document.body;
  const clone = article.cloneNode(true);
  clone.querySelectorAll("pre, code, mjx-container, script, style").forEach((el) => el.remove());
  const text = clone.textContent;
  const patterns = [/\\\(.{0,40}/, /\\\[.{0,40}/, /\$\$.{0,40}/];
  if (document.querySelector(".jupyter-wrapper")) {
    patterns.push(/\$[^$\s][^$]{0,40}\$/);  // 노트북 마크다운 셀의 $...$
  }
  for (const pattern of patterns) {
    const found = text.match(pattern);
    if (found) problems.push(`그려지지 않은 수식 텍스트: ${found[0]}`);
  }
  return problems;
}
"""

MERMAID_PROBLEMS = """
() => {
  const problems = [];
  const left = document.querySelectorAll("pre.mermaid").length;
  if (left) problems.push(`그림으로 바뀌지 않은 mermaid 블록 ${left}개`);
  document.querySelectorAll(".mermaid").forEach((el, i) => {
    const svg = el.shadowRoot && el.shadowRoot.querySelector("svg");
    if (!svg) {
      problems.push(`mermaid 그림 ${i + 1}에 SVG가 없습니다`);
    } else if (svg.getAttribute("aria-roledescription") === "error" ||
               svg.querySelector(".error-icon, .error-text")) {
      problems.push(`mermaid 그림 ${i + 1}이(가) 문법 오류 그림입니다`);
    } else if (svg.getAttribute("aria-roledescription") === "xychart") {
      // 막대그래프(부록의 메모리 흐름)나 선 그래프(20장의 미분 곡선, 27·28장의 손실과 sin 곡선):
      // 막대나 선이 하나 이상 그려져야 합니다.
      if (!svg.querySelector(".plot rect, .plot path")) {
        problems.push(`mermaid 그림 ${i + 1}에 막대도 선도 없습니다`);
      }
    } else if (!svg.querySelector(".node")) {
      problems.push(`mermaid 그림 ${i + 1}에 노드가 없습니다`);
    }
  });
  return problems;
}
"""
