"""장 노트북을 "독자의 컴퓨터"처럼 실행하는 도구: tinygrad_ko가 없는 파이썬 환경과 그 커널.

독자는 저장소 없이 노트북 한 파일만 받습니다. 그 상황을 흉내 내려고:

- 임시 가상 환경(venv)을 만들고, 이 프로젝트의 가상 환경에 설치된 패키지(numpy, ipykernel, pip
  ...)를 `.pth`로 보이게 합니다. 단 `tinygrad_ko`만은 빼고 보이게 합니다: 패키지 폴더를 통째로
  `.pth`에 넣으면 편집 설치(editable)의 메타데이터까지 보이므로, tinygrad_ko가 아닌 항목만 심볼릭
  링크로 모은 폴더를 만들어 그 폴더를 넣습니다(`.pth`로 더한 폴더 안의 `.pth`는 실행되지 않으므로
  편집 설치의 경로 훅도 살아나지 않습니다). 그래서 이 환경에서 `import tinygrad_ko`는 실패합니다.
- 노트북의 첫 셀(설치 셀)이 사이트의 휠을 `pip install` 하면 이 임시 환경에 설치됩니다.
  의존성(numpy)은 이미 보이므로 네트워크를 쓰지 않습니다(`PIP_NO_INDEX=1`로 막아 둡니다).
- 그 환경의 파이썬으로 도는 커널의 스펙을 임시 폴더에 만들어, 노트북마다 새 커널을 띄웁니다.
"""

from __future__ import annotations

import json
import os
import subprocess
import sysconfig
import venv
from dataclasses import dataclass
from pathlib import Path

KERNEL_NAME = "tinygrad-ko-reader"


@dataclass
class ReaderEnv:
    root: Path
    python: Path
    kernels: Path  # 커널 스펙 폴더(KernelSpecManager(kernel_dirs=[...]))
    env: dict[str, str]


def _is_project_entry(name: str) -> bool:
    lowered = name.lower()
    return lowered.startswith(("tinygrad_ko", "tinygrad-ko", "__editable__")) or lowered.endswith(
        ".pth"
    )


def _is_pytorch_entry(name: str) -> bool:
    """PyTorch의 폴더와 메타데이터. 독자 환경에는 옮기지 않습니다.

    장 노트북의 PyTorch 셀은 페이지의 같은 블록과 같은 코드이고, 페이지 테스트가 PyTorch가 있을 때 그
    출력을 확인합니다. 노트북마다 새 커널이 PyTorch를 다시 가져오면 노트북 실행 시간이 두 배가 되므로,
    독자 환경은 PyTorch가 없는 독자의 것으로 둡니다(그 셀은 설치 안내를 출력하고 건너뜁니다).
    """
    lowered = name.lower()
    return lowered in {"torch", "functorch", "torchgen"} or lowered.startswith("torch-")


def create(root: Path) -> ReaderEnv:
    """`root` 아래에 tinygrad_ko 없는 환경과 그 커널 스펙을 만듭니다."""
    venv.EnvBuilder(with_pip=False, symlinks=True, clear=True).create(root / "venv")
    python = root / "venv" / "bin" / "python"
    purelib = Path(
        subprocess.run(
            [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    )
    mirror = root / "project-packages"
    mirror.mkdir()
    folders = dict.fromkeys([sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]])
    for folder in folders:
        for entry in sorted(Path(folder).iterdir()):
            target = mirror / entry.name
            skip = _is_project_entry(entry.name) or _is_pytorch_entry(entry.name)
            if not skip and not target.exists():
                target.symlink_to(entry)
    (purelib / "project-packages.pth").write_text(str(mirror) + "\n", encoding="utf-8")

    env = {
        "IPYTHONDIR": str(root / "ipython"),  # 사용자의 IPython 시작 스크립트를 쓰지 않습니다
        "MPLBACKEND": "Agg",
        "PIP_NO_INDEX": "1",  # 네트워크 없이: 휠의 의존성은 이미 보입니다
        "PIP_DISABLE_PIP_VERSION_CHECK": "1",
        "PYTHONHASHSEED": "random",  # 독자의 커널처럼(페이지 테스트는 0으로 고정합니다)
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


def kernel_manager(reader: ReaderEnv):
    from jupyter_client.kernelspec import KernelSpecManager
    from jupyter_client.manager import KernelManager

    specs = KernelSpecManager(kernel_dirs=[str(reader.kernels)])
    return KernelManager(kernel_name=KERNEL_NAME, kernel_spec_manager=specs)


def execute(notebook: dict, reader: ReaderEnv, cwd: Path, timeout: int = 600) -> dict:
    """새 커널 하나로 노트북을 위에서 아래로 실행하고, 출력이 채워진 노트북을 돌려줍니다.

    셀에서 예외가 나면 그 셀의 소스와 트레이스백을 담은 `nbclient.exceptions.CellExecutionError`가
    납니다.
    """
    import nbformat
    from nbclient import NotebookClient

    node = nbformat.from_dict(notebook)
    km = kernel_manager(reader)
    client = NotebookClient(
        node,
        km=km,
        timeout=timeout,
        allow_errors=False,
        resources={"metadata": {"path": str(cwd)}},
    )
    try:
        client.execute()
    finally:
        # km을 넘겨 준 클라이언트는 커널을 끄지 않습니다. 끄지 않으면 노트북마다 커널이 pytest가 끝날
        # 때까지 남습니다(43개면 메모리 수 GB).
        if km.has_kernel:
            km.shutdown_kernel(now=True)
    return node
