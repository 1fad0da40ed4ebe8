"""커널 캐시(kernel cache): 컴파일한 라이브러리를 사용자별 캐시 폴더에 소스의 해시 이름으로 둡니다.

- 폴더: 환경 변수 `TINYGRAD_KO_CACHE`가 있으면 그곳, 없으면 플랫폼의 사용자별 캐시 폴더 아래
  `tinygrad_ko/kernels`(리눅스 `$XDG_CACHE_HOME` 또는 `~/.cache`, macOS `~/Library/Caches`, 윈도
  `%LOCALAPPDATA%`). 폴더는 본인만 쓸 수 있게(0o700) 만들고, 남도 쓸 수 있는 폴더면 쓰지 않습니다
  (남이 넣어 둔 라이브러리를 불러오지 않도록).
- 이름: 소스와 컴파일러, CPU(`compiler.cpu_identity`), 플래그의 SHA-256 앞 32글자(128비트). 같은 커널은 프로세스가 달라도 한 번만 컴파일합니다.
- 원자적 쓰기: 임시 이름으로 만든 뒤 `os.replace`로 이름을 바꿉니다. 두 프로세스가 같은 커널을 동시에
  처음 컴파일해도, 읽는 쪽은 다 쓴 파일만 봅니다(둘이 같은 내용을 차례로 덮어쓸 뿐입니다).
- 크기 한도: 캐시가 쓴 파일(`own_files`)의 합이 `TINYGRAD_KO_CACHE_BYTES`(기본 100 MiB)를 넘으면 오래된
  커널부터 지웁니다. 파일에서 불러올 때 수정 시각을 지금으로 바꾸므로 "오래"는 마지막으로 컴파일했거나 파일에서
  불러온 때입니다(프로세스 안에서 불러 둔 커널을 다시 쓸 때는 파일을 건드리지 않습니다). 폴더에 사용자의 파일이나
  하위 폴더가 있어도 세지도 지우지도 않습니다(`TINYGRAD_KO_CACHE`가 아무 폴더나 가리킬 수 있으므로).
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

from . import messages

DEFAULT_LIMIT = 100 * 1024 * 1024
SUFFIX = {"win32": ".dll", "darwin": ".dylib"}.get(sys.platform, ".so")
# 캐시가 쓰는 이름: compiler.key_of의 해시(16진수 32글자)에 소스(.c), 라이브러리, 컴파일러의 보고(.log) 확장자.
# 임시 파일(점으로 시작, `temporary`)은 다른 프로세스가 쓰는 중일 수 있어 여기 넣지 않습니다.
OWN_NAME = re.compile(rf"([0-9a-f]{{32}})\.(?:c|log|{SUFFIX[1:]})")


def directory() -> Path:
    """커널을 둘 폴더(아직 만들지는 않습니다)."""
    override = os.environ.get("TINYGRAD_KO_CACHE")
    if override:
        return Path(override)
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Caches"
    else:
        base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "tinygrad_ko" / "kernels"


def prepare() -> Path:
    """폴더를 만들고, 본인만 쓸 수 있는 폴더인지 확인합니다. 아니면 PermissionError(한국어)."""
    limit()  # 한도가 잘못 주어졌으면 컴파일하기 전에 알립니다(한국어 ValueError).
    folder = directory()
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    if os.name == "posix":
        info = folder.stat()
        if info.st_uid != os.getuid() or info.st_mode & 0o022:
            raise PermissionError(
                f"커널 캐시 폴더 {folder}는 다른 사용자도 쓸 수 있거나 내 것이 아닙니다. 남이 넣은 "
                f"라이브러리를 불러오지 않도록 이 폴더는 쓰지 않습니다. chmod 700 {folder}로 권한을 "
                f"좁히거나 환경 변수 TINYGRAD_KO_CACHE로 다른 폴더를 주세요."
            )
    return folder


def paths(key: str) -> tuple[Path, Path]:
    """커널 하나의 (소스 파일, 라이브러리 파일) 경로."""
    folder = directory()
    return folder / f"{key}.c", folder / f"{key}{SUFFIX}"


def temporary(final: Path) -> Path:
    """같은 폴더 안의 겹치지 않는 임시 이름(프로세스 번호와 무작위 글자). 다 쓴 뒤 `os.replace`합니다."""
    return final.with_name(f".{final.name}.{os.getpid()}.{os.urandom(4).hex()}.tmp")


def touch(path: Path) -> None:
    try:
        os.utime(path)
    except OSError:
        pass


def limit() -> int:
    """크기 한도(바이트). 빈 값이면 100 MiB(100 × 1024 × 1024). 0 이상의 정수가 아니면 한국어 ValueError."""
    text = os.environ.get("TINYGRAD_KO_CACHE_BYTES", "").strip()
    if not text:
        return DEFAULT_LIMIT
    if not (text.isascii() and text.isdigit()):
        raise messages.bad_cache_limit(os.environ["TINYGRAD_KO_CACHE_BYTES"])
    return int(text)


def own_files() -> list[tuple[str, Path, os.stat_result]]:
    """캐시 폴더에서 캐시가 쓴 파일들: (해시, 경로, 정보). 이름이 `OWN_NAME`에 맞는 보통 파일만 셉니다.

    다른 이름의 파일, 하위 폴더, 심볼릭 링크는 캐시의 이름을 달고 있어도 빼고, 따라가지도 않습니다.
    """
    found = []
    with os.scandir(directory()) as entries:
        for entry in entries:
            match = OWN_NAME.fullmatch(entry.name)
            if match is None:
                continue
            try:
                if not entry.is_file(follow_symlinks=False):
                    continue
                info = entry.stat(follow_symlinks=False)
            except FileNotFoundError:  # 다른 프로세스가 방금 지웠습니다
                continue
            found.append((match.group(1), Path(entry.path), info))
    return found


def evict(keep: str) -> list[str]:
    """캐시가 쓴 파일의 합이 한도를 넘었으면, 마지막으로 컴파일했거나 파일에서 불러온 때가 오래된 커널부터
    그 커널의 파일(.c, 라이브러리, .log)을 지웁니다. 지운 커널의 해시를 돌려줍니다.

    방금 만든 커널(`keep`)은 지우지 않습니다. 다른 프로세스가 먼저 지운 파일은 건너뜁니다. 캐시가 쓰지 않은
    파일과 폴더(`own_files` 밖)는 세지도 지우지도 않습니다.
    """
    entries: dict[str, list] = {}  # 해시 -> [마지막으로 쓴 때, 바이트, 파일들]
    for key, path, info in own_files():
        entry = entries.setdefault(key, [0.0, 0, []])
        entry[0] = max(entry[0], info.st_mtime)
        entry[1] += info.st_size
        entry[2].append(path)
    total = sum(size for _, size, _ in entries.values())
    removed = []
    for key, (_, size, files) in sorted(entries.items(), key=lambda item: item[1][0]):
        if total <= limit():
            break
        if key == keep:
            continue
        for path in files:
            try:
                path.unlink()
            except FileNotFoundError:
                pass
        total -= size
        removed.append(key)
    return removed
