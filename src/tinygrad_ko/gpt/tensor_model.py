"""텐서 엔진으로 만든 같은 GPT: 이름 하나(또는 여러 개)의 모든 위치를 한 번에 계산합니다.

`Value`판은 토큰을 하나씩 읽으며 스칼라 노드 수만 개를 만들지만, 이 판은 위치 T개를 (T, 16) 행렬 하나로
두고 행렬 곱 몇 번으로 같은 계산을 합니다. 뒤의 위치를 보지 못하게 하는 일은 KV 캐시 대신 인과
마스크(causal mask)가 합니다. 점수 행렬의 대각선 위쪽에 -∞를 더하면 소프트맥스가 그 자리에 0을 줍니다.

층은 프레임워크의 `Layer`, 가중치는 `Parameter`, 최적화는 `Adam`입니다. 매개변수의 이름(`h.0.attn.wq` …)은
`config.weight_shapes`의 이름과 같으므로, 같은 가중치 사전으로 두 판을 만들 수 있고 `save_weights`의
파일도 그 이름을 씁니다.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from tinygrad_ko import Parameter, exp, log, no_grad, softmax
from tinygrad_ko._checks import check_positive
from tinygrad_ko.nn.layers import Layer
from tinygrad_ko.optimizers import Adam

from .config import GPTConfig, weight_shapes
from .data import check_token_ids

__all__ = ["TensorEngine", "TensorGPT", "causal_mask", "cross_entropy", "rms_norm"]

RMS_EPS = 1e-5


# --8<-- [start:ops]
def rms_norm(x):
    """마지막 축을 따라 x / √(mean(x²) + ε)."""
    return x * ((x * x).mean(axis=-1, keepdims=True) + RMS_EPS) ** -0.5


def cross_entropy(logits, targets: np.ndarray):
    """(N, V) 점수와 정답 N개의 평균 교차 엔트로피: log Σ exp(z - m) - (z_정답 - m)."""
    m = np.max(logits.data, axis=1, keepdims=True)
    z = logits - m
    picked = z[np.arange(len(targets)), targets]
    return (log(exp(z).sum(axis=1)) - picked).mean()


def causal_mask(t: int) -> np.ndarray:
    """(t, t) 상수: 대각선 위쪽(뒤의 위치)은 -∞, 나머지는 0."""
    return np.triu(np.full((t, t), -np.inf), k=1)


# --8<-- [end:ops]


class Attention(Layer):
    def __init__(self, weights: dict[str, np.ndarray], prefix: str):
        for name in ("wq", "wk", "wv", "wo"):
            setattr(self, name, Parameter(np.array(weights[f"{prefix}.{name}"], dtype=float)))


class MLP(Layer):
    def __init__(self, weights: dict[str, np.ndarray], prefix: str):
        self.fc1 = Parameter(np.array(weights[f"{prefix}.fc1"], dtype=float))
        self.fc2 = Parameter(np.array(weights[f"{prefix}.fc2"], dtype=float))


class Block(Layer):
    def __init__(self, weights: dict[str, np.ndarray], i: int):
        self.attn = Attention(weights, f"h.{i}.attn")
        self.mlp = MLP(weights, f"h.{i}.mlp")


class TensorGPT(Layer):
    """텐서판 GPT. `forward(idx)`는 (B, T) 토큰 번호에서 (B, T, V) 점수를 냅니다."""

    def __init__(self, config: GPTConfig, weights: dict[str, np.ndarray]):
        shapes = weight_shapes(config)
        for name, shape in shapes.items():
            if name not in weights or np.shape(weights[name]) != shape:
                got = np.shape(weights[name]) if name in weights else "없음"
                raise ValueError(
                    f"가중치 {name}의 모양이 {got}입니다. 이 설정에서는 {shape}여야 합니다. "
                    "init_weights(config)로 만든 사전을 넘기세요."
                )
        self.config = config
        self.wte = Parameter(np.array(weights["wte"], dtype=float))
        self.wpe = Parameter(np.array(weights["wpe"], dtype=float))
        self.h = [Block(weights, i) for i in range(config.n_layer)]
        self.lm_head = Parameter(np.array(weights["lm_head"], dtype=float))
        self.attention: list[np.ndarray] = []  # 마지막 forward의 블록별 어텐션 가중치 (B, H, T, T)

    # --8<-- [start:forward]
    def forward(self, idx: np.ndarray):
        c = self.config
        batch, t = idx.shape
        x = self.wte[idx] + self.wpe[np.arange(t)]  # (B, T, C): 토큰 임베딩 + 위치 임베딩
        x = x if c.final_norm else rms_norm(x)  # microGPT: 임베딩 바로 뒤에서 정규화
        mask = causal_mask(t)
        self.attention = []
        for block in self.h:
            a = block.attn
            h = rms_norm(x)
            # (B, T, C) -> (B, H, T, D): 헤드마다 따로 계산하도록 축을 나눕니다.
            q, k, v = (
                (h @ w).reshape(batch, t, c.n_head, c.head_size).transpose(0, 2, 1, 3)
                for w in (a.wq, a.wk, a.wv)
            )
            scores = (q @ k.transpose(0, 1, 3, 2)) * (1.0 / math.sqrt(c.head_size)) + mask
            weights = softmax(scores)  # (B, H, T, T): 행 p는 위치 0…p에만 0이 아닌 값
            self.attention.append(weights.data)
            heads = (weights @ v).transpose(0, 2, 1, 3).reshape(batch, t, c.n_embd)
            x = x + heads @ a.wo if c.residual else heads @ a.wo
            out = (rms_norm(x) @ block.mlp.fc1).relu() @ block.mlp.fc2
            x = x + out if c.residual else out
        return (rms_norm(x) if c.final_norm else x) @ self.lm_head  # GPT-2: 여기서 정규화

    # --8<-- [end:forward]

    # --8<-- [start:loss]
    def loss(self, batch: Sequence[Sequence[int]]):
        """이름 여러 개([BOS, …, BOS]의 목록)의 모든 예측 위치에 대한 평균 교차 엔트로피.

        길이가 다른 이름은 BOS로 채워 한 배열에 담고, 채운 자리의 예측은 손실에서 뺍니다.
        """
        if isinstance(batch, str | bytes) or not isinstance(batch, Sequence) or not len(batch):
            raise ValueError(
                "이름이 하나도 없습니다. [[BOS, …, BOS], …]처럼 토큰 번호 목록을 하나 이상 넘기세요."
            )
        batch = [check_token_ids(ids, self.config.vocab_size) for ids in batch]
        t = min(self.config.block_size, max(len(ids) for ids in batch) - 1)
        idx = np.zeros((len(batch), t), dtype=np.int64)  # 채우는 값: BOS(0)
        targets = np.full((len(batch), t), -1, dtype=np.int64)  # -1: 손실에서 뺄 자리
        for row, ids in enumerate(batch):
            n = min(t, len(ids) - 1)
            if n < 1:
                raise ValueError(
                    f"토큰이 둘 이상이어야 다음 토큰을 맞힐 수 있습니다. 받은 것: {list(ids)}"
                )
            idx[row, :n] = ids[:n]
            targets[row, :n] = ids[1 : n + 1]
        logits = self(idx).reshape(len(batch) * t, self.config.vocab_size)
        keep = np.flatnonzero(targets.reshape(-1) >= 0)
        if len(keep) < logits.shape[0]:
            logits = logits[keep]
        return cross_entropy(logits, targets.reshape(-1)[keep])

    # --8<-- [end:loss]

    def logits(self, ids: Sequence[int]) -> np.ndarray:
        """ids 다음에 올 토큰의 점수(그래프를 기록하지 않습니다)."""
        ids = check_token_ids(ids, self.config.vocab_size)[-self.config.block_size :]
        with no_grad():
            return self(np.array([ids], dtype=np.int64)).data[0, -1]

    def state_dict(self) -> dict[str, np.ndarray]:
        return {name: p.data.copy() for name, p in self.named_parameters()}

    def grads(self) -> dict[str, np.ndarray]:
        return {name: np.asarray(p.grad) for name, p in self.named_parameters()}


class TensorEngine:
    """텐서판의 한 스텝: 기울기 지우기, 손실, 역전파, Adam. `step`은 이름 하나, `step_batch`는 여럿."""

    def __init__(self, model: TensorGPT, betas=(0.85, 0.99), eps=1e-8):
        self.model = model
        self.optimizer = Adam(model.parameters(), lr=0.01, betas=betas, eps=eps)

    def step_batch(self, batch: Sequence[Sequence[int]], lr: float) -> float:
        self.model.cleargrads()
        loss = self.model.loss(batch)
        loss.backward()
        self.optimizer.lr = check_positive("lr", lr)  # 옵티마이저가 만들 때 하는 검사
        self.optimizer.step()
        return float(loss.data)

    def step(self, ids: Sequence[int], lr: float) -> float:
        return self.step_batch([ids], lr)
