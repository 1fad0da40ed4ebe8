"""드롭아웃 층(54단계). 계산은 함수 형태 `tinygrad_ko.functions.dropout`이 합니다.

`Dropout(ratio)`를 `Sequential`에 끼워 두면 학습 모드에서만 원소의 일부를 끄고, 시험 모드(`test_mode()`)에서는
입력을 그대로 내보냅니다.
"""

from __future__ import annotations

import numpy as np

from .._checks import check_fraction
from ..functions.dropout import dropout
from .layers import Layer

__all__ = ["Dropout", "dropout"]  # dropout은 함수 형태(functions)와 같은 객체를 다시 내보냅니다


class Dropout(Layer):
    """드롭아웃을 층으로: `Sequential(Linear(100), relu, Dropout(0.5), Linear(10))`처럼 씁니다."""

    def __init__(self, ratio: float = 0.5, *, rng: np.random.Generator | None = None) -> None:
        self.ratio = check_fraction("ratio", ratio, include_one=True)
        self.rng = rng

    def forward(self, x):
        return dropout(x, self.ratio, rng=self.rng)
