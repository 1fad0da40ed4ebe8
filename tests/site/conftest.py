"""사이트 테스트의 공용 준비물: 사이트를 한 번 빌드하고, 127.0.0.1에서 띄우고, Chromium을 엽니다.

브라우저는 데비안의 `chromium` 패키지를 씁니다(`playwright install`로 받지 않습니다).
CI(`CI=true`)에서 Chromium이 없으면 실패하고, 개발자의 컴퓨터에서는 설치 방법과 함께 건너뜁니다.
"""

from __future__ import annotations

import functools
import http.server
import json
import os
import signal
import subprocess
import sys
import threading
from dataclasses import dataclass
from pathlib import Path

import pytest
import reader_env
from sitetools import (
    CHROMIUM_ARGS,
    OFFLINE_PROXY,
    ROOT,
    SCREENSHOTS,
    STATS,
    BuiltSite,
    QuietHandler,
    find_chromium,
    tool_env,
)

LANE_SCRIPT = Path(__file__).with_name("site_lane.py")
# 수집이 끝나자마자 시작한 사이트 줄(`Lane`). 세션에 하나입니다.
_LANE: dict = {}
# 첫 장 노트북을 받아 보는 일이 필요한 준비물들(이 가운데 하나라도 쓰는 테스트를 고르면).
NEEDS_TAKE_HOME = {"take_home", "reader", "executed_notebooks"}


class Lane:
    """사이트 줄(`site_lane.py`) 프로세스와 그것이 표준 출력으로 알린 일들.

    pytest 프로세스는 스레드 없이, 필요한 알림이 올 때까지 그 줄을 읽기만 합니다.
    """

    def __init__(
        self, factory, pages: list[str], take_home_page: str | None, page_pass: dict | None
    ) -> None:
        root = factory.mktemp("lane")
        self.site = factory.mktemp("site")
        self.log = root / "build.log"
        self.results = root / "results"
        self.results.mkdir()
        self.pages = pages
        spec = {
            "site": str(self.site),
            "log": str(self.log),
            "results": str(self.results),
            "reader_root": str(factory.mktemp("reader")),
            "notebooks_root": str(factory.mktemp("notebooks")),
            "pages": pages,
            "take_home": take_home_page,
            "page_pass": page_pass,
        }
        (root / "spec.json").write_text(json.dumps(spec, ensure_ascii=False), encoding="utf-8")
        self.stderr_path = root / "lane.stderr"
        with self.stderr_path.open("w", encoding="utf-8") as stderr:
            # 새 세션: 끝낼 때 빌드와 커널을 거느린 프로세스 묶음을 한 번에 멈춥니다(`stop`).
            self.process = subprocess.Popen(
                [sys.executable, str(LANE_SCRIPT), str(root / "spec.json")],
                cwd=ROOT,
                env=tool_env(),
                stdout=subprocess.PIPE,
                stderr=stderr,
                text=True,
                encoding="utf-8",
                start_new_session=True,
            )
        self.events: list[dict] = []

    def wait_for(self, kind: str, page: str | None = None) -> dict | None:
        """그 알림이 올 때까지 읽습니다. 줄이 알리지 않고 끝났으면 None."""

        def matches(event: dict) -> bool:
            return event["kind"] == kind and (page is None or event.get("page") == page)

        for event in self.events:
            if matches(event):
                return event
        for line in self.process.stdout:
            event = json.loads(line)
            self.events.append(event)
            if matches(event):
                return event
        self.process.wait()
        return None

    def stderr(self) -> str:
        return self.stderr_path.read_text(encoding="utf-8")

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()


def _start_lane(factory, pages: list[str], take_home: bool, page_pass: dict | None) -> Lane:
    from notebook_checks import chapter_pages  # sitetools가 scripts/를 경로에 넣은 뒤에

    _LANE["lane"] = Lane(factory, pages, chapter_pages()[0] if take_home else None, page_pass)
    return _LANE["lane"]


# 사이트 줄이 브라우저 페이지 순회(`page_pass.py`)로 미리 보아 두는 테스트들(test_browser.py).
PAGE_TEST = "test_page_renders_offline_without_errors"
PHONE_TEST = "test_diagram_labels_are_readable_on_a_phone"


def _page_pass_spec(items) -> dict | None:
    """고른 테스트에 맞춘 페이지 순회의 명세. 그 테스트를 하나도 고르지 않았으면 None."""
    desktop = [
        item.callspec.params["page_path"]
        for item in items
        if getattr(item, "originalname", "") == PAGE_TEST
    ]
    phone = any(getattr(item, "originalname", "") == PHONE_TEST for item in items)
    if not desktop and not phone:
        return None
    return {
        "desktop": desktop,
        "phone": phone,
        "screenshot": str(SCREENSHOTS / "phone-diagram.png"),
    }


@pytest.hookimpl(tryfirst=True)  # --co 가 목록을 적기 전에 블록을 덜어 내도록
def pytest_collection_finish(session):
    """고른 테스트 가운데 사이트가 필요한 것이 있으면 사이트 줄(빌드와 장 노트북)을 지금 시작합니다.

    빌드와 노트북은 다른 코어에서 도는 동안 엔진과 페이지의 테스트가 앞서 돌므로, 사이트 테스트에 닿을
    때쯤에는 대개 끝나 있습니다.
    """
    _leave_to_notebooks(session)  # --co 의 목록에도 보이도록 먼저
    if session.config.option.collectonly:  # --co: 목록만 봅니다. 아무것도 만들지 않습니다
        return
    names = [set(getattr(item, "fixturenames", ())) for item in session.items]
    if any("built_site" in used for used in names):
        from notebook_checks import chosen_notebook_pages

        take_home = any(used & NEEDS_TAKE_HOME for used in names)
        _start_lane(
            session.config._tmp_path_factory,
            chosen_notebook_pages(session),
            take_home,
            _page_pass_spec(session.items),
        )


def pytest_sessionfinish(session):
    if "lane" in _LANE:  # 사이트 테스트 전에 멈춘 실행(-x, Ctrl+C 등)이면 빌드와 커널도 멈춥니다
        _LANE["lane"].stop()


@pytest.fixture(scope="session")
def running_lane() -> Lane | None:
    """이번 실행이 수집 직후에 시작한 사이트 줄(사이트 테스트를 고르지 않았으면 None). 시작하지 않습니다."""
    return _LANE.get("lane")


def _lane(tmp_path_factory) -> Lane:
    return _LANE.get("lane") or _start_lane(tmp_path_factory, [], take_home=True, page_pass=None)


@pytest.fixture(scope="session")
def built_site(tmp_path_factory) -> BuiltSite:
    """`mkdocs build --strict`로 임시 폴더에 만든 사이트(실험 노트북도 이때 실행됩니다). 미리 시작한
    빌드가 있으면 그것이 끝나기를 기다립니다."""
    lane = _lane(tmp_path_factory)
    event = lane.wait_for("build")
    if event is None:
        pytest.fail(f"사이트 줄이 빌드를 마치지 못하고 끝났습니다:\n{lane.stderr()}", pytrace=False)
    log = lane.log.read_text(encoding="utf-8")
    if event["returncode"] != 0:
        pytest.fail(f"mkdocs build --strict 가 실패했습니다:\n{log}", pytrace=False)
    out = lane.site
    pages = sorted(
        p.relative_to(out).as_posix()
        for p in out.rglob("*.html")
        if p.name != "404.html" and p.relative_to(out).parts[0] not in {"assets", "search"}
    )
    STATS["build_seconds"] = event["seconds"]
    STATS["built_pages"] = len(pages)
    return BuiltSite(out, event["seconds"], log, pages)


def pytest_collection_modifyitems(items):
    """사이트를 빌드해야 하는 테스트(built_site 를 직접이든 다른 준비물을 거쳐서든 쓰는 것)는 모두
    느린 테스트입니다. `-m "not slow"`로 빼면 빌드(약 40초)를 기다리지 않습니다.

    그 테스트들은 맨 뒤로 보냅니다. 그동안 다른 코어에서 빌드와 장 노트북 실행이 끝나 있도록.
    """
    for item in items:
        if "built_site" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.slow)

    def order(item) -> tuple[bool, bool, bool]:
        # 사이트 테스트 가운데서는 빌드만 있으면 되는 것(브라우저, 검색)을 먼저 돌리고, 장 노트북의 결과를
        # 기다리는 테스트를 그 뒤에, 페이지 순회의 결과를 읽는 테스트를 맨 끝에 둡니다. 노트북과 순회는 빌드
        # 뒤에 사이트 줄에서 돌므로, 그동안 pytest 가 할 일을 먼저 합니다.
        used = set(getattr(item, "fixturenames", ()))
        name = getattr(item, "originalname", "")
        return "built_site" in used, name in (PAGE_TEST, PHONE_TEST), bool(used & NEEDS_TAKE_HOME)

    items.sort(key=order)  # 안정 정렬


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


@pytest.fixture(scope="session")
def site_url(built_site):
    """빌드한 사이트를 127.0.0.1의 빈 포트에서 띄웁니다."""
    handler = functools.partial(QuietHandler, directory=str(built_site.path))
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
        launched = playwright.chromium.launch(
            executable_path=executable, args=CHROMIUM_ARGS, proxy=OFFLINE_PROXY
        )
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
    lane = _LANE.get("lane")
    runs = [e for e in lane.events if e["kind"] == "notebook"] if lane else []
    if runs:  # 하나도 기다리지 않았으면(--co, -x로 멈춤) 적지 않습니다
        terminalreporter.write_line(
            f"[사이트] 새 커널에서 실행한 장 노트북: {len(runs)}개, 하나씩 잰 시간의 합 "
            f"{sum(e['seconds'] for e in runs):.1f}초(둘씩 나란히)"
        )
    if "covered_by_notebooks" in STATS:
        terminalreporter.write_line(
            f"[사이트] 페이지 테스트 대신 장 노트북이 실행하고 비교한 블록: {STATS['covered_by_notebooks']}개"
        )
    if "browser_pages" in STATS:
        terminalreporter.write_line(f"[사이트] 브라우저로 연 페이지: {STATS['browser_pages']}개")


@dataclass
class Run:
    executed: object | None  # 출력이 채워진 노트북(nbformat), 실패했으면 None
    seconds: float
    error: str | None


@dataclass
class TakeHome:
    """독자처럼 받아 본 첫 장 노트북: 받은 폴더, 실행 전 그 폴더의 파일들, 휠의 버전, 실행 결과."""

    page: str
    folder: Path
    files_before: list[str]
    wheel_version: str
    run: Run


def _run_from(lane: Lane, event: dict, key: str) -> Run:
    import nbformat

    executed = None
    if event["error"] is None:
        executed = nbformat.read(lane.results / f"{key}.ipynb", as_version=4)
    return Run(executed, event["seconds"], event["error"])


@pytest.fixture(scope="session")
def take_home(built_site, tmp_path_factory) -> TakeHome:
    """첫 장 페이지에서 노트북과 휠을 빈 폴더로 받아, tinygrad_ko 없는 새 환경에서 처음부터 끝까지
    실행한 결과(사이트 줄이 빌드 뒤에 맨 먼저 합니다)."""
    lane = _lane(tmp_path_factory)
    event = lane.wait_for("take-home")
    if event is None or "page" not in event:
        reason = event["error"] if event else lane.stderr()
        pytest.fail(f"첫 장 노트북을 받아 실행하지 못했습니다:\n{reason}", pytrace=False)
    [wheel] = [name for name in event["files"] if name.endswith(".whl")]
    run = _run_from(lane, event, "take-home")
    return TakeHome(event["page"], Path(event["folder"]), event["files"], wheel.split("-")[1], run)


@pytest.fixture(scope="session")
def reader(take_home, tmp_path_factory) -> reader_env.ReaderEnv:
    """tinygrad_ko를 사이트의 휠로만 설치한 독자 환경(첫 장 노트북을 받아 실행한 뒤)."""
    lane = _lane(tmp_path_factory)
    event = lane.wait_for("reader")
    if event is None or "error" in event:
        reason = event["error"] if event else lane.stderr()
        pytest.fail(f"독자 환경을 만들지 못했습니다:\n{reason}", pytrace=False)
    paths = (Path(event["root"]), Path(event["python"]), Path(event["kernels"]))
    return reader_env.ReaderEnv(*paths, event["env"])


@pytest.fixture(scope="session")
def executed_notebooks(built_site, reader, tmp_path_factory):
    """장 페이지를 받아, 사이트 줄이 새 커널에서 실행한 그 장 노트북의 결과(`Run`)를 돌려주는 함수.
    수집이 끝났을 때 이미 실행하기 시작했으므로 대개 기다리지 않습니다."""
    lane = _lane(tmp_path_factory)

    def run_of(page: str) -> Run:
        event = lane.wait_for("notebook", page)
        if event is None:
            return Run(
                None, 0.0, f"사이트 줄이 이 노트북을 실행하지 않고 끝났습니다:\n{lane.stderr()}"
            )
        return _run_from(lane, event, event["key"])

    return run_of
