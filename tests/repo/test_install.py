"""파이썬 사용자가 기대하는 설치: 저장소에서(경로, git 주소) 그리고 사이트의 휠에서 `pip install`.

버전을 적는 곳은 pyproject.toml 하나이고, `tinygrad_ko.__version__`은 설치한 배포판의 메타데이터를
읽습니다(src/tinygrad_ko/__init__.py의 `_installed_version`). 새 가상 환경에 설치해 보는 시험은 느린 시험입니다.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PYPROJECT_VERSION = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"][
    "version"
]
# README의 첫 예제: 설치한 라이브러리가 실제로 미분하는지 봅니다.
EXAMPLE = (
    "import numpy as np, tinygrad_ko\n"
    "from tinygrad_ko import Variable, exp\n"
    "x = Variable(np.array(0.5)); y = exp(x**2) ** 2; y.backward()\n"
    "print(tinygrad_ko.__version__); print(x.grad); print(tinygrad_ko.__file__)\n"
)


def test_version_is_the_one_pip_recorded():
    import tinygrad_ko

    assert tinygrad_ko.__version__ == importlib.metadata.version("tinygrad_ko")
    assert tinygrad_ko.__version__ == PYPROJECT_VERSION  # 이 가상 환경의 편집 설치


def test_version_without_an_installation_says_unknown(tmp_path):
    """설치 메타데이터 없이 소스 폴더만 경로에 넣은 파이썬(-S: site-packages도 NumPy도 없음)에서는
    모른다고 답합니다."""
    shutil.copytree(
        ROOT / "src" / "tinygrad_ko",
        tmp_path / "tinygrad_ko",
        ignore=shutil.ignore_patterns("__pycache__"),
    )
    completed = subprocess.run(
        [sys.executable, "-S", "-c", "import tinygrad_ko; print(tinygrad_ko.__version__)"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
        env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"},
    )
    assert completed.stdout == "0+unknown\n"


def fresh_venv(folder: Path) -> Path:
    """pip도 없는 빈 가상 환경. 설치는 이 프로젝트의 pip로 `pip --python`처럼 합니다."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(folder)], check=True)
    return folder / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def pip_install(python: Path, *args: str) -> None:
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "--python",
            str(python),
            "install",
            "--quiet",
            "--no-compile",
            "--disable-pip-version-check",
            *args,
        ],
        check=True,
        env={**os.environ, "PYTHONPATH": ""},
    )


def run_example(python: Path) -> list[str]:
    completed = subprocess.run(
        [str(python), "-c", EXAMPLE],
        capture_output=True,
        text=True,
        check=True,
        cwd=python.parent,
        env={**os.environ, "PYTHONPATH": ""},
    )
    return completed.stdout.splitlines()


def clone(destination: Path) -> Path:
    """저장소를 받은 것처럼: 설치에 쓰이는 파일(pyproject.toml, README.md, src/)을 git 저장소로."""
    destination.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, destination)
    shutil.copytree(
        ROOT / "src",
        destination / "src",
        ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"),
    )
    git = ["git", "-C", str(destination), "-c", "user.name=시험", "-c", "user.email=t@example.com"]
    subprocess.run([*git, "init", "--quiet"], check=True)
    subprocess.run([*git, "add", "."], check=True)
    subprocess.run([*git, "commit", "--quiet", "-m", "시험"], check=True)
    return destination


@pytest.mark.slow
def test_pip_install_from_the_repository_address_and_from_the_site_wheel(tmp_path):
    spec = importlib.util.spec_from_file_location("site_wheel", ROOT / "scripts" / "site_wheel.py")
    site_wheel = importlib.util.module_from_spec(spec)
    sys.modules["site_wheel"] = site_wheel  # dataclass가 제 모듈을 찾을 수 있게
    spec.loader.exec_module(site_wheel)
    repo = clone(tmp_path / "tinygrad_ko")
    constraints = ["-c", str(ROOT / "requirements" / "constraints.txt")]

    # 저장소 주소로: README의 `pip install git+https://...`와 같은 길(pip가 받아서 빌드합니다).
    venv = fresh_venv(tmp_path / "venv")
    pip_install(venv, *constraints, f"git+{repo.as_uri()}")
    version, grad, where = run_example(venv)
    assert (version, grad) == (PYPROJECT_VERSION, "3.297442541400256")
    assert where.startswith(str(tmp_path / "venv")), where

    wheel = site_wheel.build_wheel()
    (tmp_path / wheel.filename).write_bytes(wheel.content)
    pip_install(venv, "--force-reinstall", "--no-deps", str(tmp_path / wheel.filename))
    assert run_example(venv)[:2] == [wheel.version, "3.297442541400256"]
