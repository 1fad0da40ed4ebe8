"""페이지 순회: 빌드한 사이트의 페이지를 Chromium 탭 하나에서 차례로 열어 문제를 모읍니다.

`python tests/site/page_pass.py 명세.json` 으로 부릅니다. 사이트 줄(`site_lane.py`)이 빌드를 마치자마자
띄우므로, pytest 프로세스가 엔진과 페이지의 테스트를 도는 동안 다른 코어에서 돕니다. 결과는 페이지마다
표준 출력에 한 줄(JSON)로 알리고, test_browser.py 의 테스트가 그 줄을 읽어 판정합니다.

- 데스크톱(1280 px): 명세의 `desktop` 페이지마다 콘솔 오류, 127.0.0.1 밖으로 나간 요청, 실패한 응답,
  그려지지 않은 수식, SVG가 되지 않은 mermaid 블록, 10 px보다 작은 그림 글자.
- 폰(390 px): `phone`이 참이면 그림(mermaid, 페이지의 코드가 그린 SVG)이 있는 페이지마다 그림 글자의 크기.

두 순회 모두 검색 색인은 받지 않습니다(`sitetools.WITHOUT_SEARCH_INDEX`; 검색은 test_search.py 에서).
"""

from __future__ import annotations

import functools
import http.server
import json
import sys
import threading
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from sitetools import (  # noqa: E402
    CHROMIUM_ARGS,
    FORMULA_PROBLEMS,
    MERMAID_PROBLEMS,
    OFFLINE_PROXY,
    PHONE,
    WAIT_FOR_RENDERING,
    QuietHandler,
    find_chromium,
    new_context,
    open_page,
    scroll_to,
    small_diagram_labels,
    watch,
)


def say(**event) -> None:
    print(json.dumps(event, ensure_ascii=False), flush=True)


def has_drawings(html: str) -> bool:
    return 'class="mermaid"' in html or "tinygrad-ko-plot" in html


def desktop_pass(browser, base: str, pages: list[str]) -> None:
    """탭 하나에서 페이지를 차례로 엽니다. 페이지는 매번 새 문서라 스크립트는 처음부터 돌지만, 렌더러
    프로세스와 그 캐시를 다시 쓰므로 페이지마다 새 탭(새 문맥)을 여는 것보다 이 2코어 기계에서 3분의 1쯤
    빠릅니다."""
    context = new_context(browser, search_index=False)
    try:
        page = context.new_page()
        visit = watch(page)
        for page_path in pages:
            page.goto(base + page_path, wait_until="commit")
            visit.clear()  # 새 문서가 시작되었으니 앞 페이지가 보고한 것은 지웁니다.
            page.wait_for_load_state("load")
            page.evaluate(WAIT_FOR_RENDERING)
            problems = [f"콘솔 오류: {text}" for text in visit.console_errors]
            problems += [f"외부 요청: {url}" for url in visit.external_requests]
            problems += [f"실패한 응답: {line}" for line in visit.failed_responses]
            problems += page.evaluate(FORMULA_PROBLEMS)
            problems += page.evaluate(MERMAID_PROBLEMS)
            problems += small_diagram_labels(page)  # 접힌 상자를 펼치므로 맨 끝에
            say(kind="page", page=page_path, problems=problems)
    finally:
        context.close()


def phone_pass(browser, base: str, site: Path, screenshot: Path) -> None:
    pages = sorted(
        p.relative_to(site).as_posix()
        for p in site.rglob("*.html")
        if p.relative_to(site).parts[0] not in {"assets", "search"}
        and has_drawings(p.read_text(encoding="utf-8"))
    )
    context = new_context(browser, device=PHONE, search_index=False)
    try:
        page = context.new_page()
        for page_path in pages:
            open_page(page, base + page_path)
            measured = page.locator(".mermaid, figure.tinygrad-ko-plot").count()
            say(
                kind="phone", page=page_path, measured=measured, problems=small_diagram_labels(page)
            )
        open_page(page, base + "part5/40-im2col-conv2d.html")
        scroll_to(page.locator(".mermaid").first)
        screenshot.parent.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(screenshot))
    finally:
        context.close()
    say(kind="phone-done", pages=pages)


def main(spec_path: str) -> None:
    spec = json.loads(Path(spec_path).read_text(encoding="utf-8"))
    site = Path(spec["site"])
    executable = find_chromium()
    if executable is None:
        say(kind="page-pass-done", error="Chromium을 찾지 못했습니다")
        return
    handler = functools.partial(QuietHandler, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_port}/"
    from playwright.sync_api import sync_playwright

    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=executable, args=CHROMIUM_ARGS, proxy=OFFLINE_PROXY
            )
            try:
                desktop_pass(browser, base, spec["desktop"])
                if spec["phone"]:
                    phone_pass(browser, base, site, Path(spec["screenshot"]))
            finally:
                browser.close()
    except Exception:
        say(kind="page-pass-done", error=traceback.format_exc())
        return
    finally:
        server.shutdown()
        server.server_close()
    say(kind="page-pass-done", error=None)


if __name__ == "__main__":
    main(sys.argv[1])
