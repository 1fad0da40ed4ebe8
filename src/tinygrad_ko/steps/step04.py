"""4단계: 수치 미분(numerical differentiation)으로 미분값을 어림합니다.

2~3단계의 ``Variable``과 함수들은 그대로 씁니다. 새로 생긴 것은 두 함수입니다.

- ``numerical_diff``: 중앙 차분 (f(x+h) - f(x-h)) / 2h
- ``forward_diff``: 전진 차분 (f(x+h) - f(x)) / h. 중앙 차분과 오차를 비교하려고 둡니다.

``f``는 이 단계의 ``Variable``을 받아 ``data`` 속성이 있는 것을 돌려주는 것이면 무엇이든 됩니다.
두 함수는 ``data`` 속성만 쓰므로, 뒤 단계(``tinygrad_ko.steps``)의 ``Variable``과 함수를 넘겨도
동작합니다. 최종 엔진(``tinygrad_ko``)의 함수는 자기 ``Variable``만 받으므로(다른 모듈의 ``Variable``은
무엇을 하라는지 알려 주며 거부합니다), 최종 엔진에는 ``tinygrad_ko.numerical_diff``를 쓰세요.
한계: 입력 하나마다 ``f``를 두 번 계산해야 하고, 뺄셈에서 자릿수가 사라져 오차가 생깁니다.
"""

from . import step03 as _previous
from .step02 import Variable
from .step03 import *  # noqa: F403

__all__ = [*_previous.__all__, "numerical_diff", "forward_diff"]


# --8<-- [start:numerical_diff]
def numerical_diff(f, x, eps=1e-4):
    """중앙 차분으로 x에서의 f의 미분값을 어림합니다."""
    x0 = Variable(x.data - eps)
    x1 = Variable(x.data + eps)
    y0 = f(x0)
    y1 = f(x1)
    return (y1.data - y0.data) / (2 * eps)


# --8<-- [end:numerical_diff]


# --8<-- [start:forward_diff]
def forward_diff(f, x, eps=1e-4):
    """전진 차분으로 x에서의 f의 미분값을 어림합니다. 중앙 차분보다 오차가 큽니다."""
    x1 = Variable(x.data + eps)
    y0 = f(x)
    y1 = f(x1)
    return (y1.data - y0.data) / eps


# --8<-- [end:forward_diff]
