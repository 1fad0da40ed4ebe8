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


def pytest_collection_finish(session):
    """고른 테스트 가운데 사이트가 필요한 것이 있으면 빌드를 지금 백그라운드에서 시작합니다.

    빌드(약 50초, 노트북 실행 포함)는 다른 코어에서 도는 동안 엔진과 페이지의 테스트가 앞서 돌므로,
    사이트 테스트에 닿을 때쯤에는 대개 끝나 있습니다.
    """
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
    if "browser_pages" in STATS:
        terminalreporter.write_line(f"[사이트] 브라우저로 연 페이지: {STATS['browser_pages']}개")


def _make_reader(site: Path, root: Path) -> reader_env.ReaderEnv:
    """tinygrad_ko가 없는 독자 환경에, 첫 장 노트북의 설치 셀로 사이트의 휠을 설치합니다."""
    from notebook_checks import chapter_pages, stdout_of

    env = reader_env.create(root)
    missing = subprocess.run([str(env.python), "-c", "import tinygrad_ko"], env=env.env)
    assert missing.returncode != 0, "독자 환경에서 저장소의 tinygrad_ko가 보입니다"
    [wheel] = (site / "downloads").glob("tinygrad_ko-*-py3-none-any.whl")
    version = wheel.name.split("-")[1]
    first = site / chapter_pages()[0].replace(".md", ".ipynb")
    notebook = json.loads(first.read_text(encoding="utf-8"))
    setup = [c for c in notebook["cells"] if c["cell_type"] == "code"][0]
    executed = reader_env.execute({**notebook, "cells": [setup]}, env, cwd=first.parent)
    assert stdout_of(executed.cells[0]) == (
        f"Successfully installed tinygrad-ko-{version}\ntinygrad_ko {version}\n"
    )
    return env


# 노트북 두 개를 나란히(커널 두 개) 실행합니다. 이 2코어 기계에서 17개가 차례로는 37초, 둘씩은
# 23초였습니다(커널이 계산하는 동안 pytest 프로세스는 기다리기만 합니다). 셋 이상은 코어가 모자랍니다.
PARALLEL = 2


@dataclass
class Run:
    executed: object | None
    seconds: float
    error: Exception | None


# 미리 시작한 장 노트북 실행(`_start_notebooks`): 독자 환경의 Future와 페이지 -> Future.
_NOTEBOOKS: dict = {}


def _start_notebooks(pages: list[str], reader_root: Path, notebooks_root: Path) -> None:
    """빌드가 끝나면 독자 환경을 만들고 장 노트북들을 새 커널에서 실행하기 시작합니다(백그라운드).

    노트북마다 커널 하나, 노트북 파일 하나만 든 빈 임시 폴더에서 돌립니다: 사이트나 저장소의 파일에
    기대지 않아야 합니다. 사이트 테스트는 맨 뒤에 돌므로(`pytest_collection_modifyitems`), 그동안
    엔진과 페이지의 테스트가 한 코어를, 빌드와 노트북이 다른 코어를 씁니다.
    """
    pool = ThreadPoolExecutor(max_workers=PARALLEL)
    started = time.perf_counter()

    def prepare() -> reader_env.ReaderEnv:
        _BUILD["waiter"].join()
        if _BUILD["process"].returncode != 0:
            raise RuntimeError("mkdocs build --strict 가 실패해 장 노트북을 실행하지 않았습니다.")
        return _make_reader(_BUILD["out"], reader_root)

    def run(page: str) -> Run:
        reader = ready.result()  # 독자 환경을 만들지 못했으면 그 예외가 노트북마다 올라갑니다
        source = _BUILD["out"] / page.replace(".md", ".ipynb")
        folder = Path(tempfile.mkdtemp(dir=notebooks_root))
        shutil.copy(source, folder / source.name)
        notebook = json.loads((folder / source.name).read_text(encoding="utf-8"))
        start = time.perf_counter()
        try:
            executed = reader_env.execute(notebook, reader, cwd=folder)
        except Exception as error:  # 실패는 그 노트북의 테스트에서 알립니다
            return Run(None, time.perf_counter() - start, error)
        finally:
            STATS["notebook_seconds"] = time.perf_counter() - started
        return Run(executed, time.perf_counter() - start, None)

    preparer = ThreadPoolExecutor(max_workers=1)
    ready = preparer.submit(prepare)
    preparer.shutdown(wait=False)  # 맡긴 일 하나를 마치면 스레드가 끝납니다
    futures = {page: pool.submit(run, page) for page in pages}
    STATS["notebooks_run"] = len(futures)
    _NOTEBOOKS.update(reader=ready, runs=futures, pool=pool)


@pytest.fixture(scope="session")
def reader(built_site, tmp_path_factory):
    """tinygrad_ko가 없는 독자 환경(미리 만들기 시작했으면 그것을 기다립니다)."""
    if "reader" in _NOTEBOOKS:
        return _NOTEBOOKS["reader"].result()
    return _make_reader(built_site.path, tmp_path_factory.mktemp("reader"))


@pytest.fixture(scope="session")
def executed_notebooks(built_site, reader):
    """고른 장 노트북들의 (페이지 -> Future). 수집이 끝났을 때 이미 실행하기 시작했습니다."""
    yield _NOTEBOOKS.get("runs", {})
    if "pool" in _NOTEBOOKS:
        _NOTEBOOKS["pool"].shutdown(wait=True, cancel_futures=True)
