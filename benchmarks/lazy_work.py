"""제6고지의 지연 엔진(`tinygrad_ko.lazy`) 작업들: 같은 프로세스 안에서 NumPy, 최종 엔진과 번갈아 잽니다.

- `lazy_chain`: float32 원소별 연산 20개(× + − relu 부호를 네 번)의 순전파. NumPy(연산마다 임시 배열),
  `np.copyto`(한 번 읽고 한 번 쓰기: 바닥), 지연 텐서(그래프를 만들고 계산), 되풀이(`lazy.Replay`).
- `lazy_chain_large`: 같은 사슬을 큰 배열에서: 4000×4000(배열 하나 64 MB)은 이 저장소를 만든 기계의 L3 캐시(32 MB)에
  들어가지 않습니다.
  1000×1000(4 MB)에서는 NumPy의 임시 배열이 캐시에 머물러, 연산마다 메모리를 오가는 값이 덜 드러납니다.
- `lazy_backward`: 같은 사슬의 합을 역전파해 x의 미분값까지. 최종 엔진과 지연 텐서, 되풀이.
- `lazy_compile`: 커널 하나를 처음 부를 때(컴파일 포함, 벽시계: 컴파일러는 다른 프로세스입니다)와,
  새 프로세스처럼 캐시 파일에서 불러올 때.
- `lazy_train`: 학습 스텝 하나(relu((x·w).sum(1) + b)의 제곱 오차, 경사 하강). 최종 엔진과 지연 텐서, 되풀이.

커널 캐시는 이 프로세스만의 임시 폴더에 둡니다(사용자의 캐시와 앞선 실행에 기대지 않게). 잴 때는
이미 컴파일한 커널을 씁니다(`lazy_compile`만 컴파일을 잽니다). 재기 전에 값이 NumPy나 최종 엔진과
같은지 확인합니다.
"""

from __future__ import annotations

import gc
import os
import random
import tempfile
from time import perf_counter

import numpy as np


def WrongValue(message: str) -> AssertionError:  # noqa: N802 - 예외 클래스처럼 부릅니다
    """틀린 값: workloads의 WrongGradient(표에 '틀린 미분값'으로 적힙니다). 순환 가져오기를 피해 여기서 가져옵니다."""
    from workloads import WrongGradient

    return WrongGradient(message)


def _lazy():
    """지연 엔진을 이 프로세스만의 캐시 폴더로 가져옵니다."""
    os.environ["TINYGRAD_KO_CACHE"] = tempfile.mkdtemp(prefix="tinygrad_ko-bench-")
    from tinygrad_ko import lazy
    from tinygrad_ko.lazy import compiler

    compiler.reset()
    return lazy


def chain(y):
    """× + − relu 부호 바꾸기를 네 번: 연산 20개. NumPy 배열에도 지연 텐서와 Variable에도 맞는 식."""
    for _ in range(4):
        y = y * 1.01
        y = y + 0.5
        y = y - 0.25
        y = y.relu() if hasattr(y, "relu") else np.maximum(y, 0)
        y = -y
    return y


def alternate(calls: dict, repeats: int, clock, seed: int = 0) -> dict:
    """여러 후보를 반복마다 순서를 섞어 가며 잽니다(캐시와 할당기 상태의 치우침을 나눕니다).

    순서를 돌리기만 하면 후보마다 바로 앞의 후보가 늘 같아, 앞 후보가 남긴 캐시나 방금 풀린 버퍼의
    덕을 한 후보만 봅니다. 씨앗을 고정해 같은 실행은 같은 순서로 잽니다.
    """
    times = {name: [] for name in calls}
    names = list(calls)
    shuffle = random.Random(seed).shuffle
    for _ in range(repeats):
        shuffle(names)
        for name in names:
            gc.collect()
            start = clock()
            calls[name]()
            times[name].append((clock() - start) / 1e6)
    return times


def lazy_chain(sizes, clock) -> dict:
    return _chain_times(sizes.elementwise_n, sizes.elementwise_repeats, clock)


def lazy_chain_large(sizes, clock) -> dict:
    return _chain_times(sizes.lazy_large_n, sizes.lazy_large_repeats, clock)


def _chain_times(n: int, repeats: int, clock) -> dict:
    lazy = _lazy()
    a = np.random.default_rng(0).standard_normal((n, n)).astype(np.float32)
    t = lazy.Tensor(a)
    dst = np.empty_like(a)
    replay = lazy.Replay(chain)
    if not np.array_equal(chain(t).numpy(), chain(a)) or not np.array_equal(
        replay(t).numpy(), chain(a)
    ):
        raise WrongValue("지연 엔진의 사슬 값이 NumPy와 원소마다 같지 않습니다.")
    times = alternate(
        {
            "numpy_ms": lambda: chain(a),
            "copy_ms": lambda: np.copyto(dst, a),
            "lazy_ms": lambda: chain(t).numpy(),
            "replay_ms": lambda: replay(t).numpy(),
        },
        repeats,
        clock,
    )
    return {"n": n, "backend": lazy.backend(), **times}


def lazy_backward(sizes, clock) -> dict:
    import tinygrad_ko as tk

    lazy = _lazy()
    n = sizes.elementwise_n
    a = np.random.default_rng(1).standard_normal((n, n)).astype(np.float32)

    def run_lazy():
        x = lazy.Tensor(a, requires_grad=True)
        chain(x).sum().backward()
        return x.grad.numpy()

    def run_eager():
        x = tk.Variable(a)
        chain(x).sum().backward()
        return x.grad

    def grad_of(x):
        chain(x).sum().backward()
        return x.grad

    replay = lazy.Replay(grad_of)
    first = replay(lazy.Tensor(a, requires_grad=True)).numpy()
    if not (np.array_equal(run_lazy(), run_eager()) and np.array_equal(first, run_eager())):
        raise WrongValue("지연 엔진의 미분값이 최종 엔진과 원소마다 같지 않습니다.")
    times = alternate(
        {
            "eager_ms": run_eager,
            "lazy_ms": run_lazy,
            "replay_ms": lambda: replay(lazy.Tensor(a, requires_grad=True)).numpy(),
        },
        sizes.elementwise_repeats,
        clock,
    )
    return {"n": n, "backend": lazy.backend(), **times}


def lazy_compile(sizes, clock) -> dict:
    lazy = _lazy()
    from tinygrad_ko.lazy import compiler

    a = np.ones((sizes.elementwise_n, sizes.elementwise_n), np.float32)
    compile_s, disk_ms = [], []
    for k in range(3):
        os.environ["TINYGRAD_KO_CACHE"] = tempfile.mkdtemp(prefix="tinygrad_ko-bench-")
        compiler.reset()
        start = perf_counter()
        (chain(lazy.Tensor(a)) * float(k + 2)).numpy()  # 반복마다 다른 커널
        compile_s.append(perf_counter() - start)
        compiler.reset()  # 새 프로세스처럼: 같은 캐시 폴더의 파일에서 불러옵니다
        start = perf_counter()
        (chain(lazy.Tensor(a)) * float(k + 2)).numpy()
        disk_ms.append((perf_counter() - start) * 1e3)
    if lazy.backend() != "c":
        compile_s, disk_ms = [], []  # 컴파일러가 없는 기계: 잴 것이 없습니다
    return {"backend": lazy.backend(), "compile_s": compile_s, "disk_ms": disk_ms}


def lazy_train(sizes, clock) -> dict:
    import tinygrad_ko as tk

    lazy = _lazy()
    n = sizes.elementwise_n
    rng = np.random.default_rng(2)
    x = rng.standard_normal((n, n)).astype(np.float32)
    true_w = rng.standard_normal((1, n)).astype(np.float32) / np.float32(np.sqrt(n))
    target = np.maximum((x * true_w).sum(axis=1, keepdims=True), 0)
    w0 = np.zeros((1, n), np.float32)
    b0 = np.full((1, 1), 0.1, np.float32)
    x_lazy, t_lazy = lazy.Tensor(x), lazy.Tensor(target)

    def lazy_step(w, b, x_lazy=x_lazy, t_lazy=t_lazy):  # 되풀이는 데이터도 인수로 받습니다
        pred = ((x_lazy * w).sum(axis=1, keepdims=True) + b).relu()
        loss = ((pred - t_lazy) * (pred - t_lazy)).sum() / float(n)
        loss.backward()
        return w - w.grad * 0.1, b - b.grad * 0.1

    def run_lazy(w_data, b_data):
        w, b = lazy_step(
            lazy.Tensor(w_data, requires_grad=True), lazy.Tensor(b_data, requires_grad=True)
        )
        lazy.realize(w, b)
        return w.numpy(), b.numpy()

    replay = lazy.Replay(lazy_step)

    def run_replay(w_data, b_data):
        w, b = replay(
            lazy.Tensor(w_data, requires_grad=True),
            lazy.Tensor(b_data, requires_grad=True),
            x_lazy,
            t_lazy,
        )
        return w.numpy(), b.numpy()

    def run_eager(w_data, b_data):
        w, b = tk.Variable(w_data), tk.Variable(b_data)
        pred = tk.relu((x * w).sum(axis=1, keepdims=True) + b)
        loss = ((pred - target) * (pred - target)).sum() / float(n)
        loss.backward()
        return w.data - w.grad * np.float32(0.1), b.data - b.grad * np.float32(0.1)

    for got in (run_lazy(w0, b0), run_replay(w0, b0)):
        for g, e in zip(got, run_eager(w0, b0), strict=True):
            if g.dtype != e.dtype or not np.allclose(g, e, rtol=1e-4, atol=1e-6):
                raise WrongValue("지연 엔진의 학습 스텝이 최종 엔진과 다른 매개변수를 냅니다.")
    times = alternate(
        {
            "eager_ms": lambda: run_eager(w0, b0),
            "lazy_ms": lambda: run_lazy(w0, b0),
            "replay_ms": lambda: run_replay(w0, b0),
        },
        sizes.elementwise_repeats,
        clock,
    )
    return {"n": n, "backend": lazy.backend(), **times}
