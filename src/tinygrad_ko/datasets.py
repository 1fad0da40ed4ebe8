"""학습 예제에 쓰는 작은 2차원 데이터를 고정된 시드로 코드에서 만듭니다."""

from __future__ import annotations

import numpy as np

__all__ = ["make_moons"]


# --8<-- [start:moons]
def make_moons(
    n_samples: int = 100, *, noise: float = 0.1, seed: int | None = 0
) -> tuple[np.ndarray, np.ndarray]:
    """서로 맞물린 반달 두 개를 만듭니다.

    돌려주는 것: 점의 좌표 `X` (모양 `(n_samples, 2)`)와 레이블 `y` (모양 `(n_samples,)`,
    위쪽 반달은 -1.0, 아래쪽 반달은 +1.0). 같은 `seed`면 언제나 같은 점이 나옵니다.
    """
    if isinstance(n_samples, bool) or not isinstance(n_samples, int) or n_samples < 2:
        raise ValueError(f"n_samples는 2 이상의 정수여야 합니다. 받은 값: {n_samples!r}")
    if isinstance(noise, bool) or not isinstance(noise, int | float) or not noise >= 0:
        raise ValueError(f"noise는 0 이상의 수여야 합니다. 받은 값: {noise!r}")
    rng = np.random.default_rng(seed)
    n_upper = n_samples // 2
    n_lower = n_samples - n_upper
    t_upper = np.linspace(0.0, np.pi, n_upper)
    t_lower = np.linspace(0.0, np.pi, n_lower)
    upper = np.column_stack([np.cos(t_upper), np.sin(t_upper)])  # 중심 (0, 0)의 위쪽 반원
    lower = np.column_stack([1.0 - np.cos(t_lower), 0.5 - np.sin(t_lower)])  # 옮겨 뒤집은 반원
    X = np.concatenate([upper, lower]) + rng.normal(0.0, noise, size=(n_samples, 2))
    y = np.concatenate([-np.ones(n_upper), np.ones(n_lower)])
    order = rng.permutation(n_samples)  # 두 반달이 번갈아 섞이도록 순서를 섞습니다
    return X[order], y[order]
    # --8<-- [end:moons]
