"""8단계: 재귀를 반복문으로 바꿉니다.

7단계와 비교해 바뀐 것은 ``Variable.backward`` 하나입니다. 처리할 함수를 ``funcs`` 리스트에
넣어 두고, ``funcs.pop()``으로 하나씩 꺼내 처리합니다. 리스트를 스택(stack)으로 쓰는 셈입니다.
호출이 쌓이지 않으므로 함수가 20만 개 이어진 사슬도 역전파할 수 있습니다.

``Variable``은 7단계의 상자를 물려받아 ``backward``만 바꿉니다. ``Function``은 출력을 이 모듈의
``Variable``로 만들어야 하므로 같은 ``__call__``만 다시 적고, ``Square``와 ``Exp``는 7단계의 것을
물려받아 이 모듈의 ``Function``으로 부르기만 합니다.

``traced_backward``는 ``backward``와 같은 반복문을 돌면서 매 반복마다 ``funcs``에 든 함수를
보여 줍니다. 책의 ``backward`` 모양을 그대로 두려고 따로 떼어 놓았습니다.

한계: 아직 입력도 출력도 하나뿐인 함수만 다룹니다. 한 변수가 여러 곳에서 쓰이는 그래프는
다루지 못합니다(13~16단계에서 고칩니다).
"""

from . import step07 as _previous

__all__ = ["Exp", "Function", "Square", "Variable", "traced_backward"]


class Variable(_previous.Variable):
    """7단계의 상자에서 ``backward``만 반복문으로 바꿉니다."""

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


class Function(_previous.Function):
    """7단계와 같은 ``__call__``입니다. 이 모듈의 ``Variable``을 만들도록 다시 적었습니다."""

    def __call__(self, input):
        x = input.data
        y = self.forward(x)
        output = Variable(y)
        output.set_creator(self)
        self.input = input
        self.output = output
        return output


class Square(_previous.Square, Function):
    """7단계의 ``Square``를 이 모듈의 ``Function``으로 부릅니다."""


class Exp(_previous.Exp, Function):
    """7단계의 ``Exp``를 이 모듈의 ``Function``으로 부릅니다."""


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
