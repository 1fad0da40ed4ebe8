"""합성곱 층 `Conv2d`(57단계): 필터와 편향을 매개변수로 가지고 `conv2d`를 부릅니다.

`Linear`처럼 `in_channels`를 주지 않으면 처음 들어온 입력 (N, C, H, W)의 C로 필터를 만듭니다.
"""

from __future__ import annotations

import numpy as np

from .._checks import check_count
from ..autograd.variable import Parameter, Variable
from ..functions.conv import conv2d, pair
from .layers import InputSizeFromW, Layer

__all__ = ["Conv2d"]


# --8<-- [start:conv2d-layer]
class Conv2d(Layer):
    """2차원 합성곱 층. W는 (OC, C, KH, KW), b는 (OC,)입니다.

    W의 처음 값은 평균 0, 표준편차 √(1/(C·KH·KW))의 정규 분포에서 뽑습니다(DeZero와 같은 규모).
    `seed`(정수나 numpy.random.Generator)를 주면 같은 값으로 시작합니다. `bias=False`이면 편향이
    없습니다(DeZero의 `nobias=True`).
    """

    def __init__(
        self,
        out_channels: int,
        kernel_size: int | tuple[int, int],
        stride: int | tuple[int, int] = 1,
        pad: int | tuple[int, int] = 0,
        in_channels: int | None = None,
        *,
        bias: bool = True,
        dtype: object = np.float32,
        seed: int | np.random.Generator | None = None,
    ) -> None:
        self.out_channels = check_count("out_channels", out_channels)
        self.kernel_size = pair(kernel_size, "kernel_size")
        self.stride = pair(stride, "stride")
        self.pad = pair(pad, "pad", minimum=0)
        self.in_channels = None if in_channels is None else check_count("in_channels", in_channels)
        self.dtype = np.dtype(dtype)
        self.rng = np.random.default_rng(seed)
        self.W = Parameter(None, name="W")
        if self.in_channels is not None:
            self._init_W()
        self.b = Parameter(np.zeros(out_channels, dtype=self.dtype), name="b") if bias else None

    def _init_W(self) -> None:
        kh, kw = self.kernel_size
        scale = np.sqrt(1.0 / (self.in_channels * kh * kw))
        shape = (self.out_channels, self.in_channels, kh, kw)
        self.W.data = (self.rng.standard_normal(shape) * scale).astype(self.dtype)

    def forward(self, x):
        if self.W.data is None:
            shape = np.shape(x.data if isinstance(x, Variable) else x)
            if len(shape) != 4:
                raise ValueError(
                    f"Conv2d의 입력은 (N, C, H, W) 모양의 4차원 배열이어야 합니다. 받은 모양: {shape}."
                )
            self.in_channels = check_count("입력의 채널 수", shape[1])
            self._init_W()
        return conv2d(x, self.W, self.b, self.stride, self.pad)
        # --8<-- [end:conv2d-layer]

    in_channels = InputSizeFromW(axis=1)

    def _lazy_shape(self, param: Parameter) -> tuple[int | None, ...] | None:
        return (self.out_channels, self.in_channels, *self.kernel_size) if param is self.W else None

    def __repr__(self) -> str:
        return (
            f"Conv2d(in_channels={self.in_channels}, out_channels={self.out_channels}, "
            f"kernel_size={self.kernel_size}, stride={self.stride}, pad={self.pad})"
        )
