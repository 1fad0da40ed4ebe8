"""활성화 함수(activation function): 신경망의 층 사이에 넣는 원소별 비선형 함수.

선형 변환(`linear`)만 여러 번 이으면 결국 선형 변환 하나와 같습니다. 층 사이에 비선형 함수를
넣어야 곡선(예: sin)을 근사할 수 있습니다. `tanh`는 `functions.py`에 있습니다.

- `sigmoid(x) = 1 / (1 + exp(-x))`: 국소 미분 y(1 - y)를 출력 y로 계산합니다.
- `relu(x) = max(x, 0)`: 출력이 0 이하인 원소에는 미분값이 흐르지 않습니다(x = 0에서는 0, NaN은 그대로
  통과, PyTorch와 같음). 미분값에 0/1 마스크를 곱하지 않고 고르므로 inf · 0 = NaN이 새지 않습니다.

두 함수 모두 입력을 붙잡지 않고 출력만 씁니다(`keeps_output`).
"""

from __future__ import annotations

import numpy as np

from ..autograd.variable import Variable
from .elementwise import LibraryFunction


# --8<-- [start:sigmoid]
class Sigmoid(LibraryFunction):
    """시그모이드 1 / (1 + exp(-x)). 역전파는 gy * y * (1 - y)입니다."""

    keeps_output = True

    def keep(self, needs):
        return (False,)

    def forward(self, x):
        if x.dtype == np.float16:  # exp(11.09)부터 넘쳐 작은 값이 0이 되므로 PyTorch처럼 float32로
            return self.forward(x.astype(np.float32)).astype(np.float16)
        # exp(-x)가 넘쳐 1 / (1 + inf) = 0이면 참값과의 차이는 1 / (dtype의 최댓값) 아래. 경고만 끕니다.
        with np.errstate(over="ignore"):
            return 1 / (1 + np.exp(-x))

    def backward(self, gy):
        y = self.saved_output()
        return gy * (y * (1 - y))


# --8<-- [end:sigmoid]


# --8<-- [start:relu]
class ReLU(LibraryFunction):
    """ReLU max(x, 0). 역전파는 출력이 0 이하인 원소의 미분값을 0으로 고릅니다."""

    keeps_output = True  # y <= 0과 x <= 0은 같은 원소를 고릅니다.

    def keep(self, needs):
        return (False,)

    def forward(self, x):
        return np.maximum(x, 0)

    def backward(self, gy):
        y = self.saved_output()
        y = y.data if isinstance(y, Variable) else y
        return self.select(gy, ~(y <= 0))  # 곱하지 않고 고릅니다. NaN인 출력은 통과(PyTorch와 같음)


# --8<-- [end:relu]


def sigmoid(x):
    """시그모이드 함수 1 / (1 + exp(-x)): 값을 0과 1 사이로 누릅니다."""
    return Sigmoid()(x)


def relu(x):
    """ReLU 함수 max(x, 0): 음수를 0으로 바꿉니다."""
    return ReLU()(x)
