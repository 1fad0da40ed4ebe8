"""6단계: 손으로 역전파(backpropagation)를 합니다.

5단계(연쇄 법칙)는 이론뿐이라 모듈이 없습니다. 4단계와 비교해 바뀐 점은 다음과 같습니다.

- ``Variable``에 미분값을 담을 ``grad`` 속성이 생깁니다(처음에는 ``None``).
- ``Function``이 ``__call__``에서 받은 입력 변수를 ``self.input``에 기억합니다.
  역전파 때 국소 미분(local gradient)을 계산하려면 순전파 때의 입력값이 필요하기 때문입니다.
- ``Square``와 ``Exp``에 ``backward(gy)``가 생깁니다. 출력 쪽 미분값 ``gy``를 받아
  입력 쪽 미분값을 돌려줍니다.

한계: 역전파를 자동으로 해 주는 것은 없습니다. 사람이 함수를 거꾸로 된 순서로 하나씩
불러야 합니다(7단계에서 자동화합니다).
"""

import numpy as np

__all__ = ["Exp", "Function", "Square", "Variable"]


# --8<-- [start:variable]
class Variable:
    """데이터와 그 미분값을 담는 상자입니다."""

    def __init__(self, data):
        self.data = data
        self.grad = None  # 역전파로 계산한 미분값이 여기에 들어갑니다.


# --8<-- [end:variable]


# --8<-- [start:function]
class Function:
    """모든 함수의 기반 클래스입니다. 하위 클래스가 forward와 backward를 구현합니다."""

    def __call__(self, input):
        x = input.data
        y = self.forward(x)
        output = Variable(y)
        self.input = input  # 역전파 때 쓰려고 입력 변수를 기억합니다.
        return output

    def forward(self, x):
        raise NotImplementedError(
            f"{type(self).__name__}.forward가 구현되지 않았습니다. "
            "Function을 상속한 클래스에서 forward를 정의하세요."
        )

    def backward(self, gy):
        raise NotImplementedError(
            f"{type(self).__name__}.backward가 구현되지 않았습니다. "
            "Function을 상속한 클래스에서 backward를 정의하세요."
        )


# --8<-- [end:function]


# --8<-- [start:square]
class Square(Function):
    """y = x², 국소 미분은 2x입니다."""

    def forward(self, x):
        return x**2

    def backward(self, gy):
        x = self.input.data
        return 2 * x * gy


# --8<-- [end:square]


# --8<-- [start:exp]
class Exp(Function):
    """y = eˣ, 국소 미분은 eˣ 자신입니다."""

    def forward(self, x):
        return np.exp(x)

    def backward(self, gy):
        x = self.input.data
        return np.exp(x) * gy


# --8<-- [end:exp]
