"""합성곱과 풀링(55~57단계): `im2col`로 합성곱을 행렬 곱 한 번으로 바꿉니다.

입력 x는 (N, C, H, W): 배치 N, 채널 C, 높이 H, 너비 W. 필터 W는 (OC, C, KH, KW)이고 출력은
(N, OC, OH, OW)입니다. 출력 크기는 `get_conv_outsize`(패딩은 한쪽 폭, DeZero와 PyTorch와 같음).

- `im2col`: 필터가 닿는 창(window)마다 그 C·KH·KW개의 값을 한 줄로 펴서 (N·OH·OW, C·KH·KW) 행렬을
  만듭니다. 그러면 합성곱은 이 행렬과 (C·KH·KW, OC)로 편 필터의 곱 하나입니다. 창은
  `numpy.lib.stride_tricks.sliding_window_view`로 복사 없이 만들고, 행렬로 펼 때 그 모양을 뷰로 나타낼 수
  없으면 복사합니다.
  값이 겹쳐 담기므로 메모리는 입력의 KH·KW·OH·OW/(H·W)배입니다(같은 크기 패딩이면 KH·KW배).
- `col2im`: im2col의 반대 방향. 행렬의 값을 원래 자리로 되돌리며, 여러 창에 담겼던 자리는 더합니다.
  그래서 두 함수는 서로의 역전파입니다(선형 사상과 그 수반 사상).
- `conv2d_simple`: im2col, reshape, linear를 이어 붙인 가르치기용 합성곱(역전파는 저절로).
- `conv2d`: 같은 계산을 노드 하나로. 역전파는 gx = col2im(gy · W), gW = gyᵀ · im2col(x), gb = gy의 합.
- `pooling`(최댓값): 창마다 가장 큰 값. 순전파가 기억한 위치(argmax)로만 미분값이 갑니다. 패딩은
  PyTorch처럼 -∞입니다(DeZero는 0으로 채워, 음수 입력에서 값이 다릅니다).
- `average_pooling`: 창의 평균. 패딩한 0도 평균에 셉니다(PyTorch의 기본값 count_include_pad=True).

커널 크기, 스트라이드, 패딩은 정수 하나(가로세로 같음)나 (세로, 가로) 쌍으로 받습니다. 역전파는
모두 이 엔진의 함수로 쓰여 create_graph=True(고계 미분)에서도 맞습니다.
"""

from __future__ import annotations

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from ..autograd.messages import describe
from ..autograd.modes import backprop_enabled
from ..autograd.variable import Variable, as_variable, constant
from .elementwise import LibraryFunction, broadcast_to
from .matrix import linear

__all__ = [
    "AveragePooling",
    "Col2im",
    "Conv2dFunction",
    "Im2col",
    "Pooling",
    "average_pooling",
    "col2im",
    "conv2d",
    "conv2d_simple",
    "get_conv_outsize",
    "im2col",
    "pair",
    "pooling",
]


# --8<-- [start:get-conv-outsize]
def get_conv_outsize(input_size: int, kernel_size: int, stride: int, pad: int) -> int:
    """합성곱 출력의 한 축 크기: (H + 2P − K) // S + 1. P는 한쪽에 붙이는 패딩의 폭입니다."""
    return (input_size + pad * 2 - kernel_size) // stride + 1
    # --8<-- [end:get-conv-outsize]


def pair(value: object, what: str = "kernel_size", minimum: int = 1) -> tuple[int, int]:
    """정수 하나는 (그 수, 그 수)로, 정수 두 개의 튜플이나 리스트는 그대로 (세로, 가로)로 돌려줍니다."""
    items = (value, value) if isinstance(value, int | np.integer) else value
    if (
        isinstance(value, bool | np.bool_)
        or not isinstance(items, tuple | list)
        or len(items) != 2
        or not all(isinstance(v, int | np.integer) and not isinstance(v, bool) for v in items)
    ):
        raise TypeError(
            f"{what}에는 정수 하나나 정수 두 개의 튜플 (세로, 가로)를 주세요. 받은 값: "
            f"{describe(value)}. 예: 3 또는 (3, 5)."
        )
    if items[0] < minimum or items[1] < minimum:
        raise ValueError(f"{what}은(는) {minimum} 이상이어야 합니다. 받은 값: {value!r}.")
    return int(items[0]), int(items[1])


# --8<-- [start:geometry]
def _geometry(shape: tuple[int, ...], kernel_size, stride, pad, what: str) -> tuple:
    """(KH, KW), (SH, SW), (PH, PW), (OH, OW)를 정하고, 창이 하나도 없으면 받은 크기로 알립니다."""
    if len(shape) != 4:
        raise ValueError(
            f"{what}의 입력은 (N, C, H, W) 모양의 4차원 배열이어야 합니다. 받은 모양: {shape}"
            f"({len(shape)}차원). 그림 한 장이면 x[np.newaxis]나 x.reshape(1, C, H, W)로 배치 축을 "
            f"더해 주세요."
        )
    kh, kw = pair(kernel_size, "kernel_size")
    sh, sw = pair(stride, "stride")
    ph, pw = pair(pad, "pad", minimum=0)
    h, w = shape[2:]
    oh, ow = get_conv_outsize(h, kh, sh, ph), get_conv_outsize(w, kw, sw, pw)
    if oh < 1 or ow < 1:
        raise ValueError(
            f"{what}: 커널 (KH, KW) = ({kh}, {kw})이(가) 패딩한 입력 (H + 2·PH, W + 2·PW) = "
            f"({h + 2 * ph}, {w + 2 * pw})보다 큽니다(입력 모양 {shape}, 패딩 ({ph}, {pw})). 커널을 "
            f"줄이거나 패딩을 늘려 주세요."
        )
    return (kh, kw), (sh, sw), (ph, pw), (oh, ow)


# --8<-- [end:geometry]


# --- ndarray 계산 --------------------------------------------------------------------
# --8<-- [start:im2col-array]
def _windows(x, kernel_size, stride=1, pad=0, fill=0):
    """ndarray x (N, C, H, W)의 창들: (N, C, OH, OW, KH, KW) 읽기 전용 뷰(패딩하면 np.pad가 한 번 복사).

    `fill`은 패딩에 채울 값입니다(최댓값 풀링은 -∞).
    """
    (kh, kw), (sh, sw), (ph, pw), _ = _geometry(x.shape, kernel_size, stride, pad, "im2col")
    if ph or pw:
        x = np.pad(x, ((0, 0), (0, 0), (ph, ph), (pw, pw)), constant_values=fill)
    # 모든 자리의 창 (N, C, H'-KH+1, W'-KW+1, KH, KW)(H', W'는 패딩한 크기)에서 스트라이드만큼 건너뛴 창만 남깁니다.
    return sliding_window_view(x, (kh, kw), axis=(2, 3))[:, :, ::sh, ::sw]


def im2col_array(x, kernel_size, stride=1, pad=0, to_matrix=True):
    """ndarray x (N, C, H, W)의 창들을 펼칩니다.

    `to_matrix=True`이면 (N·OH·OW, C·KH·KW) 행렬, 아니면 (N, C, KH, KW, OH, OW) 배열입니다.
    """
    windows = _windows(x, kernel_size, stride, pad)
    n, c, oh, ow, kh, kw = windows.shape
    if to_matrix:
        # 창 하나(한 행)에 채널·세로·가로 순으로 값을 늘어놓습니다. 뷰로 나타낼 수 없으면 여기서 복사됩니다.
        return windows.transpose(0, 2, 3, 1, 4, 5).reshape(n * oh * ow, c * kh * kw)
    return np.ascontiguousarray(windows.transpose(0, 1, 4, 5, 2, 3))
    # --8<-- [end:im2col-array]


def col2im_array(col, input_shape, kernel_size, stride=1, pad=0, to_matrix=True):
    """im2col_array의 반대: 창들의 값을 (N, C, H, W)의 제자리로 더해 모읍니다.

    커널의 칸 (j, i)마다 한 번씩, 모든 창의 그 칸을 입력의 한 격자(스트라이드 간격)에 더합니다.
    반복은 커널의 칸 수(KH·KW)만큼이고, 화소마다 돌지 않습니다.
    """
    n, c, h, w = input_shape
    (kh, kw), (sh, sw), (ph, pw), (oh, ow) = _geometry(
        tuple(input_shape), kernel_size, stride, pad, "col2im"
    )
    if to_matrix:
        col = col.reshape(n, oh, ow, c, kh, kw).transpose(0, 3, 4, 5, 1, 2)
    img = np.zeros((n, c, h + 2 * ph, w + 2 * pw), dtype=col.dtype)
    if (sh, sw) == (kh, kw):  # 창이 겹치지 않으면(흔한 2×2 풀링) 더할 것 없이 축만 바꿔 놓습니다.
        img[:, :, : oh * kh, : ow * kw] = col.transpose(0, 1, 4, 2, 5, 3).reshape(
            n, c, oh * kh, ow * kw
        )
    else:
        for j in range(kh):
            rows = slice(j, j + sh * (oh - 1) + 1, sh)
            for i in range(kw):
                img[:, :, rows, i : i + sw * (ow - 1) + 1 : sw] += col[:, :, j, i]
    if ph or pw:
        img = img[:, :, ph : ph + h, pw : pw + w]
    return img


# --- 미분할 수 있는 im2col과 col2im: 서로가 서로의 역전파 ---------------------------------
class _Window(LibraryFunction):
    """im2col과 col2im의 공통 부분: 창의 모양(커널, 스트라이드, 패딩)과 입력 모양을 기억합니다."""

    def __init__(self, kernel_size, stride=1, pad=0, to_matrix=True, input_shape=None):
        self.kernel_size = kernel_size
        self.stride = stride
        self.pad = pad
        self.to_matrix = to_matrix
        self.input_shape = input_shape

    def keep(self, needs):
        return (False,)  # 선형 사상이라 역전파에 입력의 값이 필요 없습니다.


class Im2col(_Window):
    """(N, C, H, W) → 창들의 행렬. 역전파는 col2im입니다."""

    def forward(self, x):
        self.input_shape = x.shape
        return im2col_array(x, self.kernel_size, self.stride, self.pad, self.to_matrix)

    def backward(self, gy):
        return _col2im(
            gy, self.input_shape, self.kernel_size, self.stride, self.pad, self.to_matrix
        )


class Col2im(_Window):
    """창들의 행렬 → (N, C, H, W)(겹친 자리는 더함). 역전파는 im2col입니다."""

    def forward(self, col):
        return col2im_array(
            col, self.input_shape, self.kernel_size, self.stride, self.pad, self.to_matrix
        )

    def backward(self, gy):
        return _im2col(gy, self.kernel_size, self.stride, self.pad, self.to_matrix)


def _im2col(x, kernel_size, stride, pad, to_matrix):
    """역전파 안에서: ndarray는 ndarray로, Variable(create_graph)은 그래프에 기록되는 Im2col로."""
    if isinstance(x, Variable):
        return Im2col(kernel_size, stride, pad, to_matrix)(x)
    return im2col_array(x, kernel_size, stride, pad, to_matrix)


def _col2im(col, input_shape, kernel_size, stride, pad, to_matrix):
    if isinstance(col, Variable):
        return Col2im(kernel_size, stride, pad, to_matrix, input_shape)(col)
    return col2im_array(col, input_shape, kernel_size, stride, pad, to_matrix)


def im2col(x, kernel_size, stride=1, pad=0, to_matrix=True):
    """x (N, C, H, W)의 창들을 펼친 Variable. `to_matrix=True`이면 (N·OH·OW, C·KH·KW),
    아니면 (N, C, KH, KW, OH, OW)입니다. 역전파는 `col2im`입니다."""
    x = as_variable(x)
    _geometry(x.shape, kernel_size, stride, pad, "im2col")
    return Im2col(kernel_size, stride, pad, to_matrix)(x)


def col2im(col, input_shape, kernel_size, stride=1, pad=0, to_matrix=True):
    """`im2col`의 반대: 창들의 값을 모양 `input_shape` (N, C, H, W)의 제자리에 더해 모읍니다."""
    col = as_variable(col)
    if not isinstance(input_shape, tuple | list) or not all(
        isinstance(n, int | np.integer) and not isinstance(n, bool) for n in input_shape
    ):  # 5.5를 int()로 5로 자르거나 None에서 영어 오류가 나지 않게
        raise TypeError(
            f"col2im의 input_shape에는 정수 네 개의 튜플 (N, C, H, W)를 주세요. 받은 값: "
            f"{describe(input_shape)}. 보통 im2col에 준 x의 x.shape입니다."
        )
    input_shape = tuple(int(n) for n in input_shape)
    (kh, kw), _, _, (oh, ow) = _geometry(input_shape, kernel_size, stride, pad, "col2im")
    n, c = input_shape[:2]
    expected = (n * oh * ow, c * kh * kw) if to_matrix else (n, c, kh, kw, oh, ow)
    if col.shape != expected:
        raise ValueError(
            f"col2im: 입력 모양 {input_shape}, 커널 ({kh}, {kw})의 창 행렬은 모양 {expected}이어야 "
            f"합니다. 받은 모양: {col.shape}. im2col에 준 것과 같은 인수를 주세요."
        )
    return Col2im(kernel_size, stride, pad, to_matrix, input_shape)(col)


# --- 합성곱 ---------------------------------------------------------------------------
def _check_conv(x_shape, w_shape, b_shape, stride, pad, what: str):
    """conv2d의 입력 모양을 확인하고 기하(커널, 스트라이드, 패딩, 출력 크기)를 돌려줍니다."""
    if len(w_shape) != 4:
        raise ValueError(
            f"{what}의 필터 W는 (OC, C, KH, KW) 모양의 4차원 배열이어야 합니다. 받은 모양: {w_shape}."
        )
    geometry = _geometry(x_shape, w_shape[2:], stride, pad, what)
    if x_shape[1] != w_shape[1]:
        raise ValueError(
            f"{what}: 입력 x의 채널 수 {x_shape[1]}(모양 {x_shape})과 필터 W의 입력 채널 수 "
            f"{w_shape[1]}(모양 {w_shape}, (OC, C, KH, KW))이(가) 다릅니다. W의 두 번째 축을 x의 "
            f"채널 수에 맞춰 주세요."
        )
    if b_shape is not None and b_shape != (w_shape[0],):
        raise ValueError(
            f"{what}의 편향 b는 출력 채널마다 하나씩 (OC,) = ({w_shape[0]},) 모양이어야 합니다. "
            f"받은 모양: {b_shape}."
        )
    return geometry


def _shape(x) -> tuple[int, ...]:
    return x.data.shape if isinstance(x, Variable) else np.shape(x)


def _operand(obj) -> Variable:
    """Variable은 그대로, ndarray와 수는 미분하지 않는 상수 변수로 감쌉니다(다른 함수가 입력을 받는 방식)."""
    return obj if isinstance(obj, Variable) else constant(as_variable(obj).data)


# --8<-- [start:conv2d-simple]
def conv2d_simple(x, W, b=None, stride=1, pad=0):
    """가르치기용 합성곱: im2col로 편 행렬과 편 필터의 linear 한 번. 역전파는 이어 붙인 함수들이 합니다."""
    x, W = _operand(x), _operand(W)  # ndarray는 미분하지 않는 상수로(conv2d와 같게)
    _, _, _, (oh, ow) = _check_conv(x.shape, W.shape, _b_shape(b), stride, pad, "conv2d_simple")
    n = x.shape[0]
    oc, _, kh, kw = W.shape
    col = im2col(x, (kh, kw), stride, pad, to_matrix=True)  # (N·OH·OW, C·KH·KW)
    weight = W.reshape(oc, -1).T  # (C·KH·KW, OC)
    t = linear(col, weight, b)  # (N·OH·OW, OC)
    return t.reshape(n, oh, ow, oc).transpose(0, 3, 1, 2)  # (N, OC, OH, OW)
    # --8<-- [end:conv2d-simple]


def _b_shape(b):
    return None if b is None else _shape(b)


# --8<-- [start:conv2d-forward]
class Conv2dFunction(LibraryFunction):
    """합성곱을 노드 하나로. 그림 n마다 y[n] = W · col[n] + b: W는 (OC, C·KH·KW)로 편 필터, col[n]은
    im2col로 편 (C·KH·KW, OH·OW) 행렬입니다. 그림마다의 행렬 곱이라 출력이 바로 (N, OC, OH, OW)입니다.

    역전파(gy를 그림마다 (OC, OH·OW) 행렬로 보아):
    gx = col2im(Wᵀ · gy), gW = 그림마다의 gy · col[n]ᵀ를 더한 것, gb = gy를 N, OH, OW 축으로 더한 것.
    """

    def __init__(self, stride=1, pad=0):
        self.stride = stride
        self.pad = pad

    def keep(self, needs):
        if not needs[1]:  # 펼친 창 행렬은 gW에만 씁니다. W가 고정이면 곧바로 놓습니다.
            self.col = None
        return (needs[1], needs[0], False)[: len(needs)]  # gx에는 W가, gW에는 x가 필요합니다.

    def forward(self, x, W, b=None):
        self.x_shape = x.shape
        oc, _, kh, kw = self.w_shape = W.shape
        col = im2col_array(x, (kh, kw), self.stride, self.pad, to_matrix=False)
        n, _, _, _, oh, ow = col.shape  # (N, C, KH, KW, OH, OW)
        self.out_hw = (oh, ow)
        # -1 대신 크기를 적습니다: 빈 배치(N = 0)에서는 -1을 정할 수 없습니다(PyTorch는 빈 출력).
        ckk = W.shape[1] * kh * kw
        col = col.reshape(n, ckk, oh * ow)  # (N, C·KH·KW, OH·OW)
        y = np.matmul(W.reshape(oc, ckk), col)  # (N, OC, OH·OW)
        if b is not None:
            y += b[:, None]
        # 그래프에 들 수 있으면 펼친 행렬을 gW를 위해 남겨 둡니다(역전파가 im2col을 다시 하지 않게).
        # 크기는 입력의 KH·KW·OH·OW/(H·W)배이고, 역전파가 한 번 쓰고 나면 놓습니다(W가 고정이면 keep이 바로).
        self.col = col if backprop_enabled() else None
        return y.reshape(n, oc, oh, ow)
        # --8<-- [end:conv2d-forward]

    def backward(self, gy):
        x, W = self.saved()[:2]
        col, self.col = self.col, None
        oc, c, kh, kw = self.w_shape
        n, (oh, ow) = self.x_shape[0], self.out_hw
        needs = self.needs_input_grad
        gy = gy.reshape(n, oc, oh * ow)
        gx = gW = gb = None
        if needs[0] and isinstance(gy, Variable):  # create_graph: 그래프에 기록되는 연산으로
            gcol = (W.reshape(oc, -1).T @ gy).reshape(n, c, kh, kw, oh, ow)
            gx = _col2im(gcol, self.x_shape, (kh, kw), self.stride, self.pad, False)
        elif needs[0]:
            gx = _conv_grad_x(gy, W, self.x_shape, self.out_hw, self.stride, self.pad)
        if needs[1]:
            if col is None or isinstance(x, Variable):  # 두 번째 역전파, 또는 create_graph
                col = _im2col(x, (kh, kw), self.stride, self.pad, False)
                col = col.reshape(n, c * kh * kw, oh * ow)
            gW = (gy @ col.transpose(0, 2, 1)).sum(axis=0).reshape(self.w_shape)
        if len(needs) == 3 and needs[2]:
            gb = gy.sum(axis=(0, 2))
        return (gx, gW, gb)[: len(needs)]


def _conv_grad_x(gy, W, x_shape, out_hw, stride, pad):
    """ndarray로 gx = col2im(Wᵀ · gy). 값은 create_graph의 길과 같고, 배치 축 N을 맨 안쪽에 둡니다.

    col2im은 커널의 칸마다 (N, C, OH, OW) 덩어리를 입력의 한 격자에 더하는데, 맨 안쪽 축이 OW(예: 8)이면
    NumPy가 짧은 줄을 수없이 돕니다. N을 맨 안쪽에 두면 한 줄이 OW·N개로 길어집니다(빠르기는 모양에 따라 다릅니다).
    """
    n, c, h, w = x_shape
    oc, _, kh, kw = W.shape
    oh, ow = out_hw
    (sh, sw), (ph, pw) = pair(stride, "stride"), pair(pad, "pad", 0)
    gy_t = gy.transpose(1, 2, 0).reshape(oc, -1)  # gy (N, OC, OH·OW) → (OC, OH·OW·N)
    gcol = (W.reshape(oc, -1).T @ gy_t).reshape(c, kh, kw, oh, ow, n)
    img = np.zeros((c, h + 2 * ph, w + 2 * pw, n), dtype=gcol.dtype)
    for j in range(kh):
        rows = slice(j, j + sh * (oh - 1) + 1, sh)
        for i in range(kw):
            img[:, rows, i : i + sw * (ow - 1) + 1 : sw] += gcol[:, j, i]
    return img[:, ph : ph + h, pw : pw + w].transpose(3, 0, 1, 2)  # (N, C, H, W)


def conv2d(x, W, b=None, stride=1, pad=0):
    """2차원 합성곱. x (N, C, H, W), W (OC, C, KH, KW), b (OC,) 또는 None → (N, OC, OH, OW).

    잘못된 모양(4차원이 아닌 입력, 채널 수가 다른 필터, 패딩한 입력보다 큰 커널)은 받은 모양을 밝힌
    ValueError입니다. `torch.nn.functional.conv2d(x, W, b, stride, padding)`와 같은 값입니다.
    """
    _check_conv(_shape(x), _shape(W), _b_shape(b), stride, pad, "conv2d")
    if b is None:
        return Conv2dFunction(stride, pad)(x, W)
    return Conv2dFunction(stride, pad)(x, W, b)


# --- 풀링 -----------------------------------------------------------------------------
# --8<-- [start:pooling]
class Pooling(LibraryFunction):
    """최댓값 풀링. 창마다 가장 큰 값의 위치(argmax)를 기억해 두고, 역전파는 그 자리로만 보냅니다."""

    def __init__(self, kernel_size, stride=1, pad=0):
        self.kernel_size = kernel_size
        self.stride = stride
        self.pad = pad

    def keep(self, needs):
        return (False,)  # 위치(argmax)만 있으면 됩니다.

    def forward(self, x):
        self.x_shape = x.shape
        fill = -np.inf if x.dtype.kind == "f" else np.iinfo(x.dtype).min  # PyTorch처럼 -∞ 패딩
        windows = _windows(x, self.kernel_size, self.stride, self.pad, fill)
        kh, kw = windows.shape[4:]
        # 창의 칸을 하나씩(KH·KW번) 보며 모든 창의 최댓값과 그 칸 번호를 한꺼번에 고칩니다. 창을
        # 펼친 복사본은 만들지 않습니다. 같은 값이면 번호가 작은 칸이 남고, NaN이면 번호가 큰 NaN이
        # 이깁니다(PyTorch와 같음, 41장의 PyTorch 상자).
        y = windows[..., 0, 0].copy()
        index_type = np.int8 if kh * kw < 128 else np.intp
        self.argmax = argmax = np.zeros(y.shape, dtype=index_type)  # 창 안에서 몇 번째 칸인지
        inside = _inside_windows(x.shape, self.kernel_size, self.stride, self.pad)
        chosen_inside = None if inside is None else inside[..., 0, 0].copy()
        for k in range(1, kh * kw):
            v = windows[..., k // kw, k % kw]
            better = v > y
            if v.dtype.kind == "f":
                better |= v != v  # NaN
            if (
                inside is not None
            ):  # 값이 -∞로 같아도 패딩보다 입력의 칸(PyTorch처럼 패딩은 후보가 아님)
                better |= inside[..., k // kw, k % kw] & ~chosen_inside
                chosen_inside |= inside[..., k // kw, k % kw]
            argmax += better * (index_type(k) - argmax)  # better인 자리만 k로
            np.maximum(y, v, out=y)
        return y

    # --8<-- [end:pooling]

    def backward(self, gy):
        return PoolingGrad(self)(gy) if isinstance(gy, Variable) else _scatter_to_argmax(self, gy)


def _inside_windows(shape, kernel_size, stride, pad):
    """패딩이 있으면 창마다 칸이 입력 안인지(True) 패딩인지를 담은 (1, 1, OH, OW, KH, KW) 뷰, 없으면 None."""
    if pair(pad, "pad", 0) == (0, 0):
        return None
    return _windows(np.ones((1, 1, *shape[2:]), dtype=bool), kernel_size, stride, pad, False)


class PoolingGrad(LibraryFunction):
    """최댓값 풀링의 역전파를 그래프로(create_graph): gy를 argmax 자리에 놓습니다. gy에 선형이므로
    그 역전파는 같은 자리를 다시 꺼내는 `PoolingAt`입니다."""

    def __init__(self, pooling: Pooling):
        self.pooling = pooling

    def keep(self, needs):
        return (False,)

    def forward(self, gy):
        return _scatter_to_argmax(self.pooling, gy)

    def backward(self, ggx):
        if isinstance(ggx, Variable):
            return PoolingAt(self.pooling)(ggx)
        return _gather_at_argmax(self.pooling, ggx)


class PoolingAt(PoolingGrad):
    """입력에서 풀링이 기억한 argmax 자리의 값을 꺼냅니다. 역전파는 다시 `PoolingGrad`입니다."""

    def forward(self, x):
        return _gather_at_argmax(self.pooling, x)

    def backward(self, gy):
        if isinstance(gy, Variable):
            return PoolingGrad(self.pooling)(gy)
        return _scatter_to_argmax(self.pooling, gy)


def _gather_at_argmax(pooling: Pooling, x: np.ndarray) -> np.ndarray:
    """x (N, C, H, W)의 창마다 풀링이 기억한 칸의 값 (N, C, OH, OW)."""
    windows = _windows(x, pooling.kernel_size, pooling.stride, pooling.pad)
    kh, kw = windows.shape[4:]
    out = np.zeros(windows.shape[:4], dtype=x.dtype)
    for k in range(kh * kw):
        np.copyto(out, windows[..., k // kw, k % kw], where=pooling.argmax == k)
    return out


def _scatter_to_argmax(pooling: Pooling, gy: np.ndarray) -> np.ndarray:
    """gy (N, C, OH, OW)를 창마다 최댓값이던 칸의 자리에 더한 (N, C, H, W). 칸마다 한 번씩(KH·KW번),
    그 칸이 최댓값인 창들의 미분값을 입력의 한 격자(스트라이드 간격)에 더합니다(col2im과 같은 생각)."""
    (kh, kw), (sh, sw), (ph, pw) = (
        pair(pooling.kernel_size),
        pair(pooling.stride, "stride"),
        pair(pooling.pad, "pad", 0),
    )
    n, c, h, w = pooling.x_shape
    oh, ow = gy.shape[2:]
    gx = np.zeros((n, c, h + 2 * ph, w + 2 * pw), dtype=gy.dtype)
    finite = np.isfinite(gy).all()  # inf·0 = NaN이 되지 않게, 유한하지 않으면 np.where로
    for k in range(kh * kw):
        j, i = divmod(k, kw)
        cell = gx[:, :, j : j + sh * (oh - 1) + 1 : sh, i : i + sw * (ow - 1) + 1 : sw]
        hit = pooling.argmax == k
        cell += gy * hit if finite else np.where(hit, gy, 0)
    return gx[:, :, ph : ph + h, pw : pw + w] if ph or pw else gx


# --8<-- [start:average-pooling]
class AveragePooling(LibraryFunction):
    """평균 풀링. 창의 KH·KW칸이 평균에 1/(KH·KW)씩 기여하므로, 역전파는 gy/(KH·KW)를 창의 모든
    칸에 퍼뜨려(broadcast) col2im으로 되돌립니다."""

    def __init__(self, kernel_size, stride=1, pad=0):
        self.kernel_size = kernel_size
        self.stride = stride
        self.pad = pad

    def keep(self, needs):
        return (False,)

    def forward(self, x):
        self.x_shape = x.shape
        return _windows(x, self.kernel_size, self.stride, self.pad).mean(axis=(4, 5))

    def backward(self, gy):
        kh, kw = pair(self.kernel_size)
        n, c, oh, ow = gy.shape
        gy = gy * (1.0 / (kh * kw))
        gcol = broadcast_to(gy.reshape(n, c, 1, 1, oh, ow), (n, c, kh, kw, oh, ow))
        return _col2im(gcol, self.x_shape, (kh, kw), self.stride, self.pad, False)
        # --8<-- [end:average-pooling]


def _check_pooling(x, kernel_size, stride, pad, what: str):
    x = as_variable(x)
    _geometry(x.shape, kernel_size, stride, pad, what)
    return x


def _check_pooling_pad(kernel_size, pad, what: str, why: str) -> None:
    (kh, kw), (ph, pw) = pair(kernel_size), pair(pad, "pad", 0)
    if ph > kh // 2 or pw > kw // 2:
        raise ValueError(
            f"{what}의 패딩 ({ph}, {pw})은(는) 커널 ({kh}, {kw})의 절반 이하여야 합니다(PyTorch와 "
            f"같음). 더 크면 패딩만 든 창이 생겨 {why}."
        )


def pooling(x, kernel_size, stride=1, pad=0):
    """최댓값 풀링(x (N, C, H, W) → (N, C, OH, OW)). `torch.nn.functional.max_pool2d`와 같은 값입니다."""
    x = _check_pooling(x, kernel_size, stride, pad, "pooling")
    _check_pooling_pad(kernel_size, pad, "pooling", "최댓값이 -∞가 됩니다")
    return Pooling(kernel_size, stride, pad)(x)


def average_pooling(x, kernel_size, stride=1, pad=0):
    """평균 풀링(패딩한 0도 셈). `torch.nn.functional.avg_pool2d`와 같은 값입니다."""
    x = _check_pooling(x, kernel_size, stride, pad, "average_pooling")
    _check_pooling_pad(kernel_size, pad, "average_pooling", "입력과 상관없이 평균이 0이 됩니다")
    return AveragePooling(kernel_size, stride, pad)(x)
