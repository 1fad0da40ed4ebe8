"""빠른 길의 제자리 역전파: 엔진만 가진 미분값 배열에 결과를 덮어쓰는 규칙(큰 배열의 원소별 연산).

기준 구현의 backward(`elementwise.py`)는 늘 새 배열을 만듭니다. 빠른 길(`autograd/fastpath.py`)은 출력 쪽
미분값 gy를 엔진 말고는 아무도 갖지 않는다는 것을 알 때(시작값, 엔진이 더한 합, 이 규칙들이 새로 만든 결과) 이
규칙을 부르고, 규칙은 gy의 자리에 결과를 씁니다. 참조 수를 보지 않고, 누가 배열을 만들었는지로 압니다.

규칙은 `(입력마다의 미분값, 입력마다 엔진만 가진 배열인지)`를 돌려주거나, 제자리에 쓸 수 없으면(결과의
모양이나 dtype이 gy와 다를 때) None을 돌려줍니다. 그러면 빠른 길이 기준 구현의 backward를 부릅니다. 계산의 순서와
연산은 backward와 같아서 결과가 비트 단위로 같습니다(`tests/autograd/test_in_place_backward.py`).
"""

from __future__ import annotations

import numpy as np

from ..autograd import fastpath
from .elementwise import Add, Exp, Mul, Neg, Square, Sub


def _fits(gy: np.ndarray, other: object) -> bool:
    """gy의 자리에 `gy ⊙ other`를 쓸 수 있는지: 결과의 모양과 dtype이 gy와 같을 때만."""
    return np.shape(other) in ((), gy.shape) and np.result_type(gy, other) == gy.dtype


def _to_inputs(func, gx0, gx1) -> tuple:
    """`to_inputs`로 입력의 모양에 맞춥니다. 더해서 줄인 결과는 새 배열(뷰가 아니면 엔진만 가집니다)."""
    out0, out1 = func.to_inputs(gx0, gx1)
    return (out0, out1), (_ours(out0, gx0), _ours(out1, gx1))


def _ours(out, given) -> bool:
    return type(out) is np.ndarray and (out is given or out.base is None)


def neg(func, gy):
    return (np.negative(gy, out=gy),), (True,)


def exp(func, gy):
    y = func.saved_output()
    if not _fits(gy, y):
        return None
    return (np.multiply(gy, y, out=gy),), (True,)


def square(func, gy):
    (x,) = func.saved()
    if not _fits(gy, x):
        return None
    np.multiply(gy, x, out=gy)  # backward의 gy * x * 2와 같은 순서
    return (np.multiply(gy, 2, out=gy),), (True,)


def mul(func, gy):
    x0, x1 = func.saved()
    gx1 = None if x0 is None else gy * x0  # gy를 덮어쓰기 전에 계산합니다(새 배열).
    if x1 is None:
        gx0 = None
    elif _fits(gy, x1):
        gx0 = np.multiply(gy, x1, out=gy)
    else:
        gx0 = gy * x1
    return _to_inputs(func, gx0, gx1)


def sub(func, gy):
    need0, need1 = func.needs_input_grad
    if need0 and need1:  # gy는 x0 쪽으로 그대로 가고, x1 쪽은 새 배열입니다.
        return _to_inputs(func, gy, -gy)
    if need1:
        return _to_inputs(func, None, np.negative(gy, out=gy))
    return _to_inputs(func, gy if need0 else None, None)


def add(func, gy):
    need0, need1 = func.needs_input_grad
    if need0 and need1:
        return None  # 같은 배열이 두 입력으로 갑니다: 어느 쪽도 덮어쓰면 안 되므로 기준 구현대로.
    return _to_inputs(func, gy if need0 else None, gy if need1 else None)


for _cls, _rule in ((Neg, neg), (Exp, exp), (Square, square), (Mul, mul), (Sub, sub), (Add, add)):
    fastpath.register_in_place(_cls, _rule)
