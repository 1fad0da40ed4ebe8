"""모델: 층을 묶은 신경망 전체(45단계). `Model`, 층을 차례로 잇는 `Sequential`, 다층 퍼셉트론 `MLP`.

micrograd 곁가지의 `tinygrad_ko.micrograd.nn.MLP`(스칼라 `Value`로 만든 신경망)와는 다른 클래스입니다. 여기의
`MLP`는 텐서(`Variable`)와 행렬 곱으로 한 번에 한 배치를 계산합니다.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from ..functions.activations import sigmoid
from .layers import Layer, Linear

__all__ = ["MLP", "Model", "Sequential"]


# --8<-- [start:model]
class Model(Layer):
    """신경망 전체를 나타내는 층. 하는 일은 `Layer`와 같고, 계산 그래프를 그리는 도구가 있습니다."""

    def to_mermaid(self, *inputs) -> str:
        """입력을 넣어 순전파한 계산 그래프를 mermaid 글로 돌려줍니다(책의 `plot`)."""
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
    책처럼 `sigmoid`입니다. `seed`를 주면 같은 가중치로 시작합니다.
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
