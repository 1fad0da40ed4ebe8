"""37~40단계: 텐서를 다루는 함수. 모양 바꾸기, 전치, 합계, 브로드캐스트.

37단계는 엔진을 고치지 않습니다. 36단계 엔진의 함수는 NumPy의 원소별 연산으로 계산하므로 이미
텐서(다차원 배열)에서 순전파와 역전파가 됩니다(22장). 38~40단계가 더하는 것은 다음과 같습니다.

- 38단계: ``Reshape``/``reshape``(역전파는 입력의 모양으로 되돌리기), ``Transpose``/``transpose``
  (축을 모두 뒤집기, 역전파도 뒤집기), ``Variable.reshape(*shape)``, ``Variable.transpose()``,
  ``Variable.T``.
- 39단계: ``Sum``/``sum(x, axis, keepdims)``와 ``Variable.sum``. 역전파는 없앤 축을 되살리고
  (``kept_shape``) 입력의 모양으로 늘립니다(``broadcast_to``).
- 40단계: ``BroadcastTo``/``broadcast_to``와 그 반대 ``SumTo``/``sum_to``(서로가 서로의 역전파),
  그리고 ``Add``, ``Sub``, ``Mul``, ``Div``가 브로드캐스트했을 때 미분값을 입력의 모양으로
  더하는(``sum_to``) 역전파.

``Variable``에 메서드가 생기고 사칙연산의 역전파가 바뀌므로, 이 모듈은 32~36단계의 엔진을
다시 적습니다(바뀐 것은 목차 표의 ~ 줄). 그 밖의 함수는 35단계와 같은 코드입니다.

한계: ``transpose``는 축을 모두 뒤집기만 합니다(축의 순서를 고를 수 없습니다). 모양이 맞지 않으면
NumPy의 영어 오류가 그대로 나옵니다. 함수는 모든 입력을 붙잡고, 역전파가 끝나도 그래프를 놓아
주지 않습니다. 그 밖에는 36단계와 같습니다(전역 ``Config``, 넣을 때마다 정렬).
"""

import weakref

import numpy as np

from . import step36 as _previous
from .step09 import as_array
from .step18 import Config, using_config
from .step36 import *  # noqa: F403

__all__ = [
    *_previous.__all__,
    "Reshape",
    "reshape",
    "Transpose",
    "transpose",
    "kept_shape",
    "Sum",
    "sum",
    "sum_to_array",
    "BroadcastTo",
    "broadcast_to",
    "SumTo",
    "sum_to",
]


class Variable(_previous.Variable):
    """36단계의 상자에 ndarray 같은 메서드 ``reshape``, ``transpose``, ``T``, ``sum``을 더했습니다.

    나머지 메서드는 36단계(곧 32단계)의 것을 물려받습니다. ``backward``만 같은 코드를 다시 적는데,
    시작 미분값을 이 모듈의 ``Variable``로 만들어야 하기 때문입니다.
    """

    # --8<-- [start:methods]
    def reshape(self, *shape):
        """``x.reshape(2, 3)``과 ``x.reshape((2, 3))``을 모두 받습니다(38단계)."""
        if len(shape) == 1 and isinstance(shape[0], tuple | list):
            shape = shape[0]
        return reshape(self, shape)

    def transpose(self):
        return transpose(self)

    @property
    def T(self):
        return transpose(self)

    def sum(self, axis=None, keepdims=False):  # 39단계
        return sum(self, axis, keepdims)

    # --8<-- [end:methods]

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

            if not retain_grad:
                for y in f.outputs:
                    y().grad = None


def as_variable(obj):
    """Variable이 아니면(ndarray 등) Variable 상자에 담아 돌려줍니다."""
    if isinstance(obj, Variable):
        return obj
    return Variable(obj)


class Function(_previous.Function):
    """32단계와 같은 ``__call__``입니다. 이 모듈의 ``as_variable``과 ``Variable``을 쓰도록 다시 적었습니다."""

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


# --- 38단계: 모양 바꾸기와 전치 -------------------------------------------------------------
# --8<-- [start:reshape]
class Reshape(Function):
    """원소의 순서는 두고 모양만 바꿉니다. 역전파는 미분값을 입력의 모양으로 되돌립니다."""

    def __init__(self, shape):
        self.shape = shape

    def forward(self, x):
        self.x_shape = x.shape
        return x.reshape(self.shape)

    def backward(self, gy):
        return reshape(gy, self.x_shape)


def reshape(x, shape):
    if x.shape == shape:
        return as_variable(x)
    return Reshape(shape)(x)


class Transpose(Function):
    """축을 모두 뒤집습니다(행렬이면 전치 행렬). 역전파도 축을 뒤집는 것입니다."""

    def forward(self, x):
        return np.transpose(x)

    def backward(self, gy):
        return transpose(gy)


def transpose(x):
    return Transpose()(x)


# --8<-- [end:reshape]


# --- 39단계: 합계 --------------------------------------------------------------------------
# --8<-- [start:sum]
def kept_shape(x_shape, axis):
    """``sum(axis)``가 없앤 축을 크기 1로 둔 모양, 곧 ``keepdims=True``일 때의 출력 모양."""
    ndim = len(x_shape)
    if axis is None:
        axes = range(ndim)
    else:
        axes = [a % ndim for a in (axis if isinstance(axis, tuple) else (axis,))]
    return tuple(1 if i in axes else n for i, n in enumerate(x_shape))


class Sum(Function):
    """축을 따라 더합니다. 역전파는 없앤 축을 되살리고 입력의 모양으로 늘립니다."""

    def __init__(self, axis, keepdims):
        self.axis = axis
        self.keepdims = keepdims

    def forward(self, x):
        self.x_shape = x.shape
        return x.sum(axis=self.axis, keepdims=self.keepdims)

    def backward(self, gy):
        gy = reshape(gy, kept_shape(self.x_shape, self.axis))  # 없앤 축을 되살리고
        return broadcast_to(gy, self.x_shape)  # 그 축을 따라 늘립니다.


def sum(x, axis=None, keepdims=False):  # noqa: A001 - 책과 같은 이름입니다.
    return Sum(axis, keepdims)(x)


# --8<-- [end:sum]


# --- 40단계: 브로드캐스트와 sum_to ------------------------------------------------------------
def sum_to_array(x, shape):
    """ndarray x를 더해서 모양 shape로 줄입니다. 앞에 새로 생긴 축과, shape에서 1인데 x에서는
    늘어난 축을 더한 뒤 shape로 바꿉니다."""
    extra = x.ndim - len(shape)
    axes = [i for i in range(x.ndim) if i < extra or shape[i - extra] == 1 != x.shape[i]]
    return x.sum(axis=tuple(axes), keepdims=True).reshape(shape)


class BroadcastTo(Function):
    def __init__(self, shape):
        self.shape = shape

    def forward(self, x):
        self.x_shape = x.shape
        return np.broadcast_to(x, self.shape)

    def backward(self, gy):
        return sum_to(gy, self.x_shape)


def broadcast_to(x, shape):
    if x.shape == shape:
        return as_variable(x)
    return BroadcastTo(shape)(x)


class SumTo(Function):
    def __init__(self, shape):
        self.shape = shape

    def forward(self, x):
        self.x_shape = x.shape
        return sum_to_array(x, self.shape)

    def backward(self, gy):
        return broadcast_to(gy, self.x_shape)


def sum_to(x, shape):
    if x.shape == shape:
        return as_variable(x)
    return SumTo(shape)(x)


# --- 사칙연산: 40단계에서 브로드캐스트의 역전파를 더했습니다 -------------------------------------
# --8<-- [start:add]
class Add(Function):
    """y = x0 + x1. 두 입력의 모양이 달랐으면(브로드캐스트) 미분값을 입력의 모양으로 더합니다."""

    def forward(self, x0, x1):
        self.x0_shape, self.x1_shape = x0.shape, x1.shape
        return x0 + x1

    def backward(self, gy):
        gx0, gx1 = gy, gy
        if self.x0_shape != self.x1_shape:
            gx0 = sum_to(gx0, self.x0_shape)
            gx1 = sum_to(gx1, self.x1_shape)
        return gx0, gx1


# --8<-- [end:add]


def add(x0, x1):
    x1 = as_array(x1)
    return Add()(x0, x1)


# --8<-- [start:mul]
class Mul(_previous.Mul, Function):
    """y = x0 * x1. 브로드캐스트했으면 미분값을 입력의 모양으로 더합니다(``backward``만 바꿉니다)."""

    def backward(self, gy):
        x0, x1 = self.inputs
        gx0, gx1 = gy * x1, gy * x0
        if x0.shape != x1.shape:
            gx0 = sum_to(gx0, x0.shape)
            gx1 = sum_to(gx1, x1.shape)
        return gx0, gx1


# --8<-- [end:mul]


def mul(x0, x1):
    x1 = as_array(x1)
    return Mul()(x0, x1)


class Neg(_previous.Neg, Function):
    """36단계의 ``Neg``를 이 모듈의 ``Function``으로 부릅니다(아래 ``Square``와 같은 방법)."""


def neg(x):
    return Neg()(x)


class Sub(Function):
    """y = x0 - x1. 브로드캐스트했으면 미분값을 입력의 모양으로 더합니다."""

    def forward(self, x0, x1):
        self.x0_shape, self.x1_shape = x0.shape, x1.shape
        return x0 - x1

    def backward(self, gy):
        gx0, gx1 = gy, -gy
        if self.x0_shape != self.x1_shape:
            gx0 = sum_to(gx0, self.x0_shape)
            gx1 = sum_to(gx1, self.x1_shape)
        return gx0, gx1


def sub(x0, x1):
    x1 = as_array(x1)
    return Sub()(x0, x1)


def rsub(x0, x1):
    """``2.0 - x``처럼 Variable이 오른쪽에 있을 때 불립니다. x0이 Variable입니다."""
    x1 = as_array(x1)
    return Sub()(x1, x0)


class Div(_previous.Div, Function):
    """y = x0 / x1. 브로드캐스트했으면 미분값을 입력의 모양으로 더합니다(``backward``만 바꿉니다)."""

    def backward(self, gy):
        x0, x1 = self.inputs
        gx0 = gy / x1
        gx1 = gy * (-x0 / x1**2)
        if x0.shape != x1.shape:
            gx0 = sum_to(gx0, x0.shape)
            gx1 = sum_to(gx1, x1.shape)
        return gx0, gx1


def div(x0, x1):
    x1 = as_array(x1)
    return Div()(x0, x1)


def rdiv(x0, x1):
    """``2.0 / x``처럼 Variable이 오른쪽에 있을 때 불립니다. x0이 Variable입니다."""
    x1 = as_array(x1)
    return Div()(x1, x0)


# --- 35단계와 같은 함수들 ------------------------------------------------------------------
# ``class Square(_previous.Square, Function)``은 36단계의 ``forward``와 ``backward``를 그대로 물려받고,
# 부를 때(``__call__``)만 이 모듈의 ``Function``을 씁니다. 그래야 출력이 이 모듈의 ``Variable``이 되어
# ``reshape``과 ``sum``을 가집니다. ``Sin``과 ``Cos``는 역전파가 이 모듈의 ``cos``, ``sin``을
# 불러야 하므로 ``backward``만 다시 적습니다. 소문자 함수도 이 모듈의 클래스를 부르도록 다시 적습니다.
class Pow(_previous.Pow, Function):
    """36단계의 ``Pow``를 이 모듈의 ``Function``으로 부릅니다."""


def power(x, c):
    """``x ** c``입니다. 파이썬 내장 ``pow``와 헷갈리지 않게 ``power``라고 부릅니다."""
    return Pow(c)(x)


class Square(_previous.Square, Function):
    """36단계의 ``Square``를 이 모듈의 ``Function``으로 부릅니다."""


def square(x):
    return Square()(x)


class Exp(_previous.Exp, Function):
    """36단계의 ``Exp``를 이 모듈의 ``Function``으로 부릅니다."""


def exp(x):
    return Exp()(x)


class Sin(_previous.Sin, Function):
    """36단계의 ``Sin``. 역전파가 이 모듈의 ``cos``을 부르도록 ``backward``만 다시 적습니다."""

    def backward(self, gy):
        (x,) = self.inputs
        return gy * cos(x)


def sin(x):
    return Sin()(x)


class Cos(_previous.Cos, Function):
    """36단계의 ``Cos``. 역전파가 이 모듈의 ``sin``을 부르도록 ``backward``만 다시 적습니다."""

    def backward(self, gy):
        (x,) = self.inputs
        return gy * -sin(x)


def cos(x):
    return Cos()(x)


class Tanh(_previous.Tanh, Function):
    """36단계의 ``Tanh``를 이 모듈의 ``Function``으로 부릅니다."""


def tanh(x):
    return Tanh()(x)


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
