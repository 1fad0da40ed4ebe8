"""3단계: 함수를 하나 더(``Exp``) 만들고, 함수를 이어 붙여 합성 함수를 계산합니다.

``Variable``, ``Function``, ``Square``는 2단계 것을 그대로 가져옵니다.
새로 생긴 것은 ``Exp``뿐입니다.
``Function``은 ``Variable``을 받아 ``Variable``을 돌려주므로, 함수의 출력을 바로 다음 함수의
입력으로 넘길 수 있습니다. 예를 들어 y = (e^(x²))²는 ``Square()(Exp()(Square()(x)))``입니다.
"""

import numpy as np

from . import step02 as _previous
from .step02 import *  # noqa: F403
from .step02 import Function

__all__ = [*_previous.__all__, "Exp"]


# --8<-- [start:exp]
class Exp(Function):
    """밑이 e인 지수 함수입니다: y = eˣ"""

    def forward(self, x):
        return np.exp(x)


# --8<-- [end:exp]
