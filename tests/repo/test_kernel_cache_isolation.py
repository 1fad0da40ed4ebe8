"""테스트가 사용자의 커널 캐시 폴더(~/.cache/tinygrad_ko/kernels)에 커널을 쓰지 않는지 확인합니다.

고치기 전에는 `tests/lazy`만 캐시를 임시 폴더로 바꿨고, 페이지의 코드 블록(--codeblocks)은 사용자의 캐시에
커널을 900개 가까이 남겼습니다.
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tinygrad_ko.lazy import compiler

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.skipif(compiler.command() is None, reason="C 컴파일러가 없어 커널을 만들지 않습니다")
def test_page_blocks_leave_the_users_kernel_cache_alone(tmp_path):
    home, xdg = tmp_path / "home", tmp_path / "xdg"
    env = {k: v for k, v in os.environ.items() if k != "TINYGRAD_KO_CACHE"}
    env.update(HOME=str(home), XDG_CACHE_HOME=str(xdg), NO_MKDOCS_2_WARNING="1")
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "--codeblocks", "-q", "-p", "no:cacheprovider"]
        + ["--basetemp", str(tmp_path / "basetemp"), "tests/repo/kernel_cache_probe.md"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    output = result.stdout + result.stderr
    assert result.returncode == 0 and "1 passed" in output, output
    left = [p for p in (xdg / "tinygrad_ko", home / ".cache" / "tinygrad_ko") if p.exists()]
    assert left == [], f"사용자의 캐시 폴더에 썼습니다: {[sorted(p.rglob('*')) for p in left]}"


def test_this_run_uses_a_temporary_kernel_cache():
    folder = os.environ.get("TINYGRAD_KO_CACHE")
    assert folder, "테스트 실행의 커널 캐시가 정해지지 않아 사용자의 캐시 폴더를 씁니다."
    assert Path(folder).name.startswith("tinygrad_ko-kernels-") or "lazy-kernels" in folder, folder
