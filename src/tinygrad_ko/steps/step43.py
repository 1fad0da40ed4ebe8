"""43단계: 신경망의 부품. 선형 변환 ``linear``와 활성화 함수 ``sigmoid``.

엔진은 42단계 것을 그대로 쓰고, 함수를 더합니다. 책처럼 두 가지 방법으로 만듭니다.

- ``linear_simple``, ``sigmoid_simple``: 이미 있는 함수를 이어 붙인 것. 역전파가 저절로 되지만
  중간 결과가 그래프에 남으므로, ``linear_simple``은 역전파에 필요 없는 ``x @ W``의 데이터를 손으로
  지웁니다(``t.data = None``).
- ``Linear``, ``Sigmoid``: 함수 하나로 만든 것. 순전파는 NumPy로 한 번에 계산하고, 역전파는
  gx = gy @ Wᵀ, gW = xᵀ @ gy, gb = sum_to(gy)와 gy · y(1 - y)입니다. Sigmoid의 순전파는 책처럼 tanh 식입니다.

한계: 41단계와 같습니다(행렬 곱은 2차원만). 매개변수를 변수 하나하나로 들고 다니며 손으로 고칩니다.
"""

import numpy as np

from . import step42 as _previous
from .step42 import *  # noqa: F403
from .step42 import Function, as_variable, exp, matmul, sum_to

__all__ = [
    *_previous.__all__,
    "linear_simple",
    "sigmoid_simple",
    "Linear",
    "linear",
    "Sigmoid",
    "sigmoid",
]


# --8<-- [start:simple]
def linear_simple(x, W, b=None):
    """x @ W + b를 있는 함수로. 역전파에 쓰지 않는 x @ W의 데이터는 바로 지웁니다."""
    t = matmul(x, W)
    if b is None:
        return t
    y = t + b
    t.data = None  # 덧셈의 역전파는 t의 값을 쓰지 않습니다.
    return y


def sigmoid_simple(x):
    """1 / (1 + exp(-x))를 있는 함수로."""
    x = as_variable(x)
    return 1 / (1 + exp(-x))


# --8<-- [end:simple]


# --8<-- [start:linear]
class Linear(Function):
    """y = x @ W + b를 함수 하나로. b가 None이면 x @ W입니다."""

    def forward(self, x, W, b):
        y = x.dot(W)  # 책처럼 dot. W도 3차원 이상이면 np.matmul과 다릅니다(41단계의 한계).
        if b is not None:
            y = y + b
        return y

    def backward(self, gy):
        x, W, b = self.inputs
        gb = None if b.data is None else sum_to(gy, b.shape)
        return matmul(gy, W.T), matmul(x.T, gy), gb


def linear(x, W, b=None):
    return Linear()(x, W, b)


class Sigmoid(Function):
    """y = 1 / (1 + exp(-x)). 역전파는 출력 변수 y로 gy · y(1 - y)입니다."""

    def forward(self, x):
        return np.tanh(x * 0.5) * 0.5 + 0.5  # 책처럼 tanh로(같은 식이고 넘치지 않음)

    def backward(self, gy):
        y = self.outputs[0]()
        return gy * y * (1 - y)


def sigmoid(x):
    return Sigmoid()(x)


# --8<-- [end:linear]
