"""모델: 층을 묶은 신경망 전체(45단계). `Model`, 층을 차례로 잇는 `Sequential`, 다층 퍼셉트론 `MLP`,
41장의 숫자 CNN `DigitCNN`(학습한 가중치를 저장소에 싣습니다), VGG16의 구조(58단계, 그 가중치는 싣지 않습니다).

micrograd 곁가지의 `tinygrad_ko.micrograd.nn.MLP`(스칼라 `Value`로 만든 신경망)와는 다른 클래스입니다. 여기의
`MLP`는 텐서(`Variable`)와 행렬 곱으로 한 번에 한 배치를 계산합니다.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from ..functions.activations import relu, sigmoid
from ..functions.conv import pooling
from .conv import Conv2d
from .dropout import dropout
from .layers import Layer, Linear

# 학습한 숫자 CNN의 가중치(scripts/train_digit_cnn.py가 만듭니다).
DIGIT_CNN_FILE = Path(__file__).resolve().parent.parent / "data" / "digit_cnn.npz"

__all__ = ["MLP", "VGG16", "DigitCNN", "Model", "Sequential"]


# --8<-- [start:model]
class Model(Layer):
    """신경망 전체를 나타내는 층. 하는 일은 `Layer`와 같고, 계산 그래프를 그리는 도구가 있습니다."""

    def to_mermaid(self, *inputs) -> str:
        """입력을 넣어 순전파한 계산 그래프를 mermaid 그림 코드(문자열)로 돌려줍니다(책의 `plot`)."""
        from ..tools.viz import to_mermaid

        return to_mermaid(self(*inputs))


# --8<-- [end:model]


# --8<-- [start:sequential]
class Sequential(Model):
    """층(또는 relu 같은 함수)을 받은 순서대로 잇습니다: `Sequential(Linear(10), relu, Linear(3))`."""

    def __init__(self, *layers: Layer | Callable) -> None:
        for layer in layers:
            if not callable(layer):
                raise TypeError(
                    f"Sequential에는 층이나 함수만 넣어 주세요. 받은 값: {type(layer).__name__}."
                )
        self.layers = list(layers)

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


# --8<-- [end:sequential]


# --8<-- [start:mlp]
class MLP(Model):
    """완전 연결 층을 쌓은 다층 퍼셉트론. 마지막 층을 뺀 층 뒤에 `activation`을 씌웁니다.

    `MLP((10, 3))`: 은닉층 10, 출력 3. 입력 크기는 첫 호출에서 정해집니다. 활성화 함수의 기본값은
    책처럼 `sigmoid`입니다. `seed`로 만든 난수 생성기 하나를 모든 층이 차례로 나눠 씁니다.
    """

    def __init__(
        self,
        sizes: Sequence[int],
        activation: Callable = sigmoid,
        *,
        seed: int | None = None,
        dtype: object = np.float32,
    ) -> None:
        if isinstance(sizes, int) or not isinstance(sizes, Sequence) or not sizes:
            raise TypeError(
                f"sizes에는 층마다의 출력 크기를 담은 튜플을 넣어 주세요. 받은 값: {sizes!r}. "
                f"예: MLP((10, 3))"
            )
        rng = np.random.default_rng(seed)
        self.activation = activation
        self.layers = [Linear(size, seed=rng, dtype=dtype) for size in sizes]

    def forward(self, x):
        for layer in self.layers[:-1]:
            x = self.activation(layer(x))
        return self.layers[-1](x)


# --8<-- [end:mlp]


# --8<-- [start:digit_cnn]
class DigitCNN(Model):
    """41장의 숫자 CNN: 합성곱 8@5×5 → relu → 풀링 → 합성곱 16@5×5 → relu → 풀링 → Linear(10).

    `pretrained=True`이면 저장소에 든 학습한 가중치(`data/digit_cnn.npz`)를 불러옵니다. 그 파일은
    `python3 scripts/train_digit_cnn.py`가 학습 세트 8,000장으로 5에포크 학습해 만든 것이고, 실행 중에
    무엇도 내려받지 않습니다(DeZero의 VGG16이 가중치를 내려받는 것과 다른 점).
    """

    def __init__(
        self, seed: int | np.random.Generator | None = 0, pretrained: bool = False
    ) -> None:
        rng = np.random.default_rng(seed)
        self.conv1 = Conv2d(8, 5, seed=rng)
        self.conv2 = Conv2d(16, 5, seed=rng)
        self.fc = Linear(10, seed=rng)
        if pretrained:
            self.load_weights(DIGIT_CNN_FILE)

    def forward(self, x):
        x = pooling(relu(self.conv1(x)), 2, 2)
        x = pooling(relu(self.conv2(x)), 2, 2)
        return self.fc(x.reshape(len(x), -1))


# --8<-- [end:digit_cnn]


# --8<-- [start:vgg16]
class VGG16(Model):
    """VGG16의 구조: 3×3 합성곱 13개(패딩 1)와 2×2 최댓값 풀링 5번, 완전 연결 층 3개. 입력은
    (N, 3, 224, 224), 출력은 ImageNet의 1,000 클래스 점수 (N, 1000)이고 매개변수는 138,357,544개입니다.

    DeZero는 학습한 가중치(float32로 약 553 MB, 527.8 MiB)를 실행 중에 내려받습니다
    (`pretrained=True`). 이 저장소는 실행 중에 아무것도 내려받지 않고 그 크기의 파일을 싣지도
    않으므로, 구조만 만듭니다. 층은 첫 호출에서 입력 크기를 정하므로(Linear, Conv2d), 만들기만
    해서는 편향만 있어 메모리를 거의 쓰지 않습니다.
    """

    channels = ((64, 64), (128, 128), (256, 256, 256), (512, 512, 512), (512, 512, 512))

    def __init__(self, *, seed: int | None = None, dtype: object = np.float32) -> None:
        rng = np.random.default_rng(seed)
        self.convs = [
            [Conv2d(oc, 3, 1, 1, seed=rng, dtype=dtype) for oc in block] for block in self.channels
        ]
        self.fc6 = Linear(4096, seed=rng, dtype=dtype)
        self.fc7 = Linear(4096, seed=rng, dtype=dtype)
        self.fc8 = Linear(1000, seed=rng, dtype=dtype)

    def forward(self, x):
        for block in self.convs:
            for conv in block:
                x = relu(conv(x))
            x = pooling(x, 2, 2)
        x = x.reshape(x.shape[0], -1)
        x = dropout(relu(self.fc6(x)))
        x = dropout(relu(self.fc7(x)))
        return self.fc8(x)

    @staticmethod
    def preprocess(image: np.ndarray, dtype: object = np.float32) -> np.ndarray:
        """(224, 224, 3) RGB 그림을 VGG16의 입력 (3, 224, 224)로: BGR 순서, 채널 평균을 빼기, 채널 먼저.

        크기 바꾸기는 하지 않습니다(DeZero는 Pillow로 224×224로 바꿉니다).
        """
        image = np.asarray(image)
        if image.ndim != 3 or image.shape[2] != 3:
            raise ValueError(
                f"preprocess에는 (높이, 너비, 3) 모양의 RGB 그림을 주세요. 받은 모양: {image.shape}."
            )
        image = image[:, :, ::-1].astype(dtype)  # RGB → BGR
        image -= np.array([103.939, 116.779, 123.68], dtype=dtype)
        return image.transpose(2, 0, 1)


# --8<-- [end:vgg16]
