"""반복 측정값의 요약: 중앙값과 사분위 범위(Q1–Q3)."""

from __future__ import annotations

import statistics
from dataclasses import dataclass


@dataclass(frozen=True)
class Summary:
    median: float
    q1: float
    q3: float
    n: int


def summarize(values: list[float]) -> Summary:
    """중앙값과 사분위수. 값이 하나뿐이면 사분위수도 그 값입니다."""
    if not values:
        raise ValueError("요약할 측정값이 없습니다. 작업이 한 번도 돌지 않았습니다.")
    median = statistics.median(values)
    if len(values) == 1:
        return Summary(median, median, median, 1)
    q1, _, q3 = statistics.quantiles(values, n=4, method="inclusive")
    return Summary(median, q1, q3, len(values))
