"""장 노트북("이 장을 노트북으로 받기"): 빌드된 사이트의 노트북을 새 커널에서 실행해 페이지와 비교합니다.

- 모든 장 페이지 옆에 노트북이 있고, 페이지 제목 아래에 그 노트북으로 가는 링크가 있습니다.
- 노트북 하나마다 새 커널을 띄워 맨 위에서 맨 아래까지 실행합니다. 커널은 tinygrad_ko가 없는
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


@pytest.mark.parametrize("page", chapter_pages())
def test_chapter_notebook_runs_in_a_fresh_kernel_and_matches_the_page(
    built_site, reader, tmp_path, page
):
    notebook_path = built_site.path / page.replace(".md", ".ipynb")
    assert notebook_path.exists(), f"{page} 옆에 노트북이 없습니다"
    # 노트북만 빈 폴더에 옮겨 실행합니다: 사이트나 저장소의 파일에 기대지 않아야 합니다.
    alone = tmp_path / notebook_path.name
    shutil.copy(notebook_path, alone)
    notebook = json.loads(alone.read_text(encoding="utf-8"))
    start = time.perf_counter()
    executed = reader_env.execute(notebook, reader, cwd=tmp_path)
    seconds = time.perf_counter() - start
    STATS["notebook_seconds"] = float(STATS.get("notebook_seconds", 0.0)) + seconds
    STATS["notebooks_run"] = int(STATS.get("notebooks_run", 0)) + 1
    problems = compare(page, executed)
    assert not problems, f"{page} ({seconds:.1f}초):\n" + "\n".join(problems)
