"""옵티마이저: 매개변수의 미분값으로 매개변수를 고치는 방법들(46단계).

사용법은 PyTorch(`torch.optim`)와 같습니다.

    optimizer = Adam(model.parameters(), lr=0.01)
    model.cleargrads()          # 또는 optimizer.zero_grad()
    loss.backward()
    optimizer.step()

하이퍼파라미터의 이름과 기본값, 식도 PyTorch를 따르고, 테스트가 `torch.optim`과 스텝마다 같은 값을
내는지 봅니다(tests/optimizers/test_optimizers_torch.py). 책(DeZero)과 다른 점:

| 이 라이브러리(= PyTorch)                     | 책                                   |
|----------------------------------------------|--------------------------------------|
| `SGD(params, lr=0.001)`                      | `SGD(lr=0.01)`                       |
| `MomentumSGD(params, lr=0.001, momentum=0.9)` = `SGD(..., momentum=0.9)` | `MomentumSGD(lr=0.01, momentum=0.9)` |
| `AdaGrad(params, lr=0.01, eps=1e-10)`        | `AdaGrad(lr=0.001, eps=1e-8)`        |
| `Adam(params, lr=0.001, betas=(0.9, 0.999), eps=1e-8)` | `Adam(alpha=0.001, beta1=0.9, beta2=0.999, eps=1e-8)` |

- 책은 `optimizer.setup(model)` 뒤 `optimizer.update()`를 부르고, 여기서는 생성자에 매개변수(또는
  모델)를 넘기고 `step()`을 부릅니다. 모델(`Layer`)을 넘기면 스텝마다 그 매개변수를 다시 모으므로,
  첫 호출에서 모양이 정해지는 층도 그대로 됩니다.
- 책의 Adam은 eps를 편향 보정 전의 분모에 더하고, PyTorch는 보정한 뒤에 더합니다. 값이 아주 작은
  미분값에서만 차이가 납니다. 여기서는 PyTorch의 식을 씁니다.
- 모멘텀의 식은 겉모양이 다르지만(책: v ← αv − η·g, θ ← θ + v / PyTorch: b ← μb + g, θ ← θ − η·b)
  학습률이 바뀌지 않으면 v = −η·b라서 같은 값이 나옵니다.
- `weight_decay`(L2 벌점)는 책의 `WeightDecay` 훅과 같은 일을 PyTorch처럼 인수로 합니다.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Iterable

import numpy as np

from .autograd.variable import Variable, mark_modified
from .nn.layers import Layer

__all__ = ["AdaGrad", "Adam", "MomentumSGD", "Optimizer", "SGD"]


def _check_number(name: str, value: object, *, positive: bool = False, below_one: bool = False):
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not math.isfinite(value):
        raise TypeError(f"{name}에는 유한한 실수를 넣어 주세요. 받은 값: {value!r}.")
    low_ok = value > 0 if positive else value >= 0
    if not low_ok or (below_one and value >= 1):
        bound = "0보다 크고" if positive else "0 이상이고"
        upper = " 1보다 작은" if below_one else ""
        raise ValueError(f"{name}은(는) {bound}{upper} 수여야 합니다. 받은 값: {value!r}.")
    return float(value)


# --8<-- [start:optimizer]
class Optimizer:
    """옵티마이저의 바탕 클래스. 하위 클래스는 매개변수 하나를 고치는 `update_one`을 구현합니다."""

    def __init__(self, params: Iterable[Variable] | Layer, lr: float) -> None:
        self.target = params if isinstance(params, Layer) else None
        self.param_list = None if self.target is not None else _as_param_list(params)
        self.lr = _check_number("lr", lr, positive=True)
        self.state: dict[Variable, dict] = {}  # 매개변수마다의 상태(모멘텀, 누적값, 스텝 수)

    def parameters(self) -> list[Variable]:
        if self.target is not None:
            return self.target.parameters()
        return self.param_list

    def zero_grad(self) -> None:
        """모든 매개변수의 미분값을 지웁니다(`model.cleargrads()`와 같음)."""
        for param in self.parameters():
            param.grad = None

    def step(self) -> None:
        """미분값이 있는 매개변수를 한 번씩 고칩니다. 미분값이 없는 매개변수는 건너뜁니다."""
        for param in self.parameters():
            grad = param.grad
            if grad is None:
                continue
            if isinstance(grad, Variable):  # create_graph=True로 구한 미분값
                grad = grad.data
            state = self.state.get(param)
            if state is None:
                state = self.state[param] = {}
            self.update_one(param, np.asarray(grad), state)
            mark_modified(
                param
            )  # 이 값을 붙잡은 그래프로 다시 역전파하면 멈추게 합니다(PyTorch와 같음).

    def update_one(self, param: Variable, grad: np.ndarray, state: dict) -> None:
        raise NotImplementedError(f"{type(self).__name__}.update_one을 구현해 주세요.")


# --8<-- [end:optimizer]


def _as_param_list(params: object) -> list[Variable]:
    if isinstance(params, Variable):
        raise TypeError(
            "매개변수 하나가 아니라 매개변수들의 나열을 넘겨 주세요: [W, b] 또는 model.parameters()."
        )
    if isinstance(params, dict) or not isinstance(params, Iterable):
        raise TypeError(
            f"옵티마이저에는 매개변수들의 나열이나 모델(Layer)을 넘겨 주세요. "
            f"받은 값: {type(params).__name__}. 예: SGD(model.parameters(), lr=0.1)."
        )
    unique: dict[int, Variable] = {}
    for param in params:
        if not isinstance(param, Variable):
            raise TypeError(
                f"옵티마이저가 고칠 수 있는 것은 Variable(Parameter)뿐입니다. "
                f"받은 값: {type(param).__name__}. model.parameters()를 넘겨 주세요."
            )
        unique.setdefault(id(param), param)  # 같은 매개변수는 한 번만 고칩니다.
    return list(unique.values())


def _with_weight_decay(param: Variable, grad: np.ndarray, weight_decay: float) -> np.ndarray:
    return grad + weight_decay * param.data if weight_decay else grad


# --8<-- [start:sgd]
class SGD(Optimizer):
    """확률적 경사 하강법: θ ← θ − lr·g. `momentum`을 주면 모멘텀을 씁니다(PyTorch의 `SGD`와 같은 식)."""

    def __init__(
        self,
        params,
        lr: float = 0.001,
        momentum: float = 0.0,
        dampening: float = 0.0,
        weight_decay: float = 0.0,
        nesterov: bool = False,
    ) -> None:
        super().__init__(params, lr)
        self.momentum = _check_number("momentum", momentum)
        self.dampening = _check_number("dampening", dampening)
        self.weight_decay = _check_number("weight_decay", weight_decay)
        if nesterov and (self.momentum == 0 or self.dampening != 0):
            raise ValueError("nesterov=True에는 0이 아닌 momentum과 dampening=0이 필요합니다.")
        self.nesterov = bool(nesterov)

    def update_one(self, param, grad, state):
        grad = _with_weight_decay(param, grad, self.weight_decay)
        if self.momentum:
            buffer = state.get("momentum_buffer")
            if buffer is None:
                buffer = state["momentum_buffer"] = np.array(grad, copy=True)
            else:
                buffer *= self.momentum
                buffer += (1.0 - self.dampening) * grad
            grad = grad + self.momentum * buffer if self.nesterov else buffer
        param.data -= self.lr * grad


# --8<-- [end:sgd]


class MomentumSGD(SGD):
    """모멘텀 SGD(책의 이름). `SGD(params, lr, momentum=0.9)`와 같습니다."""

    def __init__(self, params, lr: float = 0.001, momentum: float = 0.9, **options) -> None:
        super().__init__(params, lr=lr, momentum=momentum, **options)


# --8<-- [start:adagrad]
class AdaGrad(Optimizer):
    """AdaGrad: 지금까지 받은 미분값 제곱의 합 h로 나눠, 많이 움직인 매개변수일수록 조금씩 고칩니다.

    h ← h + g², θ ← θ − lr·g / (√h + eps). PyTorch의 `Adagrad`와 같은 식과 기본값입니다.
    """

    def __init__(
        self,
        params,
        lr: float = 0.01,
        lr_decay: float = 0.0,
        weight_decay: float = 0.0,
        initial_accumulator_value: float = 0.0,
        eps: float = 1e-10,
    ) -> None:
        super().__init__(params, lr)
        self.lr_decay = _check_number("lr_decay", lr_decay)
        self.weight_decay = _check_number("weight_decay", weight_decay)
        self.initial_accumulator_value = _check_number(
            "initial_accumulator_value", initial_accumulator_value
        )
        self.eps = _check_number("eps", eps)

    def update_one(self, param, grad, state):
        grad = _with_weight_decay(param, grad, self.weight_decay)
        if "sum" not in state:
            state["step"] = 0
            state["sum"] = np.full_like(param.data, self.initial_accumulator_value)
        state["step"] += 1
        lr = self.lr / (1.0 + (state["step"] - 1) * self.lr_decay)
        state["sum"] += grad * grad
        param.data -= lr * grad / (np.sqrt(state["sum"]) + self.eps)


# --8<-- [end:adagrad]


# --8<-- [start:adam]
class Adam(Optimizer):
    """Adam: 미분값의 이동 평균 m(모멘텀)과 제곱의 이동 평균 v(AdaGrad처럼 크기 맞춤)를 함께 씁니다.

    m ← β1·m + (1−β1)·g, v ← β2·v + (1−β2)·g², 편향 보정 m̂ = m/(1−β1ᵗ), v̂ = v/(1−β2ᵗ),
    θ ← θ − lr·m̂ / (√v̂ + eps). PyTorch의 `Adam`과 같은 식과 기본값입니다.
    """

    def __init__(
        self,
        params,
        lr: float = 0.001,
        betas: tuple[float, float] = (0.9, 0.999),
        eps: float = 1e-8,
        weight_decay: float = 0.0,
    ) -> None:
        super().__init__(params, lr)
        if not isinstance(betas, tuple | list) or len(betas) != 2:
            raise TypeError(f"betas에는 수 두 개의 튜플을 넣어 주세요. 받은 값: {betas!r}.")
        self.betas = (
            _check_number("betas[0]", betas[0], below_one=True),
            _check_number("betas[1]", betas[1], below_one=True),
        )
        self.eps = _check_number("eps", eps)
        self.weight_decay = _check_number("weight_decay", weight_decay)

    def update_one(self, param, grad, state):
        beta1, beta2 = self.betas
        grad = _with_weight_decay(param, grad, self.weight_decay)
        if "m" not in state:
            state["step"] = 0
            state["m"] = np.zeros_like(param.data)
            state["v"] = np.zeros_like(param.data)
        state["step"] += 1
        m, v, t = state["m"], state["v"], state["step"]
        m += (1.0 - beta1) * (grad - m)
        v *= beta2
        v += (1.0 - beta2) * grad * grad
        step_size = self.lr / (1.0 - beta1**t)
        denominator = np.sqrt(v) / math.sqrt(1.0 - beta2**t) + self.eps
        param.data -= step_size * m / denominator


# --8<-- [end:adam]
