"""하위 프로세스 하나에서 엔진 하나로 작업 하나를 재고, 결과를 JSON 한 줄로 출력합니다.

실행기(`run.py`)가 `sys.executable benchmarks/worker.py --engine ... --workload ...`로 부릅니다.
엔진마다 프로세스를 따로 쓰므로, 한 엔진이 가져온 모듈이나 남긴 메모리, 재귀 한도를 넘어
망가진 상태가 다른 엔진의 측정에 섞이지 않습니다. 파이썬 예외(RecursionError, MemoryError,
틀린 미분값)는 여기서 잡아 결과로 알리고, 프로세스가 죽거나 시간을 넘기는 경우는 실행기가 알립니다.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

# 설치된 패키지가 아니라 이 저장소의 src/ 를 잽니다.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

import engines  # noqa: E402
import workloads  # noqa: E402

RESULT_PREFIX = "BENCH-RESULT "


def run_one(engine_key: str, workload: str, quick: bool, size: int | None) -> dict:
    sizes = workloads.QUICK if quick else workloads.FULL
    engine = engines.load(engine_key)
    if workload == engines.DEPTH:
        if size is None:
            raise ValueError("depth 작업에는 --size(사슬 길이)를 주어야 합니다.")
        return workloads.depth(engine, size)
    if workload not in engines.ALL_WORKLOADS:
        names = ", ".join(engines.ALL_WORKLOADS)
        raise ValueError(f"알 수 없는 작업: {workload!r}. 다음 중 하나를 주세요: {names}")
    return getattr(workloads, workload)(engine, sizes)


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description="엔진 하나로 벤치마크 작업 하나를 잽니다.")
    parser.add_argument("--engine", required=True)
    parser.add_argument("--workload", required=True)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--size", type=int)
    args = parser.parse_args(argv)
    try:
        payload = {
            "status": "ok",
            "data": run_one(args.engine, args.workload, args.quick, args.size),
        }
    except Exception as error:  # 엔진의 실패도 측정 결과입니다(예: 7단계의 RecursionError).
        payload = {"status": "error", "kind": type(error).__name__, "message": str(error)[:300]}
    print(RESULT_PREFIX + json.dumps(payload), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
