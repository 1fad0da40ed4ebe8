"""사이트가 쓰는 자바스크립트(MathJax, mermaid, iframe-worker)를 npm 패키지에서 다시 받아 둡니다.

    python3 scripts/vendor.py           # docs/assets/vendor/ 를 고정된 버전으로 다시 만듭니다
    python3 scripts/vendor.py --check   # 받아 둔 파일이 VERSIONS.txt 의 해시와 같은지만 봅니다

사이트는 실행 중에 인터넷에서 아무것도 받지 않습니다. 그래서 필요한 파일을 npm 레지스트리의
패키지에서 꺼내 `docs/assets/vendor/<패키지>/` 에 두고, 라이선스 파일을 그 옆에 둡니다.
버전과 npm이 알려 주는 무결성 해시(integrity)를 아래 `PACKAGES`에 고정해 두었으므로, 같은
버전을 다시 받으면 같은 바이트가 나옵니다. `npm pack`으로 임시 폴더에 tarball만 받으므로
node_modules 나 package.json 이 생기지 않습니다. 필요한 것은 `npm`(Node.js)과 표준 라이브러리뿐입니다.

버전을 올리려면 `PACKAGES`의 version 을 바꾸고 integrity 를 비운 채("") 한 번 실행해
출력된 integrity 를 확인한 뒤 적어 넣습니다.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from korean_cli import KoreanArgumentParser  # 같은 폴더: 한국어 도움말과 오류

ROOT = Path(__file__).resolve().parent.parent
VENDOR = ROOT / "docs" / "assets" / "vendor"
MANIFEST = VENDOR / "VERSIONS.txt"


@dataclass(frozen=True)
class Package:
    name: str
    version: str
    integrity: str  # npm 레지스트리의 sha512 무결성 값
    files: dict[str, str]  # 패키지 안의 경로 -> vendor/<name>/ 아래에 둘 이름
    licence: str = "LICENSE"


PACKAGES = (
    Package(
        name="mathjax",
        version="3.2.2",
        integrity=(
            "sha512-Bt+SSVU8eBG27zChVewOicYs7Xsdt40qm4+UpHyX7k0/O9NliPc+x77k1/"
            "FEsPsjKPZGJvtRZM1vO+geW0OhGw=="
        ),
        # SVG 출력은 글꼴 파일을 따로 받지 않으므로 file:// 에서도 그려집니다.
        # full 판은 TeX 확장을 모두 담고 있어 실행 중에 다른 파일을 불러오지 않습니다.
        files={"es5/tex-svg-full.js": "tex-svg-full.js"},
    ),
    Package(
        name="mermaid",
        version="11.17.2",
        integrity=(
            "sha512-V6K3C8EBdEsPFZXSKMJe6ppQOENxuHARr9GvHX4hh47lAbhMRD9qf4oEK7LoaRQxULMa80/"
            "qt5gHO73aCleBBg=="
        ),
        # Material 테마가 CDN에서 받으려는 것과 같은 UMD 묶음(전역 `mermaid`)입니다.
        files={"dist/mermaid.min.js": "mermaid.min.js"},
    ),
    Package(
        name="iframe-worker",
        version="1.0.4",
        integrity=(
            "sha512-roeaaI+Lg1LJNfgpCjoRe/+WzEjy9+Z08LoEvu85MCPbBjwm+qXz8Ag5U05lHa6V1CysZyGzE0SOkAtSUA5q7Q=="
        ),
        # file:// 로 연 사이트에서 검색 웹 워커를 돌리는 심(offline 플러그인이 요구합니다).
        files={"shim/index.js": "shim.js"},
    ),
)


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def npm_pack(package: Package, workdir: Path) -> Path:
    """`npm pack`으로 tarball만 받아 무결성 값을 고정된 값과 맞춰 봅니다."""
    npm = shutil.which("npm")
    if npm is None:
        sys.exit("npm을 찾을 수 없습니다. Node.js(npm 포함)를 설치한 뒤 다시 실행해 주세요.")
    spec = f"{package.name}@{package.version}"
    completed = subprocess.run(
        [npm, "pack", spec, "--json", "--pack-destination", str(workdir)],
        cwd=workdir,
        capture_output=True,
        text=True,
    )
    if completed.returncode != 0:
        sys.exit(f"npm pack {spec} 이(가) 실패했습니다:\n{completed.stderr}")
    info = json.loads(completed.stdout)[0]
    if info["integrity"] != package.integrity:
        sys.exit(
            f"{spec} 의 무결성 값이 고정된 값과 다릅니다.\n"
            f"  고정된 값: {package.integrity or '(비어 있음)'}\n"
            f"  받은 값:   {info['integrity']}\n"
            f"버전을 일부러 바꿨다면 받은 값을 확인하고 PACKAGES에 적어 주세요."
        )
    return workdir / info["filename"]


def extract(tarball: Path, destination: Path) -> Path:
    with tarfile.open(tarball) as archive:
        archive.extractall(destination, filter="data")
    return destination / "package"  # npm tarball 은 모든 파일을 package/ 아래에 둡니다.


def refresh() -> None:
    if VENDOR.exists():
        shutil.rmtree(VENDOR)
    VENDOR.mkdir(parents=True)
    lines = [
        "# scripts/vendor.py 가 만든 파일입니다. 고치지 말고 스크립트를 다시 실행하세요.",
        "# 패키지 버전 무결성(npm)",
        "#   파일 sha256",
    ]
    with tempfile.TemporaryDirectory(prefix="tinygrad-ko-vendor-") as tmp:
        for package in PACKAGES:
            workdir = Path(tmp) / package.name
            workdir.mkdir()
            source = extract(npm_pack(package, workdir), workdir)
            target = VENDOR / package.name
            target.mkdir()
            lines.append(f"{package.name} {package.version} {package.integrity}")
            copies = {**package.files, package.licence: "LICENSE"}
            for inner, name in copies.items():
                shutil.copyfile(source / inner, target / name)
                lines.append(f"  {package.name}/{name} {sha256(target / name)}")
    MANIFEST.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"[vendor] {VENDOR.relative_to(ROOT)} 를 다시 만들었습니다 ({total_size()} 바이트).")


def manifest_files() -> dict[str, str]:
    """VERSIONS.txt 에 적힌 (vendor 기준 상대 경로 -> sha256)."""
    files = {}
    for line in MANIFEST.read_text(encoding="utf-8").splitlines():
        if line.startswith("  "):
            relative, digest = line.split()
            files[relative] = digest
    return files


def total_size() -> int:
    return sum(p.stat().st_size for p in VENDOR.rglob("*") if p.is_file())


def report_differences(tag: str, expected: dict[str, str], actual: dict[str, str], ok: str) -> int:
    """기록한 (파일 -> sha256)과 실제 파일을 비교해 다른 점을 알리고, 다르면 1, 같으면 0을 돌려줍니다.

    데이터를 싣는 다른 스크립트(fetch_digits.py, gpt_names.py)도 이 함수로 `--check`를 합니다.
    """
    problems = [f"목록에 없는 파일: {name}" for name in sorted(set(actual) - set(expected))]
    problems += [f"없는 파일: {name}" for name in sorted(set(expected) - set(actual))]
    problems += [
        f"내용이 다른 파일: {name}"
        for name in sorted(set(expected) & set(actual))
        if expected[name] != actual[name]
    ]
    for problem in problems:
        print(f"[{tag}] {problem}")
    if not problems:
        print(f"[{tag}] {ok}")
    return 1 if problems else 0


def folder_hashes(folder: Path, skip: Path) -> dict[str, str]:
    """폴더 아래 모든 파일(skip 하나는 빼고)의 (상대 경로 -> sha256)."""
    return {
        p.relative_to(folder).as_posix(): sha256(p)
        for p in folder.rglob("*")
        if p.is_file() and p != skip
    }


def check() -> int:
    actual = folder_hashes(VENDOR, MANIFEST)
    ok = f"{len(actual)}개 파일이 VERSIONS.txt 와 같습니다 ({total_size()} 바이트)."
    return report_differences("vendor", manifest_files(), actual, ok)


def command_line(doc: str, check: Callable[[], int], refresh: Callable[[], None]) -> None:
    """받아 오는 스크립트들의 같은 명령줄: 인자가 없으면 다시 받고, `--check`이면 해시만 확인합니다."""
    parser = KoreanArgumentParser(
        prog=f"python3 scripts/{Path(sys.argv[0]).name}", description=doc.split("\n\n")[0]
    )
    parser.add_argument("--check", action="store_true", help="받지 않고 해시만 확인합니다")
    if parser.parse_args().check:
        sys.exit(check())
    refresh()


if __name__ == "__main__":
    command_line(__doc__, check, refresh)
