"""42단계: 선형 회귀를 위한 평균 제곱 오차 ``MeanSquaredError``/``mean_squared_error``.

엔진은 41단계 것을 그대로 쓰고, 손실 함수 하나를 더합니다. 식은 L = Σ(x0 - x1)² / N이고, 책처럼
N은 첫 축의 길이(``len(diff)``)입니다. (N, 1) 모양의 회귀에서는 원소 수와 같습니다. 역전파는
gx0 = gy · 2(x0 - x1) / N, gx1 = -gx0입니다.

한계: 두 입력의 모양을 확인하지 않습니다. (100, 1)과 (100,)을 주면 NumPy가 (100, 100)으로
브로드캐스트해 엉뚱한 값을 냅니다. (N, 1)이 아닌 모양에서는 원소 수가 아니라 첫 축의 길이로 나눕니다.
"""

import numpy as np

from . import step41 as _previous
from .step41 import *  # noqa: F403
from .step41 import Function

__all__ = [*_previous.__all__, "MeanSquaredError", "mean_squared_error"]


# --8<-- [start:mse]
class MeanSquaredError(Function):
    """제곱 오차의 합을 첫 축의 길이로 나눈 값. 역전파도 Variable 연산입니다."""

    def forward(self, x0, x1):
        diff = x0 - x1
        return np.sum(diff * diff) / len(diff)

    def backward(self, gy):
        x0, x1 = self.inputs
        diff = x0 - x1
        gx0 = gy * diff * (2.0 / len(diff))
        return gx0, -gx0


def mean_squared_error(x0, x1):
    return MeanSquaredError()(x0, x1)


# --8<-- [end:mse]
