"""46단계: 매개변수를 고치는 방법을 객체로. ``Optimizer``와 ``SGD``, ``MomentumSGD``, ``AdaGrad``, ``Adam``.

책처럼 옵티마이저는 ``setup(model)``으로 고칠 모델을 받고, ``update()``가 그때 모델의 ``params()``
가운데 미분값이 있는 것을 모아 ``update_one``으로 하나씩 고칩니다. 고치기 전에 매개변수 목록을
받는 훅(``add_hook``)을 차례로 부릅니다. 하이퍼파라미터의 이름과 기본값은 책의 것입니다
(``SGD(lr=0.01)``, ``MomentumSGD(lr=0.01, momentum=0.9)``, ``AdaGrad(lr=0.001, eps=1e-8)``,
``Adam(alpha=0.001, beta1=0.9, beta2=0.999, eps=1e-8)``). 미분값은 ``Variable``이라 ``.grad.data``를
씁니다.

한계: 매개변수별 상태를 ``id(param)``로 찾으므로, 매개변수가 사라지고 그 id를 다른 객체가 받으면
상태가 섞일 수 있습니다. Adam은 eps를 편향 보정 전의 √v에 더합니다(PyTorch와 식이 조금 다릅니다).
모멘텀은 v ← αv − η·g, θ ← θ + v로 씁니다(학습률이 그대로면 PyTorch의 식과 같은 값).
"""

import math

import numpy as np

from . import step45 as _previous
from .step45 import *  # noqa: F403

__all__ = [*_previous.__all__, "Optimizer", "SGD", "MomentumSGD", "AdaGrad", "Adam"]


# --8<-- [start:optimizer]
class Optimizer:
    """옵티마이저의 바탕. ``setup``으로 모델을 받고 ``update``로 한 번 고칩니다."""

    def __init__(self):
        self.target = None
        self.hooks = []

    def setup(self, target):
        self.target = target
        return self

    def update(self):
        params = [p for p in self.target.params() if p.grad is not None]
        for hook in self.hooks:  # 예: 가중치 감소, 기울기 자르기
            hook(params)
        for param in params:
            self.update_one(param)

    def update_one(self, param):
        raise NotImplementedError(f"{type(self).__name__}.update_one을 하위 클래스에서 정의하세요.")

    def add_hook(self, f):
        self.hooks.append(f)


class SGD(Optimizer):
    def __init__(self, lr=0.01):
        super().__init__()
        self.lr = lr

    def update_one(self, param):
        param.data -= self.lr * param.grad.data


# --8<-- [end:optimizer]


class MomentumSGD(Optimizer):
    """v ← momentum · v − lr · g, θ ← θ + v. v는 매개변수마다 ``id(param)``로 찾습니다."""

    def __init__(self, lr=0.01, momentum=0.9):
        super().__init__()
        self.lr = lr
        self.momentum = momentum
        self.vs = {}

    def update_one(self, param):
        key = id(param)
        if key not in self.vs:
            self.vs[key] = np.zeros_like(param.data)
        v = self.vs[key]
        v *= self.momentum
        v -= self.lr * param.grad.data
        param.data += v


class AdaGrad(Optimizer):
    """h ← h + g², θ ← θ − lr · g / (√h + eps)."""

    def __init__(self, lr=0.001, eps=1e-8):
        super().__init__()
        self.lr = lr
        self.eps = eps
        self.hs = {}

    def update_one(self, param):
        key = id(param)
        if key not in self.hs:
            self.hs[key] = np.zeros_like(param.data)
        h = self.hs[key]
        grad = param.grad.data
        h += grad * grad
        param.data -= self.lr * grad / (np.sqrt(h) + self.eps)


# --8<-- [start:adam]
class Adam(Optimizer):
    """m, v의 이동 평균. 편향 보정은 학습률 쪽에 모아 lr = α·√(1−β2ᵗ)/(1−β1ᵗ)로 합니다."""

    def __init__(self, alpha=0.001, beta1=0.9, beta2=0.999, eps=1e-8):
        super().__init__()
        self.t = 0
        self.alpha = alpha
        self.beta1 = beta1
        self.beta2 = beta2
        self.eps = eps
        self.ms = {}
        self.vs = {}

    def update(self):
        self.t += 1
        super().update()

    @property
    def lr(self):
        correction1 = 1.0 - math.pow(self.beta1, self.t)
        correction2 = 1.0 - math.pow(self.beta2, self.t)
        return self.alpha * math.sqrt(correction2) / correction1

    def update_one(self, param):
        key = id(param)
        if key not in self.ms:
            self.ms[key] = np.zeros_like(param.data)
            self.vs[key] = np.zeros_like(param.data)
        m, v = self.ms[key], self.vs[key]
        grad = param.grad.data
        m += (1 - self.beta1) * (grad - m)
        v += (1 - self.beta2) * (grad * grad - v)
        param.data -= self.lr * m / (np.sqrt(v) + self.eps)  # eps는 보정 전의 √v에 더합니다


# --8<-- [end:adam]
