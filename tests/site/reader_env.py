"""장 노트북을 "독자의 컴퓨터"처럼 실행하는 도구: tinygrad_ko가 없는 새 파이썬 환경과 그 커널.

독자는 저장소 없이 노트북 한 파일(과 사이트의 휠)만 받습니다. 그 상황을 흉내 내려고:

- 빈 가상 환경(venv)을 새로 만들고 NumPy, ipykernel, pip, matplotlib만 설치합니다. 버전은 이 프로젝트의 가상
  환경에 설치된 것과 같게(나머지 의존성은 `requirements/constraints.txt`대로) 고릅니다. 설치는 이
  프로젝트의 pip로 `pip --python <새 환경>`처럼 하므로, 이 기계에 설정된 패키지 저장소(색인)를 씁니다.
  tinygrad_ko도, PyTorch도, 저장소의 파일도 보이지 않습니다(`PYTHONPATH`도 비웁니다).
- 노트북의 첫 셀(설치 셀)이 사이트의 휠을 `pip install` 하면 이 환경에 설치됩니다. 휠의 의존성
  (numpy)은 이미 있으므로 그때는 색인을 쓰지 않습니다(`PIP_NO_INDEX=1`로 막아 둡니다).
- 그 환경의 파이썬으로 도는 커널의 스펙을 임시 폴더에 만들어, 노트북마다 새 커널을 띄웁니다.
"""

from __future__ import annotations

import importlib.metadata
import json
import os
import shutil
import subprocess
import sys
import tempfile
import venv
from dataclasses import dataclass
from pathlib import Path

KERNEL_NAME = "tinygrad-ko-reader"
ROOT = Path(__file__).resolve().parents[2]
CONSTRAINTS = ROOT / "requirements" / "constraints.txt"
# 독자 환경에 설치하는 것: 라이브러리의 의존성, 커널, 설치 셀이 부르는 pip, 그리고 그림을 그리는 장
# (`tinygrad_ko.tools.plot`)이 쓰는 matplotlib. matplotlib이 없는 독자에게는 그 셀이 한국어로 설치 명령을
# 알려 줍니다(tests/tools/test_plot.py).
PACKAGES = ("numpy", "ipykernel", "pip", "matplotlib")


@dataclass
class ReaderEnv:
    root: Path
    python: Path
    kernels: Path  # 커널 스펙 폴더(KernelSpecManager(kernel_dirs=[...]))
    env: dict[str, str]


def _constraints(folder: Path) -> Path:
    """고정 버전 파일의 사본. 설치할 패키지는 이 가상 환경에 있는 버전 그대로(NumPy 바닥 버전 시험에서도
    페이지의 출력을 만든 것과 같은 NumPy가 되도록)."""
    pinned = {name: importlib.metadata.version(name) for name in PACKAGES}
    lines = [
        line
        for line in CONSTRAINTS.read_text(encoding="utf-8").splitlines()
        if line.split("==")[0].strip().lower() not in pinned
    ]
    lines += [f"{name}=={version}" for name, version in pinned.items()]
    path = folder / "constraints.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def create(root: Path) -> ReaderEnv:
    """`root` 아래에 tinygrad_ko 없는 새 환경(NumPy, ipykernel, pip, matplotlib만)과 그 커널 스펙을 만듭니다."""
    venv.EnvBuilder(with_pip=False, symlinks=os.name != "nt", clear=True).create(root / "venv")
    python = root / "venv" / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    clean = {**os.environ, "PYTHONPATH": ""}
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
            "-c",
            str(_constraints(root)),
            *PACKAGES,
        ],
        check=True,
        env=clean,
    )

    return with_kernel(root, python)


def with_kernel(root: Path, python: Path) -> ReaderEnv:
    """`python`으로 도는 커널의 스펙을 `root/kernels`에 만들고, 그 환경을 돌려줍니다."""
    env = {
        "IPYTHONDIR": str(root / "ipython"),  # 사용자의 IPython 시작 스크립트를 쓰지 않습니다
        "MPLBACKEND": "Agg",
        "PIP_NO_INDEX": "1",  # 네트워크 없이: 휠의 의존성은 이미 있습니다
        "PIP_DISABLE_PIP_VERSION_CHECK": "1",
        "PYTHONHASHSEED": "random",  # 독자의 커널처럼(페이지 테스트는 0으로 고정합니다)
        "PYTHONPATH": "",  # 저장소의 src/ 가 보이지 않게(빈 값은 없는 것과 같습니다)
        # 보통의 파이썬처럼 .pyc 를 씁니다(빈 값은 없는 것과 같습니다). 부른 쪽이 쓰지 말라고 했더라도
        # 커널마다 NumPy, IPython, tinygrad_ko 를 소스에서 다시 컴파일하지 않게 합니다.
        "PYTHONDONTWRITEBYTECODE": "",
    }
    kernels = root / "kernels"
    spec = kernels / KERNEL_NAME
    spec.mkdir(parents=True)
    (spec / "kernel.json").write_text(
        json.dumps(
            {
                "argv": [str(python), "-m", "ipykernel_launcher", "-f", "{connection_file}"],
                "display_name": "tinygrad_ko 독자 환경",
                "language": "python",
                "env": env,
            },
            ensure_ascii=False,
        ),
        encoding="utf-8",
    )
    return ReaderEnv(root, python, kernels, {**os.environ, **env})


def kernel_manager(reader: ReaderEnv, sockets: Path | None = None):
    """독자 환경의 커널을 띄울 관리자. `sockets`(새 빈 폴더)를 주면 TCP 포트 대신 그 폴더의 유닉스
    소켓으로 통신합니다: 다른 프로세스나 끝난 클라이언트가 옛 포트 번호로 이 커널에 닿을 수 없습니다."""
    from jupyter_client.kernelspec import KernelSpecManager
    from jupyter_client.manager import KernelManager

    specs = KernelSpecManager(kernel_dirs=[str(reader.kernels)])
    if sockets is None:
        return KernelManager(kernel_name=KERNEL_NAME, kernel_spec_manager=specs)
    return KernelManager(
        kernel_name=KERNEL_NAME, kernel_spec_manager=specs, transport="ipc", ip=str(sockets / "k")
    )


def execute(notebook: dict, reader: ReaderEnv, cwd: Path, timeout: int = 600) -> dict:
    """새 커널 하나로 노트북을 위에서 아래로 실행하고, 출력이 채워진 노트북을 돌려줍니다.

    셀에서 예외가 나면 그 셀의 소스와 트레이스백을 담은 `nbclient.exceptions.CellExecutionError`가
    납니다. 끝나면 커널을 끄고 클라이언트의 채널(하트비트 포함)도 닫습니다.
    """
    import nbformat
    from nbclient import NotebookClient

    node = nbformat.from_dict(notebook)
    # 유닉스 소켓 경로는 107바이트까지라 짧은 임시 폴더에 둡니다. 윈도에는 ipc가 없어 TCP를 씁니다.
    sockets = None if os.name == "nt" else Path(tempfile.mkdtemp(prefix="tgk-kernel-"))
    km = kernel_manager(reader, sockets)
    client = NotebookClient(
        node,
        km=km,
        timeout=timeout,
        allow_errors=False,
        resources={"metadata": {"path": str(cwd)}},
    )
    try:
        # cleanup_kc: km을 넘겨 준 클라이언트는 기본으로 채널을 닫지 않습니다. 닫지 않으면 하트비트가 끈
        # 커널의 주소로 계속 ping을 보내, 그 주소를 다시 받은 다음 커널의 출력에 오류 로그가 섞였습니다.
        client.execute(cleanup_kc=True)
    finally:
        # km을 넘겨 준 클라이언트는 커널을 끄지 않습니다. 끄지 않으면 노트북마다 커널이 pytest가 끝날
        # 때까지 남습니다(43개면 메모리 수 GB).
        if km.has_kernel:
            km.shutdown_kernel(now=True)
        if sockets is not None:
            shutil.rmtree(sockets, ignore_errors=True)
    return node
