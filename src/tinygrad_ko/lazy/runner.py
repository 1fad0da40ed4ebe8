"""실행: 스케줄한 커널들을 고른 백엔드로 차례로 돌리고, 메모리 계획대로 버퍼를 돌려 씁니다.

백엔드는 둘입니다.

- `"c"`: 생성한 C를 컴파일해서 부릅니다(융합된 반복문 하나). 컴파일러가 있을 때의 기본값입니다.
- `"numpy"`: 생성한 NumPy 소스를 실행합니다. 어디서나 돕니다.

고르는 순서: `using_backend(...)` 블록 > `set_backend(...)` > 환경 변수 `TINYGRAD_KO_LAZY_BACKEND` >
컴파일러가 있으면 `"c"`, 없으면 `"numpy"`. C를 골랐어도 컴파일이 실패하면 경고를 내고 NumPy로 계산합니다.
"""

from __future__ import annotations

import contextlib
import contextvars
import ctypes
import os
from collections.abc import Iterator

import numpy as np

from . import compiler, messages, render_c, render_numpy
from .graph import LazyBuffer
from .memory import assign_slots
from .scheduler import Kernel, schedule
from .view import size

BACKENDS = ("c", "numpy")
_chosen: contextvars.ContextVar[str | None] = contextvars.ContextVar("lazy_backend", default=None)
_default: list[str | None] = [None]
_show: contextvars.ContextVar[bool] = contextvars.ContextVar("show_kernels", default=False)
_numpy_kernels: dict[str, object] = {}  # 소스 -> 실행한 파이썬 함수
counters = {"c": 0, "numpy": 0}  # 백엔드마다 돌린 커널 수


def backend() -> str:
    """지금 쓰는 백엔드의 이름: "c" 또는 "numpy"."""
    name = _chosen.get() or _default[0] or os.environ.get("TINYGRAD_KO_LAZY_BACKEND") or "auto"
    if name not in (*BACKENDS, "auto"):
        raise messages.unknown_backend(name)
    if name == "numpy" or not compiler.available():
        return "numpy"
    return "c"


def set_backend(name: str | None) -> None:
    """기본 백엔드를 정합니다(None이면 자동으로). 컴파일러가 없는데 "c"를 고르면 RuntimeError."""
    _check(name)
    if name == "c":
        compiler.reset()
    _default[0] = name


@contextlib.contextmanager
def using_backend(name: str) -> Iterator[None]:
    """`with` 블록 안에서만 백엔드를 바꿉니다."""
    _check(name)
    token = _chosen.set(name)
    try:
        yield
    finally:
        _chosen.reset(token)


def _check(name: str | None) -> None:
    if name is not None and name not in BACKENDS:
        raise messages.unknown_backend(name)
    if name == "c" and compiler.command() is None:
        raise messages.no_compiler()


@contextlib.contextmanager
def show_kernels() -> Iterator[None]:
    """`with` 블록 안에서 돌리는 커널마다 생성한 소스를 출력합니다(tinygrad의 DEBUG=4처럼)."""
    token = _show.set(True)
    try:
        yield
    finally:
        _show.reset(token)


def source(kernel: Kernel, name: str | None = None) -> str:
    """커널의 생성한 소스. name은 백엔드 이름(없으면 지금 쓰는 백엔드)."""
    name = name or backend()
    _check(name)
    return (render_c if name == "c" else render_numpy).render(kernel)


def realize(nodes: list[LazyBuffer]) -> None:
    """노드들의 값을 한 번의 스케줄로 계산해, 각 노드를 값을 가진 `buffer`로 바꿉니다."""
    todo = list({id(n): n for n in nodes if n.realized is None}.values())
    if not todo:
        return
    kernels, results = schedule(todo)
    wanted = {id(base) for base, _ in results.values()}
    steps = [
        (
            id(k.output),
            tuple(id(load.base) for load in k.loads if load.base.realized is None),
            (k.output.dtype, size(k.output.shape)),
        )
        for k in kernels
    ]
    slots, kinds = assign_slots(steps, keep=wanted)
    pool: list = [None] * len(kinds)
    made: dict[int, np.ndarray] = {}  # 커널 출력 노드 id -> 1차원 버퍼
    name = backend()
    for k, (out_id, _, (dtype, n)) in zip(kernels, steps, strict=True):
        slot = slots[out_id]
        if slot is None:
            out = np.empty(n, dtype)
        else:
            if pool[slot] is None:
                pool[slot] = np.empty(n, dtype)
            out = pool[slot]
        inputs = [
            load.base.realized.reshape(-1)
            if load.base.realized is not None
            else made[id(load.base)]
            for load in k.loads
        ]
        _run(k, out, inputs, name)
        made[out_id] = out
    for node in todo:
        base, v = results[id(node)]
        flat = base.realized.reshape(-1) if base.realized is not None else made[id(base)]
        if v.contiguous and size(v.shape) == flat.size:
            data = flat.reshape(node.shape)
        else:  # 브로드캐스트한 뷰: 읽기 전용 뷰 대신 값을 가진 배열로 돌려줍니다.
            data = np.array(_strided(flat, v))
        node.become(data)


def _run(kernel: Kernel, out: np.ndarray, inputs: list[np.ndarray], name: str) -> None:
    fn = None
    if name == "c":
        text = render_c.render(kernel)
        fn = compiler.load(text)
    if fn is not None:
        if _show.get():
            print(_header(kernel, "c") + text)
        if fn.argtypes is None:
            fn.argtypes = [ctypes.c_void_p] * (1 + len(inputs))
        fn(out.ctypes.data, *[a.ctypes.data for a in inputs])
        counters["c"] += 1
        return
    text = render_numpy.render(kernel)
    if _show.get():
        print(_header(kernel, "numpy").replace("//", "#") + text)
    fn = _numpy_kernels.get(text)
    if fn is None:
        scope = {"np": np}
        exec(compile(text, "<생성한 NumPy 커널>", "exec"), scope)  # noqa: S102 - 이 패키지가 만든 소스만
        fn = _numpy_kernels[text] = scope["kernel"]
    shape = kernel.output.shape if kernel.axes is not None else kernel.shape
    views = [_strided(a, load.view) for a, load in zip(inputs, kernel.loads, strict=True)]
    with np.errstate(all="ignore"):  # C 커널처럼 경고 없이 inf, NaN을 냅니다(두 백엔드가 같게)
        fn(out.reshape(shape), *views)
    counters["numpy"] += 1


def _strided(flat: np.ndarray, v) -> np.ndarray:
    """1차원 버퍼 위의 뷰를 ndarray로(복사 없이, 읽기 전용)."""
    item = flat.itemsize
    return np.lib.stride_tricks.as_strided(
        flat[v.offset :], v.shape, tuple(s * item for s in v.strides), writeable=False
    )


def _header(kernel: Kernel, name: str) -> str:
    kind = f"줄이기(축 {kernel.axes})" if kernel.axes is not None else "원소별"
    return f"// 커널: {kind}, 모양 {kernel.shape}, 연산 {kernel.op_count}개, 백엔드 {name}\n"
