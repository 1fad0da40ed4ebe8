"""데이터 로더(50단계): 데이터셋을 미니배치로 나눠 차례로 내줍니다.

    loader = DataLoader(dataset, batch_size=100, shuffle=True, seed=0)
    for epoch in range(5):
        for x, t in loader:      # 에포크마다 새로 섞습니다
            ...

- `shuffle=True`이면 반복을 시작할 때마다(for 문 한 바퀴, 한 배치만 꺼낸 `next(iter(loader))`도) 순서를
  새로 섞습니다. `seed`를 주면 n번째로 시작한 반복의 순서가 실행할 때마다 같습니다.
- 마지막 배치는 남은 만큼만 담습니다(`drop_last=True`이면 버립니다). `len(loader)`는 배치 수입니다.
- 정답이 없는 데이터셋이면 t는 None입니다. 샘플이 튜플 (x, t)가 아니면(배열 자체, 특징 벡터의
  리스트처럼 샘플이 입력 하나이면) 그 샘플들을 첫 축으로 쌓아 x로 내주고 t는 None입니다:
  `DataLoader(np.arange(6.0).reshape(3, 2), 3)`의 x는 모양 (3, 2)입니다. 배열의 행은 PyTorch의 기본
  collate도 이렇게 쌓지만, 리스트 샘플은 PyTorch가 자리마다 묶습니다(전치).
- `Dataset`의 배열에서는 배치를 한 번에 뽑고, 변환이 `transforms` 모듈의 변환들이면 배치에 한 번에
  합니다. 그 밖의 경우(람다 변환, 직접 만든 변환 클래스, `__getitem__`을 고친 데이터셋, object 배열,
  리스트)에는 샘플마다 `dataset[i]`로 꺼내 쌓습니다. 어느 쪽이든 결과는 같습니다(테스트가 확인합니다).
"""

from __future__ import annotations

import math
from collections.abc import Iterator

import numpy as np

from .._checks import check_count
from . import transforms as T
from .datasets import Dataset

__all__ = ["DataLoader", "SeqDataLoader"]


# --8<-- [start:loader]
class DataLoader:
    """데이터셋을 `batch_size`개씩 묶어 (x, t) 배치를 내주는 반복 가능한 객체."""

    def __init__(
        self,
        dataset,
        batch_size: int,
        shuffle: bool = True,
        *,
        seed: int | None = None,
        drop_last: bool = False,
    ) -> None:
        if not hasattr(dataset, "__getitem__") or not hasattr(dataset, "__len__"):
            raise TypeError(
                f"DataLoader에는 len()과 [번호]가 되는 데이터셋을 넣어 주세요. "
                f"받은 값: {type(dataset).__name__}."
            )
        if isinstance(dataset, np.ndarray) and dataset.ndim == 0:
            raise TypeError(
                f"DataLoader에는 첫 축이 샘플 번호인 배열을 넣어 주세요. 받은 값: 0차원 배열 {dataset!r}."
            )
        self.dataset = dataset
        self.batch_size = check_count("batch_size", batch_size)
        self.shuffle = bool(shuffle)
        self.drop_last = bool(drop_last)
        self.rng = np.random.default_rng(seed)

    def __len__(self) -> int:
        n = len(self.dataset)
        return n // self.batch_size if self.drop_last else math.ceil(n / self.batch_size)

    def __iter__(self) -> Iterator[tuple[np.ndarray, np.ndarray | None]]:
        n = len(self.dataset)
        order = self.rng.permutation(n) if self.shuffle else np.arange(n)
        for b in range(len(self)):
            yield self.batch(order[b * self.batch_size : (b + 1) * self.batch_size])

    def batch(self, indices: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
        """번호들에 해당하는 샘플을 모아 (x, t) 배치를 만듭니다."""
        dataset = self.dataset
        if _batchable(dataset):
            x = dataset.data[indices]
            t = None if dataset.label is None else dataset.label[indices]
            if dataset.transform is not None:
                x = dataset.transform.batch(x)
            if t is not None and dataset.target_transform is not None:
                t = dataset.target_transform.batch(t)
            return x, t
        if _plain_array(dataset):  # 배열 자체(object 배열 말고)가 데이터셋: 행 하나가 샘플입니다.
            return dataset[indices], None
        pairs = [_pair(dataset[int(i)]) for i in indices]
        x = _stack([p[0] for p in pairs], "입력")
        targets = [p[1] for p in pairs]
        return x, _stack_targets(targets)


# --8<-- [end:loader]


def _pair(sample: object) -> tuple[object, object]:
    """샘플 하나를 (x, t)로: 튜플 (x, t)는 입력과 정답, (x,)와 튜플이 아닌 값(배열의 행, 특징 벡터의
    리스트, 수)은 정답 없는 입력 하나입니다. 리스트 샘플도 행으로 쌓습니다(PyTorch의 기본 collate는
    리스트 샘플을 자리마다 묶어 전치합니다)."""
    if not isinstance(sample, tuple):
        return sample, None
    if len(sample) == 2:
        return sample
    if len(sample) == 1:
        return sample[0], None
    raise ValueError(
        f"DataLoader의 샘플은 (입력, 정답) 두 개짜리 튜플이거나 입력 하나여야 합니다. 받은 샘플: "
        f"원소 {len(sample)}개인 튜플. 입력이 여럿이면 하나의 배열로 묶어 (x, t)로 돌려주세요."
    )


def _stack_targets(targets: list) -> np.ndarray | None:
    """정답들을 쌓습니다. 모두 없으면 None이고, 일부만 없으면 배치의 정답을 만들 수 없으므로 멈춥니다."""
    missing = sum(target is None for target in targets)
    if missing == len(targets):
        return None
    if missing:
        raise ValueError(
            f"DataLoader의 한 배치에 정답이 있는 샘플과 없는 샘플이 섞였습니다: {len(targets)}개 가운데 "
            f"{missing}개의 정답이 None입니다. 모든 샘플이 (입력, 정답)을 돌려주거나, 모두 입력만 돌려주세요."
        )
    return _stack(targets, "정답")


def _stack(values: list, what: str) -> np.ndarray:
    """샘플들을 첫 축으로 쌓습니다. 모양이 다르면 받은 모양을 알려 줍니다."""
    try:
        arrays = [np.asarray(v) for v in values]
    except ValueError:  # [배열, 수]처럼 모양이 고르지 않은 리스트
        arrays = None
    shapes = {a.shape for a in arrays} if arrays is not None else set()
    if arrays is None or len(shapes) > 1:
        listed = ", ".join(str(s) for s in sorted(shapes, key=str)[:4]) or "고르지 않은 리스트"
        raise ValueError(
            f"DataLoader가 배치로 쌓을 {what}들의 모양이 같아야 합니다. 받은 모양: {listed}. "
            f"샘플마다 모양이 같은 배열을 돌려주고, (입력, 정답) 쌍은 리스트가 아닌 튜플로 주세요."
        )
    return np.stack(arrays)


def _batchable(dataset: object) -> bool:
    """배열에서 배치를 한 번에 뽑아도 샘플마다 꺼내 쌓은 것과 같은 데이터셋인지: `dataset[i]`를 고쳐
    쓰지 않은 Dataset이고, 배열이 object 배열이 아니며(object 배열의 원소는 샘플마다 쌓아야 합니다),
    변환이 없거나 `batch`가 그 결과를 보장하는 `transforms` 모듈의 변환입니다."""
    return (
        isinstance(dataset, Dataset)
        and type(dataset).__getitem__ is Dataset.__getitem__
        and _plain_array(dataset.data)
        and (dataset.label is None or _plain_array(dataset.label))
        and _own_transform(dataset.transform)
        and _own_transform(dataset.target_transform)
    )


def _plain_array(values: object) -> bool:
    return isinstance(values, np.ndarray) and values.dtype != object


def _own_transform(transform: object) -> bool:
    """없거나, `transforms` 모듈의 변환 자체(하위 클래스는 `__call__`을 고쳤을 수 있어 빼고)이거나,
    그런 변환만 이은 `Compose`인지. 다른 `batch` 메서드는 샘플마다 한 결과와 같다고 보장할 수 없습니다."""
    if transform is None:
        return True
    if type(transform) is T.Compose:
        return all(_own_transform(t) for t in transform.transforms)
    return type(transform) in (T.Flatten, T.AsType, T.ToFloat, T.Normalize)


# --8<-- [start:seq-loader]
class SeqDataLoader(DataLoader):
    """시계열을 `batch_size`개의 나란한 흐름(stream)으로 나눠, 시각마다 흐름마다 한 샘플씩 내줍니다(60단계).

    길이 n인 시계열을 길이 n // batch_size의 구간으로 나누고, b번 흐름은 b번 구간을 처음부터 차례로
    읽습니다. 순서가 중요하므로 섞지 않습니다. `len(loader)`는 한 에포크의 시각 수 n // batch_size이고,
    남는 끝 n % batch_size개는 읽지 않습니다. DeZero는 ceil(n / batch_size)번 읽어, 나누어떨어지지 않으면
    마지막 시각에 앞 흐름은 다음 흐름의 첫 샘플을, 마지막 흐름은 남는 끝의 첫 샘플을 읽습니다.
    """

    def __init__(self, dataset, batch_size: int) -> None:
        super().__init__(dataset, batch_size, shuffle=False)
        if len(dataset) == 0:
            raise ValueError(
                "시계열이 비어 있습니다(길이 0). 샘플이 하나 이상인 데이터셋을 주세요."
            )
        if len(dataset) < self.batch_size:
            raise ValueError(
                f"시계열의 길이 {len(dataset)}이(가) 흐름의 수 batch_size={self.batch_size}보다 "
                f"짧습니다. batch_size를 {len(dataset)} 이하로 주세요."
            )

    def __len__(self) -> int:
        return len(self.dataset) // self.batch_size

    def __iter__(self) -> Iterator[tuple[np.ndarray, np.ndarray | None]]:
        jump = len(self)
        starts = np.arange(self.batch_size) * jump  # 흐름마다 구간의 첫 번호
        for step in range(jump):
            yield self.batch(starts + step)
            # --8<-- [end:seq-loader]
