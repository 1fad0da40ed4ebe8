"""`python3 dev.py test --co`(테스트 목록만 보기)는 아무것도 만들지 않고 깨끗이 끝납니다.

사이트 테스트의 conftest는 테스트를 모은 직후 사이트 빌드와 장 노트북 실행을 백그라운드에서
시작합니다. 목록만 볼 때는 그럴 까닭이 없고, 예전에는 끝에 요약을 쓰다 KeyError로 멈췄습니다.
"""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_collect_only_ends_cleanly_and_starts_no_site_build(tmp_path):
    basetemp = tmp_path / "basetemp"
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "--co",
            "-q",
            "-p",
            "no:cacheprovider",
            "--basetemp",
            str(basetemp),
            "tests/site/test_chapter_notebooks.py",
        ],
        cwd=ROOT,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        capture_output=True,
        text=True,
        timeout=300,
    )
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    assert "Traceback" not in output and "KeyError" not in output, output
    assert "test_chapter_notebook_runs_in_a_fresh_kernel_and_matches_the_page" in output
    made = sorted(p.name for p in basetemp.iterdir()) if basetemp.exists() else []
    assert made == [], f"목록만 보는데 임시 폴더를 만들었습니다(빌드나 노트북 실행): {made}"
