"""행렬 곱(`matmul`, 연산자 `@`)과 그 위의 완전 연결 층 계산(`linear`: x @ W + b).

`y = x @ W`에서 x가 (N, D), W가 (D, H)이면 y는 (N, H)입니다. 역전파는 연쇄 법칙으로 유도하고
모양으로 점검합니다. N, D, H 가운데 두 크기만 같아도 틀린 곱의 모양이 맞을 수 있어, 모양만으로는
식이 정해지지 않습니다.

- gx = gy @ W.T: (N, H) @ (H, D) = (N, D), x와 같은 모양
- gW = x.T @ gy: (D, N) @ (N, H) = (D, H), W와 같은 모양

NumPy의 `np.matmul`과 같은 규칙을 따릅니다. 3차원 이상이면 마지막 두 축이 행렬이고 앞의 축은
배치(batch)로서 브로드캐스트합니다. 그래서 미분값은 배치 축을 더해(`sum_to`) 입력의 모양으로
되돌립니다. 1차원 피연산자는 x이면 (1, D)인 행, W이면 (D, 1)인 열로 보고 계산한 뒤 그 축을 뺍니다.

x의 미분에는 W가, W의 미분에는 x가 필요하므로, 미분이 필요한 쪽의 상대만 붙잡습니다(`keep`).
"""

from __future__ import annotations

import numpy as np

from ..autograd.variable import Variable
from .elementwise import LibraryFunction, _operand, _operands, _sum_to


# --8<-- [start:matrix_helpers]
def _matrix_t(a):
    """마지막 두 축을 바꿉니다(행렬마다의 전치). ndarray와 Variable에 모두 씁니다."""
    if a.ndim == 2:
        return a.T
    axes = (*range(a.ndim - 2), a.ndim - 1, a.ndim - 2)
    return a.transpose(axes)


def _as_matrices(x_shape: tuple[int, ...], w_shape: tuple[int, ...]) -> tuple:
    """1차원 피연산자를 행렬로 본 모양: x (D,) -> (1, D), W (D,) -> (D, 1)."""
    x2 = (1, *x_shape) if len(x_shape) == 1 else x_shape
    w2 = (*w_shape, 1) if len(w_shape) == 1 else w_shape
    return x2, w2


# --8<-- [end:matrix_helpers]


# --8<-- [start:matmul]
class MatMul(LibraryFunction):
    """행렬 곱 x @ W(`np.matmul`과 같은 규칙). 역전파: gx = gy @ W.T, gW = x.T @ gy."""

    def keep(self, needs):
        return needs[1], needs[0]  # x의 미분에는 W가, W의 미분에는 x가 필요합니다.

    def forward(self, x, W):
        self.shapes = (x.shape, W.shape)
        return np.matmul(x, W)

    def backward(self, gy):
        x, W = self.saved()
        return matmul_grads(self.shapes, gy, x, W)


# --8<-- [end:matmul]


# --8<-- [start:matmul_grads]
def matmul_grads(shapes: tuple, gy, x, W) -> tuple:
    """y = x @ W의 (gx, gW). 붙잡지 않은 쪽(None)의 상대 미분은 구하지 않습니다.

    보통의 역전파에서는 ndarray로, create_graph에서는 Variable로 불립니다(같은 식).
    """
    x_shape, w_shape = shapes
    if len(x_shape) == 2 and len(w_shape) == 2:  # 가장 흔한 경우: 행렬 두 개
        gx = None if W is None else gy @ W.T
        gW = None if x is None else x.T @ gy
        return gx, gW
    x2, w2 = _as_matrices(x_shape, w_shape)
    if x2 != x_shape or w2 != w_shape:  # 1차원 피연산자: 행렬로 보고, 빠진 축을 gy에 되살립니다.
        gy = gy.reshape(np.broadcast_shapes(x2[:-2], w2[:-2]) + (x2[-2], w2[-1]))
        x = None if x is None else x.reshape(x2)
        W = None if W is None else W.reshape(w2)
    gx = gW = None
    if W is not None:
        gx = _sum_to(gy @ _matrix_t(W), x2).reshape(x_shape)
    if x is not None:
        if len(w2) == 2:  # 배치 x @ 행렬 W: 배치를 행으로 펼쳐 한 번의 행렬 곱으로 더합니다.
            gW = x.reshape(-1, x2[-1]).T @ gy.reshape(-1, w2[-1])
        else:
            gW = _sum_to(_matrix_t(x) @ gy, w2)
        gW = gW.reshape(w_shape)
    return gx, gW


# --8<-- [end:matmul_grads]


# --8<-- [start:linear]
class LinearFunction(LibraryFunction):
    """완전 연결 층의 계산 y = x @ W + b를 노드 하나로. b가 없으면(입력 두 개) x @ W입니다.

    x @ W와 + b를 따로 기록하면 노드가 둘이지만, 한 노드면 기록과 역전파의 고정 비용이 절반이고
    편향은 새로 만든 곱의 결과에 제자리로 더합니다. 붙잡는 것은 역전파에 쓰는 x와 W뿐입니다.
    """

    def keep(self, needs):
        return (needs[1], needs[0], False)[: len(needs)]  # b의 미분에는 아무것도 필요 없습니다.

    def forward(self, x, W, b=None):
        self.shapes = (x.shape, W.shape)
        y = np.matmul(x, W)
        if b is not None:
            self.b_shape = np.shape(b)
            if y.ndim and b.dtype == y.dtype:
                y += b  # 새로 만든 y에 제자리로 더합니다(배열을 하나 덜 만듭니다).
            else:
                y = y + b
        return y

    def backward(self, gy):
        x, W = self.saved()[:2]
        gx, gW = matmul_grads(self.shapes, gy, x, W)
        needs = self.needs_input_grad
        if len(needs) == 2:
            return gx, gW
        return gx, gW, (_sum_to(gy, self.b_shape) if needs[2] else None)


# --8<-- [end:linear]


def check_matmul_shapes(x_shape: tuple[int, ...], w_shape: tuple[int, ...], what: str) -> None:
    """x @ W를 계산할 수 있는 모양인지 확인합니다. 아니면 받은 두 모양을 밝힌 ValueError."""
    if not x_shape or not w_shape:
        raise ValueError(
            f"{what}에는 1차원 이상의 배열이 필요합니다. 받은 모양: {x_shape}, {w_shape}. "
            f"스칼라를 곱하려면 * 를 쓰세요."
        )
    if len(x_shape) == 2 and len(w_shape) == 2 and x_shape[1] == w_shape[0]:
        return  # 가장 흔한 경우: 행렬 두 개
    x2, w2 = _as_matrices(x_shape, w_shape)
    if x2[-1] != w2[-2]:
        raise ValueError(
            f"{what}: 모양 {x_shape} @ {w_shape}은(는) 계산할 수 없습니다. 앞 배열의 마지막 축"
            f"({x2[-1]})과 뒤 배열의 {'첫' if len(w_shape) == 1 else '끝에서 두 번째'} 축"
            f"({w2[-2]})의 크기가 같아야 합니다. 전치(.T)나 reshape으로 모양을 맞춰 주세요."
        )
    try:
        np.broadcast_shapes(x2[:-2], w2[:-2])
    except ValueError:
        raise ValueError(
            f"{what}의 배치 축을 브로드캐스트할 수 없습니다: 모양 {x_shape} @ {w_shape}. 마지막 두 "
            f"축 앞의 배치 축 {x2[:-2]}와 {w2[:-2]}가 같거나 1이 되게 주세요."
        ) from None


def matmul_shape(x_shape: tuple[int, ...], w_shape: tuple[int, ...]) -> tuple[int, ...]:
    """x @ W의 모양(모양이 맞는지는 `check_matmul_shapes`로 먼저 확인합니다)."""
    if len(x_shape) == 2 and len(w_shape) == 2:
        return (x_shape[0], w_shape[1])
    x2, w2 = _as_matrices(x_shape, w_shape)
    shape = np.broadcast_shapes(x2[:-2], w2[:-2])
    shape += (x2[-2],) if len(x_shape) > 1 else ()
    return shape + ((w2[-1],) if len(w_shape) > 1 else ())


def _shape_of(x: object) -> tuple[int, ...]:
    return x.data.shape if isinstance(x, Variable) else np.shape(x)


# --- 소문자 도우미 ---------------------------------------------------------------------
def matmul(x, W):
    """행렬 곱 x @ W(`np.matmul`과 같은 규칙). 모양이 맞지 않으면 두 모양을 밝힌 ValueError."""
    x, W = _operands(x, W)
    check_matmul_shapes(_shape_of(x), _shape_of(W), "행렬 곱")
    return MatMul()(x, W)


def rmatmul(W, x):
    """`ndarray @ Variable`처럼 Variable이 오른쪽에 있는 행렬 곱: x @ W."""
    return matmul(x, W)


def linear(x, W, b=None):
    """완전 연결 층의 계산 x @ W + b(b는 없어도 됩니다). W는 (입력 크기, 출력 크기)입니다."""
    x, W = _operands(x, W)
    x_shape, w_shape = _shape_of(x), _shape_of(W)
    check_matmul_shapes(x_shape, w_shape, "linear의 x @ W")
    if b is None:
        return LinearFunction()(x, W)
    b = _operand(b, x)
    y_shape, b_shape = matmul_shape(x_shape, w_shape), _shape_of(b)
    if y_shape and b_shape == y_shape[-1:]:
        ok = True  # 가장 흔한 경우: (출력 크기,) 모양의 편향
    else:
        try:
            ok = np.broadcast_shapes(y_shape, b_shape) == y_shape
        except ValueError:
            ok = False
    if not ok:
        raise ValueError(
            f"linear의 편향 b의 모양 {_shape_of(b)}을(를) x @ W의 모양 {y_shape}에 더할 수 "
            f"없습니다. b는 보통 (출력 크기,) = ({y_shape[-1]},) 모양으로 주세요."
        )
    return LinearFunction()(x, W, b)
