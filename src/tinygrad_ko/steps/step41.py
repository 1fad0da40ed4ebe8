"""41단계: 행렬 곱 ``MatMul``/``matmul``.

y = x @ W에서 x가 (N, D), W가 (D, H)이면 역전파는 gx = gy @ Wᵀ, gW = xᵀ @ gy입니다(26장). 엔진은
40단계 것을 그대로 쓰고, 함수 하나를 더합니다.

한계: 행렬 두 개(2차원)만 맞습니다. 순전파는 책처럼 ``x.dot(W)``라서, 3차원 이상이면 배치 행렬 곱이
아니라 ``np.dot``의 규칙(x의 마지막 축과 W의 끝에서 두 번째 축을 곱해 더하고, 나머지 축은 모든 쌍으로
늘어놓기)으로 계산합니다. 예를 들어 (5, 4, 3)과 (5, 3, 2)는 (5, 4, 5, 2)가 되고, 전치에 ``transpose``(축을
모두 뒤집기)를 쓰는 역전파는 모양이 맞지 않아 실패합니다. ``@`` 연산자는 아직 없습니다.
"""

from . import step40 as _previous
from .step40 import *  # noqa: F403
from .step40 import Function

__all__ = [*_previous.__all__, "MatMul", "matmul"]


# --8<-- [start:matmul]
class MatMul(Function):
    """y = x @ W. 역전파는 gx = gy @ Wᵀ, gW = xᵀ @ gy(둘 다 Variable 연산)입니다."""

    def forward(self, x, W):
        return x.dot(W)

    def backward(self, gy):
        x, W = self.inputs
        return matmul(gy, W.T), matmul(x.T, gy)


def matmul(x, W):
    return MatMul()(x, W)


# --8<-- [end:matmul]
