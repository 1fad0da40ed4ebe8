"""데이터: 데이터셋(`datasets`: 반달, 나선, sin 곡선, 손글씨 숫자), 변환(`transforms`), 미니배치를 만드는
`DataLoader`(`loaders`). 손글씨 숫자 파일 `mnist10k.npz`와 그 출처·라이선스(`README.md`)도 이 폴더에
있습니다. 실행 중에 무엇도 내려받지 않습니다.
"""

from .datasets import (
    MNIST,
    ArrayDataset,
    Dataset,
    Spiral,
    load_mnist,
    make_moons,
    make_sin_curve,
    make_spiral,
)
from .loaders import DataLoader
from .transforms import AsType, Compose, Flatten, Normalize, ToFloat

__all__ = [
    "MNIST",
    "ArrayDataset",
    "AsType",
    "Compose",
    "DataLoader",
    "Dataset",
    "Flatten",
    "Normalize",
    "Spiral",
    "ToFloat",
    "load_mnist",
    "make_moons",
    "make_sin_curve",
    "make_spiral",
]
