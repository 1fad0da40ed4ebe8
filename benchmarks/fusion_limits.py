"""56장의 실험: 융합한 C 커널의 속도가 벡터화, 컴파일 옵션, 배열 크기에 따라 어떻게 바뀌는지 잽니다.

    python3 benchmarks/fusion_limits.py                      # 1000×1000과 3000×3000, 11번씩: 이 기계에서 30초 남짓
    python3 benchmarks/fusion_limits.py --sizes 64 --repeats 1 --json /tmp/f.json   # 도는지만 보기
    python3 benchmarks/fusion_limits.py --order --sizes 1000   # 입력 순서 실험(results/fusion_order.json)

56장의 페이지는 저장된 결과(`benchmarks/results/fusion_limits.json`)를 읽어 표를 출력합니다. 페이지의
테스트는 시간을 재지 않고, 컴파일러가 반복문을 벡터화했는지와 값만 확인합니다.

- 세 무리를 잽니다. `exp`: (x·0.5 + 1).exp() 커널 하나. `chain_exp`: 20개 연산 사슬 뒤의 exp를 커널 하나로
  융합한 것, 두 커널로 나눈 것. `chain`: 20개 연산 사슬(× + − relu 부호를 네 번)을 옵션만 바꿔 컴파일한 것.
- 후보마다 gcc의 벡터화 보고(`-fopt-info-vec-all`: 벡터화 여부, 벡터의 바이트)와 어셈블리에서 부르는 함수를
  함께 적습니다. gcc가 아닌 컴파일러에서는 보고 칸이 비어 있습니다.
- 시간은 이 프로세스의 CPU 시간(`process_time_ns`)이고, 후보들을 반복마다 순서를 섞어 가며 번갈아 잰 중앙값입니다
  (2026-12-07 전의 저장된 실행은 순서를 돌리기만 했습니다).
- 재기 전에 값을 확인합니다: 사슬은 `-ffast-math`가 아닌 모든 판이 NumPy와 원소마다 같고, 융합한 것과 나눈
  것의 값이 같아야 합니다.
- `--order`: 같은 값을 섞은 순서(표준정규분포에서 뽑은 그대로)와 정렬한 순서로 넣어 C 커널 몇 개를 잽니다.
  벡터화하지 않은 반복문에서 relu는 조건 분기가 되므로, 분기를 얼마나 맞히는지가 입력의 순서에 달렸는지 봅니다.
  재기 전에 두 순서의 결과가 같은 자리끼리 같은지(원소별 연산이므로) 확인합니다.
- 커널 캐시는 이 프로세스만의 임시 폴더에 둡니다.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "src"))

import machine  # noqa: E402 - 위의 경로를 먼저 넣어야 합니다
from lazy_work import alternate, chain  # noqa: E402

RESULT = HERE / "results" / "fusion_limits.json"
ORDER_RESULT = HERE / "results" / "fusion_order.json"
VECTOR_EXP = (
    "-fno-math-errno",
    "-D__FAST_MATH__",
)  # errno를 쓰지 않고, glibc의 벡터 exp 선언을 켭니다


def _options(compiler) -> dict[str, tuple[str, ...]]:
    """사슬을 컴파일할 옵션들: 엔진의 기본(`default_options()`)에서 하나씩 빼거나 바꾼 것."""
    base = compiler.default_options()  # OPTIONS, gcc이면 GCC_OPTIONS까지

    def without(*names):
        return tuple(o for o in base if o not in names)

    def at_o2(options):
        return tuple("-O2" if o == "-O3" else o for o in options)

    return {
        "기본": base,
        "GCC_OPTIONS 뺌": compiler.OPTIONS,
        "-fno-trapping-math 뺌": without("-fno-trapping-math"),
        "-march=native 뺌": without("-march=native"),
        "-O2": at_o2(base),
        "-O2, -march=native 뺌": at_o2(without("-march=native")),
        "기본 + -ffast-math": (*base, "-ffast-math"),
    }


def _report(compiler, message: str) -> dict:
    if not compiler.is_gcc():
        return {"vectorized": None, "vector_bytes": None}
    width = re.search(r"loop vectorized using (\d+) byte vectors", message)
    return {
        "vectorized": "loop vectorized" in message,
        "vector_bytes": int(width.group(1)) if width else None,
    }


def _candidates(lazy, compiler, a: np.ndarray) -> dict[str, dict]:
    """후보마다 {"group", "run", 보고}. run은 인수 없이 한 번 계산합니다."""
    with lazy.using_backend("c"):
        exp_src = lazy.source(lazy.schedule((lazy.Tensor(a) * 0.5 + 1.0).exp())[0])
        fused_src = lazy.source(lazy.schedule(chain(lazy.Tensor(a)).exp())[0])
        chain_src = lazy.source(lazy.schedule(chain(lazy.Tensor(a)))[0])
        only_exp_src = lazy.source(lazy.schedule(lazy.Tensor(a).exp())[0])
    fmax_src = re.sub(r"\((v\d+) <= 0\.0f \? 0\.0f : \1\)", r"fmaxf(\1, 0.0f)", chain_src)
    report = ("-fopt-info-vec-all",) if compiler.is_gcc() else ()
    half, one = np.float32(0.5), np.float32(1.0)
    found: dict[str, dict] = {}

    def add(group, name, source, options):
        run, message = compiler.build(source, (*options, *report))
        out = np.empty_like(a)
        found[name] = {
            "group": group,
            "run": lambda: run(out, a),
            "out": out,
            "source": source,
            "options": list(options),
            "calls": compiler.called_functions(source, options),
            **_report(compiler, message),
        }

    found["NumPy exp"] = {"group": "exp", "run": lambda: np.exp(a * half + one)}
    reused = np.empty_like(a)  # 새 임시 배열 없이(out=): 할당의 몫을 가릅니다
    found["NumPy exp out="] = {"group": "exp", "run": lambda: _exp_into(a, reused)}
    base = compiler.default_options()
    add("exp", "C exp 기본", exp_src, base)
    add("exp", "C exp 벡터 exp", exp_src, (*base, *VECTOR_EXP))
    add("exp", "C exp -ffast-math", exp_src, (*base, "-ffast-math"))

    found["NumPy 사슬+exp"] = {"group": "chain_exp", "run": lambda: np.exp(chain(a))}
    found["NumPy 사슬+exp out="] = {
        "group": "chain_exp",
        "run": lambda: np.exp(_chain_into(a, reused), out=reused),
    }
    add("chain_exp", "C 융합 기본", fused_src, base)
    run_chain, _ = compiler.build(chain_src)
    run_exp, _ = compiler.build(only_exp_src)
    middle, split_out = np.empty_like(a), np.empty_like(a)
    found["C 두 커널 기본"] = {
        "group": "chain_exp",
        "run": lambda: (run_chain(middle, a), run_exp(split_out, middle)),
        "out": split_out,
        "exp_source": only_exp_src,
    }
    add("chain_exp", "C 융합 벡터 exp", fused_src, (*base, *VECTOR_EXP))

    copy_out = np.empty_like(a)
    found["NumPy 사슬"] = {"group": "chain", "run": lambda: chain(a)}
    found["np.copyto"] = {"group": "chain", "run": lambda: np.copyto(copy_out, a)}
    for name, options in _options(compiler).items():
        add("chain", f"C 사슬 {name}", chain_src, options)
    add("chain", "C 사슬 fmaxf", fmax_src, base)
    return found


def _exp_into(a: np.ndarray, t: np.ndarray) -> np.ndarray:
    np.multiply(a, np.float32(0.5), out=t)
    np.add(t, np.float32(1.0), out=t)
    return np.exp(t, out=t)


def _chain_into(a: np.ndarray, t: np.ndarray) -> np.ndarray:
    """`chain`과 같은 연산을 같은 순서로, 버퍼 t 하나에 덮어쓰며(out=)."""
    np.copyto(t, a)
    for _ in range(4):
        np.multiply(t, 1.01, out=t)
        np.add(t, 0.5, out=t)
        np.subtract(t, 0.25, out=t)
        np.maximum(t, 0, out=t)
        np.negative(t, out=t)
    return t


def _check(found: dict, a: np.ndarray) -> None:
    """재기 전에 값을 확인합니다. 틀린 값을 빨리 내는 판이 빠르다고 적히지 않게."""
    for case in found.values():
        case["run"]()
    want = chain(a)
    for name, case in found.items():
        if name.startswith("C 사슬") and "ffast-math" not in name:
            if not np.array_equal(case["out"], want):
                raise AssertionError(f"{name}의 값이 NumPy의 사슬과 원소마다 같지 않습니다.")
    t = np.empty_like(a)
    if not np.array_equal(_chain_into(a, t), want) or not np.array_equal(
        _exp_into(a, t), np.exp(a * np.float32(0.5) + np.float32(1.0))
    ):
        raise AssertionError("out=으로 덮어쓴 NumPy의 값이 새 배열을 만든 NumPy와 다릅니다.")
    if not np.array_equal(found["C 융합 기본"]["out"], found["C 두 커널 기본"]["out"]):
        raise AssertionError("융합한 커널과 두 커널로 나눈 것의 값이 다릅니다.")


def measure(n: int, repeats: int) -> dict:
    from tinygrad_ko import lazy
    from tinygrad_ko.lazy import compiler

    a = np.random.default_rng(0).standard_normal((n, n)).astype(np.float32)
    found = _candidates(lazy, compiler, a)
    _check(found, a)
    runs = {name: case["run"] for name, case in found.items()}
    times = alternate(runs, repeats, time.process_time_ns)
    return {
        name: {
            **{k: v for k, v in case.items() if k not in ("run", "out", "source", "exp_source")},
            "ms": times[name],
            "median_ms": statistics.median(times[name]),
        }
        for name, case in found.items()
    }


def measure_order(n: int, repeats: int) -> dict:
    """같은 값을 섞은 순서와 정렬한 순서로 넣어 잽니다. 이름은 "후보, 섞은 입력"과 "후보, 정렬한 입력"."""
    from tinygrad_ko import lazy
    from tinygrad_ko.lazy import compiler

    shuffled = np.random.default_rng(0).standard_normal((n, n)).astype(np.float32)
    order = np.argsort(shuffled, axis=None)
    ordered = shuffled.reshape(-1)[order].reshape(n, n)
    found = _candidates(lazy, compiler, shuffled)
    cases = [
        "C 융합 기본",
        "C 두 커널 기본",
        "C 사슬 기본",
        "C 사슬 -fno-trapping-math 뺌",
        "C 사슬 fmaxf",
    ]
    runs, outs = {}, {}
    for case in cases:
        run = found[case]["run"]  # 섞은 입력(shuffled)에 묶여 있습니다
        if case == "C 두 커널 기본":
            run_chain, _ = compiler.build(found["C 사슬 기본"]["source"])
            run_exp, _ = compiler.build(found["C 두 커널 기본"]["exp_source"])
            middle, out = np.empty_like(ordered), np.empty_like(ordered)

            def again(run_chain=run_chain, run_exp=run_exp, middle=middle, out=out):
                run_chain(middle, ordered)
                run_exp(out, middle)

        else:
            kernel, _ = compiler.build(found[case]["source"], tuple(found[case]["options"]))
            out = np.empty_like(ordered)

            def again(kernel=kernel, out=out):
                kernel(out, ordered)

        runs[f"{case}, 섞은 입력"], runs[f"{case}, 정렬한 입력"] = run, again
        outs[case] = (found[case]["out"], out)
    for run in runs.values():
        run()
    for case, (first, second) in outs.items():
        if not np.array_equal(first.reshape(-1)[order], second.reshape(-1)):
            raise AssertionError(
                f"{case}: 정렬한 입력의 결과가 섞은 입력의 결과를 같은 순서로 놓은 것과 다릅니다."
            )
    times = alternate(runs, repeats, time.process_time_ns)
    return {name: {"ms": times[name], "median_ms": statistics.median(times[name])} for name in runs}


def describe_machine() -> dict:
    from tinygrad_ko.lazy import compiler

    info = machine.describe()
    cc = compiler.command()
    info["compiler"] = (
        subprocess.run([*cc, "--version"], capture_output=True, text=True).stdout.splitlines()[0]
        if cc
        else None
    )
    l3 = Path("/sys/devices/system/cpu/cpu0/cache/index3/size")
    info["l3_cache"] = l3.read_text().strip() if l3.exists() else None
    return info


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,3000", help="정사각 배열의 한 변들(쉼표로)")
    parser.add_argument("--repeats", type=int, default=11)
    parser.add_argument(
        "--order", action="store_true", help="입력 순서 실험(섞은 입력 대 정렬한 입력)"
    )
    parser.add_argument("--json", default=None, help="결과를 쓸 파일")
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="tinygrad_ko-fusion-")
    os.environ["TINYGRAD_KO_CACHE"] = folder
    from tinygrad_ko.lazy import compiler

    if compiler.command() is None:
        sys.exit(
            "C 컴파일러(cc, gcc, clang)가 없어 잴 것이 없습니다. 컴파일러를 설치한 뒤 다시 돌리세요."
        )
    try:
        info = describe_machine()
        sizes = {}
        for n in (int(s) for s in args.sizes.split(",")):
            sizes[str(n)] = (measure_order if args.order else measure)(n, args.repeats)
            for name, row in sizes[str(n)].items():
                print(
                    f"{n:>5} {name:40} {row['median_ms']:9.3f} ms  벡터화 {row.get('vectorized')}"
                )
        info["load_after"] = machine.load_average()
        default = ORDER_RESULT if args.order else RESULT
        Path(args.json or default).write_text(
            json.dumps(
                {"machine": info, "repeats": args.repeats, "sizes": sizes},
                ensure_ascii=False,
                indent=1,
            )
            + "\n",
            encoding="utf-8",
        )
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
