"""학습한 모델에서 새 이름을 뽑습니다(샘플링).

모델이 낸 다음 토큰의 점수(logits)를 온도(temperature)로 나눈 뒤 소프트맥스로 확률을 만들고, 그
확률대로 토큰 하나를 뽑아 이어 붙이기를 BOS가 나올 때까지 되풀이합니다. 온도가 1보다 작으면 높은
점수가 더 두드러져 흔한 이름이, 1보다 크면 드문 이름이 더 자주 나옵니다.

`grammar=True`(기본값)이면 토크나이저의 문법이 허락하지 않는 토큰(첫소리 다음의 끝소리 따위)의 확률을
0으로 두고 뽑습니다. 그래서 뽑힌 한국어 이름은 언제나 완성된 음절로 모입니다. 문맥 길이를 다 써서
음절이 덜 끝난 채 멈추면(첫소리로 끝남) 그 첫소리는 버립니다.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

import numpy as np

from tinygrad_ko._checks import check_count, check_positive

from .data import LEAD, Tokenizer

__all__ = ["iter_names", "sample_ids", "sample_names"]

LogitsFn = Callable[[Sequence[int]], np.ndarray]


def _check_logits(logits: np.ndarray, tokenizer: Tokenizer) -> np.ndarray:
    """모델이 낸 점수: 길이가 어휘 크기이고 NaN이나 +inf가 없어야 확률을 만들 수 있습니다."""
    logits = np.asarray(logits, dtype=float)
    if logits.shape != (tokenizer.vocab_size,):
        raise ValueError(
            f"모델이 낸 점수의 모양이 {logits.shape}입니다. 이 토크나이저에서는 ({tokenizer.vocab_size},)이어야 "
            "합니다. 같은 데이터(ko/en)로 학습한 모델과 토크나이저를 함께 쓰세요."
        )
    if np.isnan(logits).any() or np.isposinf(logits).any():
        raise ValueError(
            "모델이 낸 점수(logits)에 NaN이나 +inf가 있어 확률을 만들 수 없습니다. 가중치가 망가졌는지"
            "(학습률이 너무 커서 NaN이 되었는지) 확인하고 다시 학습하세요."
        )
    return logits


# --8<-- [start:sample]
def sample_ids(
    logits_fn: LogitsFn,
    tokenizer: Tokenizer,
    block_size: int,
    *,
    temperature: float = 1.0,
    rng: np.random.Generator,
    grammar: bool = True,
) -> list[int]:
    """BOS에서 시작해 토큰을 하나씩 뽑아 [BOS, …]를 돌려줍니다(끝의 BOS는 넣지 않습니다)."""
    temperature = check_positive("온도(temperature)", temperature, hint=" 예: temperature=0.5.")
    ids = [tokenizer.bos]
    while len(ids) <= block_size:  # 위치 0 … block_size-1 까지만 읽을 수 있습니다
        scores = _check_logits(logits_fn(ids), tokenizer)
        if grammar:
            scores = np.where(tokenizer.allowed(ids), scores, -np.inf)
        if scores.max() == -np.inf:
            raise ValueError(
                "모든 토큰의 점수가 -inf라 뽑을 토큰이 없습니다. 모델의 가중치를 확인하세요."
            )
        # 최댓값을 먼저 빼고 온도로 나눕니다: 아주 작은 온도에서도 inf - inf(NaN)가 생기지 않고,
        # 넘쳐서 -inf가 된 자리는 확률 0이 됩니다.
        with np.errstate(over="ignore"):
            probs = np.exp((scores - scores.max()) / temperature)
        token = int(rng.choice(len(probs), p=probs / probs.sum()))
        if token == tokenizer.bos:
            break
        ids.append(token)
    if grammar and tokenizer.state_after(ids) == LEAD:
        ids.pop()  # 가운뎃소리를 받지 못한 첫소리
    return ids


# --8<-- [end:sample]


def iter_names(
    logits_fn: LogitsFn,
    tokenizer: Tokenizer,
    block_size: int,
    n: int = 20,
    *,
    temperature: float = 1.0,
    seed: int | None = 0,
    grammar: bool = True,
) -> Iterator[str]:
    """이름 n개를 하나씩 뽑아 내놓습니다(한국어는 음절로 모아서). 다 모으기 전에 하나씩 쓸 수 있어, 아주 큰
    n도 메모리를 쌓지 않고 화면에 바로 나옵니다."""
    n = check_count("n", n, minimum=0)
    rng = np.random.default_rng(seed)
    # 생성기 식을 돌려주므로 n의 검사는 부르는 그 자리에서, 이름은 꺼낼 때마다 하나씩 뽑힙니다.
    return (
        tokenizer.decode(
            sample_ids(
                logits_fn, tokenizer, block_size, temperature=temperature, rng=rng, grammar=grammar
            )
        )
        for _ in range(n)
    )


def sample_names(
    logits_fn: LogitsFn,
    tokenizer: Tokenizer,
    block_size: int,
    n: int = 20,
    *,
    temperature: float = 1.0,
    seed: int | None = 0,
    grammar: bool = True,
) -> list[str]:
    """이름 n개를 뽑아 리스트로 돌려줍니다(`iter_names`를 모은 것)."""
    return list(
        iter_names(
            logits_fn, tokenizer, block_size, n, temperature=temperature, seed=seed, grammar=grammar
        )
    )
