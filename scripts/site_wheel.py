"""사이트와 함께 내려 줄 `tinygrad_ko` 휠(wheel) 파일을 만듭니다.

`tinygrad_ko`는 PyPI에 없습니다. 장(章) 노트북을 받은 독자가 저장소 없이도 라이브러리를 설치할 수
있도록, 사이트를 빌드할 때 `src/tinygrad_ko/`의 파이썬 파일로 순수 파이썬 휠을 만들어
`downloads/` 아래에 둡니다. 노트북의 첫 코드 셀이 이 휠을 `pip install` 합니다.

휠은 파일 몇 개를 담은 zip일 뿐이므로(PEP 427), 빌드 백엔드를 부르지 않고 표준 라이브러리로
직접 씁니다. 그래서 `mkdocs serve`가 페이지를 다시 만들 때마다 불려도 빠르고, 네트워크가
필요 없고, 같은 소스에서는 바이트까지 같은 파일이 나옵니다.

버전에는 소스 내용의 해시를 로컬 버전(`0.1.0+<해시>`)으로 붙입니다. 노트북은 자신을 만든
라이브러리와 설치된 라이브러리가 같은지 이 버전으로 확인합니다.
"""

from __future__ import annotations

import base64
import hashlib
import io
import tomllib
import zipfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# zip 항목의 시각을 고정해 같은 소스에서 같은 바이트가 나오게 합니다(zip이 허용하는 가장 이른 시각).
FIXED_TIME = (1980, 1, 1, 0, 0, 0)


@dataclass(frozen=True)
class Wheel:
    filename: str
    version: str
    content: bytes


def _record_hash(data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
    return "sha256=" + digest.decode("ascii")


def _package_data(root: Path) -> dict[str, list[str]]:
    """pyproject.toml의 package-data(패키지 이름 -> 파일 패턴). 휠에도 설치할 때와 같은 데이터를 담아,
    노트북 독자도 인터넷 없이 손글씨 숫자(36장)와 이름 목록(마무리 장)을 쓸 수 있게 합니다."""
    pyproject = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    return pyproject.get("tool", {}).get("setuptools", {}).get("package-data", {})


def _package_files(root: Path, package: str) -> list[tuple[str, bytes]]:
    """휠에 담을 (휠 안의 경로, 내용) 목록. 파이썬 파일과 패키지 데이터, 경로 순서대로."""
    base = root / "src"
    files = []
    paths = set((base / package).rglob("*.py"))
    for name, patterns in _package_data(root).items():
        if name != package and not name.startswith(package + "."):
            continue
        folder = base.joinpath(*name.split("."))
        for pattern in patterns:
            paths.update(folder.glob(pattern))
    for path in sorted(paths):
        if "__pycache__" in path.parts:
            continue
        files.append((path.relative_to(base).as_posix(), path.read_bytes()))
    if not files:
        raise FileNotFoundError(f"{base / package} 에 파이썬 파일이 없습니다. 경로를 확인하세요.")
    return files


def _metadata(project: dict, version: str) -> str:
    lines = [
        "Metadata-Version: 2.1",
        f"Name: {project['name']}",
        f"Version: {version}",
        f"Summary: {project.get('description', '')}",
    ]
    licence = project.get("license", {})
    if isinstance(licence, dict) and "text" in licence:
        lines.append(f"License: {licence['text']}")
    if "requires-python" in project:
        lines.append(f"Requires-Python: {project['requires-python']}")
    lines += [f"Requires-Dist: {requirement}" for requirement in project.get("dependencies", [])]
    return "\n".join(lines) + "\n"


def build_wheel(root: Path = ROOT) -> Wheel:
    """`root`의 pyproject.toml 과 src/ 로 휠을 만들어 돌려줍니다(디스크에는 쓰지 않습니다)."""
    project = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    name = project["name"]
    package = name.replace("-", "_")
    files = _package_files(root, package)
    digest = hashlib.sha256()
    for path, data in files:
        digest.update(path.encode() + b"\0" + data + b"\0")
    version = f"{project['version']}+{digest.hexdigest()[:10]}"
    dist_info = f"{package}-{version}.dist-info"
    files += [
        (f"{dist_info}/METADATA", _metadata(project, version).encode()),
        (
            f"{dist_info}/WHEEL",
            b"Wheel-Version: 1.0\nGenerator: tinygrad_ko scripts/site_wheel.py\n"
            b"Root-Is-Purelib: true\nTag: py3-none-any\n",
        ),
    ]
    record = "".join(f"{path},{_record_hash(data)},{len(data)}\n" for path, data in files)
    files.append((f"{dist_info}/RECORD", (record + f"{dist_info}/RECORD,,\n").encode()))

    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for path, data in files:
            info = zipfile.ZipInfo(path, date_time=FIXED_TIME)
            info.external_attr = 0o644 << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, data)
    return Wheel(f"{package}-{version}-py3-none-any.whl", version, buffer.getvalue())
