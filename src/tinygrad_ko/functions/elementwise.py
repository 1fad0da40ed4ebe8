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

from ..autograd.function import Function, constant
from ..autograd.variable import Variable, as_variable


class LibraryFunction(Function):
    """이 모듈의 함수들의 부모. backward가 늘 입력과 같은 모양을 돌려준다는 것을 테스트가
    보장하므로(tests/functions) 역전파 때의 결과 검사를 건너뛰고, create_graph를 지원합니다."""

    checks_backward = False
    supports_create_graph = True

    def select(self, gy, mask):
        """mask가 참인 원소의 gy만 남기고 나머지는 0(PyTorch의 where). `gy * mask`는 gy가 inf인 원소에서
        inf · 0 = NaN을 흘려보내므로, 원소를 고르는 역전파(ReLU, clip)는 곱하지 않고 고릅니다."""
        if isinstance(gy, Variable):  # create_graph: 고르기도 그래프에 기록합니다.
            return Select(mask)(gy)
        return np.where(mask, gy, np.zeros((), gy.dtype))

    # --8<-- [start:to_inputs]
    def to_inputs(self, gx0, gx1):
        """이항 연산의 두 미분값을 각 입력의 모양으로 되돌립니다(브로드캐스트의 역전파).

        미분이 필요 없는 입력의 자리(None)는 그대로 둡니다.
        """
        shape0, shape1 = self.input_shapes
        if gx0 is not None and gx0.shape != shape0:
            gx0 = _sum_to(gx0, shape0)
        if gx1 is not None and gx1.shape != shape1:
            gx1 = _sum_to(gx1, shape1)
        return gx0, gx1

    # --8<-- [end:to_inputs]


# --- 브로드캐스트와 그 반대: 서로가 서로의 역전파입니다 ------------------------------------
# 이항 연산이 미분값을 입력의 모양으로 되돌릴 때(`to_inputs`) 쓰므로, 다른 모양 함수(shapes.py)와
# 떨어져 이 모듈에 있습니다.
# --8<-- [start:sum_to_array]
def _sum_to_array(x: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """ndarray x를 더해서 모양 `shape`로 줄입니다(모양이 맞는지는 부르는 쪽이 확인합니다).

    앞에 늘어난 축은 모두 더하고, `shape`에서 크기가 1인 축은 keepdims로 더합니다.
    """
    lead = x.ndim - len(shape)
    ones = tuple(lead + i for i, n in enumerate(shape) if n == 1 and x.shape[lead + i] != 1)
    if not ones:  # 앞에 늘어난 축만 더하면 됩니다(예: 편향의 미분값).
        return x.sum(axis=tuple(range(lead)))
    out = x.sum(axis=tuple(range(lead)) + ones, keepdims=True)
    if lead:
        out = out.reshape(out.shape[lead:])
    return out


def _sum_to(x, shape: tuple[int, ...]):
    """엔진 안에서 쓰는 `sum_to`: ndarray는 모양 검사를 건너뜁니다(모양은 순전파가 이미 맞춰 두었습니다)."""
    if x.shape == shape:
        return x
    if isinstance(x, Variable):
        return SumTo(shape)(x)
    return _sum_to_array(x, shape)


# --8<-- [end:sum_to_array]


def as_shape(shape: object, what: str = "모양") -> tuple[int, ...]:
    """모양으로 받은 값(정수, 정수의 튜플이나 리스트)을 정수 튜플로 바꿉니다. 아니면 TypeError."""
    if isinstance(shape, int | np.integer) and not isinstance(shape, bool | np.bool_):
        return (int(shape),)
    if isinstance(shape, tuple | list) and all(
        isinstance(n, int | np.integer) and not isinstance(n, bool | np.bool_) for n in shape
    ):
        return tuple(int(n) for n in shape)
    raise TypeError(
        f"{what}은(는) 정수 또는 정수의 튜플이어야 합니다. 받은 값: {shape!r}. (2, 3)처럼 주세요."
    )


def _check_sum_to(x_shape: tuple[int, ...], shape: tuple[int, ...]) -> None:
    try:
        ok = len(shape) <= len(x_shape) and np.broadcast_shapes(shape, x_shape) == x_shape
    except ValueError:
        ok = False
    if not ok:
        raise ValueError(
            f"모양 {x_shape}인 배열을 더해서 모양 {shape}(으)로 줄일 수 없습니다. sum_to의 모양은 "
            f"브로드캐스트하면 {x_shape}이(가) 되는 모양(축이 같거나 적고, 각 축은 같은 크기나 1)으로 "
            f"주세요."
        )


def _broadcast_array(x: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    try:
        return np.broadcast_to(x, shape)
    except ValueError:
        raise ValueError(
            f"모양 {np.shape(x)}인 배열을 모양 {shape}(으)로 브로드캐스트할 수 없습니다. broadcast_to는 "
            f"입력을 늘리기만 하므로, 목표 모양은 축이 입력과 같거나 더 많고 뒤쪽 축부터 맞춰 입력의 각 축이 "
            f"1이거나 목표 모양의 같은 자리 축과 같도록 주세요."
        ) from None


# --8<-- [start:broadcast]
class _ShapeChange(LibraryFunction):
    """모양만 바꾸는 함수의 공통 부분: 목표 모양을 받고, 입력의 값은 붙잡지 않고 모양만 기억합니다."""

    def __init__(self, shape: tuple[int, ...]) -> None:
        self.shape = shape if type(shape) is tuple else as_shape(shape)

    def keep(self, needs):
        return (False,)

    def forward(self, x):
        self.x_shape = x.shape
        return self.reshape_array(x)


class SumTo(_ShapeChange):
    """브로드캐스트로 늘어난 배열을 더해서 모양 `shape`로 줄입니다. 역전파는 `broadcast_to`입니다."""

    def reshape_array(self, x):
        _check_sum_to(x.shape, self.shape)
        return _sum_to_array(x, self.shape)

    def backward(self, gy):
        return broadcast_to(gy, self.x_shape)


class BroadcastTo(_ShapeChange):
    """배열을 모양 `shape`로 늘립니다(NumPy의 브로드캐스트). 역전파는 `sum_to`입니다.

    출력은 복사하지 않은 읽기 전용 뷰(`np.broadcast_to`)입니다.
    """

    def reshape_array(self, x):
        return _broadcast_array(x, self.shape)

    def backward(self, gy):
        return _sum_to(gy, self.x_shape)


# --8<-- [end:broadcast]


# --- 입력이 하나인 함수 -------------------------------------------------------------
class Square(LibraryFunction):
    def forward(self, x):
        # 배열의 x**2와 같은 ufunc. 0차원 데이터는 스칼라로 오는데, 스칼라의 **는 C의 pow라서
        # 마지막 자리가 배열의 결과와 다를 수 있습니다.
        return np.square(x)

    def backward(self, gy):
        (x,) = self.saved()
        return gy * x * 2


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
    """x ** c. 지수 c는 상수(파이썬 수)이며 미분하지 않습니다.

    PyTorch와 다른 한 점: x = -0.0에서 c = 0.5의 미분값은 +inf(PyTorch는 sqrt의 규칙으로 -inf), c = -0.5의
    값은 +inf(PyTorch는 rsqrt로 -inf)입니다. 미분이 정의되지 않는 점에서 무한대의 부호만 다르므로, 지수마다
    길을 나누지 않고 NumPy의 거듭제곱(C의 pow 규칙)을 그대로 씁니다.
    """

    def __init__(self, c: float) -> None:
        self.c = c

    # 배열의 **는 지수 2, 0.5, -1을 square, sqrt, reciprocal로 계산하고 NumPy 스칼라의 **는 C의 pow를
    # 부르므로, 0차원 입력도 배열로 받아 n차원과 같은 값을 냅니다.

    def forward(self, x):
        try:
            return x**self.c
        except ValueError as error:  # NumPy: 정수 배열의 음수 정수 거듭제곱
            raise ValueError(
                f"정수 배열(dtype {x.dtype})에는 음수 거듭제곱(x ** {self.c})을 할 수 없습니다. "
                f"x.astype(np.float64)처럼 실수 배열로 바꾸거나 지수를 실수({float(self.c)})로 주세요."
            ) from error

    def backward(self, gy):
        (x,) = self.saved()
        if self.c == 0:  # x**0 = 1은 상수입니다. x = 0에서 0 * 0**-1 = NaN이 되지 않게 합니다.
            zeros = np.zeros(np.shape(gy), dtype=np.result_type(gy))
            return zeros if not isinstance(x, Variable) else constant(zeros)
        with np.errstate(divide="ignore"):  # 0의 음수 거듭제곱은 inf입니다(PyTorch처럼 경고 없이).
            return self.c * x ** (self.c - 1) * gy


class Clip(LibraryFunction):
    """x를 구간 [x_min, x_max]로 자릅니다. 한쪽 경계는 None이어도 됩니다.

    미분값은 구간 안(경계 포함)의 원소로만 흐르고, 잘린 원소에는 0입니다(PyTorch의 clamp와 같음).
    """

    def __init__(self, x_min: float | None, x_max: float | None) -> None:
        self.x_min = x_min
        self.x_max = x_max

    def forward(self, x):
        return np.clip(x, self.x_min, self.x_max)

    def backward(self, gy):
        (x,) = self.saved()
        data = x.data if isinstance(x, Variable) else x
        if self.x_min is None:
            inside = data <= self.x_max
        elif self.x_max is None:
            inside = data >= self.x_min
        else:
            inside = (data >= self.x_min) & (data <= self.x_max)
        return self.select(gy, inside)  # inside는 미분하지 않는 상수(bool 배열)입니다.


class Select(LibraryFunction):
    """`LibraryFunction.select`를 그래프에 기록할 때(create_graph) 쓰는 함수: mask가 참인 원소만 남깁니다.

    gy에 대해 선형이라 역전파도 같은 mask로 고르기입니다.
    """

    def __init__(self, mask: np.ndarray) -> None:
        self.mask = mask

    def keep(self, needs):
        return (False,)

    def forward(self, gy):
        return np.where(self.mask, gy, np.zeros((), gy.dtype))

    def backward(self, ggx):
        return self.select(ggx, self.mask)


class Cast(LibraryFunction):
    """dtype 바꾸기. 0차원 변수를 상대의 dtype에 맞출 때(`_operand`) 씁니다. 역전파는 미분값을 입력의
    dtype으로 되돌립니다."""

    def __init__(self, dtype: np.dtype) -> None:
        self.dtype = dtype

    def keep(self, needs):
        return (False,)

    def forward(self, x):
        self.source = x.dtype
        return x.astype(self.dtype)

    def backward(self, gy):
        if isinstance(gy, Variable):  # create_graph: 되돌리기도 그래프에 기록합니다.
            return Cast(self.source)(gy)
        return gy.astype(self.source)


# --- 입력이 둘인 함수 ---------------------------------------------------------------
# --8<-- [start:add-mul]
# --8<-- [start:add]
class Add(LibraryFunction):
    def keep(self, needs):
        return (False, False)

    def forward(self, x0, x1):
        return x0 + x1

    def backward(self, gy):
        need0, need1 = self.needs_input_grad
        return self.to_inputs(gy if need0 else None, gy if need1 else None)


# --8<-- [end:add]
class Sub(LibraryFunction):
    def keep(self, needs):
        return (False, False)

    def forward(self, x0, x1):
        return x0 - x1

    def backward(self, gy):
        need0, need1 = self.needs_input_grad
        return self.to_inputs(gy if need0 else None, -gy if need1 else None)


# --8<-- [start:mul]
class Mul(LibraryFunction):
    def keep(self, needs):
        return needs[1], needs[0]  # x0의 미분에는 x1이, x1의 미분에는 x0이 필요합니다.

    def forward(self, x0, x1):
        return x0 * x1

    def backward(self, gy):
        x0, x1 = self.saved()
        gx0 = None if x1 is None else gy * x1
        gx1 = None if x0 is None else gy * x0
        return self.to_inputs(gx0, gx1)


# --8<-- [end:mul]
# --8<-- [end:add-mul]


# --8<-- [start:div]
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
            # -x0 / x1**2를 (x0 / x1) / x1로: x1**2가 먼저 넘치지 않습니다(float16의 300² > 65504).
            -gy * (x0 / x1 / x1) if need1 else None,
        )


# --8<-- [end:div]


# --- 소문자 도우미 -------------------------------------------------------------------
def sum_to(x, shape):
    """x를 더해서 모양 `shape`로 줄입니다: 브로드캐스트의 반대이자 `broadcast_to`의 역전파입니다.

    역전파 안에서도 쓰는 도우미라 ndarray를 주면 ndarray를, Variable을 주면 그래프에 기록되는
    Variable을 돌려줍니다. 이미 그 모양이면 x를 그대로 돌려줍니다. 줄일 수 없는 모양은 ValueError.
    """
    shape = as_shape(shape)
    if not isinstance(x, Variable) and not isinstance(x, np.ndarray | np.generic):
        x = as_variable(x)
    x_shape = x.shape
    if x_shape != shape:
        _check_sum_to(x_shape, shape)
    out = _sum_to(x, shape)
    # 모든 축을 더한 ndarray는 NumPy 스칼라로 나오므로 0차원 배열로 돌려줍니다
    return np.asarray(out) if isinstance(out, np.generic) else out


def broadcast_to(x, shape):
    """x를 모양 `shape`로 늘립니다(브로드캐스트). 역전파는 `sum_to`입니다.

    `sum_to`처럼 ndarray는 ndarray(복사하지 않은 읽기 전용 뷰)로, Variable은 Variable로
    돌려줍니다. 이미 그 모양이면 x를 그대로 돌려줍니다. 늘릴 수 없는 모양은 ValueError.
    """
    if type(shape) is not tuple:
        shape = as_shape(shape)
    if not isinstance(x, Variable) and not isinstance(x, np.ndarray | np.generic):
        x = as_variable(x)
    if x.shape == shape:
        return x
    if isinstance(x, Variable):
        return BroadcastTo(shape)(x)
    return _broadcast_array(x, shape)


def _cos(x):
    """backward용: ndarray에는 NumPy를, Variable에는 그래프에 기록되는 `Cos`를 씁니다."""
    return Cos()(x) if isinstance(x, Variable) else np.cos(x)


def _sin(x):
    """backward용: ndarray에는 NumPy를, Variable에는 그래프에 기록되는 `Sin`을 씁니다."""
    return Sin()(x) if isinstance(x, Variable) else np.sin(x)


# 파이썬 수: NEP 50으로 상대 배열의 dtype을 따릅니다. 타입으로 봅니다(np.float64는 float의 하위 클래스).
_KEPT_AS_IS = (float, int, bool)


def _operand(other: object, like: object) -> object:
    """연산 상대. 상대가 실수(like)이면 정수·bool 상수와 NumPy 스칼라, 0차원 배열을 그 dtype에 맞춥니다.

    규칙은 PyTorch의 것입니다(tests/functions/test_integer_operands.py, test_zero_dim_constants.py).

    - 파이썬 수는 그대로 둡니다. NumPy 2에서 파이썬 수는 상대 배열의 dtype을 따르므로(NEP 50) `x * 2.0`은
      float32를 float32로 둡니다.
    - 정수와 bool(배열, 0차원 배열, NumPy 스칼라, 미분하지 않는 정수 변수)은 실수의 dtype이 됩니다. NumPy는
      float32 * int64 배열을 float64로 올리지만, PyTorch에서는 실수가 어떤 정수보다 앞섭니다.
    - NumPy 스칼라와 0차원 실수 배열, 0차원 실수 변수는 차원 있는 실수 배열의 dtype이 됩니다(PyTorch의
      0차원 텐서처럼). 변수는 `Cast`로 바꾸므로 그 미분값은 제 dtype입니다.
    """
    if type(other) in _KEPT_AS_IS:  # 가장 흔한 상대: 파이썬 수
        return other
    if isinstance(other, Variable) and (other.data is None or other.data.dtype.kind not in "biu"):
        if other.data is None or other.data.ndim:
            return other  # 실수 변수(흔한 경우)
        return _zero_dim_variable(other, like)
    data = like.data if isinstance(like, Variable) else like
    if type(data) is not np.ndarray or data.dtype.kind not in "fc":
        return other
    if isinstance(other, np.generic):
        return data.dtype.type(other) if other.dtype.kind in "biufc" else other
    if isinstance(other, Variable):  # 정수 변수는 미분하지 않으므로 상수로 계산합니다.
        return other.data.astype(data.dtype)
    if type(other) is not np.ndarray or data.dtype.kind != "f":
        return other
    if other.dtype.kind in "biu" or (other.ndim == 0 and other.dtype.kind == "f" and data.ndim):
        return other.astype(data.dtype)
    return other


def _zero_dim_variable(other: Variable, like: object) -> Variable:
    """0차원 실수 변수도 0차원 실수 상수처럼 차원 있는 실수 상대의 dtype이 됩니다(PyTorch와 같음).

    미분이 흐를 수 있으므로 astype이 아니라 그래프에 기록되는 `Cast`로 바꿉니다: 그 변수의 미분값은
    제 dtype으로 돌아갑니다.
    """
    data = like.data if isinstance(like, Variable) else like
    if (
        type(data) is not np.ndarray
        or not data.ndim
        or data.dtype.kind != "f"
        or other.data.dtype.kind != "f"
        or data.dtype == other.data.dtype
    ):
        return other
    return Cast(data.dtype)(other)


def _operands(x0: object, x1: object) -> tuple[object, object]:
    """이항 연산의 두 입력을 `_operand`의 규칙으로 맞춥니다. 정수 변수가 왼쪽일 때(`int_var * x`)도."""
    x1 = _operand(x1, x0)
    return _operand(x0, x1), x1


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
            f"Variable끼리의 거듭제곱은 밑 x가 양수일 때 exp(c * log(x))로 표현해 주세요."
        )
    return Pow(c)(x)


def clip(x, x_min, x_max):
    """x의 원소를 [x_min, x_max]로 자릅니다(np.clip). 경계는 수이고, 한쪽은 None이어도 됩니다."""
    for name, bound in (("x_min", x_min), ("x_max", x_max)):
        if bound is not None and (
            not isinstance(bound, Number | np.generic) or isinstance(bound, bool)
        ):
            raise TypeError(
                f"clip의 {name}은(는) 수 또는 None이어야 합니다. 받은 값: {type(bound).__name__} "
                f"{bound!r}. 0.0처럼 수를 주세요."
            )
    if x_min is None and x_max is None:
        raise ValueError("clip의 x_min과 x_max가 모두 None입니다. 적어도 한쪽 경계를 주세요.")
    if x_min is not None and x_max is not None and x_min > x_max:
        raise ValueError(
            f"clip의 x_min({x_min!r})이 x_max({x_max!r})보다 큽니다. x_min <= x_max가 되게 주세요."
        )
    return Clip(x_min, x_max)(x)


def add(x0, x1):
    return Add()(*_operands(x0, x1))


def mul(x0, x1):
    return Mul()(*_operands(x0, x1))


def sub(x0, x1):
    return Sub()(*_operands(x0, x1))


def rsub(x0, x1):
    """`1.0 - x`처럼 Variable이 오른쪽에 있는 뺄셈: x1 - x0."""
    x0, x1 = _operands(x0, x1)
    return Sub()(x1, x0)


def div(x0, x1):
    return Div()(*_operands(x0, x1))


def rdiv(x0, x1):
    """`1.0 / x`처럼 Variable이 오른쪽에 있는 나눗셈: x1 / x0."""
    x0, x1 = _operands(x0, x1)
    return Div()(x1, x0)
