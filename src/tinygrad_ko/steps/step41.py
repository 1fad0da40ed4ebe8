"""41단계: 행렬 곱 ``MatMul``/``matmul``.

y = x @ W에서 x가 (N, D), W가 (D, H)이면 역전파는 gx = gy @ Wᵀ, gW = xᵀ @ gy입니다(26장). 엔진은
40단계 것을 그대로 쓰고, 함수 하나를 더합니다.

한계: 행렬 두 개(2차원)만 맞습니다. 전치에 ``transpose``(축을 모두 뒤집기)를 쓰므로, 3차원
이상의 배치 행렬 곱에서는 역전파의 모양이 어긋납니다. ``@`` 연산자는 아직 없습니다.
"""

import numpy as np

from . import step40 as _previous
from .step40 import *  # noqa: F403
from .step40 import Function

__all__ = [*_previous.__all__, "MatMul", "matmul"]


# --8<-- [start:matmul]
class MatMul(Function):
    """y = x @ W. 역전파는 gx = gy @ Wᵀ, gW = xᵀ @ gy(둘 다 Variable 연산)입니다."""

    def forward(self, x, W):
        return np.matmul(x, W)

    def backward(self, gy):
        x, W = self.inputs
        return matmul(gy, W.T), matmul(x.T, gy)


def matmul(x, W):
    return MatMul()(x, W)


# --8<-- [end:matmul]
