"""손글씨 숫자에서 41장의 합성곱 신경망과 36장의 MLP를 같은 조건으로 학습시켜 시험 정확도를 잽니다.

    python3 scripts/cnn_vs_mlp.py              # 5에포크씩(2코어 컴퓨터에서 10초쯤)
    python3 scripts/cnn_vs_mlp.py --epochs 2
    python3 scripts/cnn_vs_mlp.py --seeds 5     # 처음 가중치의 시드 5개로, 정확도의 퍼짐까지

두 모델 모두 저장소의 학습 세트 8,000장을 배치 100개씩(같은 시드로 같은 순서) SGD로 학습하고, 에포크마다
시험 세트 2,000장의 정확도와 그 에포크의 학습 시간을 출력합니다. 학습률은 각 장이 쓴 값입니다(MLP 0.5는
36장, CNN 0.1은 41장). 페이지는 몇 스텝만 학습하므로, 끝까지 학습한 정확도는 이 스크립트로 다시 잽니다.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # 벤치마크와 같은 조건: 한 스레드
# CPU마다 OpenBLAS가 고르는 행렬 곱 커널이 달라 5에포크 뒤 정확도의 마지막 자리가 갈립니다(train_digit_cnn.py
# 참고). 어느 x86 CPU에서나 같은 수가 나오도록 Haswell 커널로 정합니다. NumPy를 가져오기 전에 정해야 합니다.
os.environ.setdefault("OPENBLAS_CORETYPE", "Haswell")

import numpy as np  # noqa: E402
from korean_cli import KoreanArgumentParser  # noqa: E402

import tinygrad_ko as tg  # noqa: E402
from tinygrad_ko.data.datasets import ArrayDataset, load_mnist  # noqa: E402
from tinygrad_ko.data.loaders import DataLoader  # noqa: E402
from tinygrad_ko.functions.metrics import accuracy  # noqa: E402
from tinygrad_ko.functions.softmax import softmax_cross_entropy  # noqa: E402
from tinygrad_ko.nn.models import MLP, DigitCNN  # noqa: E402
from tinygrad_ko.optimizers import SGD  # noqa: E402


def train(name, model, lr, shape, epochs, verbose=True):
    images, labels = load_mnist(train=True)
    test_images, test_labels = load_mnist(train=False)
    x_train = images.reshape(len(images), *shape).astype(np.float32) / 255
    x_test = test_images.reshape(len(test_images), *shape).astype(np.float32) / 255
    loader = DataLoader(ArrayDataset(x_train, labels), batch_size=100, seed=0)
    optimizer = SGD(model.parameters(), lr=lr)
    for epoch in range(1, epochs + 1):
        start = time.perf_counter()
        for x, t in loader:
            loss = softmax_cross_entropy(model(x), t)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        seconds = time.perf_counter() - start
        with tg.no_grad():
            acc = np.mean(
                [
                    accuracy(model(x_test[i : i + 500]), test_labels[i : i + 500])
                    for i in range(0, 2000, 500)
                ]
            )
        if verbose:
            print(f"{name} 에포크 {epoch}: 시험 정확도 {acc:.4f}, 학습 {seconds:.1f}초", flush=True)
    return acc


def main() -> None:
    parser = KoreanArgumentParser(
        prog="python3 scripts/cnn_vs_mlp.py", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--epochs", type=int, default=5, help="모델마다 학습할 에포크 수(기본값 5)")
    parser.add_argument(
        "--seeds", type=int, default=1, help="처음 가중치의 시드를 0부터 몇 개 시험할지(기본값 1)"
    )
    args = parser.parse_args()
    if args.epochs < 1 or args.seeds < 1:
        parser.error(
            f"--epochs와 --seeds는 1 이상이어야 합니다. 받은 값: {args.epochs}, {args.seeds}"
        )
    verbose = args.seeds == 1
    results = {"CNN": [], "MLP": []}
    for seed in range(args.seeds):
        mlp = MLP((100, 10), tg.relu, seed=seed)
        results["MLP"].append(
            train("MLP((100, 10)), lr 0.5", mlp, 0.5, (784,), args.epochs, verbose)
        )
        cnn = DigitCNN(seed=seed)
        results["CNN"].append(train("CNN, lr 0.1", cnn, 0.1, (1, 28, 28), args.epochs, verbose))
        print(
            f"시드 {seed}: CNN {results['CNN'][-1]:.4f}, MLP {results['MLP'][-1]:.4f}", flush=True
        )
    for name, scores in results.items():
        print(
            f"{args.epochs}에포크 뒤 {name}의 시험 정확도(시드 {args.seeds}개): 평균 {np.mean(scores):.4f}, "
            f"가장 낮음 {min(scores):.4f}, 가장 높음 {max(scores):.4f}"
        )


if __name__ == "__main__":
    main()
