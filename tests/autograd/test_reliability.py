"""오래 돌리거나 여러 스레드에서 동시에 써도 결과와 메모리가 안정적인지 확인합니다."""

import gc
import threading
import tracemalloc

import numpy as np
import pytest

import tinygrad_ko as tg
from tinygrad_ko import Variable


def one_step(w: Variable, x: np.ndarray) -> None:
    w.cleargrad()
    loss = tg.tanh(w * x + 1.0) ** 2
    loss.backward()


@pytest.mark.slow
def test_ten_thousand_iterations_keep_memory_stable(engine_memory):
    w = Variable(np.linspace(-1, 1, 50))
    x = np.linspace(0, 2, 50)
    for _ in range(500):  # 준비 운동: 캐시와 내부 버퍼가 자리를 잡게 합니다.
        one_step(w, x)
    gc.collect()
    tracemalloc.start()
    try:
        for _ in range(1_000):
            one_step(w, x)
        after_1k = engine_memory()
        for _ in range(9_000):
            one_step(w, x)
        after_10k = engine_memory()
    finally:
        tracemalloc.stop()
    # 반복마다 조금씩이라도 새는 것이 있으면 9,000번 뒤에는 수십 KB 이상 늘어납니다.
    assert after_10k - after_1k < 16 * 1024
    expected = 2 * np.tanh(w.data * x + 1) * (1 - np.tanh(w.data * x + 1) ** 2) * x
    np.testing.assert_allclose(w.grad, expected)


def test_threads_backpropagate_at_once_some_under_no_grad():
    errors: list[str] = []
    start = threading.Barrier(8)

    def worker(index: int) -> None:
        start.wait(timeout=10)
        for step in range(200):
            value = float(index + 1) + step / 100
            if index % 2:
                with tg.no_grad():
                    y = tg.square(Variable(np.array(value)))
                    if y.creator is not None:
                        errors.append(f"스레드 {index}: no_grad인데 그래프가 기록됨")
            else:
                x = Variable(np.array(value))
                y = tg.sin(x) * x
                y.backward()
                expected = np.cos(value) * value + np.sin(value)
                if not np.isclose(float(x.grad), expected):
                    errors.append(f"스레드 {index}: 미분값 {float(x.grad)} != {expected}")

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert not any(t.is_alive() for t in threads)
    assert errors == []
