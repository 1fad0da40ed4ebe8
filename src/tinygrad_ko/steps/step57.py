"""57단계: 합성곱과 풀링. ``im2col``/``col2im``, ``conv2d_simple``, ``conv2d``, ``pooling``, ``average_pooling``.

``im2col``은 필터가 닿는 창마다 값을 한 줄로 펴서, 합성곱을 행렬 곱 한 번으로 바꿉니다. 창은 커널의
칸 (j, i)마다 한 번씩, 입력에서 스트라이드 간격으로 잘라 모읍니다(반복은 KH·KW번). ``col2im``은 그
반대로 값을 제자리에 더하며, 두 함수는 서로의 역전파입니다. ``conv2d_simple``은 im2col과 linear를
이어 붙인 것이고, ``conv2d``는 함수 하나로 ``np.tensordot``을 씁니다. 그 역전파는 전치 합성곱
``deconv2d``(gx)와 ``Conv2DGradW``(gW)입니다. ``pooling``(최댓값)은 순전파 때의 위치(argmax)를
기억해 역전파에 씁니다. 축을 고르는 전치(``transpose(x, (0, 3, 1, 2))``)를 위해 ``Transpose``를 다시
정의합니다. 책은 ``x.transpose(0, 3, 1, 2)``처럼 메서드로 부르지만, 40단계의 ``Variable``을 고치면 그
단계의 한계(축을 고를 수 없음)가 사라지므로 여기서는 함수로 부릅니다.

한계: ``AveragePooling.backward``가 커널 크기를 ``KW, KH`` 순서로 풀어, 세로와 가로가 다른 커널(예:
(3, 2))에서 ``IndexError``가 납니다. 최댓값 풀링도 패딩을 0으로 채워 음수 입력에서 PyTorch(-∞ 패딩)와
값이 다릅니다. 모양을 검사하지 않아 잘못된 입력은 NumPy의 영어 오류가 됩니다. ``pair``는 정수와
튜플만 받습니다(리스트는 ``ValueError``).
"""

import numpy as np

from . import step55 as _previous
from .step43 import Function, as_variable, broadcast_to, linear
from .step55 import *  # noqa: F403
from .step55 import get_conv_outsize

__all__ = [
    *_previous.__all__,
    "pair",
    "get_deconv_outsize",
    "im2col_array",
    "col2im_array",
    "Im2col",
    "im2col",
    "Col2im",
    "col2im",
    "conv2d_simple",
    "Conv2d",
    "conv2d",
    "Deconv2d",
    "deconv2d",
    "Conv2DGradW",
    "Pooling",
    "Pooling2DGrad",
    "Pooling2DWithIndexes",
    "pooling",
    "AveragePooling",
    "average_pooling",
]


def pair(x):
    if isinstance(x, int):
        return (x, x)
    if isinstance(x, tuple):
        assert len(x) == 2
        return x
    raise ValueError


def get_deconv_outsize(size, k, s, p):
    return s * (size - 1) + k - 2 * p


# --- 축을 고르는 전치 -------------------------------------------------------------------
class Transpose(Function):
    """axes가 None이면 축을 모두 뒤집고(40단계와 같음), 아니면 그 순서로 바꿉니다."""

    def __init__(self, axes=None):
        self.axes = axes

    def forward(self, x):
        return x.transpose(self.axes)

    def backward(self, gy):
        if self.axes is None:
            return transpose(gy)
        inverse = tuple(np.argsort([ax % len(self.axes) for ax in self.axes]))
        return transpose(gy, inverse)


def transpose(x, axes=None):
    return Transpose(axes)(x)


# --- im2col과 col2im ---------------------------------------------------------------------
# --8<-- [start:im2col-array]
def im2col_array(img, kernel_size, stride, pad, to_matrix=True):
    N, C, H, W = img.shape
    KH, KW = pair(kernel_size)
    SH, SW = pair(stride)
    PH, PW = pair(pad)
    OH = get_conv_outsize(H, KH, SH, PH)
    OW = get_conv_outsize(W, KW, SW, PW)

    # 책과 같이 아래쪽과 오른쪽은 스트라이드 - 1만큼 더 채웁니다.
    img = np.pad(img, ((0, 0), (0, 0), (PH, PH + SH - 1), (PW, PW + SW - 1)), mode="constant")
    col = np.ndarray((N, C, KH, KW, OH, OW), dtype=img.dtype)
    for j in range(KH):
        j_end = j + SH * OH
        for i in range(KW):
            i_end = i + SW * OW
            col[:, :, j, i, :, :] = img[:, :, j:j_end:SH, i:i_end:SW]

    if to_matrix:
        col = col.transpose((0, 4, 5, 1, 2, 3)).reshape((N * OH * OW, -1))
    return col
    # --8<-- [end:im2col-array]


def col2im_array(col, img_shape, kernel_size, stride, pad, to_matrix=True):
    N, C, H, W = img_shape
    KH, KW = pair(kernel_size)
    SH, SW = pair(stride)
    PH, PW = pair(pad)
    OH = get_conv_outsize(H, KH, SH, PH)
    OW = get_conv_outsize(W, KW, SW, PW)

    if to_matrix:
        col = col.reshape(N, OH, OW, C, KH, KW).transpose(0, 3, 4, 5, 1, 2)
    img = np.zeros((N, C, H + 2 * PH + SH - 1, W + 2 * PW + SW - 1), dtype=col.dtype)
    for j in range(KH):
        j_end = j + SH * OH
        for i in range(KW):
            i_end = i + SW * OW
            img[:, :, j:j_end:SH, i:i_end:SW] += col[:, :, j, i, :, :]
    return img[:, :, PH : H + PH, PW : W + PW]


class Im2col(Function):
    def __init__(self, kernel_size, stride, pad, to_matrix):
        self.input_shape = None
        self.kernel_size = kernel_size
        self.stride = stride
        self.pad = pad
        self.to_matrix = to_matrix

    def forward(self, x):
        self.input_shape = x.shape
        return im2col_array(x, self.kernel_size, self.stride, self.pad, self.to_matrix)

    def backward(self, gy):
        return col2im(gy, self.input_shape, self.kernel_size, self.stride, self.pad, self.to_matrix)


def im2col(x, kernel_size, stride=1, pad=0, to_matrix=True):
    return Im2col(kernel_size, stride, pad, to_matrix)(x)


class Col2im(Function):
    def __init__(self, input_shape, kernel_size, stride, pad, to_matrix):
        self.input_shape = input_shape
        self.kernel_size = kernel_size
        self.stride = stride
        self.pad = pad
        self.to_matrix = to_matrix

    def forward(self, x):
        return col2im_array(
            x, self.input_shape, self.kernel_size, self.stride, self.pad, self.to_matrix
        )

    def backward(self, gy):
        return im2col(gy, self.kernel_size, self.stride, self.pad, self.to_matrix)


def col2im(x, input_shape, kernel_size, stride=1, pad=0, to_matrix=True):
    return Col2im(input_shape, kernel_size, stride, pad, to_matrix)(x)


# --- 합성곱 ------------------------------------------------------------------------------
def conv2d_simple(x, W, b=None, stride=1, pad=0):
    x, W = as_variable(x), as_variable(W)

    Weight = W
    N, C, H, W = x.shape
    OC, C, KH, KW = Weight.shape
    SH, SW = pair(stride)
    PH, PW = pair(pad)
    OH = get_conv_outsize(H, KH, SH, PH)
    OW = get_conv_outsize(W, KW, SW, PW)

    col = im2col(x, (KH, KW), stride, pad, to_matrix=True)
    Weight = Weight.reshape(OC, -1).transpose()
    t = linear(col, Weight, b)
    y = transpose(t.reshape(N, OH, OW, OC), (0, 3, 1, 2))
    return y


class Conv2d(Function):
    def __init__(self, stride=1, pad=0):
        self.stride = pair(stride)
        self.pad = pair(pad)

    def forward(self, x, W, b):
        KH, KW = W.shape[2:]
        col = im2col_array(x, (KH, KW), self.stride, self.pad, to_matrix=False)
        # col (N, C, KH, KW, OH, OW)와 W (OC, C, KH, KW)를 C, KH, KW 축으로 곱해 더합니다.
        y = np.tensordot(col, W, ((1, 2, 3), (1, 2, 3)))  # (N, OH, OW, OC)
        if b is not None:
            y += b
        return np.rollaxis(y, 3, 1)  # (N, OC, OH, OW)

    def backward(self, gy):
        x, W, b = self.inputs
        gx = deconv2d(gy, W, b=None, stride=self.stride, pad=self.pad, outsize=x.shape[2:])
        gW = Conv2DGradW(self)(x, gy)
        gb = None
        if b.data is not None:
            gb = gy.sum(axis=(0, 2, 3))
        return gx, gW, gb


def conv2d(x, W, b=None, stride=1, pad=0):
    return Conv2d(stride, pad)(x, W, b)


class Deconv2d(Function):
    """전치 합성곱: 합성곱의 gx와 같은 계산(입력의 한 칸을 커널만큼 퍼뜨려 더함)."""

    def __init__(self, stride=1, pad=0, outsize=None):
        self.stride = pair(stride)
        self.pad = pair(pad)
        self.outsize = outsize

    def forward(self, x, W, b):
        Weight = W
        SH, SW = self.stride
        PH, PW = self.pad
        C, OC, KH, KW = Weight.shape
        N, C, H, W = x.shape
        if self.outsize is None:
            out_h = get_deconv_outsize(H, KH, SH, PH)
            out_w = get_deconv_outsize(W, KW, SW, PW)
        else:
            out_h, out_w = pair(tuple(self.outsize))
        img_shape = (N, OC, out_h, out_w)

        gcol = np.tensordot(Weight, x, (0, 1))  # (OC, KH, KW, N, H, W)
        gcol = np.rollaxis(gcol, 3)  # (N, OC, KH, KW, H, W)
        y = col2im_array(gcol, img_shape, (KH, KW), self.stride, self.pad, to_matrix=False)
        if b is not None:
            y += b.reshape((1, b.size, 1, 1))
        return y

    def backward(self, gy):
        x, W, b = self.inputs
        gx = conv2d(gy, W, b=None, stride=self.stride, pad=self.pad)
        gW = Conv2DGradW(self)(gy, x)
        gb = None
        if b.data is not None:
            gb = gy.sum(axis=(0, 2, 3))
        return gx, gW, gb


def deconv2d(x, W, b=None, stride=1, pad=0, outsize=None):
    return Deconv2d(stride, pad, outsize)(x, W, b)


class Conv2DGradW(Function):
    """합성곱의 gW: im2col(x)와 gy를 N, OH, OW 축으로 곱해 더합니다."""

    def __init__(self, conv2d):
        W = conv2d.inputs[1]
        self.kernel_size = W.shape[2:]
        self.stride = conv2d.stride
        self.pad = conv2d.pad

    def forward(self, x, gy):
        col = im2col_array(x, self.kernel_size, self.stride, self.pad, to_matrix=False)
        return np.tensordot(gy, col, ((0, 2, 3), (0, 4, 5)))

    def backward(self, gys):
        x, gy = self.inputs
        gW = self.outputs[0]()
        xh, xw = x.shape[2:]
        gx = deconv2d(gy, gW, stride=self.stride, pad=self.pad, outsize=(xh, xw))
        ggy = conv2d(x, gW, stride=self.stride, pad=self.pad)
        return gx, ggy


# --- 풀링 --------------------------------------------------------------------------------
class Pooling(Function):
    def __init__(self, kernel_size, stride=1, pad=0):
        self.kernel_size = kernel_size
        self.stride = stride
        self.pad = pad

    def forward(self, x):
        col = im2col_array(x, self.kernel_size, self.stride, self.pad, to_matrix=False)
        N, C, KH, KW, OH, OW = col.shape
        col = col.reshape(N, C, KH * KW, OH, OW)
        self.indexes = col.argmax(axis=2)  # 창 안에서 가장 큰 칸의 번호
        return col.max(axis=2)

    def backward(self, gy):
        return Pooling2DGrad(self)(gy)


class Pooling2DGrad(Function):
    """gy를 창마다 기억한 칸(argmax)에 놓고 col2im으로 되돌립니다."""

    def __init__(self, mpool2d):
        self.mpool2d = mpool2d
        self.kernel_size = mpool2d.kernel_size
        self.stride = mpool2d.stride
        self.pad = mpool2d.pad
        self.input_shape = mpool2d.inputs[0].shape
        self.dtype = mpool2d.inputs[0].dtype
        self.indexes = mpool2d.indexes

    def forward(self, gy):
        N, C, OH, OW = gy.shape
        N, C, H, W = self.input_shape
        KH, KW = pair(self.kernel_size)

        gcol = np.zeros((N * C * OH * OW * KH * KW), dtype=self.dtype)
        # 창 하나가 KH·KW칸을 차지하는 1차원 배열에서, 창마다 기억한 칸의 번호
        indexes = self.indexes.ravel() + np.arange(0, self.indexes.size * KH * KW, KH * KW)
        gcol[indexes] = gy.ravel()
        gcol = gcol.reshape(N, C, OH, OW, KH, KW)
        gcol = np.swapaxes(gcol, 2, 4)
        gcol = np.swapaxes(gcol, 3, 5)  # (N, C, KH, KW, OH, OW)
        return col2im_array(
            gcol, (N, C, H, W), self.kernel_size, self.stride, self.pad, to_matrix=False
        )

    def backward(self, ggx):
        return Pooling2DWithIndexes(self.mpool2d)(ggx)


class Pooling2DWithIndexes(Function):
    """입력에서 기억한 칸(argmax)의 값을 꺼냅니다(Pooling2DGrad의 역전파)."""

    def __init__(self, mpool2d):
        self.kernel_size = mpool2d.kernel_size
        self.stride = mpool2d.stride
        self.pad = mpool2d.pad
        self.indexes = mpool2d.indexes

    def forward(self, x):
        col = im2col_array(x, self.kernel_size, self.stride, self.pad, to_matrix=False)
        N, C, KH, KW, OH, OW = col.shape
        col = col.reshape(N, C, KH * KW, OH, OW)
        col = col.transpose(0, 1, 3, 4, 2).reshape(-1, KH * KW)
        indexes = self.indexes.ravel()
        col = col[np.arange(len(indexes)), indexes]
        return col.reshape(N, C, OH, OW)


def pooling(x, kernel_size, stride=1, pad=0):
    return Pooling(kernel_size, stride, pad)(x)


# --8<-- [start:average-pooling]
class AveragePooling(Function):
    def __init__(self, kernel_size, stride=1, pad=0):
        self.kernel_size = kernel_size
        self.stride = stride
        self.pad = pad
        self.input_shape = None

    def forward(self, x):
        self.input_shape = x.shape
        col = im2col_array(x, self.kernel_size, self.stride, self.pad, to_matrix=False)
        return col.mean(axis=(2, 3))

    def backward(self, gy):
        N, C, OH, OW = gy.shape
        KW, KH = pair(self.kernel_size)  # 책의 결함: (세로, 가로)를 거꾸로 풉니다.
        gy /= KW * KH
        gcol = broadcast_to(gy.reshape(-1), (KH, KW, N * C * OH * OW))
        gcol = transpose(gcol.reshape(KH, KW, N, C, OH, OW), (2, 3, 0, 1, 4, 5))
        return col2im(
            gcol, self.input_shape, self.kernel_size, self.stride, self.pad, to_matrix=False
        )
        # --8<-- [end:average-pooling]


def average_pooling(x, kernel_size, stride=1, pad=0):
    return AveragePooling(kernel_size, stride, pad)(x)
