"""47단계: 여러 클래스 분류. 원소 꺼내기 ``get_item``, 소프트맥스, 교차 엔트로피.

- ``GetItem``/``get_item(x, index)``: NumPy와 같은 인덱싱. 역전파는 ``GetItemGrad``가 꺼낸 자리에
  미분값을 더해(``np.add.at``) 입력 모양으로 되돌립니다. 이 역전파의 역전파는 다시 ``get_item``입니다.
- ``Log``, ``Clip``: 교차 엔트로피에 쓰는 로그와, 값을 구간에 가두는 함수.
- ``softmax_simple``: 식 그대로 exp(x) / Σ exp(x). 점수가 크면(1000) exp가 넘쳐 nan이 됩니다.
- ``Softmax``: 최댓값을 빼고 계산하는 함수 하나. 역전파는 gx = y·gy − y·Σ(y·gy).
- ``softmax_cross_entropy_simple``: softmax → clip(1e-15, 1) → log → 정답 자리 꺼내기의 조합.
- ``SoftmaxCrossEntropy``: log-sum-exp로 넘침 없이 계산하는 함수 하나. 역전파는 (softmax(x) − 원-핫)/N.

한계: 인덱싱을 연산자(``x[1]``)로 쓰지 않고 ``get_item(x, 1)``로 부릅니다(``Variable``을 고치지
않으려고). ``softmax_cross_entropy_simple``은 확률을 1e-15로 잘라 ``log 0``을 피하므로, 정답 확률이
그보다 작으면 손실이 약 34.5에서 멈추고 미분값이 0이 됩니다. 그 밖에는 46단계와 같습니다.
"""

import numpy as np

from . import step46 as _previous
from .step43 import Function, as_variable, exp, sum
from .step46 import *  # noqa: F403

__all__ = [
    *_previous.__all__,
    "GetItem",
    "GetItemGrad",
    "get_item",
    "Log",
    "log",
    "Clip",
    "clip",
    "softmax_simple",
    "Softmax",
    "softmax",
    "softmax_cross_entropy_simple",
    "SoftmaxCrossEntropy",
    "softmax_cross_entropy",
]


# --8<-- [start:get-item]
class GetItem(Function):
    def __init__(self, slices):
        self.slices = slices

    def forward(self, x):
        return x[self.slices]

    def backward(self, gy):
        (x,) = self.inputs
        return GetItemGrad(self.slices, x.shape)(gy)


class GetItemGrad(Function):
    """꺼낸 자리에 미분값을 더해 원래 모양으로 되돌립니다(같은 자리를 두 번 꺼냈으면 두 번 더함)."""

    def __init__(self, slices, in_shape):
        self.slices = slices
        self.in_shape = in_shape

    def forward(self, gy):
        gx = np.zeros(self.in_shape, dtype=gy.dtype)
        np.add.at(gx, self.slices, gy)
        return gx

    def backward(self, ggx):
        return get_item(ggx, self.slices)


def get_item(x, slices):
    return GetItem(slices)(x)
    # --8<-- [end:get-item]


class Log(Function):
    def forward(self, x):
        return np.log(x)

    def backward(self, gy):
        (x,) = self.inputs
        return gy / x


def log(x):
    return Log()(x)


class Clip(Function):
    """x를 [x_min, x_max]로 자릅니다. 역전파는 자르지 않은 원소로만 미분값을 보냅니다."""

    def __init__(self, x_min, x_max):
        self.x_min = x_min
        self.x_max = x_max

    def forward(self, x):
        return np.clip(x, self.x_min, self.x_max)

    def backward(self, gy):
        (x,) = self.inputs
        mask = (x.data >= self.x_min) * (x.data <= self.x_max)
        return gy * mask


def clip(x, x_min, x_max):
    return Clip(x_min, x_max)(x)


# --8<-- [start:softmax]
def softmax_simple(x, axis=1):
    """식 그대로의 소프트맥스. 점수가 크면 exp가 넘칩니다."""
    x = as_variable(x)
    y = exp(x)
    return y / sum(y, axis=axis, keepdims=True)


class Softmax(Function):
    """최댓값을 빼고 계산하는 소프트맥스."""

    def __init__(self, axis=1):
        self.axis = axis

    def forward(self, x):
        y = np.exp(x - x.max(axis=self.axis, keepdims=True))
        return y / y.sum(axis=self.axis, keepdims=True)

    def backward(self, gy):
        y = self.outputs[0]()
        gx = y * gy
        return gx - y * gx.sum(axis=self.axis, keepdims=True)


def softmax(x, axis=1):
    return Softmax(axis)(x)


# --8<-- [end:softmax]


# --8<-- [start:cross-entropy]
def softmax_cross_entropy_simple(x, t):
    """확률을 구해 log를 씌우는 교차 엔트로피. 확률은 1e-15 아래로 자릅니다."""
    x, t = as_variable(x), as_variable(t)
    n = x.shape[0]
    p = clip(softmax(x), 1e-15, 1.0)
    log_p = log(p)
    tlog_p = get_item(log_p, (np.arange(n), t.data))
    return -1 * sum(tlog_p) / n


class SoftmaxCrossEntropy(Function):
    """log-sum-exp로 넘침 없이 계산하는 교차 엔트로피."""

    def forward(self, x, t):
        n = x.shape[0]
        m = x.max(axis=1, keepdims=True)
        log_z = m + np.log(np.exp(x - m).sum(axis=1, keepdims=True))
        log_p = x - log_z
        return -log_p[np.arange(n), t.ravel()].sum() / np.float32(n)

    def backward(self, gy):
        x, t = self.inputs
        n, classes = x.shape
        gy = gy * (1 / n)
        y = softmax(x)
        onehot = np.eye(classes, dtype=t.dtype)[t.data]
        return (y - onehot) * gy, None  # 정답 t의 미분값은 없습니다


def softmax_cross_entropy(x, t):
    return SoftmaxCrossEntropy()(x, t)
    # --8<-- [end:cross-entropy]
