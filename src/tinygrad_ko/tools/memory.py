"""역전파하는 동안 메모리가 어떻게 변하는지 잽니다(부록 「자동 미분 한눈에」와 13장).

`tracemalloc`은 파이썬 객체와 NumPy 배열의 할당을 셉니다. 순전파를 `build()` 안에서 하게 하고,
역전파 중에는 `tinygrad_ko.tools.trace.traced_backward`로 함수의 backward가 불리기 직전마다 그때의
메모리를 적습니다. 배열이 크면(예: 원소 백만 개, 8 MB) 변수와 함수 객체의 몇 KB는 MB 단위의
반올림에 묻히므로, 같은 계산은 어느 기계에서나 같은 MB 값을 냅니다.
"""

from __future__ import annotations

import gc
import tracemalloc
from collections.abc import Callable
from dataclasses import dataclass

from .trace import Step, describe_function, traced_backward

__all__ = ["Timeline", "memory_timeline", "to_xychart"]


@dataclass
class Timeline:
    """시점마다의 (이름, 그때 쥐고 있는 바이트)와, 잰 동안의 최대 바이트(peak)."""

    points: list[tuple[str, int]]
    peak: int

    def megabytes(self) -> list[tuple[str, int]]:
        """MB(10⁶바이트) 단위로 반올림한 시점별 값."""
        return [(label, round(size / 1e6)) for label, size in self.points]


def memory_timeline(
    build: Callable[[], object], *, backward: bool = True, **backward_kwargs
) -> Timeline:
    """`build()`가 돌려준 출력으로 역전파하며 메모리를 잽니다. `build` 밖에서 만든 배열은 세지 않습니다.

    시점은 "순전파 끝", 함수마다 backward가 불리기 직전("1. Square → y"), "역전파 끝"입니다.
    `backward=False`이면 순전파만 잽니다(예: `no_grad` 안에서 만든 출력).
    """
    if tracemalloc.is_tracing():
        raise RuntimeError(
            "tracemalloc이 이미 켜져 있습니다. 재던 것을 tracemalloc.stop()으로 끝낸 뒤 부르세요."
        )
    gc.collect()  # 앞선 계산이 남긴 쓰레기가 측정에 섞이지 않게 합니다.
    points: list[tuple[str, int]] = []

    def now() -> int:
        return tracemalloc.get_traced_memory()[0]

    def on_call(step: Step) -> None:
        points.append((f"{len(points)}. {describe_function(step.func)}", now()))

    tracemalloc.start()
    try:
        output = build()
        points.append(("순전파 끝", now()))
        if backward:
            traced_backward(output, on_call, **backward_kwargs)
            points.append(("역전파 끝", now()))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return Timeline(points, peak)


# 사이트의 밝은 화면과 어두운 화면에서 모두 읽히는 색: 배경은 투명, 글자와 축은 중간 회색, 막대는 남색.
_XYCHART_THEME = [
    "---",
    "config:",
    "  themeVariables:",
    "    xyChart:",
    '      backgroundColor: "transparent"',
    '      titleColor: "#8c8c8c"',
    '      xAxisLabelColor: "#8c8c8c"',
    '      xAxisTitleColor: "#8c8c8c"',
    '      xAxisLineColor: "#8c8c8c"',
    '      xAxisTickColor: "#8c8c8c"',
    '      yAxisLabelColor: "#8c8c8c"',
    '      yAxisTitleColor: "#8c8c8c"',
    '      yAxisLineColor: "#8c8c8c"',
    '      yAxisTickColor: "#8c8c8c"',
    '      plotColorPalette: "#5c6bc0"',
    "---",
]


def to_xychart(timeline: Timeline, title: str, *, y_max: int | None = None) -> str:
    """시점별 메모리(MB)를 mermaid 막대그래프(xychart-beta) 텍스트로 바꿉니다."""
    values = timeline.megabytes()
    top = y_max if y_max is not None else max(size for _, size in values)
    labels = ", ".join(f'"{label}"' for label, _ in values)
    bars = ", ".join(str(size) for _, size in values)
    return "\n".join(
        [
            *_XYCHART_THEME,
            "xychart-beta",
            f'    title "{title}"',
            f"    x-axis [{labels}]",
            f'    y-axis "MB" 0 --> {top}',
            f"    bar [{bars}]",
        ]
    )
