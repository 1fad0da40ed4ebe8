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
- 책의 Adam은 eps를 편향 보정 전의 분모에 더하고, PyTorch는 보정한 뒤에 더합니다. 첫 스텝에서
  미분값이 eps의 100배(1e-6)면 이미 20% 넘게 다릅니다(31장 「책의 46단계 코드」 절의 출력). 여기서는 PyTorch의 식을 씁니다.
- 모멘텀의 식은 겉모양이 다르지만(책: v ← αv − η·g, θ ← θ + v / PyTorch: b ← μb + g, θ ← θ − η·b)
  학습률이 바뀌지 않고 dampening=0, nesterov=False(기본값)이면 v = −η·b라서 반올림 오차 안에서 같은 값이
  나옵니다.
- `weight_decay`(L2 벌점)는 책의 `WeightDecay` 훅과 같은 일을 PyTorch처럼 인수로 합니다.
- `clip_grad_norm_`(기울기 자르기)는 DeZero의 `ClipGrad` 훅과 같은 일을 PyTorch의
  `torch.nn.utils.clip_grad_norm_`처럼 함수로 합니다. `step()` 전에 부릅니다.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

import numpy as np

from ._checks import check_flag, check_fraction, check_positive, check_real
from .autograd.variable import Variable, mark_modified
from .nn.layers import Layer

__all__ = ["AdaGrad", "Adam", "MomentumSGD", "Optimizer", "SGD", "clip_grad_norm_"]


# --8<-- [start:optimizer]
class Optimizer:
    """옵티마이저의 바탕 클래스. 하위 클래스는 매개변수 하나를 고치는 `update_one`을 구현합니다."""

    def __init__(self, params: Iterable[Variable] | Layer, lr: float) -> None:
        self.target = params if isinstance(params, Layer) else None
        self.param_list = None if self.target is not None else _as_param_list(params)
        self.lr = check_positive("lr", lr)
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
        """미분값이 있는 매개변수를 한 번씩 고칩니다. 미분값이 없는 매개변수는 건너뜁니다.

        전부 아니면 전무: 모든 매개변수를 먼저 확인하고, 고칠 수 없는 것이 하나라도 있으면 아무것도
        바꾸지 않고(매개변수도, 상태도) 알립니다.
        """
        todo = [
            (param, _checked_grad(i, param, self.state.get(param)))
            for i, param in enumerate(self.parameters())
            if param.grad is not None
        ]
        for param, grad in todo:
            state = self.state.get(param)
            if state is None:
                state = self.state[param] = {}
            self.update_one(param, grad, state)
            # 이 값을 붙잡은 그래프로 다시 역전파하면 멈추게 합니다(PyTorch와 같음).
            mark_modified(param)

    def update_one(self, param: Variable, grad: np.ndarray, state: dict) -> None:
        raise NotImplementedError(f"{type(self).__name__}.update_one을 구현해 주세요.")


# --8<-- [end:optimizer]


def _checked_grad(index: int, param: Variable, state: dict | None) -> np.ndarray:
    """고치기 전의 확인: 매개변수의 미분값(ndarray)을 돌려주거나, 고칠 수 없으면 한국어 오류를 냅니다."""
    what = f"{index}번 매개변수" + (f"({param.name})" if param.name else "")
    grad = (
        param.grad.data if isinstance(param.grad, Variable) else param.grad
    )  # create_graph의 미분값
    data = param.data
    if data is None:
        raise ValueError(
            f"{what}의 data가 None입니다. 값을 넣은 매개변수만 옵티마이저에 넘겨 주세요."
        )
    if not isinstance(grad, np.ndarray | np.generic) or grad.dtype.kind not in "biuf":
        got = (
            f"dtype {grad.dtype}"
            if isinstance(grad, np.ndarray | np.generic)
            else type(grad).__name__
        )
        raise TypeError(
            f"{what}의 미분값이 실수 배열이 아닙니다(받은 값: {got}). 역전파로 구한 미분값을 두거나 "
            f"param.grad = None으로 지우세요. 아무 매개변수도 고치지 않았습니다."
        )
    if grad.shape != data.shape:
        raise ValueError(
            f"{what}의 미분값의 모양 {grad.shape}이(가) 매개변수의 모양 {data.shape}과(와) 다릅니다. 같은 "
            f"모양의 미분값을 두세요(PyTorch도 모양이 다른 grad를 받지 않습니다). 아무 매개변수도 고치지 않았습니다."
        )
    if not data.flags.writeable:
        raise ValueError(
            f"{what}의 data가 읽기 전용 배열이라 제자리에서 고칠 수 없습니다. param.data = param.data.copy()로 "
            f"쓸 수 있는 배열을 넣으세요. 아무 매개변수도 고치지 않았습니다."
        )
    for key, value in (state or {}).items():
        if isinstance(value, np.ndarray) and value.shape != data.shape:
            raise ValueError(
                f"{what}의 모양이 {value.shape}에서 {data.shape}(으)로 바뀌어, 옵티마이저가 기억한 상태({key})와 "
                f"맞지 않습니다. 모양을 바꾼 뒤에는 옵티마이저를 새로 만드세요. 아무 매개변수도 고치지 않았습니다."
            )
    return np.asarray(grad)


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
    return _unique_variables(params, "옵티마이저가 고칠 수 있는 것은 Variable(Parameter)뿐입니다.")


def _unique_variables(items: Iterable, only_variables: str) -> list[Variable]:
    """나열의 변수들을 순서대로, 같은 변수는 한 번만 모읍니다. 변수가 아닌 것은 `only_variables`로 거부합니다."""
    unique: dict[int, Variable] = {}
    for item in items:
        if not isinstance(item, Variable):
            raise TypeError(
                f"{only_variables} 받은 값: {type(item).__name__}. model.parameters()를 넘겨 주세요."
            )
        unique.setdefault(id(item), item)  # 같은 매개변수는 한 번만 고칩니다.
    return list(unique.values())


# --8<-- [start:weight-decay]
def _with_weight_decay(param: Variable, grad: np.ndarray, weight_decay: float) -> np.ndarray:
    """가중치 감소: 미분값에 λ·θ를 더합니다. 손실에 (λ/2)·Σθ²를 더한 것의 미분값과 같습니다."""
    return grad + weight_decay * param.data if weight_decay else grad


# --8<-- [end:weight-decay]


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
        self.momentum = check_positive("momentum", momentum, zero_ok=True)
        self.dampening = check_positive("dampening", dampening, zero_ok=True)
        self.weight_decay = check_positive("weight_decay", weight_decay, zero_ok=True)
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


class MomentumSGD(SGD):
    """모멘텀 SGD(책의 이름). `SGD(params, lr, momentum=0.9)`와 같습니다."""

    def __init__(self, params, lr: float = 0.001, momentum: float = 0.9, **options) -> None:
        super().__init__(params, lr=lr, momentum=momentum, **options)


# --8<-- [end:sgd]


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
        self.lr_decay = check_positive("lr_decay", lr_decay, zero_ok=True)
        self.weight_decay = check_positive("weight_decay", weight_decay, zero_ok=True)
        self.initial_accumulator_value = check_positive(
            "initial_accumulator_value", initial_accumulator_value, zero_ok=True
        )
        self.eps = check_positive("eps", eps, zero_ok=True)

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
            check_fraction("betas[0]", betas[0]),
            check_fraction("betas[1]", betas[1]),
        )
        self.eps = check_positive("eps", eps, zero_ok=True)
        self.weight_decay = check_positive("weight_decay", weight_decay, zero_ok=True)

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


# --8<-- [start:clip-grad-norm]
def clip_grad_norm_(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False) -> float:
    """모든 매개변수의 미분값을 하나로 이은 벡터의 노름(크기)을 max_norm 근처로 줄입니다. 방향은 두고
    미분값을 제자리에서 곱합니다. 자르기 전의 노름을 돌려줍니다.

    PyTorch의 `torch.nn.utils.clip_grad_norm_`과 같은 식입니다. 곱하는 수는
    min(1, max_norm / (노름 + 1e-6))이고, 1보다 작을 때만 곱합니다. 미분값이 없는 매개변수는
    건너뜁니다. 같은 매개변수가 두 번 들어 있으면 한 번만 셉니다(PyTorch는 두 번 셉니다).
    """
    max_norm = _check_clip_number("max_norm", max_norm)
    norm_type = _check_clip_number("norm_type", norm_type)
    error_if_nonfinite = check_flag("error_if_nonfinite", error_if_nonfinite)
    params = [param for param in _clip_targets(parameters) if param.grad is not None]
    if not params:
        return 0.0
    values = [_grad_values(param.grad) for param in params]
    total = _total_norm(values, norm_type)
    if error_if_nonfinite and not math.isfinite(total):
        raise RuntimeError(
            f"미분값 전체의 노름(norm_type={norm_type})이 {total}입니다. 미분값에 inf나 NaN이 있습니다. "
            f"학습률을 낮추거나 손실에서 inf와 NaN이 나오는 곳을 찾아 주세요. 그래도 자르려면 "
            f"error_if_nonfinite=False로 부릅니다(미분값이 NaN이 됩니다)."
        )
    coef = max_norm / (total + 1e-6)
    if coef >= 1.0:
        return total  # 배율이 1 이상이면(노름 + 1e-6 <= max_norm) 그대로 둡니다.
    with np.errstate(invalid="ignore"):  # 노름이 inf나 NaN이면 PyTorch처럼 조용히 NaN이 됩니다.
        for param, value in zip(params, values, strict=True):
            if isinstance(value, np.ndarray) and value.flags.writeable:
                value *= coef  # 제자리에서(PyTorch의 mul_처럼)
                if isinstance(param.grad, Variable):  # create_graph=True로 구한 미분값
                    mark_modified(param.grad)
            else:  # 읽기 전용 배열이나 NumPy 스칼라: 곱한 새 값으로 바꿉니다.
                param.grad = np.asarray(value * coef, dtype=np.asarray(value).dtype)
    return total


# --8<-- [end:clip-grad-norm]


def _grad_values(grad: object) -> object:
    return grad.data if isinstance(grad, Variable) else grad


def _total_norm(values: list, norm_type: float) -> float:
    """미분값마다의 노름을 구하고, 그 노름들의 노름을 구합니다(모두 이은 벡터의 노름과 같음)."""
    norms = []
    for v in values:
        flat = np.asarray(v, dtype=np.float64).ravel()
        norms.append(np.linalg.norm(flat, ord=norm_type) if flat.size else 0.0)
    return float(np.linalg.norm(np.array(norms), ord=norm_type))


def _clip_targets(parameters) -> list[Variable]:
    if isinstance(parameters, Variable):
        return [parameters]
    if isinstance(parameters, Layer):
        return parameters.parameters()
    if isinstance(parameters, str | bytes | dict) or not isinstance(parameters, Iterable):
        raise TypeError(
            f"clip_grad_norm_에는 매개변수 하나, 매개변수들의 나열, 또는 모델(Layer)을 넘겨 주세요. "
            f"받은 값: {type(parameters).__name__}. 예: clip_grad_norm_(model.parameters(), 1.0)."
        )
    return _unique_variables(
        parameters, "clip_grad_norm_이 자를 수 있는 것은 Variable(Parameter)의 미분값뿐입니다."
    )


def _check_clip_number(name: str, value: object) -> float:
    """max_norm과 norm_type: inf는 뜻이 있어 받고(자르지 않음, 최대 노름), NaN과 음수는 거부합니다."""
    example = " 예: clip_grad_norm_(model.parameters(), max_norm=1.0)."
    value = check_real(f"clip_grad_norm_의 {name}", value, hint=example)
    if name == "max_norm" and (math.isnan(value) or value < 0):
        raise ValueError(
            f"clip_grad_norm_의 max_norm은 0 이상의 수여야 합니다(inf는 자르지 않는다는 뜻입니다). "
            f"받은 값: {value!r}. 미분값 노름의 상한이므로 1.0이나 5.0 같은 양수를 주세요."
        )
    if name == "norm_type" and (math.isnan(value) or value <= 0):
        raise ValueError(
            f"clip_grad_norm_의 norm_type은 0보다 큰 수여야 합니다. 받은 값: {value!r}. "
            f"보통은 2.0(유클리드 노름), 가장 큰 절댓값을 쓰려면 float('inf')를 주세요."
        )
    return value
