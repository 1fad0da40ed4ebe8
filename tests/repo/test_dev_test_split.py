"""`python3 dev.py test`가 pytest 두 개를 나란히 돌릴 때: 무엇을 나누고, 종료 코드를 어떻게 합치는지. 그리고 `dev.py`가 띄우는 프로세스의 환경."""

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
import dev  # noqa: E402  (저장소 루트의 dev.py: 표준 라이브러리만 씁니다)

sys.path.remove(str(ROOT))


def test_side_tests_exist_and_lie_inside_the_test_paths():
    """옆 pytest 의 경로가 없어지면 본 pytest 의 --ignore 만 남아 테스트가 조용히 빠질 수 있습니다."""
    testpaths = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"][
        "pytest"
    ]["ini_options"]["testpaths"]
    for path in dev.SIDE_TESTS:
        assert (ROOT / path).exists(), path
        assert path.split("/")[0] in testpaths, path


@pytest.mark.parametrize(
    ("extra", "expected"),
    [
        ([], False),
        (["-m", "not slow", "-k", "backward", "--durations=20"], False),
        (["tests/autograd"], True),
        (["tests/autograd/test_backward.py::test_wide_graph_sums_every_branch"], True),
        (["-q", "docs/part1/01-variable-function.md"], True),
        (["-k", "no_such_path_here"], False),
    ],
)
def test_only_a_run_without_paths_is_split(extra, expected):
    assert dev.names_paths(extra) is expected


@pytest.mark.parametrize(
    ("main", "side", "expected"),
    [
        (0, 0, 0),
        (1, 0, 1),
        (0, 1, 1),
        (2, 1, 2),  # 본 pytest 의 코드가 먼저(중단 2가 실패 1보다 많은 것을 말합니다)
        (0, 5, 0),  # -k 로 고른 테스트가 옆 pytest 에는 없음
        (5, 0, 0),
        (5, 5, 5),  # 어느 쪽에도 테스트가 없으면 CI처럼 실패로 남깁니다
        (5, 1, 1),
    ],
)
def test_exit_codes_combine_so_that_any_failure_or_no_tests_at_all_fails(main, side, expected):
    assert dev.combined_exit_code(main, side) == expected


def test_commands_cache_bytecode_even_when_the_shell_says_not_to(monkeypatch):
    """`dev.py`가 띄우는 파이썬은 .pyc 를 씁니다. 테스트 한 번이 파이썬 프로세스를 수백 개(장 노트북의 커널,
    벤치마크 워커, 명령줄 시험) 띄우므로, 셸의 PYTHONDONTWRITEBYTECODE 를 물려주면 프로세스마다 tinygrad_ko 와
    IPython 을 다시 컴파일했습니다."""
    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")
    completed = subprocess.run(
        [sys.executable, "-c", "import sys; print(sys.dont_write_bytecode)"],
        env=dev.tool_env(),
        capture_output=True,
        text=True,
        check=True,
    )
    assert completed.stdout.strip() == "False"


def test_a_venv_without_ensurepip_is_removed_and_explained_in_korean(tmp_path, monkeypatch, capsys):
    """데비안·우분투에서 python3-venv가 없으면 ensurepip가 실패합니다. 고치기 전에는 pip 없는 반쯤 만든
    가상 환경이 남아, 다음 실행이 그것을 다 만든 것으로 알고 'No module named pip'로 멈췄습니다."""
    venv_dir = tmp_path / ".venv"
    monkeypatch.setattr(dev, "VENV", venv_dir)

    def half_create(self, env_dir):
        Path(env_dir, "bin").mkdir(parents=True)
        Path(env_dir, "bin", "python").write_text("")
        raise subprocess.CalledProcessError(1, ["python", "-m", "ensurepip"])

    monkeypatch.setattr(dev.venv.EnvBuilder, "create", half_create)
    with pytest.raises(SystemExit) as stop:
        dev.ensure_venv()
    message = str(stop.value.code)
    assert "python3-venv" in message and "ensurepip" in message and "설치" in message
    assert not venv_dir.exists()  # 반쯤 만든 가상 환경을 남기지 않습니다
