"""8단계: 재귀를 반복문으로 바꿉니다.

7단계와 비교해 바뀐 것은 ``Variable.backward`` 하나입니다. 처리할 함수를 ``funcs`` 리스트에
넣어 두고, ``funcs.pop()``으로 하나씩 꺼내 처리합니다. 리스트를 스택(stack)으로 쓰는 셈입니다.
호출이 쌓이지 않으므로 함수가 20만 개 이어진 사슬도 역전파할 수 있습니다.

``Function``, ``Square``, ``Exp``의 코드는 7단계와 같지만, 출력을 이 모듈의 ``Variable``로
만들어야 하므로 이 모듈에 다시 정의합니다.

``traced_backward``는 ``backward``와 같은 반복문을 돌면서 매 반복마다 ``funcs``에 든 함수를
보여 줍니다. 책의 ``backward`` 모양을 그대로 두려고 따로 떼어 놓았습니다.

한계: 아직 입력도 출력도 하나뿐인 함수만 다룹니다. 한 변수가 여러 곳에서 쓰이는 그래프는
다루지 못합니다(13~16단계에서 고칩니다).
"""

import numpy as np

__all__ = ["Exp", "Function", "Square", "Variable", "traced_backward"]


class Variable:
    """데이터, 미분값, 창조자를 기억하는 상자입니다."""

    def __init__(self, data):
        self.data = data
        self.grad = None
        self.creator = None

    def set_creator(self, func):
        self.creator = func

    # --8<-- [start:backward]
    def backward(self):
        funcs = [self.creator]
        while funcs:
            f = funcs.pop()  # 처리할 함수를 하나 꺼냅니다.
            x, y = f.input, f.output  # 그 함수의 입력과 출력
            x.grad = f.backward(y.grad)  # 출력의 미분값으로 입력의 미분값을 구합니다.
            if x.creator is not None:
                funcs.append(x.creator)  # 하나 앞의 함수를 나중에 처리하도록 넣어 둡니다.

    # --8<-- [end:backward]


class Function:
    """입력과 출력을 기억하고, 출력의 창조자를 자신으로 설정하는 함수의 기반 클래스입니다."""

    def __call__(self, input):
        x = input.data
        y = self.forward(x)
        output = Variable(y)
        output.set_creator(self)
        self.input = input
        self.output = output
        return output

    def forward(self, x):
        raise NotImplementedError(f"{type(self).__name__}.forward를 하위 클래스에서 정의하세요.")

    def backward(self, gy):
        raise NotImplementedError(f"{type(self).__name__}.backward를 하위 클래스에서 정의하세요.")


class Square(Function):
    """y = x², 국소 미분은 2x입니다."""

    def forward(self, x):
        return x**2

    def backward(self, gy):
        x = self.input.data
        return 2 * x * gy


class Exp(Function):
    """y = eˣ, 국소 미분은 eˣ 자신입니다."""

    def forward(self, x):
        return np.exp(x)

    def backward(self, gy):
        x = self.input.data
        return np.exp(x) * gy


# --8<-- [start:traced_backward]
def traced_backward(output, show=print):
    """``output.backward()``와 같은 일을 하면서, 매 반복마다 ``funcs``의 내용을 보여 줍니다.

    반복문은 ``Variable.backward``와 한 줄씩 같고, ``show(...)`` 두 줄만 더했습니다.
    ``show``에는 문자열 한 줄을 받는 함수를 넘깁니다(기본값은 ``print``).
    """
    funcs = [output.creator]
    while funcs:
        show(f"funcs = {_names(funcs)}")
        f = funcs.pop()
        x, y = f.input, f.output
        x.grad = f.backward(y.grad)
        if x.creator is not None:
            funcs.append(x.creator)
    show(f"funcs = {_names(funcs)}  (비었으므로 끝)")


# --8<-- [end:traced_backward]


def _names(funcs):
    """함수 객체의 리스트를 ``[Square, Exp]``처럼 클래스 이름으로 적습니다."""
    return "[" + ", ".join(type(f).__name__ for f in funcs) + "]"
