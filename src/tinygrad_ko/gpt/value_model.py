"""스칼라 `Value`로 만든 작은 GPT: 토큰을 하나씩 읽고, 지나간 토큰의 키와 값을 모아 둡니다(KV 캐시).

모든 수가 `Value` 노드 하나이므로, 손실에서 `backward()`를 한 번 부르면 가중치 수천 개의 기울기가
45장의 규칙 그대로 구해집니다. 행렬 곱도, 소프트맥스도 곱셈, 덧셈, 뺄셈, 나눗셈, exp, log 노드를 이어 붙인
것입니다. 한 토큰을 읽을 때는 그 앞의 토큰들만 캐시에 있으므로, 텐서판의 인과 마스크가 하는 일을
캐시가 저절로 합니다.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np

from tinygrad_ko.micrograd.value import Value

from .config import GPTConfig, weight_shapes
from .data import check_token_ids

__all__ = ["ValueAdam", "ValueGPT", "cross_entropy", "dot", "rms_norm", "softmax", "total"]

RMS_EPS = 1e-5


# --8<-- [start:ops]
def total(values: Sequence[Value]) -> Value:
    """Value들의 합. sum()과 달리 0을 더하는 노드를 만들지 않습니다."""
    out = values[0]
    for v in values[1:]:
        out = out + v
    return out


def dot(xs: Sequence[Value], ws: Sequence[Value]) -> Value:
    """두 벡터의 내적 x·w = x₀w₀ + x₁w₁ + …"""
    return total([x * w for x, w in zip(xs, ws, strict=True)])


def rms_norm(xs: Sequence[Value]) -> list[Value]:
    """x / √(mean(x²) + ε): 벡터의 제곱평균제곱근(RMS)을 1 근처로 맞춥니다."""
    mean_square = dot(xs, xs) * (1.0 / len(xs))
    scale = (mean_square + RMS_EPS) ** -0.5
    return [x * scale for x in xs]


def softmax(logits: Sequence[Value]) -> list[Value]:
    """exp(zᵢ - m) / Σⱼ exp(zⱼ - m). m = max(z)를 빼도 값은 같고 exp가 넘치지 않습니다."""
    m = max(z.data for z in logits)  # 상수: 어떤 m을 빼도 결과가 같으므로 m으로는 미분하지 않습니다
    exps = [(z - m).exp() for z in logits]
    denominator = total(exps)
    return [e / denominator for e in exps]


def cross_entropy(logits: Sequence[Value], target: int) -> Value:
    """-log softmax(z)[target] = log Σⱼ exp(zⱼ - m) - (z_target - m). 확률을 따로 만들지 않습니다."""
    m = max(z.data for z in logits)
    return total([(z - m).exp() for z in logits]).log() - (logits[target] - m)


# --8<-- [end:ops]


class ValueGPT:
    """`Value`로 된 GPT. 가중치 사전(`config.init_weights`)에서 만들고 `state_dict()`로 꺼냅니다.

    - `loss(ids)`: 토큰 번호의 나열 [BOS, …, BOS]의 평균 교차 엔트로피(Value 하나)
    - `logits(ids)`: 마지막 토큰 다음에 올 토큰의 점수(float 배열)
    - `parameters()`: 모든 가중치 Value(가중치 사전의 순서, 행 우선)
    """

    def __init__(self, config: GPTConfig, weights: dict[str, np.ndarray]):
        shapes = weight_shapes(config)
        if set(weights) != set(shapes):
            missing, extra = set(shapes) - set(weights), set(weights) - set(shapes)
            raise ValueError(
                f"가중치 사전의 이름이 설정과 다릅니다. 빠진 것: {sorted(missing)}, 남는 것: "
                f"{sorted(extra)}. init_weights(config)로 만든 사전을 넘기세요."
            )
        self.config = config
        self.rows: dict[str, list[list[Value]]] = {}
        for name, shape in shapes.items():
            array = np.asarray(weights[name], dtype=float)
            if array.shape != shape:
                raise ValueError(
                    f"가중치 {name}의 모양이 {array.shape}입니다. 이 설정에서는 {shape}여야 합니다."
                )
            self.rows[name] = [[Value(float(w)) for w in row] for row in array]
        # --8<-- [start:columns]
        # x @ W 의 j번째 값은 x와 W의 j번째 열의 내적이므로 열을 따로 모아 둡니다(같은 Value들).
        self.columns = {
            name: [list(col) for col in zip(*rows, strict=True)] for name, rows in self.rows.items()
        }
        # --8<-- [end:columns]
        self.attention: list[list[list[float]]] = []  # 마지막 forward의 어텐션 가중치(그림용)

    def parameters(self) -> list[Value]:
        return [v for rows in self.rows.values() for row in rows for v in row]

    def zero_grad(self) -> None:
        for p in self.parameters():
            p.grad = 0.0

    def state_dict(self) -> dict[str, np.ndarray]:
        return {
            n: np.array([[v.data for v in row] for row in rows]) for n, rows in self.rows.items()
        }

    def grads(self) -> dict[str, np.ndarray]:
        return {
            n: np.array([[v.grad for v in row] for row in rows]) for n, rows in self.rows.items()
        }

    # --8<-- [start:linear]
    def _linear(self, xs: list[Value], name: str) -> list[Value]:
        """xs @ W: W의 열마다 내적 하나. 출력의 j번째 값은 W의 j번째 열과 xs의 내적입니다."""
        return [dot(xs, column) for column in self.columns[name]]

    # --8<-- [end:linear]

    # --8<-- [start:forward]
    def forward_token(self, token: int, pos: int, cache: list[tuple[list, list]]) -> list[Value]:
        """토큰 하나를 읽고 다음 토큰의 점수(logits)를 냅니다. cache에는 층마다 (키들, 값들)."""
        c = self.config
        x = [t + p for t, p in zip(self.rows["wte"][token], self.rows["wpe"][pos], strict=True)]
        x = x if c.final_norm else rms_norm(x)  # microGPT: 임베딩 바로 뒤에서 정규화
        for i, (keys, values) in enumerate(cache):
            # 어텐션: 지금 토큰의 질의(q)를 지나간 모든 토큰의 키(k)와 견주어 값(v)을 섞습니다.
            h = rms_norm(x)
            q = self._linear(h, f"h.{i}.attn.wq")
            keys.append(self._linear(h, f"h.{i}.attn.wk"))
            values.append(self._linear(h, f"h.{i}.attn.wv"))
            heads: list[Value] = []
            for head in range(c.n_head):
                s = slice(head * c.head_size, (head + 1) * c.head_size)
                scores = [dot(q[s], k[s]) * (1.0 / math.sqrt(c.head_size)) for k in keys]
                weights = softmax(scores)
                self.attention.append([w.data for w in weights])
                heads += [dot(weights, [v[s][d] for v in values]) for d in range(c.head_size)]
            attended = self._linear(heads, f"h.{i}.attn.wo")
            x = [a + b for a, b in zip(x, attended, strict=True)] if c.residual else attended
            # MLP: 토큰마다 따로, 넓혔다가(ReLU) 다시 좁힙니다.
            h = [u.relu() for u in self._linear(rms_norm(x), f"h.{i}.mlp.fc1")]
            out = self._linear(h, f"h.{i}.mlp.fc2")
            x = [a + b for a, b in zip(x, out, strict=True)] if c.residual else out
        return self._linear(rms_norm(x) if c.final_norm else x, "lm_head")  # GPT-2: 여기서 정규화

    # --8<-- [end:forward]

    def _new_cache(self) -> list[tuple[list, list]]:
        return [([], []) for _ in range(self.config.n_layer)]

    def _check_ids(self, ids: Sequence[int]) -> None:
        check_token_ids(ids, self.config.vocab_size)

    # --8<-- [start:loss]
    def loss(self, ids: Sequence[int]) -> Value:
        """[BOS, 기호…, BOS]에서 다음 토큰을 맞히는 교차 엔트로피의 평균(문맥 길이까지만)."""
        self._check_ids(ids)
        n = min(self.config.block_size, len(ids) - 1)
        if n < 1:
            raise ValueError(
                f"토큰이 둘 이상이어야 다음 토큰을 맞힐 수 있습니다. 받은 것: {list(ids)}"
            )
        cache = self._new_cache()  # 이 이름 하나만의 KV 캐시. 안의 키와 값은 그래프의 노드입니다
        self.attention = []
        losses = [cross_entropy(self.forward_token(ids[p], p, cache), ids[p + 1]) for p in range(n)]
        return total(losses) * (1.0 / n)

    # --8<-- [end:loss]

    def logits(self, ids: Sequence[int]) -> np.ndarray:
        """ids를 차례로 읽은 뒤 다음 토큰의 점수(ids가 문맥보다 길면 마지막 block_size개만)."""
        return self.reader()(ids)  # 새 reader는 늘 처음부터 읽습니다

    def reader(self) -> Callable[[Sequence[int]], np.ndarray]:
        """이름을 뽑을 때 쓰는 `logits`: KV 캐시를 호출 사이에 이어 씁니다.

        앞 호출의 ids에 토큰 하나를 덧붙인 ids를 받으면 새 토큰 하나만 읽습니다(원래 microGPT처럼 토큰마다
        한 번). 그 밖의 ids(새 이름의 [BOS], 문맥보다 긴 ids)는 처음부터 읽으므로 답은 `logits`와 같습니다.
        캐시는 만들 때의 가중치로 계산한 것이라, 학습으로 가중치가 바뀐 뒤에는 새 reader를 만드세요.
        """
        block_size = self.config.block_size
        read: list[int] = []  # 캐시에 든 토큰들. 비어 있으면 첫 호출이 캐시를 만듭니다.
        cache: list[tuple[list, list]] = []
        out: list[Value] = []

        def logits(ids: Sequence[int]) -> np.ndarray:
            nonlocal cache, out
            self._check_ids(ids)
            ids = list(ids)[-block_size:]
            if not (read and ids[:-1] == read):  # 이어 읽을 수 없으면 처음부터
                read.clear()
                cache = self._new_cache()
                self.attention = []
            for token in ids[len(read) :]:
                out = self.forward_token(token, len(read), cache)
                read.append(token)
            return np.array([z.data for z in out])

        return logits


# --8<-- [start:adam]
class ValueAdam:
    """Value 매개변수 목록의 Adam(가중치 감쇠 없음)."""

    def __init__(self, params: list[Value], lr: float = 0.01, betas=(0.85, 0.99), eps=1e-8):
        self.params, self.lr, self.betas, self.eps = list(params), lr, betas, eps
        self.m = [0.0] * len(self.params)  # 기울기의 이동 평균
        self.v = [0.0] * len(self.params)  # 기울기 제곱의 이동 평균
        self.t = 0

    def step(self) -> None:
        self.t += 1
        b1, b2 = self.betas
        correction1, correction2 = 1.0 - b1**self.t, 1.0 - b2**self.t
        for i, p in enumerate(self.params):
            self.m[i] = b1 * self.m[i] + (1.0 - b1) * p.grad
            self.v[i] = b2 * self.v[i] + (1.0 - b2) * p.grad * p.grad
            denominator = math.sqrt(self.v[i]) / math.sqrt(correction2) + self.eps
            p.data -= self.lr / correction1 * self.m[i] / denominator


# --8<-- [end:adam]
