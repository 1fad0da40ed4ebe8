"""35단계: tanh를 더하고, 고계 미분의 계산 그래프가 얼마나 커지는지 봅니다.

엔진은 34단계 것을 그대로 씁니다. 더한 것은 다음과 같습니다.

- ``Tanh``, ``tanh``: y = tanh x = (eˣ - e⁻ˣ) / (eˣ + e⁻ˣ). 국소 미분은 1 - y²이므로 순전파의
  출력 변수(``self.outputs[0]()``)로 ``gy * (1 - y * y)``를 계산합니다. 이것도 Variable 연산이라
  몇 번이고 미분할 수 있습니다.

``create_graph=True``로 미분을 거듭하면, 미분값의 계산 그래프에는 앞 단계 역전파의 계산이 모두
들어갑니다. tanh의 n계 미분의 그래프는 n이 커질수록 빠르게 커집니다(20장에서 잽니다).

한계: 34단계와 같습니다. 고계 미분의 그래프를 줄이는(같은 계산을 합치는) 일은 하지 않습니다.
"""

import numpy as np

from . import step34 as _previous
from .step34 import *  # noqa: F403
from .step34 import Function

__all__ = [*_previous.__all__, "Tanh", "tanh"]


# --8<-- [start:tanh]
class Tanh(Function):
    """y = tanh x, 국소 미분 1 - y²을 출력 변수로 계산합니다."""

    def forward(self, x):
        return np.tanh(x)

    def backward(self, gy):
        y = self.outputs[0]()
        return gy * (1 - y * y)


def tanh(x):
    return Tanh()(x)


# --8<-- [end:tanh]
