"""42장이 불러오는 학습한 숫자 CNN의 가중치(`src/tinygrad_ko/data/digit_cnn.npz`)를 만들거나 확인합니다.

    python3 scripts/train_digit_cnn.py           # 학습하고 저장합니다(2코어 컴퓨터에서 10초쯤)
    python3 scripts/train_digit_cnn.py --check   # 다시 학습해 저장된 가중치와 같은지 확인합니다

`tinygrad_ko.nn.models.DigitCNN(seed=0)`을 저장소의 학습 세트 8,000장으로 배치 100개씩(DataLoader의 시드 0)
SGD(학습률 0.1)로 5에포크 학습하고, `save_weights`(37장)로 저장합니다. 시드가 모두 정해져 있으므로 같은
NumPy에서는 같은 가중치가 나옵니다. 다만 NumPy의 OpenBLAS는 CPU마다 다른 행렬 곱 커널을 고르고, 커널마다
합의 순서가 달라 마지막 자리가 다릅니다. 5에포크의 학습은 그 차이를 키웁니다(2026-12-07에 AMD EPYC에서 잼:
NumPy 2.4.6의 OpenBLAS가 고른 SkylakeX 커널로는 시험 정확도 0.9430, Haswell 커널로는 0.9435).
그래서 이 스크립트는 x86에서 `OPENBLAS_CORETYPE=Haswell`(AVX2가 있는 CPU면 어디서나 도는 커널)을 기본으로
씁니다. 그 밖의 차이를 위해 `--check`는 상대 오차 1e-4와 절대 오차 1e-6 안에서(`np.allclose`) 비교합니다. 시험 세트의 정확도와 파일의 sha256은 `digit_cnn.txt`에 적습니다.
"""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # 벤치마크와 같은 조건: 한 스레드
# CPU가 달라도 같은 행렬 곱 커널로(위 설명). NumPy를 가져오기 전에 정해야 OpenBLAS가 읽습니다.
os.environ.setdefault("OPENBLAS_CORETYPE", "Haswell")

import numpy as np  # noqa: E402
from korean_cli import KoreanArgumentParser  # noqa: E402

import tinygrad_ko as tg  # noqa: E402
from tinygrad_ko.data.datasets import ArrayDataset, load_mnist  # noqa: E402
from tinygrad_ko.data.loaders import DataLoader  # noqa: E402
from tinygrad_ko.functions.metrics import accuracy  # noqa: E402
from tinygrad_ko.functions.softmax import softmax_cross_entropy  # noqa: E402
from tinygrad_ko.nn.models import DIGIT_CNN_FILE, DigitCNN  # noqa: E402
from tinygrad_ko.optimizers import SGD  # noqa: E402

EPOCHS, LR = 5, 0.1
RECORD = DIGIT_CNN_FILE.with_name("digit_cnn.txt")


def as_images(images: np.ndarray) -> np.ndarray:
    """(N, 28, 28) uint8 → (N, 1, 28, 28) float32, 0~1. 42장의 전처리와 같습니다."""
    return images[:, np.newaxis].astype(np.float32) / 255


def train() -> tuple[DigitCNN, float]:
    images, labels = load_mnist(train=True)
    loader = DataLoader(ArrayDataset(as_images(images), labels), batch_size=100, seed=0)
    model = DigitCNN(seed=0)
    optimizer = SGD(model.parameters(), lr=LR)
    for _ in range(EPOCHS):
        for x, t in loader:
            loss = softmax_cross_entropy(model(x), t)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
    test_images, test_labels = load_mnist(train=False)
    with tg.no_grad():
        score = float(accuracy(model(as_images(test_images)), test_labels))
    return model, score


def main() -> None:
    parser = KoreanArgumentParser(
        prog="python3 scripts/train_digit_cnn.py", description=__doc__.splitlines()[0]
    )
    parser.add_argument(
        "--check", action="store_true", help="다시 학습해 저장된 가중치와 같은지 확인합니다"
    )
    args = parser.parse_args()
    model, score = train()
    if args.check:
        if not DIGIT_CNN_FILE.is_file():
            sys.exit(f"오류: {DIGIT_CNN_FILE} 가 없습니다. 먼저 --check 없이 실행해 만드세요.")
        saved = np.load(DIGIT_CNN_FILE)
        fresh = dict(model.named_parameters())
        bad = [
            k for k in saved.files if not np.allclose(saved[k], fresh[k].data, rtol=1e-4, atol=1e-6)
        ]
        if bad or sorted(saved.files) != sorted(fresh):
            sys.exit(f"오류: 다시 학습한 가중치가 저장된 것과 다릅니다: {bad or '이름'}")
        print(f"확인: 저장된 가중치와 같습니다(시험 정확도 {score:.4f}).")
        return
    model.save_weights(DIGIT_CNN_FILE)
    digest = hashlib.sha256(DIGIT_CNN_FILE.read_bytes()).hexdigest()
    RECORD.write_text(
        "# scripts/train_digit_cnn.py 가 만든 파일입니다. 고치지 말고 스크립트를 다시 실행하세요.\n"
        f"digit_cnn.npz {digest}\n"
        f"DigitCNN(seed=0), 학습 세트 8,000장, 배치 100(시드 0), SGD lr {LR}, {EPOCHS}에포크\n"
        f"시험 세트 2,000장의 정확도 {score:.4f}\n",
        encoding="utf-8",
    )
    print(
        f"저장했습니다: {DIGIT_CNN_FILE} ({DIGIT_CNN_FILE.stat().st_size:,}바이트), 시험 정확도 {score:.4f}"
    )


if __name__ == "__main__":
    main()
