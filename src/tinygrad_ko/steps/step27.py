"""27단계: 사인 함수를 두 가지로 미분합니다. 함수 하나로, 그리고 테일러 급수로.

엔진은 26단계(곧 22단계) 것을 그대로 씁니다. 더한 것은 다음과 같습니다.

- ``Sin``, ``sin``: 순전파는 ``np.sin``, 역전파는 국소 미분 ``cos x``를 곱합니다. 다른 함수들처럼
  역전파는 입력의 데이터(ndarray)로 계산합니다.
- ``taylor_sin(x, threshold=1e-4)``: 0에서 전개한 테일러 급수(매클로린 급수)

      sin x = x - x³/3! + x⁵/5! - x⁷/7! + ...

  의 항을 하나씩 더하다가, 더한 항의 절댓값이 ``threshold``보다 작아지면 멈춥니다. 연산자(``*``,
  ``**``, ``+``)만 쓰므로 항마다 함수 노드가 생기고, 역전파가 그 그래프 전체를 거쳐 미분합니다.
  ``threshold``를 작게 하면 항과 그래프가 커집니다. ``threshold``는 0보다 커야 합니다(아니면
  ``ValueError``).

한계: 엔진은 22단계와 같습니다. 원점에서 먼 ``x``에서는 항이 크게 불어났다가 서로 지워지므로, 큰 항을
담을 때의 반올림 오차가 결과에 남고 ``threshold``를 줄여도 줄지 않습니다(17장 연습 문제 1의 x = 6π).
"""

import math

import numpy as np

from . import step26 as _previous
from .step26 import *  # noqa: F403
from .step26 import Function

__all__ = [*_previous.__all__, "Sin", "sin", "taylor_sin"]


# --8<-- [start:sin]
class Sin(Function):
    """y = sin x, 국소 미분은 cos x입니다."""

    def forward(self, x):
        return np.sin(x)

    def backward(self, gy):
        x = self.inputs[0].data
        return gy * np.cos(x)


def sin(x):
    return Sin()(x)


# --8<-- [end:sin]


# --8<-- [start:taylor_sin]
def taylor_sin(x, threshold=1e-4):
    """sin x = x - x³/3! + x⁵/5! - …를 앞에서부터 더하다가, 방금 더한 항이 threshold보다 작으면 멈춥니다."""
    if not threshold > 0:  # 0 이하이면 항이 끝내 0이 되어도 멈추지 못합니다.
        raise ValueError(
            f"threshold는 0보다 큰 수여야 합니다. 받은 값: {threshold!r}. 1e-12처럼 작은 양수를 주세요."
        )
    total = 0
    power = 1  # 차수는 1, 3, 5, …로 홀수만 씁니다.
    while True:
        coefficient = (-1) ** (power // 2) / math.factorial(power)  # +1/1!, -1/3!, +1/5!, …
        term = x**power * coefficient
        total = total + term
        if not abs(term.data) >= threshold:  # 항이 nan이 되어도 여기서 멈춥니다.
            return total
        power += 2


# --8<-- [end:taylor_sin]
