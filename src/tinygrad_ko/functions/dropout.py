"""드롭아웃(54단계)의 함수 형태: 학습할 때 원소의 일부를 무작위로 꺼서, 신경망이 몇몇 뉴런에 기대지 않게 합니다.

학습 모드에서는 원소마다 확률 `ratio`로 0을 만들고 남은 원소를 1/(1 − ratio)배 합니다(inverted
dropout). 그래서 출력의 기댓값이 입력과 같고, 시험 모드(`test_mode()`)에서는 입력을 그대로 내보내면
됩니다. 모드는 `autograd/modes.py`의 스레드마다 따로인 설정입니다. 층 형태는 `tinygrad_ko.nn.Dropout`입니다.
"""

from __future__ import annotations

import numpy as np

from .._checks import check_fraction
from ..autograd.modes import train_enabled
from ..autograd.variable import as_variable

__all__ = ["dropout"]

_default_rng = np.random.default_rng()


# --8<-- [start:dropout]
def dropout(x, ratio: float = 0.5, *, rng: np.random.Generator | None = None):
    """학습 모드에서는 원소를 확률 `ratio`로 끄고 나머지를 1/(1 − ratio)배 합니다. 시험 모드에서는 x 그대로.

    끄는 자리(마스크)는 미분하지 않는 상수라서, 역전파에서도 같은 자리의 미분값만 0이 됩니다.
    `rng`(numpy.random.Generator)를 주면 그 난수로 마스크를 만듭니다(되풀이할 수 있는 실험).
    """
    ratio = check_fraction("ratio", ratio, include_one=True)
    x = as_variable(x)
    if not train_enabled() or ratio == 0.0:
        return x
    rng = _default_rng if rng is None else rng
    keep = rng.random(x.shape) >= ratio  # 남길 자리: 확률 1 - ratio
    scale = 0.0 if ratio == 1.0 else 1.0 / (1.0 - ratio)
    mask = (keep * scale).astype(x.dtype if x.dtype.kind == "f" else np.float64)
    return x * mask


# --8<-- [end:dropout]
