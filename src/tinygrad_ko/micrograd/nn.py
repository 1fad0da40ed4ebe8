"""`Value` 위에 쌓은 작은 신경망: 뉴런, 층, 다층 퍼셉트론(MLP)과 학습 도우미.

NumPy 없이 돕니다. 가중치는 모델마다 만드는 파이썬의 `random.Random(seed)`로 뽑으므로 같은 `seed`면
같은 신경망이 만들어지고, 계산이 모두 파이썬 float이라 같은 기계에서는 학습 결과도 똑같이 되풀이됩니다.
`seed`(또는 `rng`)를 주지 않으면 파이썬의 전역 난수 상태(`random.seed`)에서 시드를 하나 뽑아 새 생성기를
만듭니다. 그래서 micrograd의 예제처럼 `random.seed(1337)`을 먼저 부르면 그때도 같은 신경망이 됩니다.
"""

from __future__ import annotations

import math
import numbers
import random
from collections.abc import Callable, Iterable, Sequence

from .._checks import check_count, is_integer, is_real
from .._describe import describe
from .value import Value

__all__ = ["MLP", "Layer", "Module", "Neuron", "hinge_loss", "sgd_step", "sign_accuracy", "train"]


# --8<-- [start:module]
class Module:
    """매개변수를 가진 모든 구성 요소의 바탕 클래스입니다."""

    def parameters(self) -> list[Value]:
        return []

    def zero_grad(self) -> None:
        """매개변수의 기울기를 0으로 되돌립니다. backward 전에 불러야 누적되지 않습니다."""
        for p in self.parameters():
            p.grad = 0.0


def _collect(parts: Iterable[Module]) -> list[Value]:
    """부품(뉴런이나 층)의 매개변수를 앞 부품부터 차례로 이어 붙인 목록입니다."""
    collected: list[Value] = []
    for part in parts:
        collected += part.parameters()
    return collected


# --8<-- [end:module]


def _generator_from_global_state() -> random.Random:
    """시드를 주지 않았을 때의 난수 생성기: 파이썬의 전역 상태(`random.seed`)에서 시드를 하나 뽑습니다.

    그래서 micrograd의 예제처럼 `random.seed(...)`를 먼저 부르면 결과가 되풀이되고, 부르지 않으면
    (전역 상태가 실행마다 다르므로) 매번 다른 가중치가 됩니다. 가중치는 새 생성기에서 뽑으므로 전역
    상태는 시드 하나만큼만 나아갑니다.
    """
    return random.Random(random.getrandbits(64))


def _seeded_generator(seed: object) -> random.Random:
    if seed is None:
        return _generator_from_global_state()
    if not is_integer(seed):
        raise TypeError(f"seed는 정수여야 합니다. 받은 것: {describe(seed)}. seed=0처럼 넣으세요.")
    return random.Random(int(seed))


def _as_generator(rng: object) -> random.Random:
    if rng is None:
        return _generator_from_global_state()
    if not isinstance(rng, random.Random):
        raise TypeError(
            f"rng에는 random.Random을 넣어야 합니다. 받은 것: {type(rng).__name__}. "
            "random.Random(0)처럼 만들어 넣으세요."
        )
    return rng


def _as_values(x: Iterable[object], expected: int) -> list[Value]:
    """입력 벡터를 Value의 리스트로 바꿉니다 (파이썬 수나 NumPy 수는 말단 변수가 됩니다)."""
    if isinstance(x, Value | str) or not isinstance(x, Iterable):
        raise TypeError(
            f"입력은 수 {expected}개의 나열(리스트, 튜플, 1차원 배열)이어야 합니다. "
            f"받은 것: {type(x).__name__}. [1.0, -1.0]처럼 수를 리스트에 담아 넣으세요."
        )
    values = [xi if isinstance(xi, Value) else Value(xi) for xi in x]
    if len(values) != expected:
        raise ValueError(
            f"입력 길이가 {len(values)}입니다. 이 층은 수 {expected}개를 받습니다. 입력의 길이를 맞추세요."
        )
    return values


# --8<-- [start:neuron]
class Neuron(Module):
    """입력의 가중합에 편향을 더하고, `nonlin`이면 ReLU를 씌웁니다."""

    def __init__(self, nin: int, nonlin: bool = True, *, rng: random.Random | None = None):
        nin = check_count("nin", nin)
        rng = _as_generator(rng)
        start = [rng.uniform(-1.0, 1.0) for _ in range(nin)]  # [-1, 1]에서 고르게 뽑은 처음 값
        self.w = [Value(v) for v in start]
        self.b = Value(0.0)
        self.nonlin = nonlin

    def __call__(self, x: Sequence[Value | float]) -> Value:
        z = self.b  # 편향에서 시작해 w_i·x_i를 하나씩 더합니다
        for weight, xi in zip(self.w, _as_values(x, len(self.w)), strict=True):
            z = z + weight * xi
        if not self.nonlin:
            return z  # 출력층의 뉴런: 점수를 자르지 않고 그대로 냅니다
        return z.relu()

    def parameters(self) -> list[Value]:
        return self.w + [self.b]

    # --8<-- [end:neuron]

    def __repr__(self) -> str:
        return f"{_activation_name(self.nonlin)}Neuron({len(self.w)})"


def _activation_name(nonlin: bool) -> str:
    return "ReLU" if nonlin else "Linear"


# --8<-- [start:layer]
class Layer(Module):
    """같은 입력을 받는 뉴런 `nout`개입니다."""

    def __init__(
        self, nin: int, nout: int, nonlin: bool = True, *, rng: random.Random | None = None
    ):
        nout = check_count("nout", nout)
        rng = _as_generator(rng)
        self.neurons = [Neuron(nin, nonlin, rng=rng) for _ in range(nout)]

    def __call__(self, x: Sequence[Value | float]) -> Value | list[Value]:
        # 입력 노드를 한 번만 만들어 뉴런들이 나눠 씁니다
        shared = _as_values(x, len(self.neurons[0].w))
        if len(self.neurons) == 1:
            return self.neurons[0](shared)  # 뉴런이 하나면 리스트로 감싸지 않은 Value 하나
        return [neuron(shared) for neuron in self.neurons]

    def parameters(self) -> list[Value]:
        return _collect(self.neurons)

    # --8<-- [end:layer]

    def __repr__(self) -> str:
        first = self.neurons[0]
        return f"Layer({len(first.w)} -> {len(self.neurons)}, {_activation_name(first.nonlin)})"


# --8<-- [start:mlp]
class MLP(Module):
    """층을 차례로 잇는 다층 퍼셉트론입니다. 마지막 층만 ReLU 없이 값을 그대로 냅니다.

    `MLP(2, [16, 16, 1], seed=0)`: 입력 2개, 은닉층 16·16, 출력 1개. 같은 `seed`면 같은
    가중치로 시작합니다. `seed`를 주지 않으면 파이썬의 전역 난수 상태에서 시드를 뽑으므로,
    `random.seed(...)`를 먼저 부르지 않았다면 매번 다른 가중치가 됩니다.
    """

    def __init__(self, nin: int, nouts: Sequence[int], *, seed: int | None = None):
        nin = check_count("nin", nin)
        if isinstance(nouts, numbers.Integral) or not isinstance(nouts, Sequence) or not nouts:
            raise TypeError(
                f"nouts에는 층마다의 뉴런 수를 담은 리스트를 넣어야 합니다. 받은 것: {nouts!r}. "
                "[16, 16, 1]처럼 리스트로 넣으세요."
            )
        rng = _seeded_generator(seed)  # 모델마다 자기 생성기: random.Random(seed)
        widths = [nin, *(check_count("nouts의 원소", n) for n in nouts)]
        *hidden, output = zip(widths[:-1], widths[1:], strict=True)  # 층마다 (입력 수, 뉴런 수)
        self.layers = [Layer(n_in, n_out, rng=rng) for n_in, n_out in hidden]
        self.layers.append(Layer(*output, nonlin=False, rng=rng))  # 마지막 층만 ReLU 없이

    def __call__(self, x: Sequence[Value | float]) -> Value | list[Value]:
        *hidden, output = self.layers
        for layer in hidden:
            out = layer(x)
            # 뉴런 하나짜리 은닉층의 출력도 다음 층에는 리스트로 넘깁니다.
            x = [out] if isinstance(out, Value) else out
        return output(x)  # 출력층의 뉴런이 하나면 Value, 여럿이면 리스트

    def parameters(self) -> list[Value]:
        return _collect(self.layers)

    # --8<-- [end:mlp]

    def __repr__(self) -> str:
        return f"MLP[{', '.join(repr(layer) for layer in self.layers)}]"


# --- 학습 도우미 ------------------------------------------------------------------------


# --8<-- [start:loss]
def hinge_loss(scores: Sequence[Value], labels: Sequence[float]) -> Value:
    """평균 힌지 손실 mean(max(0, 1 - y·s)). 레이블 y는 -1 또는 +1입니다.

    점수 s의 부호가 맞고 크기가 1 이상이면 그 점의 손실은 0입니다.
    """
    signs = _check_points(scores, labels, numbers_ok=False)  # 점수는 미분할 Value여야 합니다
    total = sum((1.0 - yi * si).relu() for si, yi in zip(scores, signs, strict=True))
    return total * (1.0 / len(scores))


def sign_accuracy(scores: Sequence[Value | float], labels: Sequence[float]) -> float:
    """점수의 부호(s > 0이면 +1)가 레이블과 같은 점의 비율입니다. 점수는 Value나 실수입니다."""
    signs = _check_points(scores, labels, numbers_ok=True)
    hits = sum((_data(s) > 0.0) == (yi > 0.0) for s, yi in zip(scores, signs, strict=True))
    return hits / len(scores)


# --8<-- [end:loss]


def _data(score: Value | float) -> float:
    return score.data if isinstance(score, Value) else score


def _check_points(
    scores: Sequence[object], labels: Sequence[object], *, numbers_ok: bool
) -> list[float]:
    """점수와 레이블을 검사하고 레이블을 float(-1.0, +1.0)로 돌려줍니다.

    수가 같은지, 레이블이 모두 -1이나 +1인지(0/1 레이블은 조용히 틀린 손실을 냅니다), 점수가
    Value인지(`numbers_ok`이면 실수도) 봅니다.
    """
    if len(scores) != len(labels) or not scores:
        raise ValueError(
            f"점수 {len(scores)}개와 레이블 {len(labels)}개의 수가 같아야 합니다 (0개는 안 됩니다). "
            "점마다 점수 하나와 레이블 하나를 넣으세요."
        )
    for i, s in enumerate(scores):
        if not isinstance(s, Value) and not (numbers_ok and is_real(s)):
            raise _not_a_score(s, i)
    signs = []
    for i, yi in enumerate(labels):
        y = float(yi) if is_real(yi) else None
        if y != 1.0 and y != -1.0:
            if y == 0.0:
                todo = "0/1 레이블이라면 2 * y - 1로 -1/+1 레이블을 만들어 넘겨 주세요."
            else:
                todo = "레이블을 -1과 +1로 바꿔 주세요."
            # 자리는 파이썬 인덱스로 적습니다("1번 레이블"은 첫 번째로 읽힙니다).
            raise ValueError(f"레이블은 -1 또는 +1이어야 합니다. 받은 labels[{i}]: {yi!r}. {todo}")
        signs.append(y)
    return signs


def _not_a_score(score: object, i: int) -> TypeError:
    if isinstance(score, list | tuple):
        hint = (
            "모델의 출력이 여럿인 것 같습니다. hinge_loss와 train은 점마다 점수 하나를 받으므로 "
            "마지막 층의 뉴런을 하나로 하세요(예: MLP(2, [16, 16, 1]))."
        )
    elif isinstance(score, numbers.Real):
        hint = (
            "손실은 미분해야 하므로 점수는 모델이 낸 Value여야 합니다. .data로 꺼낸 값이 아니라 "
            "model(x)의 결과를 그대로 넘기세요."
        )
    else:
        hint = "model(x)가 돌려준 Value를 넘기세요."
    return TypeError(f"점수가 Value가 아닙니다. 받은 scores[{i}]: {describe(score)}. {hint}")


# --8<-- [start:sgd]
def sgd_step(parameters: Iterable[Value], learning_rate: float) -> None:
    """경사 하강법의 한 스텝: 매개변수를 기울기의 반대 방향으로 조금 옮깁니다."""
    for p in parameters:
        p.data -= learning_rate * p.grad


# --8<-- [end:sgd]


# --8<-- [start:train]
def train(
    model: MLP,
    X: Sequence[Sequence[float]],
    y: Sequence[float],
    *,
    steps: int,
    learning_rate: float,
    on_step: Callable[[int, float, float], None] | None = None,
) -> tuple[float, float]:
    """전체 데이터로 `steps`번 경사 하강법을 하고 마지막 (손실, 정확도)를 돌려줍니다.

    `on_step(step, loss, accuracy)`를 주면 스텝마다 갱신 전의 손실과 정확도로 부릅니다.
    손실이 inf나 NaN이 되면 그 스텝에서 RuntimeError로 멈추고, 갱신 전인 0번 스텝이면 X를,
    그 뒤면 학습률을 의심하라고 알립니다. 계속하면 그 뒤의 숫자는 뜻이 없습니다.
    """
    for step in range(steps):
        scores = [model(x) for x in X]  # 순전파: 점마다 계산 그래프가 새로 만들어집니다
        loss = hinge_loss(scores, y)
        acc = sign_accuracy(scores, y)
        if on_step is not None:
            on_step(step, loss.data, acc)
        if not math.isfinite(loss.data):
            raise _not_finite(step, loss.data, learning_rate, X)
        model.zero_grad()  # 이전 스텝의 기울기가 쌓이지 않도록
        loss.backward()
        sgd_step(model.parameters(), learning_rate)
    scores = [model(x) for x in X]  # 마지막 갱신 뒤의 성적
    return hinge_loss(scores, y).data, sign_accuracy(scores, y)


# --8<-- [end:train]


def _not_finite(
    step: int, loss: float, learning_rate: float, X: Sequence[Sequence[float]]
) -> RuntimeError:
    if step > 0:
        # 갱신 뒤이므로 학습률이 흔한 원인이지만, 입력이 아주 크면 학습률을 줄여도 같습니다(둘 다 알립니다).
        largest = max((abs(float(v)) for x in X for v in x), default=0.0)
        return RuntimeError(
            f"{step}번 스텝의 손실이 유한한 수가 아닙니다({loss!r}). 학습을 멈춥니다. 학습률"
            f"(learning_rate={learning_rate!r})을 줄여(예: 10분의 1) 새 모델로 다시 학습하세요. 그래도 "
            f"같으면 입력의 가장 큰 절댓값({largest:.3g})이 너무 크지 않은지 보고 입력의 크기를 줄이세요."
        )
    # 아직 한 번도 갱신하지 않았으므로 학습률은 원인이 아닙니다. 받은 값에서 원인을 찾습니다.
    found = _first_non_finite(X)  # y의 inf/NaN은 hinge_loss가 먼저 ValueError로 막습니다
    what_to_do = (
        f"받은 {found}입니다. X의 inf와 NaN을 고치세요."
        if found
        else "X에는 inf나 NaN이 없으니, 너무 큰 값이 없는지와 모델의 처음 가중치가 유한한지 확인하세요."
    )
    return RuntimeError(
        f"갱신 전(0번 스텝)인데 손실이 유한한 수가 아닙니다({loss!r}). 아직 가중치를 옮기지 "
        f"않았으므로 학습률 탓이 아닙니다. {what_to_do}"
    )


def _first_non_finite(X: Sequence[Sequence[float]]) -> str | None:
    """X에서 inf나 NaN이 든 첫 점을 "X[5]가 [nan, 0.6165]" 꼴로 돌려줍니다. 없으면 None."""
    for i, x in enumerate(X):
        if not all(math.isfinite(float(v)) for v in x):
            return f"X[{i}]가 [{', '.join(f'{float(v):.4g}' for v in x)}]"
    return None


def __getattr__(name: str) -> object:
    """옛 이름 `accuracy`를 한 판(0.1) 동안만 받아 줍니다. 다음 판에서 지웁니다."""
    if name != "accuracy":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import warnings

    warnings.warn(
        "tinygrad_ko.micrograd.nn.accuracy는 이름이 sign_accuracy로 바뀌었습니다. 점수의 부호로 맞힌 "
        "비율이라, 가장 큰 점수(argmax)로 맞힌 비율인 tinygrad_ko.accuracy와 이름이 겹치지 않게 했습니다. "
        "옛 이름은 이번 판(0.1)까지만 sign_accuracy를 돌려줍니다.",
        FutureWarning,
        stacklevel=2,
    )
    return sign_accuracy
