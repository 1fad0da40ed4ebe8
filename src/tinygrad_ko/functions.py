"""최종 엔진의 함수들: 클래스(`Square`, `Mul`, ...)와 소문자 도우미(`square`, `mul`, ...).

각 클래스는 세 가지를 정합니다.

- `forward`: ndarray로 계산하는 순전파.
- `keep`: 역전파에 쓸 입력. 붙잡지 않은 입력은 사용자가 놓는 순간 메모리에서 풀립니다.
- `backward`: 출력 쪽 미분값에 국소 미분을 곱합니다. 보통은 ndarray로, `create_graph=True`일
  때는 Variable로 불리므로, 두 경우에 모두 맞는 식(`gy * cos(x)`처럼)으로 씁니다. 미분이 필요
  없는 입력(`needs_input_grad`가 False)의 자리는 계산하지 않고 None을 돌려줍니다.

이항 연산은 NumPy처럼 브로드캐스트하고, 역전파에서 미분값을 입력의 모양으로 되돌립니다(`sum_to`).
"""

from __future__ import annotations

from numbers import Number

import numpy as np

from .core import Function, Variable, constant


class LibraryFunction(Function):
    """이 모듈의 함수들의 부모. backward가 늘 입력과 같은 모양을 돌려준다는 것을 테스트가
    보장하므로(tests/engine) 역전파 때의 결과 검사를 건너뛰고, create_graph를 지원합니다."""

    checks_backward = False
    supports_create_graph = True

    def to_inputs(self, gx0, gx1):
        """이항 연산의 두 미분값을 각 입력의 모양으로 되돌립니다(브로드캐스트의 역전파).

        미분이 필요 없는 입력의 자리(None)는 그대로 둡니다.
        """
        shapes = self.input_shapes
        if shapes is None:  # 두 입력이 출력과 모양이 같았습니다(브로드캐스트 없음).
            return gx0, gx1
        shape0, shape1 = shapes
        if gx0 is not None and gx0.shape != shape0:
            gx0 = sum_to(gx0, shape0)
        if gx1 is not None and gx1.shape != shape1:
            gx1 = sum_to(gx1, shape1)
        return gx0, gx1


# --- 모양을 바꾸는 함수: 서로가 서로의 역전파입니다 ------------------------------------------
def _sum_to_array(x: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    lead = x.ndim - len(shape)
    axes = tuple(range(lead)) + tuple(lead + i for i, n in enumerate(shape) if n == 1)
    out = x.sum(axis=axes, keepdims=True)
    if lead:
        out = out.reshape(out.shape[lead:])
    return out


class _ShapeChange(LibraryFunction):
    """모양만 바꾸는 함수의 공통 부분: 목표 모양을 받고, 입력의 값은 붙잡지 않고 모양만 기억합니다."""

    def __init__(self, shape: tuple[int, ...]) -> None:
        self.shape = shape

    def keep(self, needs):
        return (False,)

    def forward(self, x):
        self.x_shape = x.shape
        return self.reshape_array(x)


class SumTo(_ShapeChange):
    """브로드캐스트로 늘어난 배열을 더해서 모양 `shape`로 줄입니다. 역전파는 `broadcast_to`입니다."""

    def reshape_array(self, x):
        return _sum_to_array(x, self.shape)

    def backward(self, gy):
        return broadcast_to(gy, self.x_shape)


class BroadcastTo(_ShapeChange):
    """배열을 모양 `shape`로 늘립니다(NumPy의 브로드캐스트). 역전파는 `sum_to`입니다."""

    def reshape_array(self, x):
        return np.broadcast_to(x, self.shape)

    def backward(self, gy):
        return sum_to(gy, self.x_shape)


# --- 입력이 하나인 함수 -------------------------------------------------------------
class Square(LibraryFunction):
    def forward(self, x):
        return x**2

    def backward(self, gy):
        (x,) = self.saved()
        return 2 * x * gy


class Exp(LibraryFunction):
    keeps_output = True  # 국소 미분이 출력 e^x 자신입니다.

    def keep(self, needs):
        return (False,)

    def forward(self, x):
        return np.exp(x)

    def backward(self, gy):
        return gy * self.saved_output()


class Neg(LibraryFunction):
    def keep(self, needs):
        return (False,)

    def forward(self, x):
        return -x

    def backward(self, gy):
        return -gy


class Sin(LibraryFunction):
    def forward(self, x):
        return np.sin(x)

    def backward(self, gy):
        (x,) = self.saved()
        return gy * _cos(x)


class Cos(LibraryFunction):
    def forward(self, x):
        return np.cos(x)

    def backward(self, gy):
        (x,) = self.saved()
        return gy * -_sin(x)


class Tanh(LibraryFunction):
    keeps_output = True  # 국소 미분 1 - y^2를 출력 y로 씁니다.

    def keep(self, needs):
        return (False,)

    def forward(self, x):
        return np.tanh(x)

    def backward(self, gy):
        y = self.saved_output()
        return gy * (1 - y * y)


class Log(LibraryFunction):
    def forward(self, x):
        return np.log(x)

    def backward(self, gy):
        (x,) = self.saved()
        return gy / x


class Pow(LibraryFunction):
    """x ** c. 지수 c는 상수(파이썬 수)이며 미분하지 않습니다."""

    def __init__(self, c: float) -> None:
        self.c = c

    def forward(self, x):
        return x**self.c

    def backward(self, gy):
        (x,) = self.saved()
        if self.c == 0:  # x**0 = 1은 상수입니다. x = 0에서 0 * 0**-1 = NaN이 되지 않게 합니다.
            zeros = np.zeros(np.shape(gy), dtype=np.result_type(gy))
            return constant(zeros) if isinstance(x, Variable) else zeros
        return self.c * x ** (self.c - 1) * gy


# --- 입력이 둘인 함수 ---------------------------------------------------------------
# --8<-- [start:add-mul]
class Add(LibraryFunction):
    def keep(self, needs):
        return (False, False)

    def forward(self, x0, x1):
        return x0 + x1

    def backward(self, gy):
        need0, need1 = self.needs_input_grad
        return self.to_inputs(gy if need0 else None, gy if need1 else None)


class Sub(LibraryFunction):
    def keep(self, needs):
        return (False, False)

    def forward(self, x0, x1):
        return x0 - x1

    def backward(self, gy):
        need0, need1 = self.needs_input_grad
        return self.to_inputs(gy if need0 else None, -gy if need1 else None)


class Mul(LibraryFunction):
    def keep(self, needs):
        return needs[1], needs[0]  # x0의 미분에는 x1이, x1의 미분에는 x0이 필요합니다.

    def forward(self, x0, x1):
        return x0 * x1

    def backward(self, gy):
        x0, x1 = self.saved()
        return self.to_inputs(
            None if x1 is None else gy * x1,
            None if x0 is None else gy * x0,
        )
        # --8<-- [end:add-mul]


class Div(LibraryFunction):
    def keep(self, needs):
        return needs[1], needs[0] or needs[1]  # 두 미분 모두 x1이, x1의 미분에는 x0도 필요합니다.

    def forward(self, x0, x1):
        return x0 / x1

    def backward(self, gy):
        x0, x1 = self.saved()
        need0, need1 = self.needs_input_grad
        return self.to_inputs(
            gy / x1 if need0 else None,
            gy * (-x0 / x1**2) if need1 else None,
        )


# --- 소문자 도우미 -------------------------------------------------------------------
def sum_to(x, shape: tuple[int, ...]):
    """x를 더해서 모양 `shape`로 줄입니다. ndarray는 ndarray로, Variable은 Variable로 돌려줍니다."""
    if isinstance(x, Variable):
        return x if x.shape == shape else SumTo(shape)(x)
    return x if x.shape == shape else _sum_to_array(x, shape)


def broadcast_to(x, shape: tuple[int, ...]):
    """x를 모양 `shape`로 늘립니다. ndarray는 ndarray로, Variable은 Variable로 돌려줍니다."""
    if isinstance(x, Variable):
        return x if x.shape == shape else BroadcastTo(shape)(x)
    return x if x.shape == shape else np.broadcast_to(x, shape)


def _cos(x):
    """backward용: ndarray에는 NumPy를, Variable에는 그래프에 기록되는 `Cos`를 씁니다."""
    return Cos()(x) if isinstance(x, Variable) else np.cos(x)


def _sin(x):
    """backward용: ndarray에는 NumPy를, Variable에는 그래프에 기록되는 `Sin`을 씁니다."""
    return Sin()(x) if isinstance(x, Variable) else np.sin(x)


def _operand(other: object, like: object) -> object:
    """연산 상대. Variable은 그대로, 그 밖의 수와 배열은 미분하지 않는 상수로 둡니다.

    파이썬 수는 상대 배열과 같은 dtype의 NumPy 스칼라로 바꿉니다. 그러면 `x * 2.0`이 float32를
    float64로 바꾸지 않고, 역전파의 `gy * c`가 스칼라끼리의 빠른 계산이 됩니다. 정수나 bool
    배열과의 계산은 `np.result_type`으로 맞춥니다.
    """
    if type(other) is Variable or type(other) is np.ndarray:  # Parameter는 맨 아래에서 그대로
        return other
    data = like.data if type(like) is Variable or isinstance(like, Variable) else like
    if type(other) is float or type(other) is int or isinstance(other, Number | np.generic):
        if type(data) is np.ndarray and data.dtype.kind in "fc":
            return data.dtype.type(other)  # 가장 흔한 경우: 실수 배열과 파이썬 수
        if data is not None and not isinstance(other, bool):
            return np.result_type(data, other).type(other)
    return other  # bool, None이 든 변수와의 계산, 또는 Function이 거부할 값


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
    return Add()(x0, _operand(x1, x0))


def mul(x0, x1):
    return Mul()(x0, _operand(x1, x0))


def sub(x0, x1):
    return Sub()(x0, _operand(x1, x0))


def rsub(x0, x1):
    """`1.0 - x`처럼 Variable이 오른쪽에 있는 뺄셈: x1 - x0."""
    return Sub()(_operand(x1, x0), x0)


def div(x0, x1):
    return Div()(x0, _operand(x1, x0))


def rdiv(x0, x1):
    """`1.0 / x`처럼 Variable이 오른쪽에 있는 나눗셈: x1 / x0."""
    return Div()(_operand(x1, x0), x0)
