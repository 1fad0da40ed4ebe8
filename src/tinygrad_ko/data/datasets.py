"""데이터셋: 학습 예제에 쓰는 데이터를 만들거나 읽고, 한 장씩 꺼내 줍니다(48~51단계).

- 코드로 만드는 데이터(고정된 시드): `make_moons`(반달 두 개), `make_spiral`(나선 세 갈래, 48단계),
  `make_sin_curve`(잡음 섞인 sin 곡선).
- 저장소에 든 데이터: `load_mnist`(MNIST 손글씨 숫자 10,000장, `data/mnist10k.npz`). 실행 중에 아무것도
  내려받지 않습니다. 출처와 라이선스는 `data/README.md`에 있습니다.
- `Dataset`(49단계): `dataset[i]`로 (입력, 정답) 한 쌍을 꺼내고, 꺼낼 때 변환(`transform`)을 합니다.
  `ArrayDataset`은 배열 두 개를, `Spiral`과 `MNIST`는 위의 데이터를 담습니다. `SinCurve`(59단계)는
  시계열: 한 시각의 값이 입력, 다음 시각의 값이 정답입니다.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np

from .._checks import check_count, check_flag, check_positive, is_integer

__all__ = [
    "MNIST",
    "ArrayDataset",
    "Dataset",
    "SinCurve",
    "Spiral",
    "load_mnist",
    "make_moons",
    "make_sin_curve",
    "make_spiral",
]

MNIST_FILE = Path(__file__).resolve().parent / "mnist10k.npz"


# --8<-- [start:moons]
def make_moons(
    n_samples: int = 100, *, noise: float = 0.1, seed: int | None = 0
) -> tuple[np.ndarray, np.ndarray]:
    """서로 맞물린 반달 두 개를 만듭니다.

    돌려주는 것: 점의 좌표 `X` (모양 `(n_samples, 2)`)와 레이블 `y` (모양 `(n_samples,)`,
    위쪽 반달은 -1.0, 아래쪽 반달은 +1.0). 같은 NumPy에서는 같은 `seed`면 늘 같은 점이 나옵니다.
    """
    n_samples = check_count("n_samples", n_samples, minimum=2)
    noise = check_positive("noise", noise, zero_ok=True, finite=False)
    rng = np.random.default_rng(seed)
    n_upper = n_samples // 2
    n_lower = n_samples - n_upper
    t_upper = np.linspace(0.0, np.pi, n_upper)
    t_lower = np.linspace(0.0, np.pi, n_lower)
    upper = np.column_stack([np.cos(t_upper), np.sin(t_upper)])  # 중심 (0, 0)의 위쪽 반원
    lower = np.column_stack([1.0 - np.cos(t_lower), 0.5 - np.sin(t_lower)])  # 옮겨 뒤집은 반원
    X = np.concatenate([upper, lower]) + rng.normal(0.0, noise, size=(n_samples, 2))
    y = np.concatenate([-np.ones(n_upper), np.ones(n_lower)])
    order = rng.permutation(n_samples)  # 두 반달이 번갈아 섞이도록 순서를 섞습니다
    return X[order], y[order]


# --8<-- [end:moons]


# --8<-- [start:spiral]
def make_spiral(
    n_per_class: int = 100, n_classes: int = 3, *, seed: int | None = 0
) -> tuple[np.ndarray, np.ndarray]:
    """중심에서 바깥으로 감기는 나선 `n_classes`갈래(48단계의 데이터).

    돌려주는 것: 좌표 `x` (모양 `(n_per_class * n_classes, 2)`, float64)와 클래스 번호 `t`
    (모양 `(n_per_class * n_classes,)`, int64, 0부터). 점의 순서는 섞여 있습니다.
    갈래 j의 i번째 점은 반지름 r = i / n_per_class, 각도 θ = 4j + 4r + 잡음(표준편차 0.2)에
    있습니다. 클래스마다 선형 점수 하나를 내는 모델로는 잘 나뉘지 않아 은닉층이 있는 신경망을 씁니다.
    """
    n_per_class = check_count("n_per_class", n_per_class)
    n_classes = check_count("n_classes", n_classes)
    rng = np.random.default_rng(seed)
    radius = np.tile(np.arange(n_per_class) / n_per_class, n_classes)
    labels = np.repeat(np.arange(n_classes), n_per_class)
    theta = labels * 4.0 + radius * 4.0 + rng.normal(0.0, 0.2, size=radius.size)
    x = np.column_stack([radius * np.sin(theta), radius * np.cos(theta)])
    order = rng.permutation(radius.size)
    return x[order], labels[order]


# --8<-- [end:spiral]


def make_sin_curve(
    n_samples: int = 100, *, noise: float = 1.0, seed: int | None = 0
) -> tuple[np.ndarray, np.ndarray]:
    """y = sin(2πx)에 [0, noise) 범위의 균일한 잡음을 더한 점들(43단계와 46단계의 회귀 데이터).

    돌려주는 것: `x` (모양 `(n_samples, 1)`, [0, 1) 구간)와 `y` (모양 `(n_samples, 1)`).
    """
    n_samples = check_count("n_samples", n_samples)
    noise = check_positive("noise", noise, zero_ok=True, finite=False)
    rng = np.random.default_rng(seed)
    x = rng.random((n_samples, 1))
    y = np.sin(2 * np.pi * x) + noise * rng.random((n_samples, 1))
    return x, y


# --8<-- [start:load-mnist]
def load_mnist(train: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """저장소에 든 MNIST 손글씨 숫자를 읽습니다. 인터넷에서 받지 않습니다.

    돌려주는 것: 그림 (모양 `(장 수, 28, 28)`, uint8, 0~255)과 숫자 (모양 `(장 수,)`, uint8).
    `train=True`이면 학습용 8,000장, False이면 시험용 2,000장입니다. 두 세트는 MNIST 학습 세트의
    앞 10,000장을 나눈 것입니다(출처: `tinygrad_ko/data/README.md`).
    """
    train = check_flag("train", train)
    if not MNIST_FILE.is_file():
        raise FileNotFoundError(
            f"손글씨 숫자 파일이 없습니다: {MNIST_FILE}. 저장소를 다시 받거나 "
            f"python3 scripts/fetch_digits.py로 만들어 주세요."
        )
    part = "train" if train else "test"
    with np.load(MNIST_FILE, allow_pickle=False) as arrays:
        return arrays[f"{part}_images"], arrays[f"{part}_labels"]
    # --8<-- [end:load-mnist]


# --8<-- [start:dataset]
class Dataset:
    """(입력, 정답) 쌍을 하나씩 꺼내 주는 데이터셋의 바탕 클래스(49단계).

    하위 클래스는 `prepare()`에서 `self.data`(입력들)와 `self.label`(정답들, 없으면 None)을
    정합니다. `dataset[i]`는 i번째 쌍에 `transform`(입력)과 `target_transform`(정답)을 한 뒤
    돌려줍니다. 변환은 꺼낼 때마다 하고, 전처리한 사본은 따로 저장하지 않습니다.
    """

    def __init__(
        self,
        train: bool = True,
        transform: Callable | None = None,
        target_transform: Callable | None = None,
    ) -> None:
        for name, value in (("transform", transform), ("target_transform", target_transform)):
            if value is not None and not callable(value):
                raise TypeError(
                    f"{name}에는 함수(호출할 수 있는 것)나 None을 넣어 주세요. "
                    f"받은 값: {type(value).__name__}."
                )
        self.train = check_flag("train", train, also=np.bool_)
        self.transform = transform
        self.target_transform = target_transform
        self.data: np.ndarray | None = None
        self.label: np.ndarray | None = None
        self.prepare()

    def prepare(self) -> None:
        """하위 클래스가 `self.data`와 `self.label`을 채웁니다."""

    def __len__(self) -> int:
        if self.data is None:
            raise RuntimeError(f"{type(self).__name__}.prepare가 self.data를 채우지 않았습니다.")
        return len(self.data)

    def __getitem__(self, index: int) -> tuple[object, object]:
        i = self._position(index)
        x = self.data[i]
        t = None if self.label is None else self.label[i]
        if self.transform is not None:
            x = self.transform(x)
        if t is not None and self.target_transform is not None:
            t = self.target_transform(t)
        return x, t

    def _position(self, index: object) -> int:
        """정수 번호(음수는 끝에서부터)를 0 이상의 위치로 바꿉니다. 범위 밖이면 IndexError."""
        if not is_integer(index):
            raise TypeError(
                f"데이터셋의 번호는 정수여야 합니다. 받은 값: {type(index).__name__} {index!r}. "
                f"여러 개를 꺼내려면 DataLoader나 [dataset[i] for i in ...]를 쓰세요."
            )
        n = len(self)
        position = int(index) + n if index < 0 else int(index)
        if not 0 <= position < n:
            raise IndexError(
                f"번호 {index}은(는) 범위 밖입니다. 이 데이터셋에는 {n}개가 있으니 "
                f"-{n} 이상 {n - 1} 이하의 번호를 주세요."
            )
        return position

    # --8<-- [end:dataset]


class ArrayDataset(Dataset):
    """이미 가진 배열 두 개(입력, 정답)로 만드는 데이터셋. 정답이 없으면 `label=None`."""

    def __init__(
        self,
        data: np.ndarray,
        label: np.ndarray | None = None,
        transform: Callable | None = None,
        target_transform: Callable | None = None,
    ) -> None:
        data = np.asarray(data)
        if data.ndim == 0:
            raise ValueError(
                "data에는 첫 축이 샘플 번호인 배열을 넣어 주세요. 0차원 값을 받았습니다."
            )
        if label is not None:
            label = np.asarray(label)
            if label.ndim == 0 or len(label) != len(data):
                raise ValueError(
                    f"입력 {len(data)}개와 정답 {np.shape(label)}의 개수가 맞지 않습니다. "
                    f"샘플마다 정답이 하나씩 있어야 합니다."
                )
        self._arrays = (data, label)
        super().__init__(True, transform, target_transform)

    def prepare(self) -> None:
        self.data, self.label = self._arrays


class Spiral(Dataset):
    """나선 데이터셋(48, 49단계): 세 갈래, 갈래마다 100점. 학습용과 시험용은 시드가 다릅니다."""

    def prepare(self) -> None:
        self.data, self.label = make_spiral(seed=1 if self.train else 2)


class MNIST(Dataset):
    """MNIST 손글씨 숫자(51단계): 그림은 (28, 28) uint8, 정답은 0~9. 학습용 8,000장, 시험용 2,000장.

    신경망에 넣으려면 보통 `transform=transforms.Compose([transforms.Flatten(),
    transforms.ToFloat(), transforms.Normalize(0.0, 255.0)])`처럼 펴고 0~1로 바꿉니다.
    """

    def prepare(self) -> None:
        self.data, self.label = load_mnist(self.train)


# --8<-- [start:sin-curve]
class SinCurve(Dataset):
    """시계열 데이터(59단계): [0, 2π]를 1,000점으로 나눈 sin 곡선에 ±0.05의 균일한 잡음을 더한 것.

    i번째 쌍은 (i번째 값, i+1번째 값)이라 999쌍이고, 모양은 각각 (1,)입니다. `train=False`이면 잡음
    없는 cos 곡선입니다(책과 같음). 책은 잡음에 시드가 없어 실행마다 데이터가 다릅니다. 여기서는
    `seed`(기본값 0)로 정하고, None이면 실행마다 다릅니다.
    """

    def __init__(
        self,
        train: bool = True,
        transform: Callable | None = None,
        target_transform: Callable | None = None,
        *,
        seed: int | np.random.Generator | None = 0,
    ) -> None:
        self.seed = seed
        super().__init__(train, transform, target_transform)

    def prepare(self) -> None:
        x = np.linspace(0, 2 * np.pi, 1000)
        if self.train:
            noise = np.random.default_rng(self.seed).uniform(-0.05, 0.05, size=x.shape)
            y = np.sin(x) + noise
        else:
            y = np.cos(x)
        self.data = y[:-1, np.newaxis]
        self.label = y[1:, np.newaxis]
        # --8<-- [end:sin-curve]
