"""RMSNorm의 자리 실험: microGPT의 자리(임베딩 바로 뒤)와 GPT-2의 자리(`lm_head` 바로 앞)를 같은 시드로
1,000스텝씩 학습하고, 학습한 모델로 이름 목록 전체의 평균 손실과 학습에 쓰지 않은 이름만의 평균 손실을 잽니다.

다섯 시드의 결과는 `runs/placement.json`에 저장해 두고(만드는 명령은 `runs/README.md`), 실험 노트북은 그
기록을 읽고 시드 하나를 다시 돌려 기록과 같은지 맞춰 봅니다.
"""

from __future__ import annotations

import json
import sys
from importlib.resources import files

from tinygrad_ko import no_grad

from .config import GPTConfig, init_weights
from .data import load_names
from .tensor_model import TensorEngine, TensorGPT
from .training import name_order, train

__all__ = [
    "loss_after_training",
    "losses_after_training",
    "mean_loss",
    "saved_results",
    "unseen_names",
]

STEPS = 1000


def mean_loss(model, batch, size: int = 2000) -> float:
    """모든 이름의 모든 예측 위치의 평균 교차 엔트로피. 메모리를 아끼려고 이름 `size`개씩 나누어 잽니다."""
    total = count = 0.0
    with no_grad():  # 평가만 하므로 그래프를 만들지 않습니다
        for i in range(0, len(batch), size):
            chunk = batch[i : i + size]
            n = sum(min(model.config.block_size, len(ids) - 1) for ids in chunk)  # 예측 위치 수
            total += float(model.loss(chunk).data) * n
            count += n
    return total / count


def unseen_names(names, steps: int, seed: int) -> list[str]:
    """`train(..., steps, seed=seed)`이 한 번도 학습에 쓰지 않는 이름(목록의 순서대로). 목록에 두 번 든
    이름은 한쪽만 뽑혀도 학습한 이름이므로, 자리가 아니라 이름으로 뺍니다."""
    used = {names[i] for i in name_order(len(names), steps, seed)}
    return [name for name in names if name not in used]


def _trained(data: str, final_norm: bool, seed: int):
    """`data`("ko" 또는 "en")로 정규화 자리 하나를 `STEPS`스텝 학습한 모델과 이름 목록, 토크나이저."""
    names, tokenizer = load_names(data)
    config = GPTConfig(tokenizer.vocab_size, final_norm=final_norm)
    engine = TensorEngine(TensorGPT(config, init_weights(config, seed)))
    train(engine, names, tokenizer, STEPS, seed=seed)
    return engine.model, names, tokenizer


def losses_after_training(data: str, final_norm: bool, seed: int) -> tuple[float, float]:
    """학습한 뒤의 평균 손실: (이름 목록 전체, 학습에 쓰지 않은 이름만)."""
    model, names, tokenizer = _trained(data, final_norm, seed)
    unseen = unseen_names(names, STEPS, seed)
    return (
        mean_loss(model, [tokenizer.encode(n) for n in names]),
        mean_loss(model, [tokenizer.encode(n) for n in unseen]),
    )


def loss_after_training(data: str, final_norm: bool, seed: int) -> float:
    """학습한 뒤의 이름 목록 전체의 평균 손실(학습에 쓰지 않은 이름의 손실은 재지 않습니다)."""
    model, names, tokenizer = _trained(data, final_norm, seed)
    return mean_loss(model, [tokenizer.encode(n) for n in names])


def saved_results() -> dict:
    """저장해 둔 기록: {"steps", "seeds", "ko": {"microgpt": [...], "gpt2": [...], "microgpt_unseen": [...],
    "gpt2_unseen": [...]}, "en": {...}}. `_unseen`은 학습에 쓰지 않은 이름만의 평균 손실입니다."""
    text = files("tinygrad_ko.gpt").joinpath("runs", "placement.json").read_text("utf-8")
    return json.loads(text)


def _run(seeds: range) -> dict:
    results: dict = {"steps": STEPS, "seeds": list(seeds)}
    for data in ("ko", "en"):
        results[data] = {}
        for key, final_norm in (("microgpt", False), ("gpt2", True)):
            pairs = [losses_after_training(data, final_norm, seed) for seed in seeds]
            results[data][key] = [whole for whole, _ in pairs]
            results[data][f"{key}_unseen"] = [unseen for _, unseen in pairs]
    return results


if __name__ == "__main__":  # python3 -m tinygrad_ko.gpt.placement 저장할_파일.json
    with open(sys.argv[1], "w", encoding="utf-8") as out:
        json.dump(_run(range(5)), out, indent=1)
        out.write("\n")
