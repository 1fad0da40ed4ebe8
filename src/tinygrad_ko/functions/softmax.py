"""소프트맥스와 그 위의 손실: 여러 클래스 가운데 하나를 고르는 분류(47단계).

- `softmax(x, axis=-1)`: 점수를 확률로. p_i = exp(x_i) / Σ_j exp(x_j).
- `log_softmax(x, axis=-1)`: log p_i = x_i − log Σ_j exp(x_j). 확률이 아주 작아도 −inf가 되지 않습니다.
- `softmax_cross_entropy(x, t)`: 정답 클래스의 −log p의 평균(PyTorch의 `cross_entropy`).

세 함수 모두 수치적으로 안정합니다. exp가 넘치지 않도록 먼저 축의 최댓값 m을 빼고(결과는 같습니다:
exp(x − m) / Σ exp(x − m) = exp(x) / Σ exp(x)), log-sum-exp를 m + log Σ exp(x − m)으로 계산합니다.
점수가 1000이어도 inf나 nan이 나오지 않습니다.

역전파는 보통 ndarray로, `create_graph=True`일 때는 Variable로 같은 식을 계산합니다(고계 미분).
"""

from __future__ import annotations

import numbers

import numpy as np

from ..autograd.variable import Variable
from .elementwise import LibraryFunction, exp

__all__ = [
    "LogSoftmax",
    "Softmax",
    "SoftmaxCrossEntropy",
    "log_softmax",
    "softmax",
    "softmax_cross_entropy",
]


def _exp(a):
    """ndarray에는 NumPy를, Variable(create_graph)에는 그래프에 기록되는 `exp`를 씁니다."""
    return exp(a) if isinstance(a, Variable) else np.exp(a)


# --8<-- [start:stable]
def _log_softmax_array(x: np.ndarray, axis: int) -> np.ndarray:
    """log_softmax를 NumPy로: x − m − log Σ exp(x − m) (m은 축의 최댓값)."""
    shifted = x - x.max(axis=axis, keepdims=True)  # 가장 큰 점수가 0이 되어 exp가 넘치지 않습니다.
    return shifted - np.log(np.exp(shifted).sum(axis=axis, keepdims=True))


# --8<-- [end:stable]


def _check_axis(axis: object, ndim: int) -> int:
    if isinstance(axis, bool) or not isinstance(axis, numbers.Integral) or not -ndim <= axis < ndim:
        raise ValueError(
            f"axis는 -{ndim} 이상 {ndim - 1} 이하의 정수여야 합니다(입력이 {ndim}차원). "
            f"받은 값: {axis!r}."
        )
    return int(axis) % ndim


# --8<-- [start:softmax]
class Softmax(LibraryFunction):
    """축 `axis`를 따라 softmax. 역전파: gx = y · (gy − Σ(gy · y)) (y는 출력, 합은 같은 축)."""

    keeps_output = True  # 국소 미분을 출력 y로 씁니다.

    def __init__(self, axis: int) -> None:
        self.axis = axis

    def keep(self, needs):
        return (False,)

    def forward(self, x):
        if x.shape[self.axis] == 0:  # 빈 축: 같은 모양의 빈 결과(PyTorch와 같음)
            return np.exp(x)
        y = np.exp(x - x.max(axis=self.axis, keepdims=True))
        return y / y.sum(axis=self.axis, keepdims=True)

    def backward(self, gy):
        y = self.saved_output()
        gx = y * gy
        return gx - y * gx.sum(axis=self.axis, keepdims=True)


# --8<-- [end:softmax]


class LogSoftmax(LibraryFunction):
    """축 `axis`를 따라 log_softmax. 역전파: gx = gy − softmax(x) · Σ gy = gy − exp(y) · Σ gy."""

    keeps_output = True

    def __init__(self, axis: int) -> None:
        self.axis = axis

    def keep(self, needs):
        return (False,)

    def forward(self, x):
        if x.shape[self.axis] == 0:  # 빈 축: 같은 모양의 빈 결과(PyTorch와 같음)
            return np.exp(x)
        return _log_softmax_array(x, self.axis)

    def backward(self, gy):
        y = self.saved_output()
        return gy - _exp(y) * gy.sum(axis=self.axis, keepdims=True)


# --8<-- [start:cross-entropy]
class SoftmaxCrossEntropy(LibraryFunction):
    """점수 x (N, C)와 정답 번호 t (N,)의 교차 엔트로피: −(1/N) Σ_n log softmax(x_n)[t_n].

    역전파: gx = (softmax(x) − onehot(t)) · gy / N. 정답 t는 미분하지 않는 정수이므로 입력이 아니라
    함수의 속성으로 둡니다.
    """

    def __init__(self, t: np.ndarray) -> None:
        self.t = t

    def forward(self, x):
        n = len(x)
        if n == 0:  # 빈 배치: 평균을 낼 샘플이 없으므로 NaN(PyTorch의 평균과 같음)
            return np.array(np.nan, dtype=x.dtype)
        log_p = _log_softmax_array(x, axis=1)
        return -log_p[np.arange(n), self.t].sum() / n

    def backward(self, gy):
        (x,) = self.saved()
        n, classes = x.shape
        onehot = np.eye(classes, dtype=x.dtype)[self.t]
        if isinstance(x, Variable):  # create_graph: softmax도 그래프에 기록합니다.
            p = Softmax(1)(x)
        else:
            p = np.exp(_log_softmax_array(x, axis=1))
        return (p - onehot) * (gy / max(n, 1))
        # --8<-- [end:cross-entropy]


def _data(x: object) -> object:
    return x.data if isinstance(x, Variable) else x


def softmax(x, axis: int = -1):
    """축 `axis`(기본값: 마지막 축)를 따라 점수를 확률로 바꿉니다. 축을 따라 더하면 1입니다."""
    return Softmax(_check_axis(axis, np.ndim(_data(x))))(x)


def log_softmax(x, axis: int = -1):
    """log(softmax(x))를 넘침 없이 계산합니다. 확률이 아주 작아도 −inf가 아닌 유한한 값이 나옵니다."""
    return LogSoftmax(_check_axis(axis, np.ndim(_data(x))))(x)


def softmax_cross_entropy(x, t):
    """점수 x (N, C)와 정답 클래스 번호 t (N,)의 평균 교차 엔트로피(PyTorch의 `cross_entropy`).

    t는 0 이상 C 미만의 정수 배열(또는 그런 Variable)입니다. 확률을 따로 구해 log를 씌우지 않고
    log_softmax로 한 번에 계산하므로, 점수가 ±1000이어도 유한한 값과 미분값이 나옵니다.
    """
    shape = np.shape(_data(x))
    labels = np.array(_data(t))  # 복사: 순전파 뒤에 t를 고쳐도 역전파는 순전파의 정답을 씁니다.
    if len(shape) != 2:
        raise ValueError(
            f"softmax_cross_entropy의 점수는 (샘플 수, 클래스 수) 모양의 2차원이어야 합니다. "
            f"받은 모양: {shape}. 샘플 하나라면 x.reshape(1, -1)로 바꿔 주세요."
        )
    if labels.dtype.kind not in "iu" or labels.shape != shape[:1]:
        raise ValueError(
            f"정답 t는 샘플마다 클래스 번호 하나인 정수 배열, 곧 모양 {shape[:1]}이어야 합니다. "
            f"받은 값: dtype {labels.dtype}, 모양 {labels.shape}. 원-핫 벡터라면 argmax(axis=1)로 "
            f"번호로 바꿔 주세요."
        )
    if labels.size and (labels.min() < 0 or labels.max() >= shape[1]):
        raise ValueError(
            f"정답 번호는 0 이상 {shape[1] - 1} 이하여야 합니다(클래스 {shape[1]}개). "
            f"받은 범위: {labels.min()}~{labels.max()}."
        )
    return SoftmaxCrossEntropy(labels)(x)
