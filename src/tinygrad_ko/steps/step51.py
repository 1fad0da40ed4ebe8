"""51단계: 손글씨 숫자. ``MNIST`` 데이터셋과 활성화 함수 ``ReLU``.

책은 여기서 MNIST를 인터넷에서 내려받습니다. 이 저장소는 내려받지 않고, 저장소에 든
``tinygrad_ko/data/mnist10k.npz``(MNIST 학습 세트의 앞 10,000장을 학습용 8,000장과 시험용 2,000장으로
나눈 것, 출처와 라이선스는 같은 폴더의 README.md)를 읽습니다. 그림은 책처럼 (1, 28, 28) 모양으로
꺼내고, 기본 변환은 펴서 float32로 바꾸고 255로 나누는 것입니다.

52단계(GPU)는 시험할 GPU가 없어 건너뜁니다(모듈이 없습니다).

한계: 책의 데이터(학습 60,000장, 시험 10,000장)와 장 수가 다르고, 시험 세트가 공식 시험 세트가
아닙니다. 파일이 없으면 NumPy의 영어 ``FileNotFoundError``가 납니다. 그 밖에는 50단계와 같습니다.
"""

import os

import numpy as np

from . import step50 as _previous
from .step43 import Function
from .step49 import Compose, Dataset, Flatten, Normalize, ToFloat
from .step50 import *  # noqa: F403

__all__ = [*_previous.__all__, "MNIST_FILE", "DEFAULT_TRANSFORM", "MNIST", "ReLU", "relu"]

MNIST_FILE = os.path.join(os.path.dirname(os.path.dirname(__file__)), "data", "mnist10k.npz")
# 책의 기본 변환: (1, 28, 28) 그림을 펴서 float32로 바꾸고 255로 나눕니다.
DEFAULT_TRANSFORM = Compose([Flatten(), ToFloat(), Normalize(0.0, 255.0)])


class MNIST(Dataset):
    def __init__(
        self,
        train=True,
        transform=DEFAULT_TRANSFORM,
        target_transform=None,
    ):
        super().__init__(train, transform, target_transform)

    def prepare(self):
        part = "train" if self.train else "test"
        with np.load(MNIST_FILE) as arrays:
            images = arrays[part + "_images"]
            self.label = arrays[part + "_labels"].astype(np.int64)
        self.data = images.reshape(-1, 1, 28, 28)

    def show(self, index):
        """그림 하나를 글자로 그립니다(책은 matplotlib으로 여러 장을 그립니다)."""
        image = self.data[index].reshape(28, 28)
        return "\n".join("".join(".,:-=+*#%@"[int(v) * 10 // 256] for v in row) for row in image)

    @staticmethod
    def labels():
        return {i: str(i) for i in range(10)}


class ReLU(Function):
    def forward(self, x):
        return np.maximum(x, 0.0)

    def backward(self, gy):
        (x,) = self.inputs
        mask = x.data > 0
        return gy * mask


def relu(x):
    return ReLU()(x)
