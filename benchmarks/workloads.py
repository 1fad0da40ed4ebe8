"""벤치마크 작업들. 각 함수는 엔진 어댑터(`engines.py`) 하나로 작업 하나를 재고,
JSON으로 옮길 수 있는 날것의 측정값(반복마다의 시간, MB)을 돌려줍니다. 요약은 실행기가 합니다.

모든 작업은 재기 전에 답(미분값)을 확인합니다. 틀린 답을 빨리 내는 엔진이 빠르다고
보고되지 않게 하려는 것입니다. 확인에 실패하면 `WrongGradient`를 던집니다.

시간은 계산 그래프를 만들고(순전파) 거슬러 올라가는(역전파) 구간만 잽니다. 시계는 벽시계가
아니라 이 프로세스가 쓴 CPU 시간(`time.process_time_ns`, 사용자+커널)입니다. 코어를 다른 작업과
나눠 쓰는 기계에서는 벽시계가 기다린 시간까지 세어 흔들리기 때문입니다. 반복 사이에
`gc.collect()`로 앞선 반복의 쓰레기를 치우지만, 잴 때 GC를 끄지는 않습니다: 순환 참조가 있는
엔진이 GC에 쓰는 시간도 그 엔진을 쓰는 사람이 치르는 값이기 때문입니다.
"""

from __future__ import annotations

import gc
import math
from dataclasses import dataclass
from time import perf_counter, process_time_ns

import lazy_work
import numpy as np
from memory import RssProbe, make_probe

# 측정에 쓰는 시계: 프로세스의 CPU 시간(나노초). 가지 작업의 시간 예산만 벽시계로 셉니다.
clock = process_time_ns


@dataclass(frozen=True)
class Sizes:
    """작업의 크기와 반복 횟수. `FULL`은 표에 싣는 값, `QUICK`은 빠른 점검용입니다."""

    chain_ops: int = 500  # 모든 엔진(재귀하는 7단계와 micrograd 포함)이 견디는 길이
    chain_repeats: int = 30
    chain_warmup: int = 3
    depths: tuple[int, ...] = (1_000, 10_000, 100_000, 1_000_000)
    fanin_ks: tuple[int, ...] = (1_000, 10_000)
    fanin_min_repeats: int = 3
    fanin_max_repeats: int = 9
    fanin_budget_s: float = 30.0  # K 하나에 쓸 시간. 느린 엔진은 최소 횟수만 잽니다.
    elementwise_n: int = 1000
    elementwise_repeats: int = 11
    lazy_large_n: int = 4000  # 제6고지의 사슬을 L3 캐시 밖에서(배열 하나 64 MB)
    lazy_large_repeats: int = 7
    affine_steps: int = 20
    memory_shape: tuple[int, ...] = (100, 100, 100)
    memory_ops: int = 20
    matmul_n: int = 1000
    matmul_chain: int = 3  # x @ W1 @ W2 @ W3: 순전파 3번, 역전파 6번의 행렬 곱
    matmul_repeats: int = 7
    mlp_steps: int = 200  # 반복 한 번에 하는 학습 스텝 수
    mlp_repeats: int = 11
    digits_samples: int = 8000  # 51단계: 손글씨 숫자 학습 세트 전부(배치 100개씩 80스텝)
    digits_repeats: int = 7
    gpt_steps: int = 20  # 한국어 microGPT: 잴 학습 스텝 수(스텝마다 다른 이름)
    conv_repeats: int = 30  # LeNet 크기 합성곱(64×1×28×28, 필터 16개 5×5)의 순전파+역전파
    cnn_samples: int = 8000  # 숫자 CNN: 학습 세트 전부(배치 100개씩 80스텝)
    cnn_repeats: int = 3
    lstm_windows: int = 10  # LSTM 잘린 역전파: 반복 한 번에 도는 창(30시각) 수
    lstm_repeats: int = 7


FULL = Sizes()
QUICK = Sizes(
    chain_ops=100,
    chain_repeats=5,
    chain_warmup=1,
    depths=(1_000, 10_000),
    fanin_ks=(100, 1_000),
    fanin_min_repeats=2,
    fanin_max_repeats=3,
    fanin_budget_s=5.0,
    elementwise_n=200,
    elementwise_repeats=3,
    lazy_large_n=400,
    lazy_large_repeats=2,
    memory_shape=(10, 100, 100),
    matmul_n=100,
    matmul_repeats=2,
    mlp_steps=20,
    mlp_repeats=2,
    digits_samples=1000,
    digits_repeats=2,
    gpt_steps=3,
    conv_repeats=3,
    cnn_samples=500,
    cnn_repeats=1,
    lstm_windows=2,
    lstm_repeats=2,
)

# 원소별 연산 작업: 블록 하나가 연산 5개(곱, 뺄셈, 제곱, 부호 바꿈, exp)이고 4번 되풀이합니다.
ELEMENTWISE_BLOCKS = 4
ELEMENTWISE_OPS = 5 * ELEMENTWISE_BLOCKS


class WrongGradient(AssertionError):
    """엔진이 낸 미분값이 손으로 구한 값과 다릅니다."""


def _timed_ms(call, repeats: int) -> tuple[list[float], object]:
    """call()을 repeats번 잰 CPU 시간(밀리초)의 목록과 마지막 결과. 잴 때마다 먼저 GC로 앞의 쓰레기를 치웁니다."""
    times, result = [], None
    for _ in range(repeats):
        gc.collect()
        start = clock()
        result = call()
        times.append((clock() - start) / 1e6)
    return times, result


def _check_scalar(got: object, expected: float, what: str) -> None:
    value = float(np.asarray(got))
    if not math.isclose(value, expected, rel_tol=1e-9):
        raise WrongGradient(f"{what}: 미분값 {value!r}, 기대한 값 {expected!r}")


# --- (a) 0차원 사슬 ---------------------------------------------------------------------
def chain(engine, sizes: Sizes) -> dict:
    """`y = y * c`를 `chain_ops`번 이은 사슬의 순전파와 역전파를 따로 잽니다(연산 하나당 µs)."""
    n, c = sizes.chain_ops, 1.001
    expected = c**n  # dy/dx = c^n
    scalar, scale, backward, grad = engine.scalar, engine.scale, engine.backward, engine.grad
    forward_us, backward_us = [], []
    for repeat in range(sizes.chain_warmup + sizes.chain_repeats):
        gc.collect()
        x = scalar(1.0)
        t0 = clock()
        y = x
        for _ in range(n):
            y = scale(y, c)
        t1 = clock()
        backward(y)
        t2 = clock()
        _check_scalar(grad(x), expected, f"길이 {n}인 사슬")
        if repeat >= sizes.chain_warmup:
            forward_us.append((t1 - t0) / n / 1000)
            backward_us.append((t2 - t1) / n / 1000)
        del x, y
    return {"ops": n, "forward_us": forward_us, "backward_us": backward_us}


# --- (b) 가장 깊은 사슬 ------------------------------------------------------------------
def depth(engine, n: int) -> dict:
    """길이 n인 사슬을 만들고 역전파한 뒤 해제합니다. 실패하면 예외가 그대로 올라갑니다."""
    x = engine.scalar(1.0)
    t0 = clock()
    y = x
    for _ in range(n):
        y = engine.scale(y, 1.0)
    t1 = clock()
    engine.backward(y)
    t2 = clock()
    _check_scalar(engine.grad(x), 1.0, f"길이 {n}인 사슬")
    del x, y  # 깊은 그래프를 해제하다 죽는 엔진도 실패로 보려고 여기서 해제합니다.
    gc.collect()
    t3 = clock()
    return {
        "n": n,
        "forward_s": (t1 - t0) / 1e9,
        "backward_s": (t2 - t1) / 1e9,
        "release_s": (t3 - t2) / 1e9,
    }


# --- (c) 가지(fan-in) --------------------------------------------------------------------
def fanin(engine, sizes: Sizes) -> dict:
    """`x * c_0 + x * c_1 + ... + x * c_{K-1}`(덧셈의 사슬, x 공유)의 역전파 시간(ms)."""
    scalar, scale, add, backward, grad = (
        engine.scalar,
        engine.scale,
        engine.add,
        engine.backward,
        engine.grad,
    )
    result = {}
    for k in sizes.fanin_ks:
        cs = [1.0 + i / k for i in range(k)]
        expected = math.fsum(cs)  # d(sum c_i x)/dx = sum c_i
        times_ms: list[float] = []
        started = perf_counter()
        while len(times_ms) < sizes.fanin_max_repeats and (
            len(times_ms) < sizes.fanin_min_repeats
            or perf_counter() - started < sizes.fanin_budget_s
        ):
            gc.collect()
            x = scalar(1.0)
            s = scale(x, cs[0])
            for c in cs[1:]:
                s = add(s, scale(x, c))
            t0 = clock()
            backward(s)
            t1 = clock()
            _check_scalar(grad(x), expected, f"가지 {k}개")
            times_ms.append((t1 - t0) / 1e6)
            del x, s
        result[str(k)] = times_ms
    return {"ms": result}


# --- (d) 1000x1000 원소별 연산 ------------------------------------------------------------
def engine_forward_backward(engine, x_data: np.ndarray, w_data: np.ndarray, w_grad: bool = True):
    """엔진으로 원소별 연산 20개를 순전파하고 역전파합니다. (x의 미분값, w의 미분값)을 돌려줍니다.

    `w_grad=False`이면 w는 미분하지 않는 상수입니다(엔진에 상수로 넘깁니다).
    """
    x = engine.array(x_data)
    w = engine.array(w_data) if w_grad else engine.constant(w_data)
    y = x
    for _ in range(ELEMENTWISE_BLOCKS):
        y = engine.mul(y, w)
        y = engine.sub(y, x)
        y = engine.square(y)
        y = engine.neg(y)
        y = engine.exp(y)
    engine.backward(y)
    return engine.grad(x), (engine.grad(w) if w_grad else None)


def numpy_forward_backward(x: np.ndarray, w: np.ndarray, w_grad: bool = True):
    """같은 계산을 NumPy만으로: 순전파에서 필요한 값을 남기고, 역전파는 손으로 유도한 식입니다.

    `w_grad=False`이면 w의 미분값을 구하지 않고(None), 그만큼 덜 남기고 덜 계산합니다.
    """
    saved = []
    y = x
    for _ in range(ELEMENTWISE_BLOCKS):
        b = y * w - x
        e = np.exp(-(b**2))
        saved.append((y if w_grad else None, b, e))
        y = e
    gy = np.ones_like(y)
    gx = gw = None
    for y_in, b, e in reversed(saved):
        gb = 2 * b * -(gy * e)  # e = exp(-b²) 이므로 de/db = -2b·e
        gx = -gb if gx is None else gx - gb  # b = y·w - x
        if w_grad:
            gw = gb * y_in if gw is None else gw + gb * y_in
        gy = gb * w
    return gx + gy, gw  # 처음의 y가 x 자신이므로 마지막 gy도 x의 미분값에 더합니다.


def _elementwise(engine, sizes: Sizes, w_grad: bool) -> dict:
    """엔진과 NumPy를 번갈아 재어, 반복마다 (엔진 시간 / NumPy 시간)을 구합니다."""
    n = sizes.elementwise_n
    rng = np.random.default_rng(0)
    x_data = rng.uniform(0.0, 1.0, (n, n))
    w_data = rng.uniform(0.5, 1.0, (n, n))

    want = numpy_forward_backward(x_data, w_data, w_grad)
    got = engine_forward_backward(engine, x_data, w_data, w_grad)
    for name, g, w in zip(("x", "w"), got, want, strict=True):
        if (g is None) != (w is None) or (
            w is not None and not np.allclose(np.asarray(g), w, rtol=1e-9, atol=1e-12)
        ):
            raise WrongGradient(
                f"{n}x{n} 원소별 연산: {name}의 미분값이 NumPy로 구한 값과 다릅니다."
            )
    del got, want

    engine_ms, numpy_ms = [], []
    for repeat in range(sizes.elementwise_repeats):
        # 순서에 따른 치우침(캐시, 할당기 상태)을 없애려고 먼저 재는 쪽을 번갈아 바꿉니다.
        order = ("engine", "numpy") if repeat % 2 == 0 else ("numpy", "engine")
        for which in order:
            gc.collect()
            t0 = clock()
            if which == "engine":
                engine_forward_backward(engine, x_data, w_data, w_grad)
            else:
                numpy_forward_backward(x_data, w_data, w_grad)
            elapsed = (clock() - t0) / 1e6
            (engine_ms if which == "engine" else numpy_ms).append(elapsed)
    ratio = [e / p for e, p in zip(engine_ms, numpy_ms, strict=True)]
    return {
        "n": n,
        "ops": ELEMENTWISE_OPS,
        "engine_ms": engine_ms,
        "numpy_ms": numpy_ms,
        "ratio": ratio,
    }


def elementwise(engine, sizes: Sizes) -> dict:
    """w도 미분하는 경우: 곱셈의 두 입력이 모두 미분이 필요합니다."""
    return _elementwise(engine, sizes, w_grad=True)


def elementwise_const(engine, sizes: Sizes) -> dict:
    """w가 상수인 경우: 미분이 필요 없는 입력의 미분을 계산하지 않는 엔진이 덜 일합니다."""
    return _elementwise(engine, sizes, w_grad=False)


# --- (d') `y = y * c + d` 사슬: 기록한 그래프의 메모리와 시간 -------------------------------------
def _affine_data(sizes: Sizes) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(1)
    n = sizes.elementwise_n
    return rng.uniform(0.0, 1.0, (n, n)), rng.uniform(0.0, 1.0, (n, n))


def _affine_run(engine, x_data: np.ndarray, d_data: np.ndarray, steps: int):
    x = engine.array(x_data)
    d = engine.constant(d_data)
    y = x
    for _ in range(steps):
        y = engine.add(engine.scale(y, AFFINE_C), d)
    return x, y


AFFINE_C = 0.99


def affine_chain(engine, sizes: Sizes) -> dict:
    """1000×1000 배열에 `y = y * c + d`를 `affine_steps`번 하고 역전파하는 시간(ms).

    c는 파이썬 수, d는 상수 배열입니다. 곱셈의 역전파에는 상수 c만, 덧셈의 역전파에는 아무것도
    필요 없으므로, 역전파에 필요한 것만 붙잡는 엔진은 중간 결과를 쌓아 두지 않고 같은 메모리를
    다시 씁니다. 할당기 설정은 기본값 그대로입니다(쌓아 둔 메모리가 시간에 주는 영향까지 잽니다).
    """
    steps = sizes.affine_steps
    x_data, d_data = _affine_data(sizes)
    x, y = _affine_run(engine, x_data, d_data, steps)
    engine.backward(y)
    got = np.asarray(engine.grad(x))
    if not np.allclose(got, AFFINE_C**steps, rtol=1e-9):
        raise WrongGradient(
            f"y = y*c + d 사슬: 미분값 {got.flat[0]!r}, 기대한 값 {AFFINE_C**steps!r}"
        )
    del x, y, got
    times_ms = []
    for _ in range(sizes.elementwise_repeats):
        gc.collect()
        t0 = clock()
        x, y = _affine_run(engine, x_data, d_data, steps)
        engine.backward(y)
        times_ms.append((clock() - t0) / 1e6)
        del x, y
    return {"n": sizes.elementwise_n, "steps": steps, "ms": times_ms}


def affine_memory(engine, sizes: Sizes) -> dict:
    """같은 사슬의 순전파(그래프 기록) 동안의 최대 메모리(MB). 입력 x와 상수 d는 세지 않습니다."""
    x_data, d_data = _affine_data(sizes)
    probe = make_probe(engine.memory_method)
    if engine.memory_method == "rss":
        _affine_run(engine, x_data, d_data, sizes.affine_steps)  # 데우기
    gc.collect()
    probe.start()
    x, y = _affine_run(engine, x_data, d_data, sizes.affine_steps)
    record_peak = probe.peak_mb()
    probe.stop()
    del x, y
    gc.collect()
    return {
        "steps": sizes.affine_steps,
        "record_peak": record_peak,
        "array_mb": x_data.nbytes / 1e6,
        "method": engine.memory_method,
    }


# --- (e) 메모리 -------------------------------------------------------------------------
def _squares(engine, x, count: int):
    y = x
    for _ in range(count):
        y = engine.square(y)
    return y


def _memory_pass(engine, x_data: np.ndarray, sizes: Sizes, probe) -> dict:
    """한 번 잽니다: no_grad 순전파의 최댓값, 기록하는 순전파의 최댓값, 역전파 중 최댓값,
    역전파 뒤 y를 쥔 채 남은 양. 입력 배열은 재기 전에 만들었으므로 세지 않습니다."""
    count = sizes.memory_ops
    out: dict[str, float | None] = {"no_grad_peak": None}
    no_grad = getattr(engine, "no_grad", None)
    x = engine.array(x_data)
    gc.collect()
    if no_grad is not None:
        probe.start()
        with no_grad():
            y = _squares(engine, x, count)
        out["no_grad_peak"] = probe.peak_mb()
        del y
        probe.stop()
        gc.collect()
    probe.start()
    y = _squares(engine, x, count)
    out["record_peak"] = probe.peak_mb()
    probe.reset_peak()
    engine.backward(y)
    out["backward_peak"] = probe.peak_mb()
    out["held_after_backward"] = probe.current_mb()
    probe.stop()
    # 1의 2^count 제곱의 미분값은 2^count 입니다.
    _check_scalar(np.asarray(engine.grad(x)).flat[0], 2.0**count, f"제곱 {count}번")
    del x, y
    gc.collect()
    return out


def memory(engine, sizes: Sizes) -> dict:
    """`square`를 20번 이은 계산의 메모리(MB). 엔진이 정한 방법으로 재고, tracemalloc으로 잰
    엔진은 RSS로도 한 번 더 재어 두 방법이 맞는지 보여 줍니다."""
    x_data = np.ones(sizes.memory_shape)
    result: dict = {"array_mb": x_data.nbytes / 1e6, "method": engine.memory_method}
    if engine.memory_method == "rss":
        _memory_pass(engine, x_data, sizes, make_probe("rss"))  # 데우기(코드 페이지 등)
    result.update(_memory_pass(engine, x_data, sizes, make_probe(engine.memory_method)))
    if engine.memory_method == "tracemalloc":
        try:
            probe = RssProbe()
        except OSError as error:
            result["rss_check"] = {"error": str(error)}
        else:
            _memory_pass(engine, x_data, sizes, probe)  # 데우기
            result["rss_check"] = _memory_pass(engine, x_data, sizes, probe)
    return result


# --- (f) 1000x1000 행렬 곱의 사슬 -----------------------------------------------------------
def engine_matmul_chain(engine, x_data: np.ndarray, w_datas: list[np.ndarray]) -> list:
    """엔진으로 y = x @ W1 @ W2 @ ...를 순전파하고 역전파합니다. [x의 미분값, W들의 미분값]."""
    x = engine.array(x_data)
    ws = [engine.array(w) for w in w_datas]
    y = x
    for w in ws:
        y = engine.matmul(y, w)
    engine.backward(y)
    return [engine.grad(v) for v in [x, *ws]]


def numpy_matmul_chain(x: np.ndarray, ws: list[np.ndarray]) -> list[np.ndarray]:
    """같은 계산을 NumPy만으로: 순전파의 중간 결과를 남기고, 역전파는 gx = gy @ W.T, gW = h.T @ gy."""
    hs = [x]
    for w in ws:
        hs.append(hs[-1] @ w)
    gy = np.ones_like(hs[-1])
    grads = []
    for h, w in zip(reversed(hs[:-1]), reversed(ws), strict=True):
        grads.append(h.T @ gy)
        gy = gy @ w.T
    return [gy, *reversed(grads)]


def matmul(engine, sizes: Sizes) -> dict:
    """엔진과 NumPy를 번갈아 재어, 반복마다 (엔진 시간 / NumPy 시간)을 구합니다(BLAS가 거의 다)."""
    n, k = sizes.matmul_n, sizes.matmul_chain
    rng = np.random.default_rng(0)
    x = rng.standard_normal((n, n)) / np.sqrt(n)
    ws = [rng.standard_normal((n, n)) / np.sqrt(n) for _ in range(k)]
    want = numpy_matmul_chain(x, ws)
    got = engine_matmul_chain(engine, x, ws)
    for i, (g, w) in enumerate(zip(got, want, strict=True)):
        if not np.allclose(np.asarray(g), w, rtol=1e-9, atol=1e-9):
            raise WrongGradient(f"{n}x{n} 행렬 곱 사슬: {i}번 입력의 미분값이 NumPy와 다릅니다.")
    del got, want
    engine_ms, numpy_ms = [], []
    for repeat in range(sizes.matmul_repeats):
        order = ("engine", "numpy") if repeat % 2 == 0 else ("numpy", "engine")
        for which in order:
            gc.collect()
            t0 = clock()
            if which == "engine":
                engine_matmul_chain(engine, x, ws)
            else:
                numpy_matmul_chain(x, ws)
            elapsed = (clock() - t0) / 1e6
            (engine_ms if which == "engine" else numpy_ms).append(elapsed)
    ratio = [e / p for e, p in zip(engine_ms, numpy_ms, strict=True)]
    return {"n": n, "chain": k, "engine_ms": engine_ms, "numpy_ms": numpy_ms, "ratio": ratio}


# --- (g) 두 층 신경망의 학습 스텝(43단계) --------------------------------------------------------
MLP_HIDDEN, MLP_BATCH, MLP_LR = 10, 100, 0.2


def mlp_problem() -> tuple[np.ndarray, np.ndarray, list[np.ndarray]]:
    """43단계의 sin 회귀: x ~ U(0, 1) 100개, t = sin(2πx) + 잡음, 1 -> 10 -> 1 신경망의 처음 매개변수."""
    rng = np.random.default_rng(0)
    x = rng.uniform(0.0, 1.0, (MLP_BATCH, 1))
    t = np.sin(2 * np.pi * x) + rng.uniform(0.0, 1.0, (MLP_BATCH, 1))
    params = [
        0.01 * rng.standard_normal((1, MLP_HIDDEN)),
        np.zeros(MLP_HIDDEN),
        0.01 * rng.standard_normal((MLP_HIDDEN, 1)),
        np.zeros(1),
    ]
    return x, t, params


def numpy_mlp_step(params: list[np.ndarray], x: np.ndarray, t: np.ndarray, lr: float):
    """학습 스텝 하나를 NumPy로: 손으로 유도한 역전파와 경사 하강법. (새 매개변수, 손실)."""
    W1, b1, W2, b2 = params
    h = 1 / (1 + np.exp(-(x @ W1 + b1)))
    diff = h @ W2 + b2 - t
    gy = 2 * diff / diff.size
    gh = gy @ W2.T * h * (1 - h)
    grads = [x.T @ gh, gh.sum(axis=0), h.T @ gy, gy.sum(axis=0)]
    return [p - lr * g for p, g in zip(params, grads, strict=True)], float(np.mean(diff**2))


def mlp(engine, sizes: Sizes) -> dict:
    """학습 스텝(순전파, 미분값 지우기, 역전파, 매개변수 갱신) 하나에 든 시간(µs)."""
    x, t, params = mlp_problem()
    want, want_loss = numpy_mlp_step(params, x, t, MLP_LR)
    got, got_loss = engine.mlp_train(params, x, t, MLP_LR, 1)
    ok = math.isclose(got_loss, want_loss, rel_tol=1e-9)
    if not ok or not all(
        np.allclose(g, w, rtol=1e-9, atol=1e-12) for g, w in zip(got, want, strict=True)
    ):
        raise WrongGradient("두 층 신경망: 한 스텝 뒤의 매개변수가 NumPy로 구한 값과 다릅니다.")
    step_us = []
    engine.mlp_train(params, x, t, MLP_LR, sizes.mlp_steps)  # 데우기
    for _ in range(sizes.mlp_repeats):
        gc.collect()
        t0 = clock()
        _, loss = engine.mlp_train(params, x, t, MLP_LR, sizes.mlp_steps)
        step_us.append((clock() - t0) / sizes.mlp_steps / 1000)
    return {"steps": sizes.mlp_steps, "step_us": step_us, "final_loss": loss}


# --- (h) 손글씨 숫자 한 에포크(51단계) ----------------------------------------------------------
DIGITS_HIDDEN, DIGITS_BATCH, DIGITS_LR = 100, 100, 0.1


def digits_problem(n_samples: int) -> tuple[list, list[np.ndarray]]:
    """저장소의 손글씨 숫자(float32, 0~1로 편 784개)를 시드 0의 순서로 배치 100개씩 미리 나눈 것과,
    784 -> 100 -> 10 신경망의 처음 매개변수(float32). 모든 엔진이 같은 배치, 같은 순서를 씁니다."""
    from tinygrad_ko.data.datasets import load_mnist

    images, labels = load_mnist(train=True)
    order = np.random.default_rng(0).permutation(len(images))[:n_samples]
    x = (images[order].reshape(len(order), -1) / np.float32(255.0)).astype(np.float32)
    t = labels[order].astype(np.int64)
    batches = [
        (x[i : i + DIGITS_BATCH], t[i : i + DIGITS_BATCH]) for i in range(0, len(x), DIGITS_BATCH)
    ]
    rng = np.random.default_rng(1)
    params = [
        (rng.standard_normal((784, DIGITS_HIDDEN)) * np.sqrt(1 / 784)).astype(np.float32),
        np.zeros(DIGITS_HIDDEN, dtype=np.float32),
        (rng.standard_normal((DIGITS_HIDDEN, 10)) * np.sqrt(1 / DIGITS_HIDDEN)).astype(np.float32),
        np.zeros(10, dtype=np.float32),
    ]
    return batches, params


def numpy_digits_step(params: list[np.ndarray], x: np.ndarray, t: np.ndarray, lr: float):
    """학습 스텝 하나를 NumPy(float64)로: 손으로 유도한 역전파와 SGD. (새 매개변수, 손실)."""
    W1, b1, W2, b2 = (p.astype(np.float64) for p in params)
    h = np.maximum(x @ W1 + b1, 0.0)
    scores = h @ W2 + b2
    shifted = scores - scores.max(axis=1, keepdims=True)
    log_p = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))
    n = len(t)
    loss = -log_p[np.arange(n), t].mean()
    gs = (np.exp(log_p) - np.eye(10)[t]) / n
    gh = gs @ W2.T * (h > 0)
    grads = [x.T @ gh, gh.sum(axis=0), h.T @ gs, gs.sum(axis=0)]
    new = [p - lr * g for p, g in zip((W1, b1, W2, b2), grads, strict=True)]
    return new, float(loss)


def digits_epoch(engine, sizes: Sizes) -> dict:
    """한 에포크(배치 100개씩, 순전파·미분값 지우기·역전파·SGD 갱신)에 든 시간(ms)."""
    batches, params = digits_problem(sizes.digits_samples)
    x0, t0 = batches[0]
    want, want_loss = numpy_digits_step(params, x0.astype(np.float64), t0, DIGITS_LR)
    got, got_loss = engine.digits_epoch(params, batches[:1], DIGITS_LR)
    ok = math.isclose(got_loss, want_loss, rel_tol=1e-5)
    if not ok or not all(
        np.allclose(g, w, rtol=1e-4, atol=1e-6) for g, w in zip(got, want, strict=True)
    ):
        raise WrongGradient("손글씨 숫자: 한 스텝 뒤의 매개변수가 NumPy로 구한 값과 다릅니다.")
    engine.digits_epoch(params, batches, DIGITS_LR)  # 데우기
    epoch_ms, (final, loss) = _timed_ms(
        lambda: engine.digits_epoch(params, batches, DIGITS_LR), sizes.digits_repeats
    )
    return {
        "samples": sizes.digits_samples,
        "steps": len(batches),
        "epoch_ms": epoch_ms,
        "final_loss": loss,
    }


# --- (i) 한국어 microGPT의 학습 스텝 --------------------------------------------------------
def gpt_step(engine, sizes: Sizes) -> dict:
    """마무리 장의 GPT(임베딩 16, 헤드 4, 층 1, 문맥 16)로 이름 하나씩 학습하는 스텝의 CPU 시간(ms).

    스텝 하나는 순전파, 역전파, Adam입니다. 재기 전에 첫 이름의 손실과 모든 기울기를 다른 판(Value판이면
    텐서판, 텐서판이면 Value판)과 비교합니다. Value판은 그 손실의 계산 그래프 노드 수도 셉니다.
    """
    from tinygrad_ko.gpt.config import GPTConfig, init_weights
    from tinygrad_ko.gpt.data import load_names
    from tinygrad_ko.gpt.tensor_model import TensorGPT
    from tinygrad_ko.gpt.value_model import ValueGPT
    from tinygrad_ko.micrograd.value import topological_order

    names, tokenizer = load_names("ko")
    config = GPTConfig(tokenizer.vocab_size)
    weights = init_weights(config, 0)
    batch = [tokenizer.encode(n) for n in names[: sizes.gpt_steps + 1]]
    value_model, tensor_model = ValueGPT(config, weights), TensorGPT(config, weights)
    value_loss, tensor_loss = value_model.loss(batch[0]), tensor_model.loss([batch[0]])
    value_loss.backward()
    tensor_loss.backward()
    nodes = len(topological_order(value_loss))
    if abs(value_loss.data - float(tensor_loss.data)) > 1e-9 or any(
        not np.allclose(g, tensor_model.grads()[k], rtol=0, atol=1e-9)
        for k, g in value_model.grads().items()
    ):
        raise WrongGradient("microGPT: Value판과 텐서판의 손실이나 기울기가 다릅니다.")
    del value_model, tensor_model, value_loss, tensor_loss

    trainer = engine.gpt(config, weights)
    trainer.step(batch[0], 0.01)  # 데우기(처음 부를 때만 드는 일)
    times_ms = []
    for ids in batch[1:]:
        gc.collect()
        t0 = clock()
        trainer.step(ids, 0.01)
        times_ms.append((clock() - t0) / 1e6)
    return {"ms": times_ms, "value_nodes": nodes, "steps": sizes.gpt_steps}


# --- (j) 제5고지: 합성곱, 숫자 CNN, LSTM의 잘린 역전파 ---------------------------------------
def _windows_sum(x: np.ndarray, k: int) -> np.ndarray:
    """x (N, C, H, W)에서 k×k 창마다의 값을 (C, k, k) 자리별로 모두 더한 것(NumPy로 손수)."""
    n, c, h, w = x.shape
    out = np.zeros((c, k, k))
    for i in range(k):
        for j in range(k):
            out[:, i, j] = x[:, :, i : i + h - k + 1, j : j + w - k + 1].sum(axis=(0, 2, 3))
    return out


def conv2d(engine, sizes: Sizes) -> dict:
    """LeNet 크기의 합성곱 한 번: x (64, 1, 28, 28), 필터 (16, 1, 5, 5), 편향. 순전파+역전파 ms.

    시작 미분값이 1이면 gW[o, c, i, j]는 (i, j)만큼 옮긴 창들의 합, gb는 출력 칸 수, gx의 합은
    출력 칸 수 × W의 합입니다. 이것들을 NumPy로 구해 먼저 비교합니다.
    """
    rng = np.random.default_rng(0)
    x = rng.random((64, 1, 28, 28), dtype=np.float32)
    W = (rng.standard_normal((16, 1, 5, 5)) * 0.2).astype(np.float32)
    b = np.zeros(16, dtype=np.float32)
    gx, gW, gb = engine.conv2d_grads(
        x.astype(np.float64), W.astype(np.float64), b.astype(np.float64)
    )
    cells = 64 * 24 * 24
    want_gW = np.broadcast_to(_windows_sum(x.astype(np.float64), 5), gW.shape)
    if not (
        np.allclose(gW, want_gW, rtol=1e-9)
        and np.allclose(gb, cells)
        and math.isclose(float(gx.sum()), cells * float(W.astype(np.float64).sum()), rel_tol=1e-9)
    ):
        raise WrongGradient("합성곱: 미분값이 NumPy로 구한 값과 다릅니다.")
    engine.conv2d_grads(x, W, b)  # 데우기
    times_ms, _ = _timed_ms(lambda: engine.conv2d_grads(x, W, b), sizes.conv_repeats)
    return {"ms": times_ms}


def _numpy_cnn_loss(params, x, t) -> float:
    """숫자 CNN의 손실을 NumPy로(창의 곱을 einsum으로): 합성곱 → relu → 2×2 최댓값 풀링 두 번 → linear."""
    W1, b1, W2, b2, W3, b3 = params

    def conv(x, W, b):
        windows = np.lib.stride_tricks.sliding_window_view(x, W.shape[2:], axis=(2, 3))
        return np.einsum("nchwij,ocij->nohw", windows, W) + b[:, None, None]

    def pool(x):
        n, c, h, w = x.shape
        return x.reshape(n, c, h // 2, 2, w // 2, 2).max(axis=(3, 5))

    h = pool(np.maximum(conv(pool(np.maximum(conv(x, W1, b1), 0)), W2, b2), 0))
    scores = h.reshape(len(x), -1) @ W3 + b3
    shifted = scores - scores.max(axis=1, keepdims=True)
    log_p = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))
    return float(-log_p[np.arange(len(t)), t].mean())


def _check_by_differences(loss, params, got_grads, what: str, picks: int = 6) -> None:
    """매개변수마다 원소 몇 개를 골라, 중앙 차분으로 구한 미분값과 엔진의 미분값을 비교합니다."""
    rng = np.random.default_rng(5)
    for k, (p, g) in enumerate(zip(params, got_grads, strict=True)):
        for index in zip(*(rng.integers(0, n, picks) for n in p.shape), strict=True):
            saved = p[index]
            p[index] = saved + 1e-6
            upper = loss(params)
            p[index] = saved - 1e-6
            lower = loss(params)
            p[index] = saved
            want = (upper - lower) / 2e-6
            if not math.isclose(g[index], want, rel_tol=1e-4, abs_tol=1e-7):
                raise WrongGradient(
                    f"{what}: {k}번 매개변수 {index}의 미분값 {g[index]!r} ≠ {want!r}"
                )


def cnn_problem(n_samples: int):
    """숫자 그림 (N, 1, 28, 28) float32를 시드 0의 순서로 배치 100개씩, 그리고 처음 매개변수."""
    from tinygrad_ko.data.datasets import load_mnist

    images, labels = load_mnist(train=True)
    order = np.random.default_rng(0).permutation(len(images))[:n_samples]
    x = (images[order].reshape(-1, 1, 28, 28) / np.float32(255.0)).astype(np.float32)
    t = labels[order].astype(np.int64)
    batches = [
        (x[i : i + DIGITS_BATCH], t[i : i + DIGITS_BATCH]) for i in range(0, len(x), DIGITS_BATCH)
    ]
    rng = np.random.default_rng(1)

    def normal(shape, fan_in):
        return (rng.standard_normal(shape) * np.sqrt(1 / fan_in)).astype(np.float32)

    # 편향도 0이 아닌 작은 값으로 둡니다. 배경(0)만 닿는 창의 출력이 relu의 꺾이는 점 0에 딱 놓이면
    # 중앙 차분이 미분값을 재지 못하기 때문입니다.
    params = [
        normal((8, 1, 5, 5), 25), normal(8, 100),
        normal((16, 8, 5, 5), 200), normal(16, 100),
        normal((256, 10), 256), np.zeros(10, np.float32),
    ]  # fmt: skip
    return batches, params


def cnn_epoch(engine, sizes: Sizes) -> dict:
    """숫자 CNN(conv 8@5×5 → relu → pool → conv 16@5×5 → relu → pool → linear 256→10)의 한 에포크 ms.

    재기 전에 float64로 한 스텝을 하고, (처음 값 − 새 값) / 학습률로 되찾은 미분값을 NumPy 손실의
    중앙 차분과 비교합니다.
    """
    batches, params = cnn_problem(sizes.cnn_samples)
    x0, t0 = batches[0]
    x0, p64 = x0[:20].astype(np.float64), [p.astype(np.float64) for p in params]
    new, _ = engine.cnn_epoch(p64, [(x0, t0[:20])], DIGITS_LR)
    grads = [(p - q) / DIGITS_LR for p, q in zip(p64, new, strict=True)]
    _check_by_differences(lambda ps: _numpy_cnn_loss(ps, x0, t0[:20]), p64, grads, "숫자 CNN")
    engine.cnn_epoch(params, batches[:2], DIGITS_LR)  # 데우기
    epoch_ms, (_, loss) = _timed_ms(
        lambda: engine.cnn_epoch(params, batches, DIGITS_LR), sizes.cnn_repeats
    )
    return {"samples": sizes.cnn_samples, "epoch_ms": epoch_ms, "final_loss": loss}


LSTM_HIDDEN, LSTM_BATCH, LSTM_BPTT, LSTM_LR = 100, 30, 30, 0.01


def lstm_problem(n_windows: int, dtype=np.float32):
    """sin 곡선 조각(흐름 30개)과 LSTM(은닉 100, 게이트 열 순서 f, i, o, u) + Linear(100 → 1)의 처음 값."""
    rng = np.random.default_rng(0)
    steps = n_windows * LSTM_BPTT + 1
    phase = rng.random((1, LSTM_BATCH)) * 2 * np.pi
    curve = np.sin(np.linspace(0, 8 * np.pi, steps)[:, None] + phase)[..., None].astype(dtype)
    windows = [
        (curve[i : i + LSTM_BPTT], curve[i + 1 : i + LSTM_BPTT + 1])
        for i in range(0, n_windows * LSTM_BPTT, LSTM_BPTT)
    ]
    H = LSTM_HIDDEN
    params = [
        (rng.standard_normal((1, 4 * H)) * 1.0).astype(dtype),
        (rng.standard_normal((H, 4 * H)) * np.sqrt(1 / H)).astype(dtype),
        np.zeros(4 * H, dtype),
        (rng.standard_normal((H, 1)) * np.sqrt(1 / H)).astype(dtype),
        np.zeros(1, dtype),
    ]
    return windows, params


def _numpy_lstm_loss(params, xs, ts) -> float:
    """한 창의 손실(시각마다 평균 제곱 오차의 합)을 NumPy로. 상태는 0에서 시작합니다."""
    Wx, Wh, b, Wf, bf = params
    H = Wh.shape[0]
    h = c = np.zeros((xs.shape[1], H))
    total = 0.0
    for x, t in zip(xs, ts, strict=True):
        z = x @ Wx + h @ Wh + b
        f, i, o = (1 / (1 + np.exp(-z[:, k * H : (k + 1) * H])) for k in range(3))
        c = f * c + i * np.tanh(z[:, 3 * H :])
        h = o * np.tanh(c)
        total += float(((h @ Wf + bf - t) ** 2).mean())
    return total


def lstm_bptt(engine, sizes: Sizes) -> dict:
    """LSTM 잘린 역전파의 한 스텝(배치 30, 은닉 100, 30시각의 순전파 + 역전파 + SGD + 상태 떼기), ms.

    재기 전에 float64로 첫 창 하나를 학습하고, 되찾은 미분값을 NumPy 손실의 중앙 차분과 비교합니다.
    """
    windows, params = lstm_problem(sizes.lstm_windows)
    w64, p64 = lstm_problem(1, np.float64)
    new, _ = engine.lstm_bptt(p64, w64, LSTM_LR)
    grads = [(p - q) / LSTM_LR for p, q in zip(p64, new, strict=True)]
    xs, ts = w64[0]
    _check_by_differences(lambda ps: _numpy_lstm_loss(ps, xs, ts), p64, grads, "LSTM")
    engine.lstm_bptt(params, windows[:1], LSTM_LR)  # 데우기
    window_ms, _ = _timed_ms(lambda: engine.lstm_bptt(params, windows, LSTM_LR), sizes.lstm_repeats)
    step_ms = [ms / len(windows) for ms in window_ms]
    return {"step_ms": step_ms, "windows": len(windows)}


# --- 제6고지: 지연 엔진(tinygrad_ko.lazy). 작업의 본문은 lazy_work.py에 있습니다 ---------------------
def lazy_chain(engine, sizes: Sizes) -> dict:
    return lazy_work.lazy_chain(sizes, clock)


def lazy_chain_large(engine, sizes: Sizes) -> dict:
    return lazy_work.lazy_chain_large(sizes, clock)


def lazy_backward(engine, sizes: Sizes) -> dict:
    return lazy_work.lazy_backward(sizes, clock)


def lazy_compile(engine, sizes: Sizes) -> dict:
    return lazy_work.lazy_compile(sizes, clock)


def lazy_train(engine, sizes: Sizes) -> dict:
    return lazy_work.lazy_train(sizes, clock)
