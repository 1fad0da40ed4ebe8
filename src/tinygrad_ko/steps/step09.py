"""9단계: 함수를 더 편리하게 만듭니다.

8단계와 비교해 바뀐 점은 다음과 같습니다.

- ``square(x)``, ``exp(x)``: ``Square()(x)``처럼 클래스를 만들고 부르는 두 단계를
  파이썬 함수 하나로 줄입니다.
- ``backward()``: 출력의 미분값이 비어 있으면 ``np.ones_like``로 1을 채우고 시작합니다.
  이제 ``y.grad = np.array(1.0)``을 직접 쓰지 않아도 됩니다.
- ``Variable``은 ``numpy.ndarray``(또는 ``None``)만 받습니다. 다른 것을 넣으면 ``TypeError``.
- ``as_array``: 0차원 배열에 ``x ** 2``, ``np.exp`` 같은 원소별 연산을 하면 결과가 배열이 아니라
  NumPy 스칼라(``numpy.float64`` 등)로 나옵니다. ``Function``이 출력을 상자에 담기 전에
  ``as_array``로 다시 배열로 만듭니다.

한계: 입력과 출력이 하나뿐인 함수만 다룹니다(11~13단계에서 여러 개로 늘립니다).
"""

import numpy as np

from . import step08 as _previous

__all__ = ["Exp", "Function", "Square", "Variable", "as_array", "exp", "square"]


# --8<-- [start:as_array]
def as_array(x):
    """스칼라(파이썬 수나 numpy.float64 등)를 0차원 ndarray로 바꿉니다. 배열은 그대로 둡니다."""
    if np.isscalar(x):
        return np.array(x)
    return x


# --8<-- [end:as_array]


class Variable(_previous.Variable):
    """numpy.ndarray만 담는 상자입니다. ``set_creator``는 8단계 그대로입니다."""

    # --8<-- [start:init]
    def __init__(self, data):
        if data is not None and not isinstance(data, np.ndarray):
            raise TypeError(
                "Variable에는 numpy.ndarray만 넣을 수 있습니다. "
                f"받은 값의 타입: {type(data).__name__}. "
                "np.array(...)로 감싸서 넘겨 주세요."
            )
        self.data = data
        self.grad = None
        self.creator = None

    # --8<-- [end:init]

    # --8<-- [start:backward]
    def backward(self):
        if self.grad is None:
            self.grad = np.ones_like(self.data)  # 수 하나면 dy/dy = 1, 배열이면 원소 합의 미분

        funcs = [self.creator]
        while funcs:
            f = funcs.pop()
            x, y = f.input, f.output
            x.grad = f.backward(y.grad)
            if x.creator is not None:
                funcs.append(x.creator)

    # --8<-- [end:backward]


# --8<-- [start:function]
class Function(_previous.Function):
    """입력과 출력을 기억하고, 출력의 창조자를 자신으로 설정하는 함수의 기반 클래스입니다."""

    def __call__(self, input):
        x = input.data
        y = self.forward(x)
        output = Variable(as_array(y))  # 0차원 배열 연산이 낳은 스칼라를 배열로 되돌립니다.
        output.set_creator(self)
        self.input = input
        self.output = output
        return output


# --8<-- [end:function]


class Square(_previous.Square, Function):
    """8단계의 ``Square``를 이 모듈의 ``Function``으로 부릅니다."""


class Exp(_previous.Exp, Function):
    """8단계의 ``Exp``를 이 모듈의 ``Function``으로 부릅니다."""


# --8<-- [start:helpers]
def square(x):
    """``Square()(x)``를 한 번에 부릅니다."""
    return Square()(x)


def exp(x):
    """``Exp()(x)``를 한 번에 부릅니다."""
    return Exp()(x)


# --8<-- [end:helpers]
