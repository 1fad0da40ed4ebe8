"""2단계: 변수를 받아 변수를 돌려주는 ``Function`` 클래스를 만듭니다.

1단계의 ``Variable``은 그대로 씁니다. 새로 생긴 것은 두 가지입니다.

- ``Function``: ``__call__``이 상자에서 데이터를 꺼내 ``forward``로 계산하고,
  결과를 다시 ``Variable`` 상자에 담아 돌려줍니다. 계산 자체는 하위 클래스의 몫입니다.
- ``Square``: ``forward``에서 입력을 제곱하는 첫 번째 구체적인 함수입니다.
"""

from . import step01 as _previous
from .step01 import *  # noqa: F403
from .step01 import Variable

__all__ = [*_previous.__all__, "Function", "Square"]


# --8<-- [start:function]
class Function:
    """모든 함수의 기반 클래스입니다. 하위 클래스가 ``forward``를 구현합니다."""

    def __call__(self, input):
        x = input.data  # 상자에서 데이터를 꺼냅니다.
        y = self.forward(x)  # 실제 계산은 하위 클래스의 forward가 합니다.
        output = Variable(y)  # 결과를 다시 상자에 담습니다.
        return output

    def forward(self, x):
        raise NotImplementedError(
            f"{type(self).__name__}.forward가 구현되지 않았습니다. "
            "Function을 상속한 클래스에서 forward를 정의하세요."
        )


# --8<-- [end:function]


# --8<-- [start:square]
class Square(Function):
    """입력을 제곱합니다: y = x²"""

    def forward(self, x):
        return x**2


# --8<-- [end:square]
