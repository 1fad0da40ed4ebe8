"""작은 프레임워크의 층과 모델: `Parameter`를 모으는 `Layer`와 `Linear`(`layers`), `Model`·`Sequential`·`MLP`
(`models`), 드롭아웃 층(`dropout`, 함수 형태는 `functions`), 합성곱 층(`conv`), 순환 신경망(`rnn`). 옵티마이저는 `tinygrad_ko.optimizers`, 데이터는 `tinygrad_ko.data`에 있습니다.

micrograd 방식의 스칼라 신경망은 이 폴더가 아니라 `tinygrad_ko.micrograd`에 있습니다.
"""

from .conv import Conv2d
from .dropout import Dropout, dropout
from .layers import Layer, Linear
from .models import MLP, VGG16, DigitCNN, Model, Sequential
from .rnn import LSTM, RNN

__all__ = [
    "LSTM",
    "MLP",
    "RNN",
    "VGG16",
    "DigitCNN",
    "Conv2d",
    "Dropout",
    "Layer",
    "Linear",
    "Model",
    "Sequential",
    "dropout",
]
