"""학습의 성적을 재는 값(미분하지 않습니다): 분류의 정확도(50단계)."""

from __future__ import annotations

import numpy as np

from ..autograd.variable import Variable

__all__ = ["accuracy"]


# --8<-- [start:accuracy]
def accuracy(y, t) -> float:
    """점수 y (N, C)에서 가장 큰 점수의 클래스가 정답 t (N,)와 같은 샘플의 비율(0~1).

    미분하지 않는 값이라 파이썬 float을 돌려줍니다(책은 Variable로 감싸 돌려줍니다).
    """
    scores = np.asarray(y.data if isinstance(y, Variable) else y)
    labels = np.asarray(t.data if isinstance(t, Variable) else t)
    if scores.ndim != 2 or labels.shape != scores.shape[:1]:
        raise ValueError(
            f"accuracy에는 점수 (샘플 수, 클래스 수)와 정답 (샘플 수,)를 주세요. "
            f"받은 모양: 점수 {scores.shape}, 정답 {labels.shape}."
        )
    if len(labels) == 0:
        raise ValueError("샘플이 하나도 없어 정확도를 구할 수 없습니다. 샘플을 하나 이상 주세요.")
    return float((scores.argmax(axis=1) == labels).mean())


# --8<-- [end:accuracy]
