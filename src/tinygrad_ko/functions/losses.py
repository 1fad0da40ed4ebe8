"""손실 함수(loss function): 예측이 정답에서 얼마나 먼지를 수 하나로 잽니다.

- `mean_squared_error(x0, x1)`: 평균 제곱 오차 mean((x0 - x1)²). 역전파: gx0 = gy · 2(x0 - x1) / n.
"""

from __future__ import annotations

import numpy as np

from ..autograd.variable import Variable
from .elementwise import LibraryFunction, _operands


# --8<-- [start:mse]
class MeanSquaredError(LibraryFunction):
    """평균 제곱 오차 mean((x0 - x1)²). 원소 n개에 대해 d/dx0 = 2(x0 - x1) / n, d/dx1는 그 반대 부호."""

    def keep(self, needs):
        both = needs[0] or needs[1]
        return both, both  # 어느 쪽의 미분이든 차이 x0 - x1이 필요합니다.

    def forward(self, x0, x1):
        diff = x0 - x1
        if not diff.size:  # 원소가 없으면 평균은 NaN(NumPy, PyTorch와 같음)입니다.
            self.scale = 0.0
            return diff.mean()
        self.scale = 2.0 / diff.size
        if diff.dtype == np.float16:  # float16의 합은 65504를 넘기 쉬워 PyTorch처럼 float32로
            return np.float16(np.square(diff).sum(dtype=np.float32) / diff.size)
        flat = diff.reshape(-1)
        return np.dot(flat, flat) / diff.size  # 제곱의 합을 한 번에(BLAS의 내적)

    def backward(self, gy):
        x0, x1 = self.saved()
        need0, need1 = self.needs_input_grad
        gx0 = (x0 - x1) * self.scale * gy  # PyTorch와 같은 순서로 곱해 마지막 자리까지 같습니다.
        return (gx0 if need0 else None), (-gx0 if need1 else None)


# --8<-- [end:mse]


def _shape_of(x: object) -> tuple[int, ...]:
    return x.data.shape if isinstance(x, Variable) else np.shape(x)


def mean_squared_error(x0, x1):
    """평균 제곱 오차 mean((x0 - x1)²). 두 입력은 모양이 같아야 합니다.

    (100, 1)과 (100,)처럼 모양이 다르면 NumPy는 (100, 100)으로 브로드캐스트해 엉뚱한 값을 내므로,
    모양이 다르면 계산하지 않고 ValueError로 알립니다.
    """
    x0, x1 = _operands(x0, x1)
    shape0, shape1 = _shape_of(x0), _shape_of(x1)
    if shape0 != shape1:
        raise ValueError(
            f"mean_squared_error의 두 입력의 모양이 다릅니다: {shape0}와 {shape1}. 브로드캐스트로 "
            f"엉뚱한 평균을 내지 않도록, reshape으로 두 모양을 똑같이 맞춰 주세요."
        )
    return MeanSquaredError()(x0, x1)
