"""GitHub 워크플로(.github/workflows/)를 검사합니다.

- 형식: check-jsonschema 가 패키지 안에 들고 있는 GitHub Actions 워크플로 스키마로 검사합니다.
  테스트 중에는 네트워크를 쓰지 않아야 하므로, 프록시를 닫힌 포트로 돌려 두고 돌립니다(스키마를
  받으러 나가면 실패합니다). 일부러 망가뜨린 워크플로는 실패해야 검사가 뜻이 있습니다.
- 내용: 워크플로가 돌리는 명령이 README의 명령이고, 브라우저 설치는 .ci/run 과 같은 스크립트이며,
  파이썬 버전은 README와 pyproject.toml 이 말하는 버전이고, 약속한 아티팩트를 올리는지.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
WORKFLOWS = ROOT / ".github" / "workflows"
README = (ROOT / "README.md").read_text(encoding="utf-8")


def load(name: str) -> dict:
    data = yaml.safe_load((WORKFLOWS / name).read_text(encoding="utf-8"))
    if True in data:  # YAML 1.1 은 `on`을 참(True)으로 읽습니다
        data["on"] = data.pop(True)
    return data


def steps(workflow: dict) -> list[dict]:
    return [step for job in workflow["jobs"].values() for step in job.get("steps", [])]


def run_lines(workflow: dict) -> list[str]:
    return [line.strip() for s in steps(workflow) if "run" in s for line in s["run"].splitlines()]


def uses(workflow: dict) -> dict[str, dict]:
    """`actions/xxx` -> 그 단계(버전은 뺀 이름으로)."""
    return {s["uses"].split("@")[0]: s for s in steps(workflow) if "uses" in s}


def check_jsonschema(*paths: Path) -> subprocess.CompletedProcess:
    closed = "http://127.0.0.1:9"  # 아무도 듣지 않는 포트: 밖으로 나가려 하면 실패합니다
    env = {**os.environ, "NO_PROXY": "", "no_proxy": ""}
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY"):
        env[name] = env[name.lower()] = closed
    executable = Path(sys.executable).with_name("check-jsonschema")
    return subprocess.run(
        [str(executable), "--builtin-schema", "vendor.github-workflows", *map(str, paths)],
        capture_output=True,
        text=True,
        env=env,
    )


def test_there_is_a_test_workflow_and_a_pages_workflow_and_every_workflow_is_checked():
    names = {p.name for p in WORKFLOWS.iterdir()}
    assert {"pages.yml", "test.yml"} <= names
    # 아래 스키마 검사는 *.yml 을 모두 봅니다. 다른 확장자(.yaml)는 빠뜨리지 않게 막습니다.
    assert all(name.endswith(".yml") for name in names), names


def test_workflows_pass_the_github_workflow_schema_offline():
    completed = check_jsonschema(*sorted(WORKFLOWS.glob("*.yml")))
    assert completed.returncode == 0, completed.stdout + completed.stderr
    assert "validation done" in completed.stdout


@pytest.mark.parametrize(
    "old, new",
    [
        ("    runs-on: ubuntu-24.04\n", "    runs_on: ubuntu-24.04\n"),  # 필수 키의 오타
        ("  push:\n", "  pushed:\n"),  # 없는 이벤트
        ("        uses: actions/deploy-pages@v5\n", "        uses: 5\n"),
    ],
)
def test_schema_check_rejects_a_broken_workflow(tmp_path, old, new):
    text = (WORKFLOWS / "pages.yml").read_text(encoding="utf-8")
    assert old in text
    broken = tmp_path / "pages.yml"
    broken.write_text(text.replace(old, new, 1), encoding="utf-8")
    completed = check_jsonschema(broken)
    assert completed.returncode != 0, completed.stdout


def readme_commands() -> set[str]:
    """README의 ```console 블록과 표의 `python3 dev.py ...` 명령들."""
    commands = set()
    for block in re.findall(r"```console\n(.*?)```", README, re.S):
        commands.update(line.strip() for line in block.splitlines() if line.strip())
    commands.update(re.findall(r"`(python3 dev\.py [^`]*)`", README))
    return commands


def test_workflows_run_the_readme_commands():
    commands = readme_commands()
    assert "python3 dev.py test" in commands and "python3 dev.py build --zip" in commands
    test, pages = load("test.yml"), load("pages.yml")
    test_commands = [line for line in run_lines(test) if "dev.py" in line]
    pages_commands = [line for line in run_lines(pages) if "dev.py" in line]
    assert test_commands == ["python3 dev.py test"]
    assert pages_commands == ["python3 dev.py build --zip"]
    # README의 "명령 두 개" 블록에 있는 그 테스트 명령입니다.
    first_block = re.search(r"```console\n(.*?)```", README, re.S).group(1)
    assert "python3 dev.py test" in first_block.splitlines()
    # .ci/run 도 같은 명령을 돌립니다(PyTorch 비교는 .ci/run 에서만: 워크플로는 README 그대로).
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "python3 dev.py test" in ci


def test_browser_and_fonts_are_installed_by_the_same_script_as_ci():
    script = "bash .ci/install-browser"
    assert script in run_lines(load("test.yml"))
    assert script in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    text = (ROOT / ".ci" / "install-browser").read_text(encoding="utf-8")
    assert "chromium" in text and "fonts-noto-cjk" in text
    assert "sudo apt-get install chromium fonts-noto-cjk" in README
    if shutil.which("bash"):
        assert subprocess.run(["bash", "-n", str(ROOT / ".ci" / "install-browser")]).returncode == 0


def supported_versions() -> list[str]:
    match = re.search(r"파이썬 3\.11 이상\((3\.\d+(?:, 3\.\d+)*)에서 확인\)", README)
    assert match, "README에 확인한 파이썬 버전 목록이 없습니다"
    return match.group(1).split(", ")


def test_test_workflow_covers_every_supported_python_on_push_and_pull_request():
    test = load("test.yml")
    assert {"push", "pull_request"} <= set(test["on"])
    [job] = test["jobs"].values()
    assert job["strategy"]["matrix"]["python-version"] == supported_versions()
    assert job["strategy"]["fail-fast"] is False
    requires = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["requires-python"]
    assert requires == f">={supported_versions()[0]}"
    # .ci/run 과 같은 데비안 판(bookworm)에서 root 로 돕니다.
    assert job["container"] == "python:${{ matrix.python-version }}-bookworm"


def test_test_workflow_caches_pip_and_uploads_screenshots_and_a_report():
    test = load("test.yml")
    actions = uses(test)
    cache = actions["actions/cache"]["with"]
    assert cache["path"] == "~/.cache/pip"
    assert "requirements/constraints.txt" in cache["key"] and "pyproject.toml" in cache["key"]
    [run] = [s for s in steps(test) if s.get("run") == "python3 dev.py test"]
    report = re.fullmatch(r"--junitxml=(\S+)", run["env"]["PYTEST_ADDOPTS"]).group(1)
    upload = actions["actions/upload-artifact"]
    assert upload["if"] == "${{ !cancelled() }}"  # 실패한 실행의 스크린숏이 가장 필요합니다
    folder = upload["with"]["path"].rstrip("/")
    assert report.startswith(folder + "/")
    sys.path.insert(0, str(ROOT / "tests" / "site"))
    from sitetools import SCREENSHOTS

    assert SCREENSHOTS.relative_to(ROOT).as_posix().startswith(folder + "/")


def test_pages_workflow_builds_strictly_deploys_with_pages_actions_and_attaches_the_archive():
    pages = load("pages.yml")
    assert pages["on"]["push"]["branches"] == ["main"]
    assert pages["permissions"] == {"contents": "read", "pages": "write", "id-token": "write"}
    actions = uses(pages)
    assert {"actions/upload-pages-artifact", "actions/deploy-pages"} <= set(actions)
    assert actions["actions/upload-pages-artifact"]["with"]["path"] == "site"
    deploy = pages["jobs"]["deploy"]
    assert deploy["needs"] == "build" and deploy["environment"]["name"] == "github-pages"
    sys.path.insert(0, str(ROOT))
    import dev

    archive = dev.ARCHIVE.relative_to(ROOT).as_posix()
    assert actions["actions/upload-artifact"]["with"]["path"] == archive
    [build] = [s for s in steps(pages) if s.get("run") == "python3 dev.py build --zip"]
    # mkdocs.yml 이 읽는 환경 변수만 넘깁니다(이름이 틀리면 링크가 조용히 빠집니다).
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    for name in build["env"]:
        assert f"!ENV [{name}, null]" in config, name
