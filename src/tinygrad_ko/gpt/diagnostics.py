"""기울기를 층별로 모아 그 L2 노름을 재는 도구. 엔진에 상관없이 기울기 사전(이름 -> 배열)을 받습니다."""

from __future__ import annotations

import math

import numpy as np

__all__ = ["layer_grad_norms"]


# --8<-- [start:norms]
def layer_grad_norms(grads: dict[str, np.ndarray]) -> dict[str, float]:
    """기울기를 임베딩(wte, wpe), 블록(h.0.… -> h0, h.1.… -> h1 …), 출력 층(lm_head)으로 묶고, 묶음마다
    모든 원소의 제곱합의 제곱근(L2 노름)을 돌려줍니다. 순서는 입력 쪽에서 출력 쪽입니다."""
    groups: dict[str, float] = {}
    for name, grad in grads.items():
        parts = name.split(".")
        group = (
            "embedding"
            if name in ("wte", "wpe")
            else "".join(parts[:2])
            if parts[0] == "h"
            else name
        )
        groups[group] = groups.get(group, 0.0) + float(np.sum(np.square(grad)))
    return {group: math.sqrt(total) for group, total in groups.items()}


# --8<-- [end:norms]
