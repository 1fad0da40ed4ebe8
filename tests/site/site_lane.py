"""사이트 줄(lane): 엄격 빌드와 장 노트북 실행을 pytest 밖의 프로세스 하나에서 합니다.

`python tests/site/site_lane.py 명세.json` 으로 부릅니다(tests/site/conftest.py 가 수집이 끝나자마자).

- 빌드(`mkdocs build --strict`)를 시작하고, 그동안 독자 환경(`reader_env.create`)을 만듭니다.
- 빌드가 끝나면 브라우저 페이지 순회(`page_pass.py`)를 띄우고, 첫 장 노트북을 독자처럼 받아
  실행하고(휠 설치), 나머지 장 노트북을 둘씩 나란히 새 커널에서 실행합니다.
- 결과는 명세의 `results` 폴더에 파일로 쓰고, 하나가 끝날 때마다 표준 출력에 한 줄(JSON)을 알립니다.
  pytest 프로세스는 필요한 줄이 올 때까지 읽기만 합니다.

pytest 프로세스 안의 스레드로 커널을 몰면(nbclient, zmq) 그 스레드의 메모리 할당이 페이지 블록의
`tracemalloc` 측정에 섞였습니다(부록의 최대 사용량이 32 MB 대신 33 MB로 찍힌 적이 있습니다). 그래서
커널을 모는 일은 모두 이 프로세스가 합니다.
"""

from __future__ import annotations

import functools
import http.server
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import traceback
import urllib.parse
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import reader_env  # noqa: E402
from sitetools import ROOT, QuietHandler, tool_env  # noqa: E402

# 노트북 두 개를 나란히(커널 두 개) 실행합니다. 이 2코어 기계에서 17개가 차례로는 37초, 둘씩은
# 23초였습니다(커널이 계산하는 동안 이 프로세스는 기다리기만 합니다). 셋 이상은 코어가 모자랍니다.
PARALLEL = 2

_say_lock = threading.Lock()


def say(**event) -> None:
    """pytest 프로세스에게 한 줄을 알립니다."""
    with _say_lock:
        print(json.dumps(event, ensure_ascii=False), flush=True)


def build(site: Path, log: Path) -> tuple[int, float]:
    start = time.perf_counter()
    with log.open("w", encoding="utf-8") as handle:
        code = subprocess.call(
            [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
            cwd=ROOT,
            env=tool_env(),
            stdout=handle,
            stderr=subprocess.STDOUT,
        )
    return code, time.perf_counter() - start


def download_from_page(site: Path, page: str, folder: Path) -> list[str]:
    """빌드한 사이트를 잠깐 HTTP로 띄우고, 장 페이지가 링크한 노트북과 휠을 `folder`로 내려받습니다."""
    handler = functools.partial(QuietHandler, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        page_url = f"http://127.0.0.1:{server.server_port}/{page.replace('.md', '.html')}"
        with urllib.request.urlopen(page_url, timeout=30) as response:
            html = response.read().decode("utf-8")
        links = re.findall(r'href="([^"]+\.(?:ipynb|whl))"', html)
        kinds = sorted(link.rsplit(".", 1)[1] for link in links)
        if kinds != ["ipynb", "whl"]:
            raise RuntimeError(f"{page}에서 노트북 하나와 휠 하나를 찾지 못했습니다: {links}")
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


def run_notebook(path: Path, reader: reader_env.ReaderEnv, results: Path, key: str) -> dict:
    """노트북 하나를 새 커널에서 실행해, 실행한 노트북을 `results/key.ipynb`에 씁니다."""
    notebook = json.loads(path.read_text(encoding="utf-8"))
    start = time.perf_counter()
    error = None
    try:
        executed = reader_env.execute(notebook, reader, cwd=path.parent)
    except Exception as caught:  # 실패는 그 노트북의 테스트에서 알립니다
        error = "".join(traceback.format_exception_only(type(caught), caught))
    else:
        import nbformat

        nbformat.write(executed, results / f"{key}.ipynb")
    return {"seconds": time.perf_counter() - start, "error": error}


def start_page_pass(spec: dict) -> threading.Thread:
    """페이지 순회(`page_pass.py`)를 띄우고, 그것이 알리는 줄을 그대로 pytest 프로세스에 넘깁니다."""
    path = Path(spec["results"]) / "page_pass.json"
    path.write_text(json.dumps({"site": spec["site"], **spec["page_pass"]}), encoding="utf-8")
    process = subprocess.Popen(
        [sys.executable, str(Path(__file__).with_name("page_pass.py")), str(path)],
        cwd=ROOT,
        env=tool_env(),
        stdout=subprocess.PIPE,
        text=True,
        encoding="utf-8",
    )

    def relay() -> None:
        for line in process.stdout:
            say(**json.loads(line))
        if process.wait() != 0:
            say(kind="page-pass-done", error=f"페이지 순회가 종료 코드 {process.returncode}로 끝남")

    thread = threading.Thread(target=relay)
    thread.start()
    return thread


def main(spec_path: str) -> None:
    # 이 줄(빌드, 커널, 브라우저는 모두 이 프로세스의 자식이라 같은 값을 물려받습니다)은 pytest 프로세스에
    # 코어를 양보합니다. 두 코어가 다 바쁜 동안 엔진 테스트가 코어 하나를 온전히 쓰면, 이 줄은 남는 코어에서
    # 돌고 pytest 가 사이트 테스트에서 기다리는 동안에는 두 코어를 씁니다. 양보하지 않으면 이 줄이 끝난 뒤
    # 엔진 테스트만 코어 하나로 도는 꼬리가 150초쯤 남았습니다.
    # 리눅스가 세션마다 묶어 나누는 경우(sched_autogroup)에는 nice 가 묶음 안에서만 통하므로, 새 세션으로 띄운
    # 이 줄의 묶음에도 같은 값을 줍니다.
    if hasattr(os, "nice"):
        os.nice(10)
    autogroup = Path("/proc/self/autogroup")
    if autogroup.exists():
        try:
            autogroup.write_text("10", encoding="utf-8")
        except OSError:  # 권한이 없거나 커널이 막으면 nice 만으로 돕니다
            pass
    spec = json.loads(Path(spec_path).read_text(encoding="utf-8"))
    site, results = Path(spec["site"]), Path(spec["results"])
    pages, home_page = spec["pages"], spec["take_home"]
    background = ThreadPoolExecutor(max_workers=1)
    reader = background.submit(reader_env.create, Path(spec["reader_root"])) if home_page else None

    code, seconds = build(site, Path(spec["log"]))
    say(kind="build", returncode=code, seconds=seconds)
    if code != 0:
        return
    # 페이지 순회는 노트북과 나란히 돕니다(이 함수가 끝나도 스레드가 그것을 기다립니다).
    if spec.get("page_pass"):
        start_page_pass(spec)
    if not home_page:
        return
    try:
        env = reader.result()
    except Exception:
        say(kind="reader", error=traceback.format_exc())
        return
    say(kind="reader", root=str(env.root), python=str(env.python), kernels=str(env.kernels),
        env=env.env)  # fmt: skip

    # 첫 장 노트북: 독자처럼 받아 실행합니다. 첫 셀이 옆의 휠을 설치하므로 이 뒤의 노트북들은 설치된
    # tinygrad_ko를 씁니다.
    folder = Path(spec["notebooks_root"]) / "take-home"
    folder.mkdir(parents=True)
    try:
        files = download_from_page(site, home_page, folder)
    except Exception:
        say(kind="take-home", error=traceback.format_exc())
        return
    [notebook] = [name for name in files if name.endswith(".ipynb")]
    home = run_notebook(folder / notebook, env, results, "take-home")
    say(kind="take-home", page=home_page, folder=str(folder), files=files, **home)

    def run(index: int, page: str) -> None:
        if page == home_page:
            say(kind="notebook", page=page, key="take-home", **home)
            return
        source = site / page.replace(".md", ".ipynb")
        folder = Path(tempfile.mkdtemp(dir=spec["notebooks_root"]))
        shutil.copy(source, folder / source.name)
        outcome = run_notebook(folder / source.name, env, results, str(index))
        say(kind="notebook", page=page, key=str(index), **outcome)

    with ThreadPoolExecutor(max_workers=PARALLEL) as pool:
        for index, page in enumerate(pages):
            pool.submit(run, index, page)


if __name__ == "__main__":
    main(sys.argv[1])
