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
from .step43 import Function, Variable, as_variable, exp, sum
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
    def __init__(self, index):
        self.index = index

    def forward(self, x):
        return x[self.index]

    def backward(self, gy):
        shape = self.inputs[0].shape
        return GetItemGrad(self.index, shape)(gy)


class GetItemGrad(Function):
    """꺼낸 미분값을 0으로 채운 입력 모양의 배열에 제자리로 더해 넣습니다."""

    def __init__(self, index, shape):
        self.index = index
        self.shape = shape

    def forward(self, gy):
        gx = np.zeros(self.shape, dtype=gy.dtype)
        np.add.at(gx, self.index, gy)  # gx[index] += gy는 겹치는 자리에 한 번만 더합니다.
        return gx

    def backward(self, ggx):
        return get_item(ggx, self.index)  # 0에 더해 넣기의 미분은 다시 꺼내기입니다.


def get_item(x, index):
    return GetItem(index)(x)
    # --8<-- [end:get-item]


class Log(Function):
    def forward(self, x):
        return np.log(x)

    def backward(self, gy):
        return gy / self.inputs[0]


def log(x):
    return Log()(x)


class Clip(Function):
    """x를 [low, high]로 가둡니다. 역전파는 갇히지 않은(구간 안의) 원소로만 미분값을 보냅니다."""

    def __init__(self, low, high):
        self.low = low
        self.high = high

    def forward(self, x):
        return np.clip(x, self.low, self.high)

    def backward(self, gy):
        x = self.inputs[0].data
        inside = (self.low <= x) & (x <= self.high)
        return gy * inside


def clip(x, low, high):
    return Clip(low, high)(x)


# --8<-- [start:softmax]
def softmax_simple(x, axis=1):
    """식 그대로의 소프트맥스. 점수가 크면 exp가 넘칩니다."""
    e = exp(as_variable(x))
    return e / sum(e, axis=axis, keepdims=True)


class Softmax(Function):
    """최댓값을 빼고 계산하는 소프트맥스."""

    def __init__(self, axis=1):
        self.axis = axis

    def forward(self, x):
        e = np.exp(x - x.max(axis=self.axis, keepdims=True))
        return e / e.sum(axis=self.axis, keepdims=True)

    def backward(self, gy):
        y = self.outputs[0]()  # 국소 미분을 출력 y로 씁니다.
        y_gy = y * gy
        return y_gy - y * y_gy.sum(axis=self.axis, keepdims=True)


def softmax(x, axis=1):
    return Softmax(axis)(x)


# --8<-- [end:softmax]


def _labels(t):
    """정답 번호를 1차원 정수 배열로. Variable이면 그 값을 씁니다."""
    return np.asarray(t.data if isinstance(t, Variable) else t).reshape(-1)


# --8<-- [start:cross-entropy]
def softmax_cross_entropy_simple(x, t):
    """확률에 log를 씌워 정답 자리를 꺼내는 교차 엔트로피. log 0을 피하려고 확률을 1e-15 이상으로 올립니다."""
    labels = _labels(t)
    p = clip(softmax(as_variable(x)), 1e-15, 1.0)
    picked = get_item(log(p), (np.arange(len(labels)), labels))
    return sum(picked) * (-1.0 / len(labels))


class SoftmaxCrossEntropy(Function):
    """log-sum-exp로 넘침 없이 계산하는 교차 엔트로피. 미분하지 않는 정답 번호는 속성으로 둡니다."""

    def __init__(self, labels):
        self.labels = labels

    def forward(self, x):
        shifted = x - x.max(axis=1, keepdims=True)
        log_p = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))
        return -np.mean(log_p[np.arange(len(x)), self.labels])

    def backward(self, gy):
        x = self.inputs[0]
        q = np.eye(x.shape[1])[self.labels]  # 원-핫
        return (softmax(x) - q) * (gy / len(self.labels))


def softmax_cross_entropy(x, t):
    return SoftmaxCrossEntropy(_labels(t))(x)
    # --8<-- [end:cross-entropy]
