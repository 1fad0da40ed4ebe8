"""7단계: 역전파를 자동화합니다 (재귀 버전).

6단계와 비교해 바뀐 점은 다음과 같습니다.

- ``Variable``이 자신을 만든 함수, 곧 창조자(creator)를 ``creator``에 기억합니다.
  ``set_creator``로 설정합니다.
- ``Function``이 입력(``input``)과 출력(``output``)을 모두 기억하고, 출력의 창조자를 자신으로
  설정합니다. 계산하는 순간 변수와 함수의 연결이 만들어지므로 Define-by-Run(동적 계산 그래프)입니다.
- ``Variable.backward()``: 창조자의 ``backward``로 입력의 미분값을 구한 뒤,
  그 입력 변수의 ``backward()``를 다시 부릅니다(재귀).

한계:

- 함수 하나를 지날 때마다 파이썬 호출이 하나씩 쌓입니다. 함수가 1000개쯤 이어진 사슬에서
  재귀 한도(기본 1000)를 넘어 ``RecursionError``가 납니다(8단계에서 반복문으로 고칩니다).
- 출력의 미분값 ``y.grad``는 사람이 먼저 넣어 주어야 합니다(9단계에서 자동으로 채웁니다).
"""

from . import step06 as _previous

__all__ = ["Exp", "Function", "Square", "Variable"]


# --8<-- [start:variable]
class Variable:
    """데이터, 미분값, 그리고 자신을 만든 함수(창조자)를 기억하는 상자입니다."""

    def __init__(self, data):
        self.data = data
        self.grad = None
        self.creator = None  # 사용자가 직접 만든 변수는 창조자가 없습니다.

    def set_creator(self, func):
        self.creator = func

    # --8<-- [start:backward]
    def backward(self):
        f = self.creator  # 1. 나를 만든 함수를 찾습니다.
        if f is not None:
            x = f.input  # 2. 그 함수의 입력 변수를 찾습니다.
            x.grad = f.backward(self.grad)  # 3. 함수의 backward로 입력의 미분값을 구합니다.
            x.backward()  # 4. 하나 앞의 변수에게 같은 일을 맡깁니다(재귀).

    # --8<-- [end:backward]


# --8<-- [end:variable]


# --8<-- [start:function]
class Function(_previous.Function):
    """입력과 출력을 기억하고, 출력의 창조자를 자신으로 설정하는 함수의 기반 클래스입니다."""

    def __call__(self, input):
        x = input.data
        y = self.forward(x)
        output = Variable(y)
        output.set_creator(self)  # 출력 변수에게 "내가 너를 만들었다"고 알려 줍니다.
        self.input = input
        self.output = output
        return output


# --8<-- [end:function]


class Square(_previous.Square, Function):
    """6단계의 ``Square``를 이 모듈의 ``Function``으로 부릅니다."""


class Exp(_previous.Exp, Function):
    """6단계의 ``Exp``를 이 모듈의 ``Function``으로 부릅니다."""
