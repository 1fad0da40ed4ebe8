"""데이터셋에서 샘플을 꺼낼 때 하는 변환(49단계): 펴기, 실수로 바꾸기, 정규화, 이어 붙이기.

변환은 샘플 하나(ndarray)를 받아 새 ndarray를 돌려주는 호출할 수 있는 객체입니다. 파이썬 함수(람다)도
그대로 변환이 됩니다. `Compose`로 여러 변환을 순서대로 잇습니다.

이 모듈의 변환에는 `batch(xs)`도 있습니다: 샘플을 쌓은 배열(첫 축이 샘플)에 한 번에 해서, 샘플마다
부른 결과를 쌓은 것과 같은 배열을 돌려줍니다. `DataLoader`는 데이터셋의 변환이 모두 이 모듈의
변환(하위 클래스가 아닌 것)이면 배치를 한 번에 변환합니다.
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

    @property
    def batch(self):
        """모든 변환이 `batch`를 가질 때만 있는 속성(배치를 한 번에 변환)."""
        if not all(hasattr(transform, "batch") for transform in self.transforms):
            raise AttributeError("batch")
        return self._batch

    def _batch(self, xs):
        for transform in self.transforms:
            xs = transform.batch(xs)
        return xs


class Flatten:
    """샘플을 1차원으로 폅니다: (28, 28) 그림 -> 784개의 수."""

    def __call__(self, x):
        return np.asarray(x).reshape(-1)

    def batch(self, xs):
        xs = np.asarray(xs)
        return xs.reshape(len(xs), -1)


class AsType:
    """dtype을 바꿉니다."""

    def __init__(self, dtype=np.float32) -> None:
        self.dtype = np.dtype(dtype)

    def __call__(self, x):
        return np.asarray(x).astype(self.dtype)

    def batch(self, xs):
        return self(xs)  # 원소마다의 변환이라 배치에도 같은 식입니다.


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

    def batch(self, xs):
        xs = np.asarray(xs)
        # 통계가 샘플보다 차원이 많으면(keepdims 평균처럼) 샘플마다 그 앞에 길이 1인 축이 붙으므로,
        # 배치 축 뒤에 그만큼 축을 끼워 넣어 샘플마다 한 결과를 쌓은 모양과 같게 합니다.
        stats = np.broadcast_shapes(np.shape(self.mean), np.shape(self.std))
        extra = len(stats) - (xs.ndim - 1)
        if extra > 0:
            xs = xs.reshape(xs.shape[:1] + (1,) * extra + xs.shape[1:])
        return self(xs)


# --8<-- [end:transforms]
