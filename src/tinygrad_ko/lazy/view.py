"""뷰(view): 1차원으로 놓인 버퍼의 원소를 다차원 배열로 읽는 방법(모양, 보폭, 시작 위치).

NumPy의 `ndarray.strides`와 같은 생각입니다. 다만 보폭을 바이트가 아니라 원소 단위로 셉니다.
`(i0, i1, ...)` 자리의 원소는 버퍼의 `offset + i0*strides[0] + i1*strides[1] + ...`번 칸에 있습니다.

- `reshape_view`는 연속된(contiguous) 뷰에서만 복사 없이 됩니다. 아니면 None을 돌려주고, 부르는 쪽이 먼저
  연속된 버퍼로 만듭니다.
- `expand`(브로드캐스트)는 늘린 축의 보폭을 0으로 둡니다: 같은 칸을 여러 번 읽을 뿐 복사하지 않습니다.
- `merge_axes`는 생성한 반복문의 겹을 줄입니다. 모든 뷰에서 이어 붙일 수 있는 이웃 축을 한 축으로 합칩니다.
"""

from __future__ import annotations

import math
from dataclasses import dataclass


# --8<-- [start:view]
@dataclass(frozen=True)
class View:
    """1차원 버퍼를 읽는 방법: 모양, 원소 단위의 보폭, 버퍼에서 시작하는 칸."""

    shape: tuple[int, ...]
    strides: tuple[int, ...]
    offset: int = 0

    @property
    def contiguous(self) -> bool:
        return self.offset == 0 and self.strides == contiguous_strides(self.shape)


def contiguous_strides(shape: tuple[int, ...]) -> tuple[int, ...]:
    """C 순서(마지막 축이 가장 빨리 변함)로 빈틈없이 놓인 배열의 보폭. 크기 1인 축의 보폭은 0으로 둡니다."""
    strides, step = [], 1
    for n in reversed(shape):
        strides.append(step if n != 1 else 0)
        step *= n
    return tuple(reversed(strides))


def contiguous(shape: tuple[int, ...]) -> View:
    return View(shape, contiguous_strides(shape))


def reshape_view(view: View, shape: tuple[int, ...]) -> View | None:
    """원소 순서를 지킨 채 모양만 바꾼 뷰. 연속된 뷰가 아니면 None(이 엔진은 단순하게 복사합니다. NumPy는 그중 일부를 복사 없이 바꿉니다)."""
    if not view.contiguous:
        return None
    return contiguous(shape)


def expand(view: View, shape: tuple[int, ...]) -> View:
    """브로드캐스트: 앞에 축을 더하고, 크기 1인 축을 늘립니다. 늘어난 축의 보폭은 0입니다."""
    lead = len(shape) - len(view.shape)
    strides = [0] * lead
    for n, old, stride in zip(shape[lead:], view.shape, view.strides, strict=True):
        strides.append(stride if old == n else 0)
    return View(shape, tuple(strides), view.offset)


# --8<-- [end:view]


# --8<-- [start:merge-axes]
def merge_axes(shape: tuple[int, ...], strides_list: list[tuple[int, ...]]) -> tuple:
    """모든 뷰에서 `stride[k] == stride[k+1] * shape[k+1]`인 이웃 축 k, k+1을 한 축으로 합칩니다.

    빈틈없는 1000×1000 배열 둘을 더하는 반복문은 두 겹이 아니라 한 겹(10⁶번)이 됩니다. 크기 1인
    축은 먼저 뺍니다. 돌려주는 값: (합친 모양, 뷰마다 합친 보폭).
    """
    keep = [k for k, n in enumerate(shape) if n != 1]
    merged_shape = [shape[k] for k in keep]
    merged = [[s[k] for k in keep] for s in strides_list]
    k = len(merged_shape) - 2
    while k >= 0:
        if all(s[k] == s[k + 1] * merged_shape[k + 1] for s in merged):
            merged_shape[k] *= merged_shape[k + 1]
            del merged_shape[k + 1]
            for s in merged:
                s[k] = s[k + 1]
                del s[k + 1]
        k -= 1
    return tuple(merged_shape), [tuple(s) for s in merged]


# --8<-- [end:merge-axes]


def size(shape: tuple[int, ...]) -> int:
    return math.prod(shape)
