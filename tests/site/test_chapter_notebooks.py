"""장 노트북("이 장을 노트북으로 받기"): 빌드된 사이트의 노트북을 새 커널에서 실행해 페이지와 비교합니다.

- 모든 장 페이지 옆에 노트북이 있고, 페이지 제목 아래에 그 노트북으로 가는 링크가 있습니다.
- 노트북 하나마다 새 커널을 띄워 맨 위에서 맨 아래까지 실행합니다(둘씩 나란히). 커널은 tinygrad_ko가 없는
  임시 환경(`reader_env.py`)에서 돌고, 노트북은 사이트 밖의 빈 임시 폴더에 혼자 놓입니다.
  tinygrad_ko는 노트북의 첫 셀이 사이트의 휠로 설치한 것만 씁니다.
- 기대 출력은 노트북이 아니라 페이지에서 pytest-codeblocks가 읽은 그대로 가져옵니다
  (`notebook_checks.py`).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import pytest
import reader_env
from notebook_checks import chapter_pages, compare, stdout_of
from sitetools import STATS

pytestmark = pytest.mark.slow


@pytest.fixture(scope="session")
def reader(built_site, tmp_path_factory):
    """tinygrad_ko가 없는 독자 환경에, 첫 장 노트북의 설치 셀로 사이트의 휠을 설치합니다."""
    env = reader_env.create(tmp_path_factory.mktemp("reader"))
    missing = subprocess.run([str(env.python), "-c", "import tinygrad_ko"], env=env.env)
    assert missing.returncode != 0, "독자 환경에서 저장소의 tinygrad_ko가 보입니다"
    [wheel] = (built_site.path / "downloads").glob("tinygrad_ko-*-py3-none-any.whl")
    version = wheel.name.split("-")[1]
    first = built_site.path / chapter_pages()[0].replace(".md", ".ipynb")
    notebook = json.loads(first.read_text(encoding="utf-8"))
    setup = [c for c in notebook["cells"] if c["cell_type"] == "code"][0]
    executed = reader_env.execute({**notebook, "cells": [setup]}, env, cwd=first.parent)
    assert stdout_of(executed.cells[0]) == (
        f"Successfully installed tinygrad-ko-{version}\ntinygrad_ko {version}\n"
    )
    return env


def test_reader_environment_installs_tinygrad_ko_only_from_the_site_wheel(reader):
    """설치 셀이 넣은 tinygrad_ko가 임시 환경 안의 것인지(저장소의 src/가 아닌지) 확인합니다."""
    completed = subprocess.run(
        [str(reader.python), "-c", "import tinygrad_ko; print(tinygrad_ko.__file__)"],
        capture_output=True,
        text=True,
        check=True,
        env=reader.env,
    )
    assert completed.stdout.startswith(str(reader.root)), completed.stdout


# 노트북 두 개를 나란히(커널 두 개) 실행합니다. 이 2코어 기계에서 17개가 차례로는 37초, 둘씩은
# 23초였습니다(커널이 계산하는 동안 pytest 프로세스는 기다리기만 합니다). 셋 이상은 코어가 모자랍니다.
PARALLEL = 2
TEST_NAME = "test_chapter_notebook_runs_in_a_fresh_kernel_and_matches_the_page"


@dataclass
class Run:
    executed: object | None
    seconds: float
    error: Exception | None


@pytest.fixture(scope="session")
def executed_notebooks(request, built_site, reader, tmp_path_factory) -> dict[str, Run]:
    """이번 실행에서 고른(-k 등) 장 노트북들을 새 커널에서 실행해 둡니다. 노트북마다 커널 하나,
    노트북 파일 하나만 든 빈 임시 폴더에서 돌립니다: 사이트나 저장소의 파일에 기대지 않아야 합니다."""
    pages = [
        item.callspec.params["page"]
        for item in request.session.items
        if getattr(item, "originalname", "") == TEST_NAME
    ]

    def run(page: str) -> tuple[str, Run]:
        source = built_site.path / page.replace(".md", ".ipynb")
        folder = tmp_path_factory.mktemp("notebook")
        shutil.copy(source, folder / source.name)
        notebook = json.loads((folder / source.name).read_text(encoding="utf-8"))
        start = time.perf_counter()
        try:
            executed = reader_env.execute(notebook, reader, cwd=folder)
        except Exception as error:  # 실패는 그 노트북의 테스트에서 알립니다
            return page, Run(None, time.perf_counter() - start, error)
        return page, Run(executed, time.perf_counter() - start, None)

    start = time.perf_counter()
    with ThreadPoolExecutor(max_workers=PARALLEL) as pool:
        runs = dict(pool.map(run, pages))
    STATS["notebooks_run"] = len(runs)
    STATS["notebook_seconds"] = time.perf_counter() - start
    return runs


@pytest.mark.parametrize("page", chapter_pages())
def test_chapter_notebook_runs_in_a_fresh_kernel_and_matches_the_page(
    built_site, executed_notebooks, page
):
    assert (built_site.path / page.replace(".md", ".ipynb")).exists(), (
        f"{page} 옆에 노트북이 없습니다"
    )
    run = executed_notebooks[page]
    if run.error is not None:
        pytest.fail(f"{page}: 새 커널에서 실행하다 멈췄습니다 ({run.seconds:.1f}초)\n{run.error}")
    problems = compare(page, run.executed)
    assert not problems, f"{page} ({run.seconds:.1f}초):\n" + "\n".join(problems)
