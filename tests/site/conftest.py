"""사이트 테스트의 공용 준비물: 사이트를 한 번 빌드하고, 127.0.0.1에서 띄우고, Chromium을 엽니다.

브라우저는 데비안의 `chromium` 패키지를 씁니다(`playwright install`로 받지 않습니다).
CI(`CI=true`)에서 Chromium이 없으면 실패하고, 개발자의 컴퓨터에서는 설치 방법과 함께 건너뜁니다.
"""

from __future__ import annotations

import functools
import http.server
import os
import subprocess
import sys
import threading
import time

import pytest
from sitetools import CHROMIUM_ARGS, ROOT, STATS, BuiltSite, find_chromium, tool_env


@pytest.fixture(scope="session")
def built_site(tmp_path_factory) -> BuiltSite:
    """`mkdocs build --strict`로 임시 폴더에 사이트를 한 번 만듭니다(노트북도 이때 실행됩니다)."""
    out = tmp_path_factory.mktemp("site")
    start = time.perf_counter()
    completed = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)],
        cwd=ROOT,
        env=tool_env(),
        capture_output=True,
        text=True,
    )
    seconds = time.perf_counter() - start
    log = completed.stdout + completed.stderr
    if completed.returncode != 0:
        pytest.fail(f"mkdocs build --strict 가 실패했습니다:\n{log}", pytrace=False)
    pages = sorted(
        p.relative_to(out).as_posix()
        for p in out.rglob("*.html")
        if p.name != "404.html" and p.relative_to(out).parts[0] not in {"assets", "search"}
    )
    STATS["build_seconds"] = seconds
    STATS["built_pages"] = len(pages)
    return BuiltSite(out, seconds, log, pages)


def pytest_collection_modifyitems(items):
    """사이트를 빌드해야 하는 테스트(built_site 를 직접이든 다른 준비물을 거쳐서든 쓰는 것)는 모두
    느린 테스트입니다. `-m "not slow"`로 빼면 빌드(약 40초)를 기다리지 않습니다."""
    for item in items:
        if "built_site" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.slow)


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args):
        pass


@pytest.fixture(scope="session")
def site_url(built_site):
    """빌드한 사이트를 127.0.0.1의 빈 포트에서 띄웁니다."""
    handler = functools.partial(_QuietHandler, directory=str(built_site.path))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}/"
    server.shutdown()
    server.server_close()
    thread.join(timeout=5)


@pytest.fixture(scope="session")
def browser():
    executable = find_chromium()
    if executable is None:
        message = (
            "Chromium이 없어 브라우저 테스트를 할 수 없습니다. 데비안/우분투에서는 "
            "`sudo apt-get install chromium fonts-noto-cjk`로 설치하세요."
        )
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(message, pytrace=False)
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


def pytest_terminal_summary(terminalreporter):
    if "build_seconds" in STATS:
        terminalreporter.write_line(
            f"[사이트] mkdocs build --strict: {STATS['build_seconds']:.1f}초, "
            f"페이지 {STATS['built_pages']}개"
        )
    if "archive_bytes" in STATS:
        terminalreporter.write_line(
            f"[사이트] 오프라인 압축 파일: {int(STATS['archive_bytes']) / 1_000_000:.1f} MB"
        )
    if "notebooks_run" in STATS:
        terminalreporter.write_line(
            f"[사이트] 새 커널에서 실행한 장 노트북: {STATS['notebooks_run']}개, "
            f"{float(STATS['notebook_seconds']):.1f}초(둘씩 나란히)"
        )
    if "browser_pages" in STATS:
        terminalreporter.write_line(f"[사이트] 브라우저로 연 페이지: {STATS['browser_pages']}개")
