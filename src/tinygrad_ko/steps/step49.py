"""49단계: 데이터셋. ``Dataset``(번호로 샘플 하나를 꺼내고 꺼낼 때 변환), ``Spiral``, 변환들.

48단계의 나선 데이터는 ``get_spiral``로 만듭니다(엔진은 그대로라 48단계 모듈은 없습니다). 49단계는
데이터를 ``dataset[i]``로 꺼내는 약속과, 꺼낼 때 하는 변환(``Compose``, ``Normalize``, ``Flatten``,
``AsType``, ``ToFloat``)을 더합니다. 하위 클래스는 ``prepare()``에서 ``data``와 ``label``을 채웁니다.

한계: 번호는 스칼라 하나만 됩니다(``assert np.isscalar(index)``, 범위를 넘으면 NumPy의 영어
``IndexError``). ``get_spiral``은 전역 ``np.random``의 시드를 다시 정합니다(학습용 1984, 시험용 2020).
"""

import numpy as np

from . import step47 as _previous
from .step47 import *  # noqa: F403

__all__ = [
    *_previous.__all__,
    "get_spiral",
    "Dataset",
    "Spiral",
    "Compose",
    "Normalize",
    "Flatten",
    "AsType",
    "ToFloat",
]


# --8<-- [start:spiral]
def get_spiral(train=True):
    """나선 세 갈래, 갈래마다 100점. 학습용과 시험용은 시드가 다릅니다(전역 난수를 씁니다)."""
    seed = 1984 if train else 2020
    np.random.seed(seed=seed)

    num_data, num_class, input_dim = 100, 3, 2
    data_size = num_class * num_data
    x = np.zeros((data_size, input_dim), dtype=np.float32)
    t = np.zeros(data_size, dtype=np.int32)

    for j in range(num_class):
        for i in range(num_data):
            rate = i / num_data
            radius = 1.0 * rate
            theta = j * 4.0 + 4.0 * rate + np.random.randn() * 0.2
            ix = num_data * j + i
            x[ix] = np.array([radius * np.sin(theta), radius * np.cos(theta)]).flatten()
            t[ix] = j
    indices = np.random.permutation(num_data * num_class)
    return x[indices], t[indices]


# --8<-- [end:spiral]


# --8<-- [start:dataset]
class Dataset:
    def __init__(self, train=True, transform=None, target_transform=None):
        self.train = train
        self.transform = transform
        self.target_transform = target_transform
        if self.transform is None:
            self.transform = lambda x: x
        if self.target_transform is None:
            self.target_transform = lambda x: x

        self.data = None
        self.label = None
        self.prepare()

    def __getitem__(self, index):
        assert np.isscalar(index)
        if self.label is None:
            return self.transform(self.data[index]), None
        return self.transform(self.data[index]), self.target_transform(self.label[index])

    def __len__(self):
        return len(self.data)

    def prepare(self):
        pass


class Spiral(Dataset):
    def prepare(self):
        self.data, self.label = get_spiral(self.train)


# --8<-- [end:dataset]


class Compose:
    """변환들을 앞에서부터 차례로 합니다."""

    def __init__(self, transforms=None):
        self.transforms = transforms if transforms else []

    def __call__(self, x):
        for t in self.transforms:
            x = t(x)
        return x


class Normalize:
    """(x − mean) / std."""

    def __init__(self, mean=0, std=1):
        self.mean = mean
        self.std = std

    def __call__(self, array):
        return (array - self.mean) / self.std


class Flatten:
    def __call__(self, array):
        return array.flatten()


class AsType:
    def __init__(self, dtype=np.float32):
        self.dtype = dtype

    def __call__(self, array):
        return array.astype(self.dtype)


ToFloat = AsType
