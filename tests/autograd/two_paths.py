"""빠른 길과 기준 구현을 견주는 시험의 도우미: 같은 일을 두 길로 돌리고, 결과를 바이트로 비교합니다."""

from __future__ import annotations

import numpy as np

import tinygrad_ko as tg
from tinygrad_ko import Variable


def both_paths(work):
    """work()를 기준 구현과 빠른 길로 한 번씩 돌려 (기준, 빠른 길)의 결과를 돌려줍니다."""
    previous = tg.use_fast_path(False)
    try:
        reference = work()
        tg.use_fast_path(True)
        fast = work()
    finally:
        tg.use_fast_path(previous)
    return reference, fast


def fingerprint(*values):
    """값마다 (dtype, 모양, 바이트): 비트 단위로 같아야 같습니다(NaN도, -0.0과 0.0의 차이도)."""
    arrays = [np.asarray(v.data if isinstance(v, Variable) else v) for v in values]
    return [(a.dtype.str, a.shape, a.tobytes()) for a in arrays]
