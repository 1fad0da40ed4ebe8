"""사이트 테스트의 공용 준비물: 사이트를 한 번 빌드하고, 127.0.0.1에서 띄우고, Chromium을 엽니다.

브라우저는 데비안의 `chromium` 패키지를 씁니다(`playwright install`로 받지 않습니다).
CI(`CI=true`)에서 Chromium이 없으면 실패하고, 개발자의 컴퓨터에서는 설치 방법과 함께 건너뜁니다.
"""

from __future__ import annotations

import functools
import http.server
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest
import reader_env
from sitetools import CHROMIUM_ARGS, ROOT, STATS, BuiltSite, find_chromium, tool_env

# 미리 시작한 빌드(`pytest_collection_finish`): 폴더, 프로세스, 로그 파일, 시작과 끝 시각.
_BUILD: dict = {}


def _start_build(out: Path) -> None:
    log = out.parent / (out.name + ".log")
    handle = log.open("w", encoding="utf-8")
    process = subprocess.Popen(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)],
        cwd=ROOT,
        env=tool_env(),
        stdout=handle,
        stderr=subprocess.STDOUT,
        text=True,
    )
    _BUILD.update(out=out, process=process, log=log, start=time.perf_counter())

    def wait() -> None:
        process.wait()
        handle.close()
        _BUILD["end"] = time.perf_counter()

    _BUILD["waiter"] = threading.Thread(target=wait, daemon=True)
    _BUILD["waiter"].start()


@pytest.hookimpl(tryfirst=True)  # --co 가 목록을 적기 전에 블록을 덜어 내도록
def pytest_collection_finish(session):
    """고른 테스트 가운데 사이트가 필요한 것이 있으면 빌드를 지금 백그라운드에서 시작합니다.

    빌드(약 50초, 노트북 실행 포함)는 다른 코어에서 도는 동안 엔진과 페이지의 테스트가 앞서 돌므로,
    사이트 테스트에 닿을 때쯤에는 대개 끝나 있습니다.
    """
    _leave_to_notebooks(session)  # --co 의 목록에도 보이도록 먼저
    if session.config.option.collectonly:  # --co: 목록만 봅니다. 아무것도 만들지 않습니다
        return
    if any("built_site" in getattr(item, "fixturenames", ()) for item in session.items):
        factory = session.config._tmp_path_factory
        _start_build(factory.mktemp("site"))
        from notebook_checks import chosen_notebook_pages  # sitetools가 scripts/를 경로에 넣은 뒤에

        pages = chosen_notebook_pages(session)
        if pages:
            _start_notebooks(pages, factory.mktemp("reader"), factory.mktemp("notebooks"))


def pytest_sessionfinish(session):
    process = _BUILD.get("process")
    if process is not None and process.poll() is None:  # 사이트 테스트 전에 멈춘 실행(-x 등)
        process.kill()


@pytest.fixture(scope="session")
def built_site(tmp_path_factory) -> BuiltSite:
    """`mkdocs build --strict`로 임시 폴더에 만든 사이트(노트북도 이때 실행됩니다). 미리 시작한
    빌드가 있으면 그것이 끝나기를 기다립니다."""
    if not _BUILD:
        _start_build(tmp_path_factory.mktemp("site"))
    _BUILD["waiter"].join()
    out = _BUILD["out"]
    seconds = _BUILD["end"] - _BUILD["start"]
    log = _BUILD["log"].read_text(encoding="utf-8")
    if _BUILD["process"].returncode != 0:
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
    느린 테스트입니다. `-m "not slow"`로 빼면 빌드(약 40초)를 기다리지 않습니다.

    그 테스트들은 맨 뒤로 보냅니다. 그동안 다른 코어에서 빌드와 장 노트북 실행이 끝나 있도록.
    """
    for item in items:
        if "built_site" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.slow)
    items.sort(key=lambda item: "built_site" in getattr(item, "fixturenames", ()))  # 안정 정렬


def _leave_to_notebooks(session) -> None:
    """장 노트북이 실행하고 비교할 페이지 블록을 페이지 테스트에서 뺍니다(`split_blocks_for_notebooks`).

    -m, -k 로 고른 뒤의 목록(`session.items`)을 보아야 하므로 `pytest_collection_finish`에서 부릅니다.
    """
    from notebook_checks import split_blocks_for_notebooks

    covered, kept = split_blocks_for_notebooks(session.items)
    if covered:
        session.config.hook.pytest_deselected(items=covered)
        session.items[:] = kept
        STATS["covered_by_notebooks"] = len(covered)


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
    if "notebook_seconds" in STATS:  # 실행을 시작하지 않았으면(--co, -x로 멈춤) 적지 않습니다
        terminalreporter.write_line(
            f"[사이트] 새 커널에서 실행한 장 노트북: {STATS['notebooks_run']}개, "
            f"{float(STATS['notebook_seconds']):.1f}초(둘씩 나란히)"
        )
    if "covered_by_notebooks" in STATS:
        terminalreporter.write_line(
            f"[사이트] 페이지 테스트 대신 장 노트북이 실행하고 비교한 블록: {STATS['covered_by_notebooks']}개"
        )
    if "browser_pages" in STATS:
        terminalreporter.write_line(f"[사이트] 브라우저로 연 페이지: {STATS['browser_pages']}개")


# 노트북 두 개를 나란히(커널 두 개) 실행합니다. 이 2코어 기계에서 17개가 차례로는 37초, 둘씩은
# 23초였습니다(커널이 계산하는 동안 pytest 프로세스는 기다리기만 합니다). 셋 이상은 코어가 모자랍니다.
PARALLEL = 2


@dataclass
class Run:
    executed: object | None
    seconds: float
    error: Exception | None


@dataclass
class TakeHome:
    """독자처럼 받아 본 첫 장 노트북: 받은 폴더, 실행 전 그 폴더의 파일들, 휠의 버전, 실행 결과."""

    page: str
    folder: Path
    files_before: list[str]
    wheel_version: str
    run: Run


# 미리 시작한 장 노트북 실행(`_start_notebooks`): 독자 환경, 받아 본 노트북, 페이지 -> Future.
_NOTEBOOKS: dict = {}


def _wait_for_build() -> Path:
    _BUILD["waiter"].join()
    if _BUILD["process"].returncode != 0:
        raise RuntimeError("mkdocs build --strict 가 실패해 장 노트북을 실행하지 않았습니다.")
    return _BUILD["out"]


def _download_from_page(site: Path, page: str, folder: Path) -> list[str]:
    """빌드한 사이트를 잠깐 HTTP로 띄우고, 장 페이지가 링크한 노트북과 휠을 `folder`로 내려받습니다."""
    import re
    import urllib.parse
    import urllib.request

    handler = functools.partial(_QuietHandler, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        page_url = f"http://127.0.0.1:{server.server_port}/{page.replace('.md', '.html')}"
        with urllib.request.urlopen(page_url, timeout=30) as response:
            html = response.read().decode("utf-8")
        links = re.findall(r'href="([^"]+\.(?:ipynb|whl))"', html)
        assert sorted(link.rsplit(".", 1)[1] for link in links) == ["ipynb", "whl"], links
        names = []
        for link in links:
            name = urllib.parse.unquote(link.rsplit("/", 1)[-1])
            with urllib.request.urlopen(urllib.parse.urljoin(page_url, link), timeout=30) as r:
                (folder / name).write_bytes(r.read())
            names.append(name)
        return sorted(names)
    finally:
        server.shutdown()
        server.server_close()


def _run_notebook(path: Path, reader: reader_env.ReaderEnv) -> Run:
    notebook = json.loads(path.read_text(encoding="utf-8"))
    start = time.perf_counter()
    try:
        executed = reader_env.execute(notebook, reader, cwd=path.parent)
    except Exception as error:  # 실패는 그 노트북의 테스트에서 알립니다
        return Run(None, time.perf_counter() - start, error)
    return Run(executed, time.perf_counter() - start, None)


def _take_home(reader: reader_env.ReaderEnv, site: Path, folder: Path) -> TakeHome:
    """첫 장 페이지에서 노트북과 휠을 빈 폴더로 받아, tinygrad_ko 없는 새 환경에서 처음부터 끝까지
    실행합니다. 첫 셀이 옆의 휠을 설치하므로, 이 뒤의 노트북들은 설치된 tinygrad_ko를 씁니다."""
    from notebook_checks import chapter_pages

    page = chapter_pages()[0]
    folder.mkdir(parents=True)
    files = _download_from_page(site, page, folder)
    [wheel] = [name for name in files if name.endswith(".whl")]
    [notebook] = [name for name in files if name.endswith(".ipynb")]
    return TakeHome(
        page, folder, files, wheel.split("-")[1], _run_notebook(folder / notebook, reader)
    )


def _start_notebooks(pages: list[str], reader_root: Path, notebooks_root: Path) -> None:
    """독자 환경을 지금 만들기 시작하고(빌드와 나란히), 빌드가 끝나면 장 노트북들을 새 커널에서
    실행합니다(백그라운드).

    먼저 첫 장 노트북을 독자처럼 받아 실행해 휠을 설치하고(`_take_home`), 나머지는 노트북마다 커널
    하나, 노트북 파일 하나만 든 빈 임시 폴더에서 돌립니다: 사이트나 저장소의 파일에 기대지 않아야
    합니다. 사이트 테스트는 맨 뒤에 돌므로(`pytest_collection_modifyitems`), 그동안 엔진과 페이지의
    테스트가 한 코어를, 빌드와 노트북이 다른 코어를 씁니다.
    """
    started = time.perf_counter()
    background = ThreadPoolExecutor(max_workers=1)
    reader = background.submit(reader_env.create, reader_root)

    def take_home() -> TakeHome:
        result = _take_home(reader.result(), _wait_for_build(), notebooks_root / "take-home")
        STATS["notebook_seconds"] = time.perf_counter() - started
        return result

    home = background.submit(take_home)
    background.shutdown(wait=False)  # 맡긴 일을 마치면 스레드가 끝납니다
    pool = ThreadPoolExecutor(max_workers=PARALLEL)

    def run(page: str) -> Run:
        if page == home.result().page:
            return home.result().run
        source = _BUILD["out"] / page.replace(".md", ".ipynb")
        folder = Path(tempfile.mkdtemp(dir=notebooks_root))
        shutil.copy(source, folder / source.name)
        try:
            return _run_notebook(folder / source.name, reader.result())
        finally:
            STATS["notebook_seconds"] = time.perf_counter() - started

    futures = {page: pool.submit(run, page) for page in pages}
    STATS["notebooks_run"] = len(futures)
    _NOTEBOOKS.update(reader=reader, take_home=home, runs=futures, pool=pool)


@pytest.fixture(scope="session")
def take_home(built_site, tmp_path_factory) -> TakeHome:
    """첫 장 노트북을 독자처럼 받아 새 환경에서 실행한 결과(미리 시작했으면 그것을 기다립니다)."""
    if "take_home" not in _NOTEBOOKS:
        root = tmp_path_factory.mktemp("reader")
        reader = reader_env.create(root)
        _NOTEBOOKS["reader_env"] = reader
        _NOTEBOOKS["take_home_result"] = _take_home(reader, built_site.path, root / "take-home")
        return _NOTEBOOKS["take_home_result"]
    return _NOTEBOOKS["take_home"].result()


@pytest.fixture(scope="session")
def reader(take_home):
    """tinygrad_ko를 사이트의 휠로만 설치한 독자 환경(첫 장 노트북을 받아 실행한 뒤)."""
    if "reader" in _NOTEBOOKS:
        return _NOTEBOOKS["reader"].result()
    return _NOTEBOOKS["reader_env"]


@pytest.fixture(scope="session")
def executed_notebooks(built_site, reader):
    """고른 장 노트북들의 (페이지 -> Future). 수집이 끝났을 때 이미 실행하기 시작했습니다."""
    yield _NOTEBOOKS.get("runs", {})
    if "pool" in _NOTEBOOKS:
        _NOTEBOOKS["pool"].shutdown(wait=True, cancel_futures=True)
