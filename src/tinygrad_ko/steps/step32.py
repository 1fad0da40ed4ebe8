"""30~32단계: 역전파의 계산도 계산 그래프로 만들어, 미분을 한 번 더 미분할 수 있게 합니다.

30단계는 지금까지의 ``Variable``과 ``Function``이 무엇을 기억하는지 되짚는 단계이고, 31단계는
"역전파도 계산이다"라는 생각(이론)입니다. 32단계가 그 생각을 코드로 옮깁니다. 28단계와 비교해
바뀐 점은 다음과 같습니다.

- 미분값이 ``Variable``입니다. ``backward()``는 시작 미분값을 ``Variable(np.ones_like(...))``로
  채우고, 함수의 ``backward``는 미분값(``gy``)을 ``Variable``로 받아 ``Variable``로 돌려줍니다.
- 함수의 ``backward``는 입력의 데이터(``.data``)가 아니라 입력 변수 자신(``self.inputs``)으로
  계산합니다. 예를 들어 ``Mul``은 ``gy * x1``을 ``Variable``끼리의 곱셈(곧 ``Mul`` 함수)으로
  계산합니다. 그래서 역전파가 하는 계산도 계산 그래프가 될 수 있습니다.
- ``backward(retain_grad=False, create_graph=False)``: 함수의 ``backward``를
  ``using_config("enable_backprop", create_graph)`` 안에서 부릅니다. 보통(False)은 역전파 비활성
  모드라 그래프를 만들지 않고 값만 구합니다. ``create_graph=True``이면 역전파의 계산이 그래프로
  남아서, ``x.grad.backward()``로 2계 미분을 구할 수 있습니다.
- ``Exp``는 국소 미분 eˣ로 순전파의 출력(``self.outputs[0]()``)을 씁니다.

한계: 미분값은 ``x.grad``에 누적되므로 2계 미분을 구하기 전에 ``x.cleargrad()``를 불러야 합니다
(잊으면 1계 미분이 더해진 틀린 값이 나옵니다). 27단계의 ``Sin``은 아직 데이터(``np.cos(x.data)``)로
미분하므로, ``create_graph=True``여도 그 미분값은 ``x``와 이어지지 않습니다(사인의 2계 미분을
구할 수 없습니다. 34단계에서 고칩니다). 미분이 필요 없는 1계 미분에서도 미분값마다 ``Variable``을
만드는 비용이 듭니다. 그 밖에는 22단계와 같습니다(전역 ``Config``, 넣을 때마다 정렬).
"""

import weakref

import numpy as np

from . import step28 as _previous
from .step09 import as_array
from .step18 import Config, using_config
from .step28 import *  # noqa: F403

__all__ = [*_previous.__all__]


class Variable(_previous.Variable):
    """미분값(``grad``)도 ``Variable``로 담는 상자입니다. 28단계(곧 22단계)의 상자에서 ``backward``만 바꿉니다."""

    # --8<-- [start:backward]
    def backward(self, retain_grad=False, create_graph=False):
        if self.grad is None:
            self.grad = Variable(np.ones_like(self.data))  # 시작 미분값도 Variable입니다.

        funcs = []
        seen_set = set()

        def add_func(f):
            if f not in seen_set:
                funcs.append(f)
                seen_set.add(f)
                funcs.sort(key=lambda x: x.generation)

        add_func(self.creator)

        while funcs:
            f = funcs.pop()
            gys = [output().grad for output in f.outputs]

            # --8<-- [start:create_graph]
            # create_graph=False면 역전파 비활성 모드: 값만 구하고 그래프는 만들지 않습니다.
            with using_config("enable_backprop", create_graph):
                gxs = f.backward(*gys)
                if not isinstance(gxs, tuple):
                    gxs = (gxs,)

                for x, gx in zip(f.inputs, gxs, strict=True):
                    if x.grad is None:
                        x.grad = gx
                    else:
                        x.grad = x.grad + gx  # 누적하는 덧셈도 그래프에 남을 수 있습니다.
                    if x.creator is not None:
                        add_func(x.creator)
            # --8<-- [end:create_graph]

            if not retain_grad:
                for y in f.outputs:
                    y().grad = None

    # --8<-- [end:backward]


def as_variable(obj):
    """Variable이 아니면(ndarray 등) Variable 상자에 담아 돌려줍니다."""
    if isinstance(obj, Variable):
        return obj
    return Variable(obj)


class Function(_previous.Function):
    """22단계와 같은 ``__call__``입니다. 이 모듈의 ``as_variable``과 ``Variable``을 쓰도록 다시 적었습니다.

    ``class Add(_previous.Add, Function)``처럼 앞 단계의 함수를 물려받는 클래스는 ``forward``와
    ``backward``를 앞 단계에서 가져오고, 부를 때만 이 ``Function``을 씁니다(출력이 이 모듈의 ``Variable``).
    """

    def __call__(self, *inputs):
        inputs = [as_variable(x) for x in inputs]

        xs = [x.data for x in inputs]
        ys = self.forward(*xs)
        if not isinstance(ys, tuple):
            ys = (ys,)
        outputs = [Variable(as_array(y)) for y in ys]

        if Config.enable_backprop:
            self.generation = max(x.generation for x in inputs)
            for output in outputs:
                output.set_creator(self)
            self.inputs = inputs
            self.outputs = [weakref.ref(output) for output in outputs]

        return outputs if len(outputs) > 1 else outputs[0]


class Add(_previous.Add, Function):
    """22단계의 ``Add``를 이 모듈의 ``Function``으로 부릅니다."""


def add(x0, x1):
    x1 = as_array(x1)
    return Add()(x0, x1)


# --8<-- [start:mul]
class Mul(Function):
    """y = x0 * x1. 역전파도 Variable끼리의 곱셈입니다."""

    def forward(self, x0, x1):
        return x0 * x1

    def backward(self, gy):
        x0, x1 = self.inputs  # .data를 꺼내지 않고 변수 그대로 씁니다.
        return gy * x1, gy * x0


def mul(x0, x1):
    x1 = as_array(x1)
    return Mul()(x0, x1)


# --8<-- [end:mul]


class Neg(_previous.Neg, Function):
    """22단계의 ``Neg``를 이 모듈의 ``Function``으로 부릅니다."""


def neg(x):
    return Neg()(x)


class Sub(_previous.Sub, Function):
    """22단계의 ``Sub``를 이 모듈의 ``Function``으로 부릅니다."""


def sub(x0, x1):
    x1 = as_array(x1)
    return Sub()(x0, x1)


def rsub(x0, x1):
    """``2.0 - x``처럼 Variable이 오른쪽에 있을 때 불립니다. x0이 Variable입니다."""
    x1 = as_array(x1)
    return Sub()(x1, x0)


class Div(_previous.Div, Function):
    """y = x0 / x1. 역전파도 Variable끼리의 계산입니다(``backward``만 바꿉니다)."""

    def backward(self, gy):
        x0, x1 = self.inputs
        gx0 = gy / x1
        gx1 = gy * (-x0 / x1**2)
        return gx0, gx1


def div(x0, x1):
    x1 = as_array(x1)
    return Div()(x0, x1)


def rdiv(x0, x1):
    """``2.0 / x``처럼 Variable이 오른쪽에 있을 때 불립니다. x0이 Variable입니다."""
    x1 = as_array(x1)
    return Div()(x1, x0)


# --8<-- [start:pow]
class Pow(Function):
    """y = xᶜ (c는 상수). 역전파 c·xᶜ⁻¹·gy도 Variable 연산입니다."""

    def __init__(self, c):
        self.c = c

    def forward(self, x):
        return x**self.c

    def backward(self, gy):
        (x,) = self.inputs
        c = self.c
        return c * x ** (c - 1) * gy


# --8<-- [end:pow]


def power(x, c):
    """``x ** c``입니다. 파이썬 내장 ``pow``와 헷갈리지 않게 ``power``라고 부릅니다."""
    return Pow(c)(x)


class Square(_previous.Square, Function):
    """y = x², 국소 미분 2x를 Variable로 곱합니다(``backward``만 바꿉니다)."""

    def backward(self, gy):
        (x,) = self.inputs
        return 2 * x * gy


def square(x):
    return Square()(x)


# --8<-- [start:exp]
class Exp(Function):
    """y = eˣ, 국소 미분은 eˣ 자신이므로 출력 변수를 곱합니다."""

    def forward(self, x):
        return np.exp(x)

    def backward(self, gy):
        y = self.outputs[0]()  # 약한 참조에서 출력 변수를 꺼냅니다.
        return gy * y


# --8<-- [end:exp]


def exp(x):
    return Exp()(x)


class Sin(_previous.Sin, Function):
    """27단계의 ``Sin`` 그대로(국소 미분을 데이터로 계산)입니다. 34단계에서 고칩니다."""


def sin(x):
    return Sin()(x)


Variable.__add__ = add
Variable.__radd__ = add
Variable.__mul__ = mul
Variable.__rmul__ = mul
Variable.__neg__ = neg
Variable.__sub__ = sub
Variable.__rsub__ = rsub
Variable.__truediv__ = div
Variable.__rtruediv__ = rdiv
Variable.__pow__ = power
