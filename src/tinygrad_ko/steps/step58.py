"""58단계: 대표적인 CNN(VGG16). 합성곱 층 ``Conv2d``와 ``VGG16``의 구조.

``Conv2d``는 45단계의 ``Linear``처럼 ``in_channels``를 주지 않으면 첫 입력의 채널 수로 필터
(OC, C, KH, KW)를 만듭니다. 처음 값은 ``np.random.randn``에 √(1/(C·KH·KW))를 곱한 것입니다.
``VGG16``은 3×3 합성곱 13개와 최댓값 풀링 5번, 완전 연결 층 3개이고 매개변수는 138,357,544개입니다.

책은 ``VGG16(pretrained=True)``로 학습한 가중치(float32로 약 553 MB)와 얼룩말 사진을 실행 중에 내려받고,
Pillow로 사진을 224×224로 바꿉니다(Pillow는 DeZero의 의존성에 적혀 있지 않습니다). 이 저장소는 실행
중에 아무것도 내려받지 않으므로 ``pretrained=True``는 그렇다고 알리는 오류입니다. ``preprocess``는
이미 224×224인 RGB 배열을 받습니다.

한계: ``Conv2d``는 57단계 ``conv2d``의 한계를 물려받습니다. 초기화에 전역 ``np.random``을 씁니다.
``Conv2d``는 57단계의 함수 클래스와 이름만 같은 층입니다(함수는 ``conv2d``로 부릅니다).
"""

import numpy as np

from . import step57 as _previous
from .step44 import Parameter
from .step45 import Layer, Linear, Model
from .step51 import relu
from .step54 import dropout
from .step57 import *  # noqa: F403
from .step57 import conv2d, pair, pooling

__all__ = [*_previous.__all__, "VGG16"]


class Conv2d(Layer):
    def __init__(
        self,
        out_channels,
        kernel_size,
        stride=1,
        pad=0,
        nobias=False,
        dtype=np.float32,
        in_channels=None,
    ):
        super().__init__()
        self.in_channels = in_channels
        self.out_channels = out_channels
        self.kernel_size = kernel_size
        self.stride = stride
        self.pad = pad
        self.dtype = dtype

        self.W = Parameter(None, name="W")
        if in_channels is not None:
            self._init_W()

        if nobias:
            self.b = None
        else:
            self.b = Parameter(np.zeros(out_channels, dtype=dtype), name="b")

    def _init_W(self):
        C, OC = self.in_channels, self.out_channels
        KH, KW = pair(self.kernel_size)
        scale = np.sqrt(1 / (C * KH * KW))
        self.W.data = np.random.randn(OC, C, KH, KW).astype(self.dtype) * scale

    def forward(self, x):
        if self.W.data is None:
            self.in_channels = x.shape[1]
            self._init_W()
        return conv2d(x, self.W, self.b, self.stride, self.pad)


# --8<-- [start:vgg16]
class VGG16(Model):
    def __init__(self, pretrained=False):
        super().__init__()
        self.conv1_1 = Conv2d(64, kernel_size=3, stride=1, pad=1)
        self.conv1_2 = Conv2d(64, kernel_size=3, stride=1, pad=1)
        self.conv2_1 = Conv2d(128, kernel_size=3, stride=1, pad=1)
        self.conv2_2 = Conv2d(128, kernel_size=3, stride=1, pad=1)
        self.conv3_1 = Conv2d(256, kernel_size=3, stride=1, pad=1)
        self.conv3_2 = Conv2d(256, kernel_size=3, stride=1, pad=1)
        self.conv3_3 = Conv2d(256, kernel_size=3, stride=1, pad=1)
        self.conv4_1 = Conv2d(512, kernel_size=3, stride=1, pad=1)
        self.conv4_2 = Conv2d(512, kernel_size=3, stride=1, pad=1)
        self.conv4_3 = Conv2d(512, kernel_size=3, stride=1, pad=1)
        self.conv5_1 = Conv2d(512, kernel_size=3, stride=1, pad=1)
        self.conv5_2 = Conv2d(512, kernel_size=3, stride=1, pad=1)
        self.conv5_3 = Conv2d(512, kernel_size=3, stride=1, pad=1)
        self.fc6 = Linear(4096)
        self.fc7 = Linear(4096)
        self.fc8 = Linear(1000)
        if pretrained:
            raise RuntimeError(
                "학습한 VGG16 가중치(float32로 약 553 MB)는 이 저장소에 없고, 실행 중에 내려받지도 않습니다. "
                "VGG16(pretrained=False)로 구조만 만들어 쓰세요."
            )

    def forward(self, x):
        x = relu(self.conv1_1(x))
        x = relu(self.conv1_2(x))
        x = pooling(x, 2, 2)
        x = relu(self.conv2_1(x))
        x = relu(self.conv2_2(x))
        x = pooling(x, 2, 2)
        x = relu(self.conv3_1(x))
        x = relu(self.conv3_2(x))
        x = relu(self.conv3_3(x))
        x = pooling(x, 2, 2)
        x = relu(self.conv4_1(x))
        x = relu(self.conv4_2(x))
        x = relu(self.conv4_3(x))
        x = pooling(x, 2, 2)
        x = relu(self.conv5_1(x))
        x = relu(self.conv5_2(x))
        x = relu(self.conv5_3(x))
        x = pooling(x, 2, 2)
        x = x.reshape(x.shape[0], -1)
        x = dropout(relu(self.fc6(x)))
        x = dropout(relu(self.fc7(x)))
        x = self.fc8(x)
        return x

    # --8<-- [end:vgg16]

    @staticmethod
    def preprocess(image, dtype=np.float32):
        """(224, 224, 3) RGB 배열 → (3, 224, 224): BGR 순서로, 채널 평균을 빼고, 채널을 앞으로."""
        image = np.asarray(image, dtype=dtype)
        image = image[:, :, ::-1]
        image -= np.array([103.939, 116.779, 123.68], dtype=dtype)
        image = image.transpose((2, 0, 1))
        return image
