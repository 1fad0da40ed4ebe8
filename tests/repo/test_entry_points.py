"""사용자가 오타를 낼 수 있는 다른 명령들(`dev.py`, `scripts/*.py`)도 한국어로 답하는지, 그리고
지원한다고 적은 NumPy 버전을 README, pyproject.toml, CI가 똑같이 말하는지(이슈 24).

명령은 따로 프로세스로 띄웁니다. 모두 인수를 읽다가 멈추는 경우라 가상 환경을 만들거나 무엇을 받지 않습니다.
"""

import importlib.util
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ENGLISH = re.compile(
    r"usage:|error:|invalid|unrecognized|required|choose from|show this help|positional arguments"
)


def run(*args, env=None, cwd=ROOT):
    return subprocess.run(
        [sys.executable, *map(str, args)],
        cwd=cwd,
        env={**os.environ, **(env or {})},
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=60,
    )


@pytest.fixture
def venv(tmp_path):
    """dev.py가 만들 가상 환경 자리. 시험이 끝날 때 만들어지지 않았어야 합니다."""
    path = tmp_path / "venv"
    yield {"TINYGRAD_KO_VENV": str(path)}
    assert not path.exists()


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (["bogus"], 1, "알 수 없는 명령: bogus. 다음 중 하나를 주세요: serve, test, build, bench"),
        ([], 1, "알 수 없는 명령: (없음)"),
        (["build", "--bogus"], 2, "python3 dev.py build: 오류: 알 수 없는 인수입니다: --bogus"),
        (["build", "--site-dir"], 2, "--site-dir 뒤에 값이 하나 있어야 합니다"),
    ],
)
def test_dev_py_mistakes(venv, args, code, message):
    result = run("dev.py", *args, env=venv)
    assert result.returncode == code and message in result.stderr, result.stderr
    assert not ENGLISH.search(result.stderr), result.stderr


@pytest.mark.parametrize("args", [["-h"], ["--help"], ["build", "-h"]])
def test_dev_py_help(venv, args):
    result = run("dev.py", *args, env=venv)
    assert result.returncode == 0 and result.stderr == ""
    assert not ENGLISH.search(result.stdout), result.stdout
    assert (
        "사용법: python3 dev.py build" if args[0] == "build" else "명령: serve"
    ) in result.stdout


def test_dev_py_refuses_a_bad_numpy_version_before_making_a_venv(venv):
    result = run("dev.py", "build", env={**venv, "TINYGRAD_KO_NUMPY": "최신"})
    assert result.returncode == 1
    assert "TINYGRAD_KO_NUMPY='최신'은(는) NumPy 버전이 아닙니다" in result.stderr


@pytest.mark.parametrize(
    ("script", "args", "message"),
    [
        ("vendor.py", ["--chek"], "알 수 없는 인수입니다: --chek"),
        ("fetch_digits.py", ["--bogus"], "알 수 없는 인수입니다: --bogus"),
        ("gpt_names.py", ["check"], "알 수 없는 인수입니다: check"),
        ("site_archive.py", [], "다음 인수가 필요합니다: site, archive"),
        ("site_archive.py", ["site", "a.zip", "b.zip"], "알 수 없는 인수입니다: b.zip"),
    ],
)
def test_scripts_answer_mistakes_in_korean(tmp_path, script, args, message):
    result = run(ROOT / "scripts" / script, *args, cwd=tmp_path)
    assert result.returncode == 2 and message in result.stderr, result.stderr
    assert result.stderr.startswith(f"사용법: python3 scripts/{script}")
    assert not ENGLISH.search(result.stderr), result.stderr
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("script", ["vendor.py", "site_archive.py"])
def test_scripts_help_is_korean(tmp_path, script):
    result = run(ROOT / "scripts" / script, "-h", cwd=tmp_path)
    assert result.returncode == 0 and "이 도움말을 보여 주고 끝냅니다." in result.stdout
    assert not ENGLISH.search(result.stdout), result.stdout


def test_site_archive_names_the_missing_page(tmp_path):
    result = run(ROOT / "scripts" / "site_archive.py", tmp_path / "site", tmp_path / "a.zip")
    assert result.returncode == 1 and "site/index.html이 없습니다" in result.stderr
    assert not (tmp_path / "a.zip").exists()


# --- 지원하는 NumPy -------------------------------------------------------------------
def numpy_floor() -> str:
    with open(ROOT / "pyproject.toml", "rb") as file:
        dependencies = tomllib.load(file)["project"]["dependencies"]
    (floor,) = [m.group(1) for d in dependencies if (m := re.fullmatch(r"numpy>=([0-9.]+)", d))]
    return floor


def test_numpy_floor_is_numpy_2_and_said_the_same_everywhere():
    floor = numpy_floor()
    # 페이지의 dtype 출력(16장의 float64 등)은 NumPy 2의 형 승격(NEP 50)을 따릅니다.
    assert int(floor.split(".")[0]) >= 2
    readme = (ROOT / "README.md").read_text("utf-8")
    assert f"`numpy>={floor}`" in readme and f"TINYGRAD_KO_NUMPY={floor} " in readme
    workflow = (ROOT / ".github" / "workflows" / "test.yml").read_text("utf-8")
    assert f'numpy: "{floor}"' in workflow and "TINYGRAD_KO_NUMPY: ${{ matrix.numpy }}" in workflow
    ci = (ROOT / ".ci" / "run").read_text("utf-8")
    assert 'TINYGRAD_KO_NUMPY="$floor"' in ci and "pyproject.toml" in ci


def load_dev():
    spec = importlib.util.spec_from_file_location("dev_under_test", ROOT / "dev.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_dev_py_swaps_only_the_numpy_pin(tmp_path, monkeypatch):
    dev = load_dev()
    monkeypatch.setattr(dev, "VENV", tmp_path)
    monkeypatch.delenv("TINYGRAD_KO_NUMPY", raising=False)
    assert dev.constraints_file() == dev.CONSTRAINTS
    plain = dev.install_fingerprint()
    monkeypatch.setenv("TINYGRAD_KO_NUMPY", numpy_floor())
    swapped = dev.constraints_file().read_text("utf-8").splitlines()
    original = dev.CONSTRAINTS.read_text("utf-8").splitlines()
    assert len(swapped) == len(original)
    changed = [(a, b) for a, b in zip(original, swapped, strict=True) if a != b]
    assert len(changed) == 1 and changed[0][1] == f"numpy=={numpy_floor()}"
    assert dev.install_fingerprint() != plain  # 버전을 바꾸면 다시 설치합니다
