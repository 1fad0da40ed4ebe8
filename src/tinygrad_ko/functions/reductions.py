"""축(axis)을 따라 줄이는 함수: `sum`, `mean`, `max`, `min`.

순전파는 고른 축을 없애거나(`keepdims=False`) 크기 1로 남깁니다(`keepdims=True`). 역전파는 그
반대로, 줄어든 미분값을 입력의 모양으로 늘립니다(`Reduction.expand`): 없앤 축을 크기 1로 되살리고
(`reshape`), 그 축을 따라 브로드캐스트합니다(`broadcast_to`).

- `sum`: 모든 원소가 합에 1씩 기여하므로 미분값을 그대로 늘립니다.
- `mean`: 원소 n개의 평균이므로 1/n을 곱해서 늘립니다.
- `max`, `min`: 최댓값(최솟값)인 원소에만 미분값이 갑니다. 같은 값이 여럿이면 그 원소들이 똑같이
  나눠 가집니다(PyTorch의 `amax`/`amin`과 같은 약속). NaN이 있으면 결과가 NaN이고, 미분값은
  NaN인 원소들이 나눠 가집니다.

축은 정수, 정수의 튜플, None(모든 축)이고 음수는 뒤에서부터 셉니다. NumPy처럼 `axis=()`는 아무
축도 줄이지 않습니다(PyTorch의 `sum(dim=())`은 모든 축을 더하니 주의하세요). 모든 함수는 입력의
모양만 기억하고, `max`/`min`만 역전파에서 어느 원소가 최댓값인지 보려고 입력과 출력을 붙잡습니다.

이 모듈의 `sum`, `max`, `min`은 파이썬 내장 함수와 이름이 같습니다. 그래서 이 모듈 안에서 내장
함수가 필요하면 `builtins.max`처럼 씁니다.
"""

from __future__ import annotations

import builtins
import math

import numpy as np

from .._checks import check_flag
from ..autograd.variable import Variable
from .elementwise import LibraryFunction, broadcast_to


def normalize_axis(axis: object, shape: tuple[int, ...], what: str) -> tuple[int, ...] | None:
    """axis(None, 정수, 정수의 튜플이나 리스트)를 음수 없는 축 번호의 튜플로 바꿉니다.

    범위를 벗어나거나 겹치는 축은 ValueError, 정수가 아닌 축은 TypeError입니다. 메시지에는 받은
    axis와 배열의 모양을 넣습니다.
    """
    if axis is None:
        return None
    single = isinstance(axis, int | np.integer)
    axes = (axis,) if single else axis
    if (
        isinstance(axis, bool | np.bool_)
        or not isinstance(axes, tuple | list)
        or not all(isinstance(a, int | np.integer) and not isinstance(a, bool) for a in axes)
    ):
        raise TypeError(
            f"{what}의 axis는 None, 정수 또는 정수의 튜플이어야 합니다. 받은 값: {axis!r}. "
            f"axis=0, axis=-1, axis=(0, 2)처럼 주세요."
        )
    ndim = len(shape)
    normalized = []
    for a in axes:
        if not -ndim <= a < ndim:
            raise ValueError(
                f"{what}의 axis {axis!r}: 모양 {shape}인 배열({ndim}차원)에는 {int(a)}번 축이 "
                f"없습니다. -{ndim}부터 {ndim - 1}까지의 축을 주세요."
                if ndim
                else f"{what}의 axis {axis!r}: 0차원 배열(모양 ())에는 축이 없습니다. axis=None으로 "
                f"주세요."
            )
        normalized.append(int(a) + ndim if a < 0 else int(a))
    if len(set(normalized)) != len(normalized):
        raise ValueError(
            f"{what}의 axis {axis!r}에 같은 축이 두 번 있습니다(모양 {shape}). 축마다 한 번씩만 주세요."
        )
    return tuple(normalized)


# --8<-- [start:reduction]
class Reduction(LibraryFunction):
    """축을 따라 줄이는 함수의 공통 부분: 축을 확인하고, 역전파에서 미분값을 입력 모양으로 늘립니다."""

    name = "reduction"

    def __init__(self, axis: object = None, keepdims: bool = False) -> None:
        self.axis = axis
        self.keepdims = check_flag(f"{self.name}의 keepdims", keepdims)

    def keep(self, needs):
        return (False,)  # 기본은 입력의 모양만 기억합니다.

    def prepare(self, x: np.ndarray) -> None:
        """순전파 처음에: 축을 확인하고, 입력의 모양과 keepdims일 때의 출력 모양을 기억합니다."""
        self.x_shape = shape = x.shape
        self.axes = axes = normalize_axis(self.axis, shape, self.name)
        if axes is None:
            self.kept_shape = (1,) * len(shape)
        else:
            self.kept_shape = tuple(1 if i in axes else n for i, n in enumerate(shape))

    def expand(self, gy):
        """줄어든 미분값을 입력의 모양으로 늘립니다: 없앤 축을 크기 1로 되살리고 브로드캐스트."""
        if gy.shape != self.kept_shape:
            gy = gy.reshape(self.kept_shape)
        return broadcast_to(gy, self.x_shape)


# --8<-- [end:reduction]


# --8<-- [start:sum]
class Sum(Reduction):
    """원소의 합. 모든 원소가 합에 1씩 기여하므로 역전파는 미분값을 입력의 모양으로 늘리기만 합니다."""

    name = "sum"

    def forward(self, x):
        self.prepare(x)
        return x.sum(axis=self.axes, keepdims=self.keepdims)

    def backward(self, gy):
        return self.expand(gy)


# --8<-- [end:sum]


class Mean(Reduction):
    """원소의 평균. 줄인 원소가 n개면 역전파는 미분값에 1/n을 곱해서 늘립니다."""

    name = "mean"

    def forward(self, x):
        self.prepare(x)
        count = math.prod(self.x_shape) // builtins.max(math.prod(self.kept_shape), 1)
        self.scale = (
            1.0 / count if count else 0.0
        )  # 원소가 없는 축의 평균(NaN)은 미분값도 없습니다.
        return x.mean(axis=self.axes, keepdims=self.keepdims)

    def backward(self, gy):
        return self.expand(gy * self.scale)


class Max(Reduction):
    """최댓값. 역전파는 최댓값인 원소에만 미분값을 보내고, 같은 최댓값이 여럿이면 똑같이 나눕니다."""

    name = "max"
    keeps_output = True  # 어느 원소가 최댓값인지 출력과 비교해서 찾습니다.
    reduce = staticmethod(np.max)

    def keep(self, needs):
        return (True,)

    def forward(self, x):
        self.prepare(x)
        # 줄이는 축에 원소가 없을 때만 거부합니다. 다른 축이 비었으면 빈 결과(PyTorch의 amax와 같음).
        empty = x.size == 0 if self.axes is None else any(x.shape[a] == 0 for a in self.axes)
        if empty:
            raise ValueError(
                f"원소가 없는 축을 따라서는 {self.name}을(를) 구할 수 없습니다(모양 {x.shape}, "
                f"axis {self.axis!r}). 원소가 하나 이상인 축만 줄이도록 axis를 주세요."
            )
        return self.reduce(x, axis=self.axes, keepdims=self.keepdims)

    def backward(self, gy):
        (x,) = self.saved()
        x = x.data if isinstance(x, Variable) else x
        y = self.saved_output()
        y = (y.data if isinstance(y, Variable) else y).reshape(self.kept_shape)
        hit = x == y
        if y.dtype.kind in "fc" and np.isnan(y).any():
            hit |= np.isnan(x) & np.isnan(y)  # NaN이 결과인 칸은 NaN인 원소가 미분값을 받습니다.
        # 같은 값이 여럿이면 똑같이 나눕니다. 이 가중치는 미분하지 않는 상수입니다.
        weight = (hit / hit.sum(axis=self.axes, keepdims=True)).astype(gy.dtype, copy=False)
        return self.expand(gy) * weight


class Min(Max):
    """최솟값. 역전파는 `Max`와 같은 약속입니다(최솟값인 원소들이 미분값을 똑같이 나눕니다)."""

    name = "min"
    reduce = staticmethod(np.min)


# --- 소문자 도우미 ---------------------------------------------------------------------
def sum(x, axis=None, keepdims=False):  # noqa: A001 - NumPy, PyTorch와 같은 이름을 씁니다.
    """축 `axis`를 따라 더합니다(None이면 모든 원소). `keepdims=True`이면 줄인 축을 크기 1로 남깁니다."""
    return Sum(axis, keepdims)(x)


def mean(x, axis=None, keepdims=False):
    """축 `axis`를 따라 평균을 냅니다. 축과 keepdims는 `sum`과 같습니다."""
    return Mean(axis, keepdims)(x)


def max(x, axis=None, keepdims=False):  # noqa: A001
    """축 `axis`를 따라 최댓값을 구합니다(PyTorch의 amax). 같은 최댓값이 여럿이면 미분값을 나눕니다."""
    return Max(axis, keepdims)(x)


def min(x, axis=None, keepdims=False):  # noqa: A001
    """축 `axis`를 따라 최솟값을 구합니다(PyTorch의 amin). 같은 최솟값이 여럿이면 미분값을 나눕니다."""
    return Min(axis, keepdims)(x)
