"""데이터셋에서 샘플을 꺼낼 때 하는 변환(49단계): 펴기, 실수로 바꾸기, 정규화, 이어 붙이기.

변환은 샘플 하나(ndarray)를 받아 새 ndarray를 돌려주는 호출할 수 있는 객체입니다. 파이썬 함수(람다)도
그대로 변환이 됩니다. `Compose`로 여러 변환을 순서대로 잇습니다.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

__all__ = ["AsType", "Compose", "Flatten", "Normalize", "ToFloat"]


# --8<-- [start:transforms]
class Compose:
    """변환들을 앞에서부터 차례로 합니다. 빈 목록이면 받은 것을 그대로 돌려줍니다."""

    def __init__(self, transforms: Sequence[Callable]) -> None:
        for transform in transforms:
            if not callable(transform):
                raise TypeError(
                    f"Compose에는 호출할 수 있는 변환만 넣어 주세요. 받은 값: {type(transform).__name__}."
                )
        self.transforms = list(transforms)

    def __call__(self, x):
        for transform in self.transforms:
            x = transform(x)
        return x


class Flatten:
    """샘플을 1차원으로 폅니다: (28, 28) 그림 -> 784개의 수."""

    def __call__(self, x):
        return np.asarray(x).reshape(-1)


class AsType:
    """dtype을 바꿉니다."""

    def __init__(self, dtype=np.float32) -> None:
        self.dtype = np.dtype(dtype)

    def __call__(self, x):
        return np.asarray(x).astype(self.dtype)


class ToFloat(AsType):
    """float32로 바꿉니다(신경망의 가중치와 같은 dtype)."""

    def __init__(self) -> None:
        super().__init__(np.float32)


class Normalize:
    """(x - mean) / std. 픽셀 0~255를 0~1로: `Normalize(0.0, 255.0)`."""

    def __init__(self, mean: float | np.ndarray = 0.0, std: float | np.ndarray = 1.0) -> None:
        std_array = np.asarray(std)
        if np.any(std_array == 0):
            raise ValueError(f"std에 0이 있으면 나눌 수 없습니다. 받은 값: {std!r}.")
        self.mean = mean
        self.std = std

    def __call__(self, x):
        x = np.asarray(x)
        mean = np.asarray(self.mean, dtype=x.dtype if x.dtype.kind == "f" else None)
        std = np.asarray(self.std, dtype=mean.dtype)
        return (x - mean) / std
        # --8<-- [end:transforms]
