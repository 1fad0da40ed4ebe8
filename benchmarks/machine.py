"""측정한 때와 곳: 날짜, CPU, 코어 수, 파이썬과 라이브러리 버전, 코드의 커밋, 기계의 부하."""

from __future__ import annotations

import datetime
import importlib.metadata
import os
import platform
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _read_cpuinfo() -> str:
    """리눅스의 /proc/cpuinfo. 없으면(다른 운영 체제) 빈 글."""
    try:
        return Path("/proc/cpuinfo").read_text()
    except OSError:
        return ""


def cpu_model() -> str:
    """/proc/cpuinfo 의 model name. 없으면(리눅스가 아니면) platform이 아는 이름을 씁니다."""
    for line in _read_cpuinfo().splitlines():
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return platform.processor() or "알 수 없음"


# 같은 커널도 벡터 폭(SSE·AVX2·AVX-512, ARM은 NEON·SVE)에 따라 빠르기가 다르므로 표에 적습니다.
SIMD_FLAGS = ("sse4_2", "avx", "avx2", "fma", "avx512f", "avx512bw", "avx512vl", "asimd", "sve")


def simd_flags(cpuinfo: str) -> str:
    """/proc/cpuinfo 의 첫 flags(x86) 또는 Features(ARM) 줄에서 벡터 확장만 골라 SIMD_FLAGS 순서로 돌려줍니다."""
    for line in cpuinfo.splitlines():
        key, _, value = line.partition(":")
        if key.strip() in ("flags", "Features"):
            present = set(value.split())
            return " ".join(flag for flag in SIMD_FLAGS if flag in present) or "없음"
    return "알 수 없음"


def package_version(name: str) -> str | None:
    """설치된 배포판의 버전. 설치되어 있지 않으면 None."""
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return None


def git_commit() -> str:
    """지금 코드의 커밋(짧은 해시)과, 커밋하지 않은 변경이 있는지."""
    try:
        commit = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            cwd=ROOT, capture_output=True, text=True, check=True,
        ).stdout.strip()  # fmt: skip
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--", "src"],
            cwd=ROOT, capture_output=True, text=True, check=True,
        ).stdout.strip()  # fmt: skip
    except (OSError, subprocess.CalledProcessError):
        return "알 수 없음(git 없음)"
    return f"{commit} (src/ 에 커밋하지 않은 변경 있음)" if dirty else commit


def load_average() -> str:
    try:
        return " / ".join(f"{v:.2f}" for v in os.getloadavg())
    except OSError:
        return "알 수 없음"


def describe() -> dict[str, str | None]:
    try:
        usable = len(os.sched_getaffinity(0))
    except AttributeError:
        usable = os.cpu_count()
    return {
        "date": datetime.datetime.now().astimezone().isoformat(timespec="minutes"),
        "cpu": cpu_model(),
        "simd": simd_flags(_read_cpuinfo()),
        "cores": f"논리 코어 {os.cpu_count()}개(이 프로세스가 쓸 수 있는 코어 {usable}개)",
        "os": platform.platform(),
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "numpy": package_version("numpy"),
        "torch": package_version("torch"),
        "micrograd": package_version("micrograd"),
        "dezero": package_version("dezero"),
        "commit": git_commit(),
        "load_before": load_average(),
    }
