"""원소의 값은 그대로 두고 모양과 배치만 바꾸는 함수: `reshape`, `transpose`, `get_item`(인덱싱).

값을 바꾸지 않으므로 역전파도 미분값의 배치만 거꾸로 되돌립니다. 세 함수 모두 입력을 붙잡지
않고, 배치를 되돌리는 데 필요한 것(입력의 모양, 축의 순서와 역순열, 인덱스)만 기억합니다.

- `reshape`: 미분값을 입력의 모양으로 되돌립니다.
- `transpose`: 미분값의 축을 거꾸로(역순열로) 바꿉니다.
- `get_item`: 꺼낸 자리에 미분값을 놓고 나머지는 0입니다. 같은 자리를 여러 번 꺼냈으면 그만큼
  더합니다(`np.add.at`).

역전파는 `gy.reshape(...)`, `gy.transpose(...)`처럼 메서드로 씁니다. 보통의 역전파에서 gy는
ndarray이고 `create_graph=True`이면 Variable인데, 둘 다 같은 이름의 메서드를 가지므로(Variable의
메서드는 `operators.py`가 붙입니다) 한 식이 두 경우에 모두 맞습니다.

브로드캐스트(`broadcast_to`)와 그 반대(`sum_to`)는 이항 연산의 역전파가 쓰므로 `functions.py`에,
축을 따라 줄이는 합·평균·최댓값은 `reductions.py`에 있습니다.
"""

from __future__ import annotations

import copy

import numpy as np

from ..autograd.messages import short_repr
from ..autograd.variable import Variable
from .elementwise import LibraryFunction, as_shape


# --8<-- [start:reshape]
class Reshape(LibraryFunction):
    """원소의 순서는 그대로 두고 모양만 바꿉니다. 역전파는 미분값을 입력의 모양으로 되돌립니다."""

    def __init__(self, shape: tuple[int, ...]) -> None:
        self.shape = shape

    def keep(self, needs):
        return (False,)  # 역전파에는 입력의 모양만 있으면 됩니다.

    def forward(self, x):
        self.x_shape = x.shape
        try:
            return x.reshape(self.shape)
        except ValueError:
            raise ValueError(
                f"모양 {x.shape}(원소 {x.size}개)인 배열을 모양 {self.shape}(으)로 바꿀 수 "
                f"없습니다. 원소 개수가 같은 모양을 주세요. -1은 한 축에만 쓸 수 있고, 그 축의 "
                f"크기는 나머지 축에서 정해집니다."
            ) from None

    def backward(self, gy):
        return gy.reshape(self.x_shape)


# --8<-- [end:reshape]


# --8<-- [start:transpose]
class Transpose(LibraryFunction):
    """축의 순서를 바꿉니다. `axes`가 None이면 축을 모두 뒤집습니다(2차원이면 전치 행렬).

    i번 출력 축이 `axes[i]`번 입력 축이므로, 역전파는 역순열(inverse)로 축을 되돌립니다.
    """

    def __init__(self, axes: tuple[int, ...] | None = None) -> None:
        self.axes = axes

    def keep(self, needs):
        return (False,)

    def forward(self, x):
        if self.axes is None:
            return x.transpose()
        axes = _permutation(self.axes, x.shape)
        self.inverse = tuple(sorted(range(len(axes)), key=axes.__getitem__))
        return x.transpose(axes)

    def backward(self, gy):
        if self.axes is None:
            return gy.transpose()
        return gy.transpose(self.inverse)


# --8<-- [end:transpose]


def _permutation(axes: tuple[int, ...], shape: tuple[int, ...]) -> tuple[int, ...]:
    """axes가 0..ndim-1의 순열인지 확인하고, 음수 축을 양수로 바꿔 돌려줍니다."""
    ndim = len(shape)
    normalized = tuple(a + ndim if a < 0 else a for a in axes)
    if sorted(normalized) != list(range(ndim)):
        raise ValueError(
            f"transpose의 axes {axes}는 모양 {shape}({ndim}차원)의 축 순서가 아닙니다. "
            f"0부터 {ndim - 1}까지(음수는 뒤에서부터)의 축을 한 번씩 모두 담아 주세요. "
            f"예: {tuple(reversed(range(ndim)))}"
        )
    return normalized


# --8<-- [start:get_item]
class GetItem(LibraryFunction):
    """인덱싱 `x[index]`: 슬라이스, 정수, 정수 배열(팬시 인덱싱), bool 배열을 NumPy처럼 받습니다.

    역전파는 입력 모양의 0 배열에서 꺼낸 자리에만 미분값을 더합니다(`_scatter_add`).
    """

    def __init__(self, index: object) -> None:
        self.index = index

    def keep(self, needs):
        return (False,)

    def forward(self, x):
        self.x_shape = x.shape
        try:
            return x[self.index]
        except IndexError as error:
            raise IndexError(
                f"모양 {x.shape}인 배열에서 인덱스 {short_repr(self.index)}(으)로 꺼낼 수 없습니다. "
                f"축마다 범위 안의 정수, 슬라이스, 정수 배열이나 모양이 맞는 bool 배열을 주세요. "
                f"(NumPy: {error})"
            ) from None

    def backward(self, gy):
        return _scatter_add(gy, self.index, self.x_shape)


class GetItemGrad(LibraryFunction):
    """`GetItem`의 역전파를 그래프로 기록할 때(create_graph) 쓰는 함수: 0 배열의 꺼낸 자리에 더하기.

    이 계산은 gy에 대해 선형이므로, 그 역전파는 다시 같은 자리를 꺼내는 `GetItem`입니다.
    """

    def __init__(self, index: object, shape: tuple[int, ...]) -> None:
        self.index = index
        self.shape = shape

    def keep(self, needs):
        return (False,)

    def forward(self, gy):
        return _scatter_add_array(gy, self.index, self.shape)

    def backward(self, ggx):
        if isinstance(ggx, Variable):
            return GetItem(self.index)(ggx)
        return ggx[self.index]


def _scatter_add(gy, index: object, shape: tuple[int, ...]):
    """ndarray는 ndarray로, Variable은 그래프에 기록되는 `GetItemGrad`로 계산합니다."""
    if isinstance(gy, Variable):
        return GetItemGrad(index, shape)(gy)
    return _scatter_add_array(gy, index, shape)


def _scatter_add_array(gy: np.ndarray, index: object, shape: tuple[int, ...]) -> np.ndarray:
    gx = np.zeros(shape, dtype=gy.dtype)
    if _is_basic(index):
        gx[index] = gy  # 슬라이스와 정수만 쓴 인덱스는 같은 자리를 두 번 가리키지 않습니다.
    else:
        np.add.at(gx, index, gy)  # x[[0, 0, 1]]처럼 겹치는 자리는 미분값을 더합니다.
    return gx


# --8<-- [end:get_item]


_BASIC_TYPES = (int, np.integer, slice, type(None), type(Ellipsis))


def _is_basic(index: object) -> bool:
    """슬라이스, 정수, None, ...만으로 된 인덱스인지(NumPy의 기본 인덱싱). bool은 여기에 들지 않습니다."""
    parts = index if type(index) is tuple else (index,)
    return all(isinstance(i, _BASIC_TYPES) and not isinstance(i, bool) for i in parts)


def _plain_index(index: object) -> object:
    """인덱스에 든 Variable은 그 데이터로 바꾸고(인덱스는 미분하지 않습니다), 배열과 리스트는 복사합니다.

    역전파는 순전파의 인덱스로 미분값을 되돌려 놓으므로, 사용자가 순전파 뒤에 `idx[0] = 5`처럼 인덱스를
    고쳐도 순전파와 같은 자리를 써야 합니다(PyTorch도 NumPy 배열을 텐서로 복사해 받습니다). 인덱스 배열은
    꺼낸 결과보다 크지 않으므로(bool 배열은 원소당 1바이트) 복사는 순전파의 비용에 비해 작습니다.
    """
    if type(index) is tuple:
        return tuple([_plain_part(i) for i in index])
    return _plain_part(index)


def _plain_part(part: object) -> object:
    if isinstance(part, Variable):
        part = part.data
    if isinstance(part, np.ndarray):
        return part.copy()
    if isinstance(part, list):
        return copy.deepcopy(part)
    return part


# --- 소문자 도우미 ---------------------------------------------------------------------
def reshape(x, shape):
    """x의 모양을 `shape`로 바꾼 Variable을 돌려줍니다(원소 개수는 같아야 합니다).

    `shape`는 정수나 정수의 튜플이고, 한 축은 -1로 두면 나머지에서 크기를 정합니다. 이미 그
    모양인 Variable은 그대로 돌려줍니다.
    """
    shape = as_shape(shape)
    if isinstance(x, Variable) and x.shape == shape:
        return x
    return Reshape(shape)(x)


def transpose(x, axes=None):
    """x의 축 순서를 바꿉니다. `axes`가 None이면 축을 모두 뒤집고(행렬이면 전치), 아니면
    `np.transpose`처럼 i번 출력 축이 될 입력 축의 번호를 차례로 줍니다(음수는 뒤에서부터)."""
    if axes is not None:
        axes = as_shape(axes, "transpose의 axes")
    return Transpose(axes)(x)


def get_item(x, index):
    """`x[index]`를 Variable로 돌려줍니다. 인덱스는 NumPy와 같습니다. 정수 배열로 같은 자리를
    여러 번 꺼내면, 역전파에서 그 자리의 미분값이 그만큼 더해집니다."""
    return GetItem(_plain_index(index))(x)
