"""끝에서 끝까지 학습: 나선(훈련 정확도 ≥ 0.95), 손글씨 숫자(시험 정확도 ≥ 0.90), 오래 돌려도 메모리가
늘지 않는지. 시드를 고정하고, 정확한 소수가 아니라 문턱값을 확인합니다."""

import gc
import tracemalloc

import numpy as np
import pytest

import tinygrad_ko as tg
from tinygrad_ko.data import transforms
from tinygrad_ko.data.datasets import MNIST, Spiral
from tinygrad_ko.data.loaders import DataLoader
from tinygrad_ko.functions.activations import relu
from tinygrad_ko.functions.metrics import accuracy
from tinygrad_ko.functions.softmax import softmax_cross_entropy
from tinygrad_ko.nn.models import MLP
from tinygrad_ko.optimizers import SGD, Adam


def train(model, optimizer, loader, epochs):
    for _ in range(epochs):
        for x, t in loader:
            loss = softmax_cross_entropy(model(x), t)
            model.cleargrads()
            loss.backward()
            optimizer.step()
    return loss


def evaluate(model, dataset):
    x, t = next(iter(DataLoader(dataset, len(dataset), shuffle=False)))
    with tg.no_grad(), tg.test_mode():
        return accuracy(model(x), t)


def test_spiral_reaches_95_percent_train_accuracy():
    dataset = Spiral()
    model = MLP((30, 3), relu, seed=0)
    loss = train(model, Adam(model.parameters(), lr=0.05), DataLoader(dataset, 30, seed=0), 60)
    assert evaluate(model, dataset) >= 0.95
    assert evaluate(model, Spiral(train=False)) >= 0.90  # 시드가 다른 나선에서도
    assert loss.data < 0.3


def test_books_spiral_setup_with_sigmoid_and_sgd():
    """책의 설정(은닉 10, 시그모이드, SGD lr=1.0, 배치 30)도 300 에포크면 95%를 넘습니다."""
    dataset = Spiral()
    model = MLP((10, 3), seed=0)
    train(model, SGD(model.parameters(), lr=1.0), DataLoader(dataset, 30, seed=0), 300)
    assert evaluate(model, dataset) >= 0.95


def test_digits_reach_90_percent_test_accuracy():
    flat = transforms.Compose(
        [transforms.Flatten(), transforms.ToFloat(), transforms.Normalize(0.0, 255.0)]
    )
    train_set, test_set = MNIST(True, flat), MNIST(False, flat)
    model = MLP((100, 10), relu, seed=0)
    train(model, SGD(model.parameters(), lr=0.5), DataLoader(train_set, 100, seed=0), 2)
    assert evaluate(model, test_set) >= 0.90


@pytest.mark.slow  # 메모리 추적(tracemalloc)이 할당마다 비용을 더합니다.
def test_training_steps_keep_memory_stable(gc_disabled, engine_memory):
    """GC를 끈 채 3,000 스텝: 계산 그래프가 순환 참조 없이 풀리므로 추적한 메모리가 늘지 않습니다.

    재는 구간은 뒤의 2,500 스텝입니다. 파이썬 객체는 가장 작아도 16바이트이므로, 스텝마다 객체 하나만
    남아도 40 KB가 늘어 16 KB 한도를 넘습니다."""
    rng = np.random.default_rng(0)
    x = rng.normal(size=(8, 2)).astype(np.float32)
    t = rng.integers(0, 3, size=8)
    model = MLP((6, 3), relu, seed=0)
    optimizer = SGD(model.parameters(), lr=0.1, momentum=0.9)

    def step():
        loss = softmax_cross_entropy(model(x), t)
        model.cleargrads()
        loss.backward()
        optimizer.step()
        return loss

    for _ in range(200):  # 준비 운동: 옵티마이저의 상태와 캐시가 자리를 잡게 합니다.
        first = step()
    tracemalloc.start()
    try:
        for _ in range(500):
            step()
        before = engine_memory()
        for _ in range(2_500):
            last = step()
        after = engine_memory()
    finally:
        tracemalloc.stop()
    assert _engine_objects_in_cycles() == []  # 치울 순환 참조에 엔진의 객체가 하나도 없습니다.
    assert after - before < 16 * 1024
    assert last.data < first.data


def _engine_objects_in_cycles() -> list[str]:
    """GC가 치울 순환 참조 가운데 tinygrad_ko의 객체(변수, 함수, 층)의 타입 이름.

    같은 프로세스의 다른 코드(노트북을 실행하는 nbclient, zmq 같은)도 순환 참조를 만들 수 있으므로,
    `gc.collect() == 0`이 아니라 엔진의 객체가 없는지를 봅니다.
    """
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        gc.collect()
        names = [
            type(o).__name__ for o in gc.garbage if type(o).__module__.startswith("tinygrad_ko")
        ]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
    return names
