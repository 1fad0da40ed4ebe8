"""19~22단계: 변수를 NumPy 배열처럼 쓰고, 연산자로 계산합니다.

18단계와 비교해 바뀐 점은 다음과 같습니다.

- 19단계: ``Variable``에 ``name``, ``shape``, ``ndim``, ``size``, ``dtype``, ``len()``,
  ``repr()``(``variable([1 2 3])`` 모양)이 생깁니다.
- 20단계: ``Mul``과 ``*``, ``+`` 연산자를 붙입니다(연산자 오버로드, operator overloading).
- 21단계: ``as_variable``로 파이썬 수나 ndarray를 섞어 쓸 수 있게 합니다.
  ``3.0 * x``처럼 왼쪽에 수가 오면 ``__rmul__``이 불립니다. ``np.array([2.0]) * x``처럼 왼쪽에
  ndarray가 오면 NumPy가 먼저 계산하려 드는데, ``__array_priority__ = 200``이 NumPy에게
  ``Variable`` 쪽 연산자를 먼저 쓰라고 알려 줍니다. 우선순위가 없으면 1차원 이상인 왼쪽 배열과의
  계산은 ``Variable``을 원소로 품은 object 배열이 됩니다(0차원 배열 ``np.array(2.0)``이면 NumPy가
  원소를 꺼내 돌려주므로 우연히 ``Variable``이 나옵니다).
- 22단계: ``Neg``, ``Sub``, ``Div``, ``Pow``와 ``-x``, ``-``, ``/``, ``**`` 연산자를 붙입니다.
  뺄셈과 나눗셈은 순서가 중요하므로 ``rsub``, ``rdiv``를 따로 둡니다.

연산자는 모듈 끝에서 ``Variable.__add__ = add``처럼 함수를 그대로 연결합니다.
``Config``, ``using_config``, ``no_grad``는 바뀌지 않았으므로 18단계 것을 그대로 가져옵니다.

한계: 18단계와 같습니다(전역 ``Config``, 넣을 때마다 정렬). ``**``는 지수가 상수일 때만 됩니다.
"""

import weakref

import numpy as np

from . import step18 as _previous
from .step09 import as_array
from .step18 import *  # noqa: F403
from .step18 import Config

__all__ = [
    *_previous.__all__,
    "as_variable",
    "Mul",
    "mul",
    "Neg",
    "neg",
    "Sub",
    "sub",
    "rsub",
    "Div",
    "div",
    "rdiv",
    "Pow",
    "power",
    "Exp",
    "exp",
]


class Variable(_previous.Variable):
    """NumPy 배열처럼 쓸 수 있는 상자입니다. ``set_creator``, ``cleargrad``, ``backward``는 18단계 그대로입니다."""

    # --8<-- [start:array_priority]
    # ndarray와 섞이면 NumPy가 물러나(NotImplemented) Variable의 반사 연산자가 불립니다.
    __array_priority__ = 200
    # --8<-- [end:array_priority]

    # --8<-- [start:init]
    def __init__(self, data, name=None):
        if data is not None and not isinstance(data, np.ndarray):
            raise TypeError(
                "Variable에는 numpy.ndarray만 넣을 수 있습니다. "
                f"받은 값의 타입: {type(data).__name__}. "
                "np.array(...)로 감싸서 넘겨 주세요."
            )
        self.data = data
        self.name = name  # 계산 그래프를 그릴 때 붙일 이름입니다.
        self.grad = None
        self.creator = None
        self.generation = 0

    # --8<-- [end:init]

    # --8<-- [start:properties]
    @property
    def shape(self):
        return self.data.shape

    @property
    def ndim(self):
        return self.data.ndim

    @property
    def size(self):
        return self.data.size

    @property
    def dtype(self):
        return self.data.dtype

    def __len__(self):
        return len(self.data)

    # --8<-- [end:properties]

    # --8<-- [start:repr]
    def __repr__(self):
        if self.data is None:
            return "variable(None)"
        # 여러 줄 배열은 둘째 줄부터 "variable(" 길이(9칸)만큼 들여 씁니다.
        text = str(self.data).replace("\n", "\n" + " " * 9)
        return "variable(" + text + ")"

    # --8<-- [end:repr]


# --8<-- [start:as_variable]
def as_variable(obj):
    """Variable이 아니면(ndarray 등) Variable 상자에 담아 돌려줍니다."""
    if isinstance(obj, Variable):
        return obj
    return Variable(obj)


# --8<-- [end:as_variable]


# --8<-- [start:function]
class Function(_previous.Function):
    """입력으로 Variable이 아닌 것(ndarray)이 와도 Variable로 바꿔서 계산합니다. ``__call__``만 바꿉니다."""

    def __call__(self, *inputs):
        inputs = [as_variable(x) for x in inputs]  # 21단계에서 더한 줄입니다.

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


# --8<-- [end:function]


# --8<-- [start:add]
class Add(Function):
    """y = x0 + x1, 두 입력의 국소 미분은 모두 1입니다."""

    def forward(self, x0, x1):
        return x0 + x1

    def backward(self, gy):
        return gy, gy


def add(x0, x1):
    x1 = as_array(x1)  # 3.0 같은 파이썬 수를 ndarray로 바꿉니다.
    return Add()(x0, x1)


# --8<-- [end:add]


# --8<-- [start:mul]
class Mul(Function):
    """y = x0 * x1, 국소 미분은 x0 쪽이 x1, x1 쪽이 x0입니다."""

    def forward(self, x0, x1):
        return x0 * x1

    def backward(self, gy):
        x0, x1 = self.inputs[0].data, self.inputs[1].data
        return gy * x1, gy * x0


def mul(x0, x1):
    x1 = as_array(x1)
    return Mul()(x0, x1)


# --8<-- [end:mul]


# --8<-- [start:neg]
class Neg(Function):
    """y = -x, 국소 미분은 -1입니다."""

    def forward(self, x):
        return -x

    def backward(self, gy):
        return -gy


def neg(x):
    return Neg()(x)


# --8<-- [end:neg]


# --8<-- [start:sub]
class Sub(Function):
    """y = x0 - x1, 국소 미분은 x0 쪽이 1, x1 쪽이 -1입니다."""

    def forward(self, x0, x1):
        return x0 - x1

    def backward(self, gy):
        return gy, -gy


def sub(x0, x1):
    x1 = as_array(x1)
    return Sub()(x0, x1)


def rsub(x0, x1):
    """``2.0 - x``처럼 Variable이 오른쪽에 있을 때 불립니다. x0이 Variable입니다."""
    x1 = as_array(x1)
    return Sub()(x1, x0)  # 순서를 바꿔 x1 - x0을 계산합니다.


# --8<-- [end:sub]


# --8<-- [start:div]
class Div(Function):
    """y = x0 / x1, 국소 미분은 x0 쪽이 1/x1, x1 쪽이 -x0/x1²입니다."""

    def forward(self, x0, x1):
        return x0 / x1

    def backward(self, gy):
        x0, x1 = self.inputs[0].data, self.inputs[1].data
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


# --8<-- [end:div]


# --8<-- [start:pow]
class Pow(Function):
    """y = xᶜ (c는 상수), 국소 미분은 c·xᶜ⁻¹입니다."""

    def __init__(self, c):
        self.c = c  # 지수는 변수가 아니라 함수가 기억하는 상수입니다.

    def forward(self, x):
        return x**self.c

    def backward(self, gy):
        x = self.inputs[0].data
        c = self.c
        return c * x ** (c - 1) * gy


def power(x, c):
    """``x ** c``입니다. 파이썬 내장 ``pow``와 헷갈리지 않게 ``power``라고 부릅니다."""
    return Pow(c)(x)


# --8<-- [end:pow]


class Square(_previous.Square, Function):
    """18단계의 ``Square``를 이 모듈의 ``Function``으로 부릅니다(출력이 이 모듈의 ``Variable``)."""


def square(x):
    return Square()(x)


class Exp(Function):
    """y = eˣ, 국소 미분은 eˣ 자신입니다."""

    def forward(self, x):
        return np.exp(x)

    def backward(self, gy):
        x = self.inputs[0].data
        return np.exp(x) * gy


def exp(x):
    return Exp()(x)


# --8<-- [start:operators]
# 연산자를 함수에 연결합니다. 예를 들어 x * y는 파이썬이 x.__mul__(y), 곧 mul(x, y)로 바꿉니다.
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
# --8<-- [end:operators]
