"""모델의 크기(하이퍼파라미터)와 처음 가중치. 두 모델(`Value`판과 텐서판)이 같은 것을 씁니다.

가중치는 이름 -> NumPy 배열의 사전입니다. 행렬은 모두 (입력 크기, 출력 크기) 모양이고 `x @ W`로
씁니다. 편향은 없습니다. 같은 시드면 같은 사전이 나오므로, 두 모델을 같은 가중치에서 출발시켜
손실과 기울기를 비교할 수 있습니다.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from tinygrad_ko._checks import check_count, check_positive

__all__ = ["GPTConfig", "init_weights", "parameter_count", "weight_count", "weight_shapes"]


# --8<-- [start:config]
@dataclass(frozen=True)
class GPTConfig:
    """모델의 크기. 기본값은 microGPT의 값입니다(어휘 크기만 데이터에 따라 다릅니다)."""

    vocab_size: int
    n_embd: int = 16  # 토큰 하나를 나타내는 벡터의 길이
    n_head: int = 4  # 어텐션 헤드 수(헤드 하나가 n_embd / n_head = 4칸)
    n_layer: int = 1  # 블록(어텐션 + MLP) 수
    block_size: int = 16  # 한 번에 볼 수 있는 토큰 수(문맥 길이)
    mlp_ratio: int = 4  # MLP 가운데 층의 너비 = n_embd * mlp_ratio
    residual: bool = True  # 잔차 연결을 쓸지(끄면 기울기가 어떻게 되는지 보는 실험용)
    final_norm: bool = False  # True면 GPT-2처럼 임베딩 뒤 대신 lm_head 앞에서 RMSNorm(비교용)
    init_std: float = 0.08  # 처음 가중치를 뽑는 정규 분포의 표준편차
    # --8<-- [end:config]

    def __post_init__(self) -> None:
        for name in ("vocab_size", "n_embd", "n_head", "n_layer", "block_size", "mlp_ratio"):
            check_count(name, getattr(self, name))
        for name in ("residual", "final_norm"):
            if not isinstance(getattr(self, name), bool):
                raise ValueError(
                    f"{name}은(는) True나 False여야 합니다. 받은 값: {getattr(self, name)!r}"
                )
        if self.n_embd % self.n_head:
            raise ValueError(
                f"n_embd({self.n_embd})가 n_head({self.n_head})로 나누어떨어지지 않습니다. "
                "헤드마다 같은 칸 수를 나눠 주도록 n_embd를 n_head의 배수로 정하세요."
            )
        check_positive("init_std", self.init_std)

    @property
    def head_size(self) -> int:
        return self.n_embd // self.n_head


def weight_shapes(config: GPTConfig) -> dict[str, tuple[int, int]]:
    """가중치 이름과 모양. 순서가 곧 매개변수의 순서입니다."""
    c, hidden = config.n_embd, config.n_embd * config.mlp_ratio
    shapes = {"wte": (config.vocab_size, c), "wpe": (config.block_size, c)}
    for i in range(config.n_layer):
        for name in ("wq", "wk", "wv", "wo"):
            shapes[f"h.{i}.attn.{name}"] = (c, c)
        shapes[f"h.{i}.mlp.fc1"] = (c, hidden)
        shapes[f"h.{i}.mlp.fc2"] = (hidden, c)
    shapes["lm_head"] = (c, config.vocab_size)
    return shapes


def weight_count(config: GPTConfig) -> int:
    """`weight_shapes(config)`의 배열 수를 사전을 만들지 않고: wte, wpe, lm_head와 블록마다 여섯."""
    return 3 + 6 * config.n_layer


def parameter_count(config: GPTConfig) -> int:
    return sum(rows * cols for rows, cols in weight_shapes(config).values())


def init_weights(config: GPTConfig, seed: int | None = 0) -> dict[str, np.ndarray]:
    """평균 0, 표준편차 `init_std`인 정규 분포에서 뽑은 처음 가중치(float64)."""
    rng = np.random.default_rng(seed)
    return {
        name: rng.normal(0.0, config.init_std, shape)
        for name, shape in weight_shapes(config).items()
    }
