"""최종 엔진의 함수들: 클래스(`Square`, `Mul`, ...)와 소문자 도우미(`square`, `mul`, ...).

각 클래스는 순전파(`forward`)와 국소 미분을 곱하는 역전파(`backward`)만 가집니다.
이항 연산은 NumPy처럼 브로드캐스트하고, 역전파에서 미분값을 입력의 모양으로 되돌립니다(`sum_to`).
"""

from __future__ import annotations

from numbers import Number

import numpy as np

from .core import Function, Variable, as_variable, wrap_array


def sum_to(gx: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """브로드캐스트로 늘어난 미분값을 더해서 원래 모양 `shape`로 줄입니다."""
    if gx.shape == shape:
        return gx
    lead = gx.ndim - len(shape)
    axes = tuple(range(lead)) + tuple(lead + i for i, n in enumerate(shape) if n == 1)
    out = gx.sum(axis=axes, keepdims=True)
    if lead:
        out = out.reshape(out.shape[lead:])
    return out


class LibraryFunction(Function):
    """이 모듈의 함수들의 부모. backward가 늘 입력과 같은 모양을 돌려준다는 것을 테스트가
    보장하므로(tests/engine), 역전파 때의 결과 검사를 건너뜁니다."""

    checks_backward = False


# --- 입력이 하나인 함수 -------------------------------------------------------------
class Square(LibraryFunction):
    def forward(self, x):
        return x**2

    def backward(self, gy):
        x = self.inputs[0].data
        return 2 * x * gy


class Exp(LibraryFunction):
    def forward(self, x):
        return np.exp(x)

    def backward(self, gy):
        y = self.outputs[0]()
        # 출력이 이미 사라졌다면 입력에서 다시 계산합니다.
        y_data = y.data if y is not None else np.exp(self.inputs[0].data)
        return gy * y_data


class Neg(LibraryFunction):
    def forward(self, x):
        return -x

    def backward(self, gy):
        return -gy


class Sin(LibraryFunction):
    def forward(self, x):
        return np.sin(x)

    def backward(self, gy):
        return gy * np.cos(self.inputs[0].data)


class Cos(LibraryFunction):
    def forward(self, x):
        return np.cos(x)

    def backward(self, gy):
        return gy * -np.sin(self.inputs[0].data)


class Tanh(LibraryFunction):
    def forward(self, x):
        return np.tanh(x)

    def backward(self, gy):
        y = np.tanh(self.inputs[0].data)
        return gy * (1 - y * y)


class Log(LibraryFunction):
    def forward(self, x):
        return np.log(x)

    def backward(self, gy):
        return gy / self.inputs[0].data


class Pow(LibraryFunction):
    """x ** c. 지수 c는 상수(파이썬 수)이며 미분하지 않습니다."""

    def __init__(self, c: float) -> None:
        self.c = c

    def forward(self, x):
        return x**self.c

    def backward(self, gy):
        x = self.inputs[0].data
        return self.c * x ** (self.c - 1) * gy


# --- 입력이 둘인 함수 ---------------------------------------------------------------
class Add(LibraryFunction):
    def forward(self, x0, x1):
        return x0 + x1

    def backward(self, gy):
        x0, x1 = self.inputs
        if x0.data.shape == x1.data.shape:  # 브로드캐스트가 없었습니다.
            return gy, gy
        return sum_to(gy, x0.data.shape), sum_to(gy, x1.data.shape)


class Sub(LibraryFunction):
    def forward(self, x0, x1):
        return x0 - x1

    def backward(self, gy):
        x0, x1 = self.inputs
        return sum_to(gy, x0.data.shape), sum_to(-gy, x1.data.shape)


class Mul(LibraryFunction):
    def forward(self, x0, x1):
        return x0 * x1

    def backward(self, gy):
        x0, x1 = self.inputs
        gx0, gx1 = gy * x1.data, gy * x0.data
        if x0.data.shape == x1.data.shape:  # 브로드캐스트가 없었습니다.
            return gx0, gx1
        return sum_to(gx0, x0.data.shape), sum_to(gx1, x1.data.shape)


class Div(LibraryFunction):
    def forward(self, x0, x1):
        return x0 / x1

    def backward(self, gy):
        x0, x1 = self.inputs
        gx0 = gy / x1.data
        gx1 = gy * (-x0.data / x1.data**2)
        return sum_to(gx0, x0.data.shape), sum_to(gx1, x1.data.shape)


# --- 소문자 도우미 -------------------------------------------------------------------
def _operand(other: object, like: Variable) -> Variable:
    """연산 상대를 Variable로 바꿉니다. 파이썬 수는 상대 배열의 dtype을 따르게 합니다.

    NumPy 2에서 0차원 float64 배열은 float32 배열과 계산하면 결과를 float64로 올리므로,
    `x * 2.0`이 x의 dtype을 바꾸지 않도록 파이썬 수를 NumPy의 규칙대로 먼저 맞춥니다.
    """
    if type(other) is Variable:
        return other
    data = like.data
    if (type(other) is float or type(other) is int) and data is not None:
        # 가장 흔한 경우: 실수 배열과 파이썬 수. 결과 dtype은 배열의 dtype 그대로입니다.
        dtype = data.dtype if data.dtype.kind in "fc" else np.result_type(data, other)
        return wrap_array(np.array(other, dtype=dtype))
    if isinstance(other, Number) and data is not None:
        return wrap_array(np.asarray(other, dtype=np.result_type(data, other)))
    return as_variable(other)


def square(x):
    return Square()(x)


def exp(x):
    return Exp()(x)


def neg(x):
    return Neg()(x)


def sin(x):
    return Sin()(x)


def cos(x):
    return Cos()(x)


def tanh(x):
    return Tanh()(x)


def log(x):
    return Log()(x)


def pow(x, c):  # noqa: A001 - 책과 같은 이름을 씁니다.
    if not isinstance(c, Number) or isinstance(c, bool):
        raise TypeError(
            f"거듭제곱의 지수는 파이썬 수(int, float)여야 합니다. 받은 값: {type(c).__name__}. "
            f"Variable끼리의 거듭제곱은 exp(c * log(x))로 표현해 주세요."
        )
    return Pow(c)(x)


def add(x0, x1):
    if type(x0) is not Variable:
        x0 = as_variable(x0)
    return Add()(x0, _operand(x1, x0))


def mul(x0, x1):
    if type(x0) is not Variable:
        x0 = as_variable(x0)
    return Mul()(x0, _operand(x1, x0))


def sub(x0, x1):
    if type(x0) is not Variable:
        x0 = as_variable(x0)
    return Sub()(x0, _operand(x1, x0))


def rsub(x0, x1):
    """`1.0 - x`처럼 Variable이 오른쪽에 있는 뺄셈: x1 - x0."""
    x0 = as_variable(x0)
    return Sub()(_operand(x1, x0), x0)


def div(x0, x1):
    if type(x0) is not Variable:
        x0 = as_variable(x0)
    return Div()(x0, _operand(x1, x0))


def rdiv(x0, x1):
    """`1.0 / x`처럼 Variable이 오른쪽에 있는 나눗셈: x1 / x0."""
    x0 = as_variable(x0)
    return Div()(_operand(x1, x0), x0)
