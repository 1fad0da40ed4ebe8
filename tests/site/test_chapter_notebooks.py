"""장 노트북("이 장을 노트북으로 받기"): 빌드된 사이트의 노트북을 새 커널에서 실행해 페이지와 비교합니다.

- 모든 장 페이지 옆에 노트북이 있고, 페이지 제목 아래에 그 노트북으로 가는 링크가 있습니다.
- 노트북 하나마다 새 커널을 띄워 맨 위에서 맨 아래까지 실행합니다(둘씩 나란히). 커널은 NumPy와
  ipykernel만 설치한 새 가상 환경(`reader_env.py`)에서 돌고, 노트북은 사이트 밖의 빈 임시 폴더에 혼자
  놓입니다. tinygrad_ko는 첫 장 노트북의 첫 셀이 옆에 받아 둔 사이트의 휠로 설치한 것만 씁니다.
- 기대 출력은 노트북이 아니라 페이지에서 pytest-codeblocks가 읽은 그대로 가져옵니다
  (`notebook_checks.py`).
"""

from __future__ import annotations

import functools
import subprocess

import pytest
from notebook_checks import chapter_pages, compare, stdout_of

pytestmark = pytest.mark.slow


def test_a_notebook_taken_home_with_only_the_wheel_beside_it_installs_and_runs(take_home):
    """첫 장 페이지가 링크한 노트북과 휠만 빈 폴더에 내려받아, tinygrad_ko 없는 새 환경에서 위에서
    아래까지 실행합니다. 첫 셀은 옆의 휠을 설치하고 그 버전을 알립니다."""
    version = take_home.wheel_version
    assert take_home.files_before == sorted(
        [
            take_home.page.rsplit("/", 1)[-1].replace(".md", ".ipynb"),
            f"tinygrad_ko-{version}-py3-none-any.whl",
        ]
    )
    run = take_home.run
    if run.error is not None:
        pytest.fail(f"{take_home.page}: 받아 온 노트북이 실행 중에 멈췄습니다\n{run.error}")
    setup = next(c for c in run.executed.cells if c.cell_type == "code")
    assert stdout_of(setup) == (
        f"Successfully installed tinygrad-ko-{version}\ntinygrad_ko {version}\n"
    )


def test_reader_environment_holds_only_numpy_the_kernel_and_tinygrad_ko_from_the_site_wheel(
    reader, take_home
):
    """설치 셀이 넣은 tinygrad_ko가 새 환경 안의 것이고(저장소의 src/가 아님), 그 `__version__`이 휠의
    버전이며, PyTorch 같은 다른 것은 없는지 확인합니다."""
    completed = subprocess.run(
        [
            str(reader.python),
            "-c",
            "import importlib.util, tinygrad_ko; print(tinygrad_ko.__file__); "
            "print(tinygrad_ko.__version__); print(importlib.util.find_spec('torch'))",
        ],
        capture_output=True,
        text=True,
        check=True,
        env=reader.env,
    )
    where, version, torch = completed.stdout.splitlines()
    assert where.startswith(str(reader.root)), where
    assert version == take_home.wheel_version
    assert torch == "None"


@functools.cache
def _guard_in_reader(python: str, code: str, env: tuple) -> bool:
    # 커널과 같은 환경 변수로(PYTHONPATH가 비어 저장소의 src/가 보이지 않게). 전에는 이 테스트
    # 프로세스의 PYTHONPATH를 물려받아, 저장소에만 있는 파일을 보는 조건이 노트북과 달리 판정되었습니다.
    completed = subprocess.run(
        [python, "-c", code], capture_output=True, text=True, check=True, env=dict(env)
    )
    return completed.stdout.strip() == "True"


@pytest.fixture(scope="session")
def reader_guard(reader):
    """조건으로 감싼 셀(예: PyTorch가 없으면 건너뜀)의 조건을 독자 환경에서 판정하는 함수."""
    env = tuple(sorted(reader.env.items()))
    return lambda code: _guard_in_reader(str(reader.python), code, env)


@pytest.mark.parametrize("page", chapter_pages())
def test_chapter_notebook_runs_in_a_fresh_kernel_and_matches_the_page(
    built_site, executed_notebooks, reader_guard, page
):
    assert (built_site.path / page.replace(".md", ".ipynb")).exists(), (
        f"{page} 옆에 노트북이 없습니다"
    )
    run = executed_notebooks(page)  # 수집이 끝났을 때부터 미리 실행해 둔 것
    if run.error is not None:
        pytest.fail(f"{page}: 새 커널에서 실행하다 멈췄습니다 ({run.seconds:.1f}초)\n{run.error}")
    problems = compare(page, run.executed, reader_guard)
    assert not problems, f"{page} ({run.seconds:.1f}초):\n" + "\n".join(problems)
