"""tinygrad_ko 벤치마크: 최종 엔진, 단계 스냅숏, Value, 그리고 (설치되어 있으면) micrograd와
PyTorch CPU를 같은 작업으로 재고, 마크다운 표를 출력합니다.

    python3 dev.py bench                           # 전체(이 기계에서 몇 분)
    python3 dev.py bench --quick --only tinygrad_ko   # 몇 초짜리 빠른 점검
    python3 dev.py bench --output benchmarks/results/latest.md --json benchmarks/results/latest.json

엔진×작업마다 하위 프로세스(`worker.py`) 하나를 시간 한도와 함께 띄웁니다. 시간 초과나
비정상 종료는 실행기를 멈추지 않고 표의 그 칸에 적힙니다. 비율은 모두 이번 실행의 측정값끼리
계산합니다. 진행 상황은 표준 오류로, 표는 표준 출력(과 --output 파일)으로 나갑니다.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import engines
import machine
import table
import workloads
from worker import RESULT_PREFIX

WORKER = Path(__file__).resolve().parent / "worker.py"
# 작업별로 glibc 할당기의 설정을 고정합니다(다른 C 라이브러리에서는 무시되는 환경 변수입니다).
WORKLOAD_ENV = {
    # 메모리: 큰 할당이 늘 mmap으로 가게 해, 해제한 메모리가 RSS에서도 바로 빠지게 합니다.
    engines.MEMORY: {"MALLOC_MMAP_THRESHOLD_": "65536"},
    engines.AFFINE_MEMORY: {"MALLOC_MMAP_THRESHOLD_": "65536"},
    # 1000x1000: 기본 설정의 glibc는 8 MB 배열을 mmap으로 받을지 힙에서 줄지, 힙을 운영 체제에
    # 돌려줄지를 지난 할당에 따라 바꿉니다. 그래서 같은 NumPy 코드도 프로세스에 따라 페이지 폴트로
    # 20 ms쯤 더 쓰거나 말거나 합니다. 힙에서 주고 돌려주지 않게 고정해 계산 비용만 비교합니다.
    engines.ELEMENTWISE: {
        "MALLOC_MMAP_THRESHOLD_": str(32 * 1024 * 1024),
        "MALLOC_TRIM_THRESHOLD_": str(4 * 1024**3),
    },
    engines.ELEMENTWISE_CONST: {
        "MALLOC_MMAP_THRESHOLD_": str(32 * 1024 * 1024),
        "MALLOC_TRIM_THRESHOLD_": str(4 * 1024**3),
    },
}
# 행렬 곱과 신경망: BLAS(OpenBLAS)를 스레드 하나로 둡니다. 여러 스레드의 OpenBLAS는 일을 기다리는
# 동안에도 CPU를 돌리므로(spin), CPU 시간으로 재면 작은 행렬에서 그 대기가 계산보다 커집니다.
# PyTorch도 스레드 하나로 재므로 셋이 같은 조건입니다. 행렬 곱은 1000x1000 할당기 설정도 같게 둡니다.
SINGLE_BLAS = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
WORKLOAD_ENV[engines.MATMUL] = {**WORKLOAD_ENV[engines.ELEMENTWISE], **SINGLE_BLAS}
WORKLOAD_ENV[engines.MLP] = SINGLE_BLAS
WORKLOAD_ENV[engines.DIGITS] = SINGLE_BLAS
# 합성곱과 CNN: 수 MB짜리 배열(im2col의 행렬 등)을 배치마다 새로 만들므로, 기본 glibc는 힙을 운영 체제에
# 돌려주었다가 다시 받으며 페이지 폴트를 냅니다(CNN 한 에포크에서 시간의 약 40%). 1000x1000 작업처럼
# 힙에서 주고 돌려주지 않게 고정해 계산 비용을 비교합니다. PyTorch는 자기 할당기가 있어 폴트가 없습니다.
WORKLOAD_ENV[engines.CONV] = WORKLOAD_ENV[engines.MATMUL]
WORKLOAD_ENV[engines.CNN] = WORKLOAD_ENV[engines.MATMUL]
WORKLOAD_ENV[engines.LSTM] = SINGLE_BLAS
# 지연 엔진의 1000x1000 작업도 원소별 연산 작업과 같은 할당기 설정으로 잽니다(NumPy와 번갈아 재므로 공평합니다).
for _lazy_workload in engines.LAZY_WORKLOADS:
    WORKLOAD_ENV[_lazy_workload] = {**WORKLOAD_ENV[engines.ELEMENTWISE], **SINGLE_BLAS}


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description="자동 미분 엔진들을 같은 작업으로 재고 마크다운 표를 출력합니다."
    )
    parser.add_argument("--quick", action="store_true", help="작은 크기로 빠르게 점검합니다.")
    parser.add_argument(
        "--only",
        help="잴 엔진을 쉼표로(예: tinygrad_ko,step24). 이름: " + ", ".join(engines.ENGINES),
    )
    parser.add_argument("--output", type=Path, help="마크다운 표를 이 파일에도 씁니다.")
    parser.add_argument("--json", type=Path, help="날것의 측정값(JSON)을 이 파일에 씁니다.")
    parser.add_argument(
        "--timeout", type=float, default=120.0, help="하위 프로세스 하나의 시간 한도(초)."
    )
    return parser.parse_args(argv)


def select_engines(only: str | None) -> tuple[list[str], list[str]]:
    """잴 엔진과, 재지 않는 엔진에 대한 설명(설치 안 된 비교 대상)."""
    if only:
        keys = [name.strip().lower() for name in only.split(",") if name.strip()]
        unknown = [k for k in keys if k not in engines.ENGINES]
        if unknown:
            names = ", ".join(engines.ENGINES)
            sys.exit(f"알 수 없는 엔진 이름: {', '.join(unknown)}. 다음 가운데서 고르세요: {names}")
        keys = [k for k in engines.ENGINES if k in keys]  # 표의 열 순서를 늘 같게 합니다.
    else:
        keys = list(engines.ENGINES)
    chosen, skipped = [], []
    for key in keys:
        info = engines.ENGINES[key]
        if info.optional and not engines.is_installed(info):
            skipped.append(f"`{key}`(설치되어 있지 않음)")
        else:
            chosen.append(key)
    return chosen, skipped


def signal_name(returncode: int) -> str:
    if returncode < 0:
        try:
            return signal.Signals(-returncode).name
        except ValueError:
            pass
    return f"종료 코드 {returncode}"


def run_worker(key: str, workload: str, quick: bool, timeout: float, size: int | None = None):
    command = [sys.executable, str(WORKER), "--engine", key, "--workload", workload]
    if quick:
        command.append("--quick")
    if size is not None:
        command += ["--size", str(size)]
    env = {**os.environ, **WORKLOAD_ENV.get(workload, {})}
    try:
        completed = subprocess.run(
            command, capture_output=True, text=True, timeout=timeout, env=env
        )
    except subprocess.TimeoutExpired:
        return {"status": "timeout", "seconds": timeout}
    for line in reversed(completed.stdout.splitlines()):
        if line.startswith(RESULT_PREFIX):
            return json.loads(line[len(RESULT_PREFIX) :])
    # 결과를 내기 전에 죽었습니다(예: C 스택 넘침의 SIGSEGV, 메모리 부족의 SIGKILL).
    tail = completed.stderr.strip().splitlines()[-3:]
    return {
        "status": "crash",
        "signal": signal_name(completed.returncode),
        "stderr": "\n".join(tail),
    }


def progress(key: str, workload: str, payload: dict, seconds: float) -> None:
    status = payload["status"]
    if status == "error":
        status += f" ({payload['kind']})"
    print(f"[bench] {key:<12} {workload:<16} {seconds:6.1f} s  {status}", file=sys.stderr)


def measure_depth(key: str, sizes: workloads.Sizes, timeout: float, quick: bool) -> dict:
    """사슬 길이를 늘려 가며 재다가 처음 실패하는 곳에서 멈춥니다."""
    largest, failure, tried = None, None, {}
    for n in sizes.depths:
        started = time.perf_counter()
        payload = run_worker(key, engines.DEPTH, quick, timeout, size=n)
        progress(key, f"depth {n:,}", payload, time.perf_counter() - started)
        tried[str(n)] = payload
        if payload["status"] != "ok":
            failure = {**payload, "n": n}
            break
        largest = n
    return {"largest": largest, "failure": failure, "tried": tried}


def measure(keys: list[str], sizes: workloads.Sizes, timeout: float, quick: bool) -> dict:
    results: dict[str, dict] = {}
    for key in keys:
        results[key] = {}
        for workload in engines.ENGINES[key].workloads:
            if workload == engines.DEPTH:
                results[key][workload] = measure_depth(key, sizes, timeout, quick)
                continue
            started = time.perf_counter()
            payload = run_worker(key, workload, quick, timeout)
            progress(key, workload, payload, time.perf_counter() - started)
            results[key][workload] = payload
    return results


def main(argv: list[str]) -> None:
    args = parse_args(argv)
    keys, skipped = select_engines(args.only)
    if not keys:
        why = "; ".join(skipped)
        sys.exit(f"잴 엔진이 없습니다({why}). --only 에 설치된 엔진 이름을 주세요.")
    sizes = workloads.QUICK if args.quick else workloads.FULL
    env = machine.describe()
    results = measure(keys, sizes, args.timeout, args.quick)
    env["load_after"] = machine.load_average()
    settings = {
        "command": " ".join(["benchmarks/run.py", *argv]),
        "timeout": args.timeout,
        "quick": args.quick,
        "skipped": skipped,
    }
    text = table.render(results, keys, sizes, env, settings)
    print(text)
    if args.output:
        args.output.parent.mkdir(parents=True, exist_ok=True)
        args.output.write_text(text, encoding="utf-8")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        raw = {"environment": env, "settings": settings, "results": results}
        args.json.write_text(json.dumps(raw, ensure_ascii=False, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main(sys.argv[1:])
