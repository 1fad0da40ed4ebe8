"""엔진 하나를 cProfile로 재어 어디에 시간을 쓰는지 보여 줍니다(기본: 최종 엔진).

    .venv/bin/python benchmarks/profile_engine.py                 # 0차원 사슬과 1000x1000 작업
    .venv/bin/python benchmarks/profile_engine.py --engine step24 --top 25

벤치마크 표의 두 작업과 같은 코드(`workloads.py`)를 돌립니다. cProfile은 파이썬 함수 호출마다
비용을 더하므로 절대 시간은 표보다 크게 나옵니다. 보아야 할 것은 함수들 사이의 비중입니다.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import sys
from pathlib import Path

# 설치된 패키지가 아니라 이 저장소의 src/ 를 잽니다.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

import engines  # noqa: E402
import numpy as np  # noqa: E402
import workloads  # noqa: E402


def report(title: str, work, top: int, sort: str) -> str:
    profiler = cProfile.Profile()
    profiler.enable()
    work()
    profiler.disable()
    stream = io.StringIO()
    pstats.Stats(profiler, stream=stream).strip_dirs().sort_stats(sort).print_stats(top)
    return f"## {title}\n{stream.getvalue()}"


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description="엔진 하나를 cProfile로 잽니다.")
    parser.add_argument("--engine", default="tinygrad_ko", help="엔진 이름(기본: tinygrad_ko)")
    parser.add_argument("--top", type=int, default=18, help="보여 줄 함수 수")
    parser.add_argument(
        "--sort", default="tottime", help="pstats 정렬 기준(tottime, cumulative ...)"
    )
    args = parser.parse_args(argv)
    engine = engines.load(args.engine)
    info = engines.ENGINES[args.engine]

    sizes = workloads.FULL
    repeats = 40

    def chain() -> None:
        # workloads.chain과 같은 계산이지만, 반복 사이의 gc.collect()가 결과를 가리지 않게 뺍니다.
        for _ in range(repeats):
            x = engine.scalar(1.0)
            y = x
            for _ in range(sizes.chain_ops):
                y = engine.scale(y, 1.001)
            engine.backward(y)

    print(
        report(
            f"{args.engine}: 0차원 사슬, 길이 {sizes.chain_ops} x {repeats}회",
            chain,
            args.top,
            args.sort,
        )
    )
    if engines.ELEMENTWISE in info.workloads:
        n = sizes.elementwise_n
        rng = np.random.default_rng(0)
        x, w = rng.uniform(0.0, 1.0, (n, n)), rng.uniform(0.5, 1.0, (n, n))

        def elementwise() -> None:
            for _ in range(5):
                workloads.engine_forward_backward(engine, x, w)

        print(
            report(
                f"{args.engine}: {n}x{n} 원소별 연산 20개, 순전파+역전파 x 5회",
                elementwise,
                args.top,
                args.sort,
            )
        )


if __name__ == "__main__":
    main(sys.argv[1:])
