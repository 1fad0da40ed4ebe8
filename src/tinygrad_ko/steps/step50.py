"""50단계: 데이터 로더와 정확도. ``DataLoader``는 데이터셋을 미니배치로 나눠 차례로 내줍니다.

책처럼 ``DataLoader``는 반복자(iterator) 자신입니다. ``for`` 문이 끝나면(``StopIteration``) 스스로
``reset()``해 다음 에포크를 준비하고, ``shuffle=True``이면 그때 전역 ``np.random.permutation``으로
다시 섞습니다. 배치는 ``dataset[i]``를 하나씩 꺼내 쌓습니다. ``accuracy``는 가장 큰 점수의 클래스가
정답과 같은 비율을 ``Variable``에 담아 돌려줍니다.

한계: 섞는 순서를 정하려면 전역 ``np.random.seed``를 써야 하므로, 다른 코드가 전역 난수를 쓰면
순서가 바뀝니다. 한 로더를 두 ``for`` 문이 함께 돌 수 없습니다(반복자가 하나뿐). 마지막의 모자란
배치는 그대로 내줍니다(버리는 선택이 없습니다).
"""

import math

import numpy as np

from . import step49 as _previous
from .step43 import Variable, as_array, as_variable
from .step49 import *  # noqa: F403

__all__ = [*_previous.__all__, "DataLoader", "accuracy"]


# --8<-- [start:loader]
class DataLoader:
    def __init__(self, dataset, batch_size, shuffle=True):
        self.dataset = dataset
        self.batch_size = batch_size
        self.shuffle = shuffle
        self.data_size = len(dataset)
        self.max_iter = math.ceil(self.data_size / batch_size)
        self.reset()

    def reset(self):
        self.iteration = 0
        if self.shuffle:
            self.index = np.random.permutation(len(self.dataset))
        else:
            self.index = np.arange(len(self.dataset))

    def __iter__(self):
        return self

    def __next__(self):
        if self.iteration >= self.max_iter:
            self.reset()
            raise StopIteration

        i, batch_size = self.iteration, self.batch_size
        batch_index = self.index[i * batch_size : (i + 1) * batch_size]
        batch = [self.dataset[i] for i in batch_index]
        x = np.array([example[0] for example in batch])
        t = np.array([example[1] for example in batch])

        self.iteration += 1
        return x, t

    def next(self):
        return self.__next__()


# --8<-- [end:loader]


def accuracy(y, t):
    """점수 y (N, C)의 argmax가 정답 t와 같은 비율. 미분하지 않지만 Variable로 돌려줍니다."""
    y, t = as_variable(y), as_variable(t)
    pred = y.data.argmax(axis=1).reshape(t.shape)
    result = pred == t.data
    acc = result.mean()
    return Variable(as_array(acc))
