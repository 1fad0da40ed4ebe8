"""34단계: 사인과 코사인을 몇 번이고 미분할 수 있게 합니다.

32단계의 엔진에서 27단계의 ``Sin``만은 아직 국소 미분을 데이터로 계산했습니다(``np.cos(x.data)``).
그러면 ``create_graph=True``여도 미분값이 ``x``와 이어지지 않아 2계 미분을 구할 수 없습니다. 32단계와
비교해 바뀐 점은 다음과 같습니다.

- ``Sin.backward``: ``gy * cos(x)``. 입력 변수 ``x``에 ``Cos`` 함수를 씌우므로 역전파의 계산이
  그래프로 남습니다.
- ``Cos``, ``cos``: y = cos x, 역전파는 ``gy * -sin(x)``입니다.

사인을 미분하면 코사인, 코사인을 미분하면 마이너스 사인이므로 두 함수가 서로의 역전파에 쓰이며
몇 번이고 미분할 수 있습니다. ``x``가 배열이면 원소마다 계산하므로 한 번의 역전파로 여러 점의
n계 미분을 함께 구합니다.

한계: 32단계와 같습니다(``cleargrad()``를 잊으면 미분값이 누적됩니다).
"""

import numpy as np

from . import step32 as _previous
from .step32 import *  # noqa: F403
from .step32 import Function

__all__ = [*_previous.__all__, "Cos", "cos"]


# --8<-- [start:sin_cos]
class Sin(Function):
    """y = sin x, 국소 미분 cos x를 ``Cos`` 함수로 계산합니다."""

    def forward(self, x):
        return np.sin(x)

    def backward(self, gy):
        (x,) = self.inputs
        return gy * cos(x)


def sin(x):
    return Sin()(x)


class Cos(Function):
    """y = cos x, 국소 미분 -sin x를 ``Sin`` 함수로 계산합니다."""

    def forward(self, x):
        return np.cos(x)

    def backward(self, gy):
        (x,) = self.inputs
        return gy * -sin(x)


def cos(x):
    return Cos()(x)


# --8<-- [end:sin_cos]
