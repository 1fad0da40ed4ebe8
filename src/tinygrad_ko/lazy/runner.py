"""실행: 스케줄한 커널들을 고른 백엔드로 차례로 돌리고, 메모리 계획대로 버퍼를 돌려 씁니다.

백엔드는 둘입니다.

- `"c"`: 생성한 C를 컴파일해서 부릅니다(융합된 반복문 하나). 컴파일러가 있을 때의 기본값입니다.
- `"numpy"`: 생성한 NumPy 소스를 실행합니다. 어디서나 돕니다.

고르는 순서: `using_backend(...)` 블록 > `set_backend(...)` > 환경 변수 `TINYGRAD_KO_LAZY_BACKEND` >
컴파일러가 있으면 `"c"`, 없으면 `"numpy"`. C를 골랐는데 컴파일러가 없으면(환경 변수로 골랐어도) 한국어
RuntimeError를 냅니다. 컴파일러는 있는데 컴파일이 실패하면 경고를 내고 NumPy로 계산합니다.
"""

from __future__ import annotations

import contextlib
import contextvars
import ctypes
import os
from collections.abc import Iterator

import numpy as np

from . import compiler, messages, render_c, render_numpy
from .graph import LazyBuffer, bits
from .memory import assign_slots
from .scheduler import Kernel, schedule
from .view import size

BACKENDS = ("c", "numpy")
_chosen: contextvars.ContextVar[str | None] = contextvars.ContextVar("lazy_backend", default=None)
_default: list[str | None] = [None]
_show: contextvars.ContextVar[bool] = contextvars.ContextVar("show_kernels", default=False)
_recording: contextvars.ContextVar[bool] = contextvars.ContextVar("replay_recording", default=False)
_numpy_kernels: dict[str, object] = {}  # 소스 -> 실행한 파이썬 함수
counters = {"c": 0, "numpy": 0}  # 백엔드마다 돌린 커널 수


def backend() -> str:
    """지금 쓰는 백엔드의 이름: "c" 또는 "numpy"."""
    name = _chosen.get() or _default[0] or os.environ.get("TINYGRAD_KO_LAZY_BACKEND") or "auto"
    if name not in (*BACKENDS, "auto"):
        raise messages.unknown_backend(name)
    if name == "c" and compiler.command() is None:  # 고른 C를 조용히 NumPy로 바꾸지 않습니다
        raise messages.no_compiler(from_environment=not (_chosen.get() or _default[0]))
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
    with _setting(_chosen, name):
        yield


@contextlib.contextmanager
def _setting(var: contextvars.ContextVar, value: object) -> Iterator[None]:
    """블록 안에서만 `var`를 `value`로 둡니다(스레드와 작업마다 따로)."""
    token = var.set(value)
    try:
        yield
    finally:
        var.reset(token)


def _check(name: str | None) -> None:
    if name is not None and name not in BACKENDS:
        raise messages.unknown_backend(name)
    if name == "c" and compiler.command() is None:
        raise messages.no_compiler()


@contextlib.contextmanager
def show_kernels() -> Iterator[None]:
    """`with` 블록 안에서 돌리는 커널마다 생성한 소스를 출력합니다(tinygrad의 DEBUG=4처럼)."""
    with _setting(_show, True):
        yield


def source(kernel: Kernel, name: str | None = None) -> str:
    """커널의 생성한 소스. name은 백엔드 이름(없으면 지금 쓰는 백엔드). 소스를 만드는 데는 컴파일러가 필요 없습니다."""
    name = name or backend()
    if name not in BACKENDS:
        raise messages.unknown_backend(name)
    return (render_c if name == "c" else render_numpy).render(kernel)


@contextlib.contextmanager
def recording() -> Iterator[None]:
    """되풀이(`Replay`)가 함수를 처음 부르는 동안. 그 안에서 값을 꺼내면(`realize`) 한국어 ValueError."""
    with _setting(_recording, True):
        yield


def realize(nodes: list[LazyBuffer]) -> None:
    """노드들의 값을 한 번의 스케줄로 계산해, 각 노드를 값을 가진 `buffer`로 바꿉니다."""
    if _recording.get():  # 꺼낸 값은 기록되지 않아, 되풀이할 때 처음 값으로 남습니다
        raise messages.replay_took_out_a_value()
    todo = list({id(n): n for n in nodes if n.realized is None}.values())
    if todo:
        for node, data in zip(todo, Plan(todo).run(), strict=True):
            node.become(data)


class Plan:
    """스케줄한 커널들과 버퍼 계획. `run`은 몇 번이든 다시 돌릴 수 있습니다(되풀이, `lazy.Replay`).

    커널마다 돌릴 함수(컴파일한 C 함수 또는 생성한 NumPy 함수)를 미리 골라 둡니다. 입력 버퍼는 `run`에
    준 배열(`bindings`: 노드 id -> 배열)이 있으면 그것을, 없으면 노드가 가진 값을 읽습니다.
    """

    def __init__(self, targets: list[LazyBuffer]) -> None:
        self.targets = targets
        self.kernels, self.results = schedule(targets)
        wanted = {id(base) for base, _ in self.results.values()}
        steps = [
            (
                id(k.output),
                tuple(id(load.base) for load in k.loads if load.base.realized is None),
                (k.output.dtype, size(k.output.shape)),
            )
            for k in self.kernels
        ]
        slots, self.kinds = assign_slots(steps, keep=wanted)
        self.backend = backend()
        self.steps = [
            (None, id(k.output), slots[out_id], kind)
            for k, (out_id, _, kind) in zip(self.kernels, steps, strict=True)
        ]
        self._choose_launchers()

    def _choose_launchers(self) -> None:
        """커널마다 돌릴 함수를 고릅니다. `compiler.reset()`은 불러온 라이브러리를 닫으므로, 그 뒤에
        `run`하면 닫힌 함수를 부르지 않도록 다시 고릅니다."""
        self.generation = compiler.generation()
        self.steps = [
            (_launcher(k, self.backend), out_id, slot, kind)
            for k, (_, out_id, slot, kind) in zip(self.kernels, self.steps, strict=True)
        ]

    def reads(self) -> list[LazyBuffer]:
        """이 계획이 읽는, 값을 가진 노드들(커널의 입력과, 커널 없이 돌려주는 뷰의 바탕)."""
        bases = [load.base for k in self.kernels for load in k.loads]
        bases += [base for base, _ in self.results.values()]
        return list({id(b): b for b in bases if b.realized is not None}.values())

    def run(self, bindings: dict | None = None) -> list[np.ndarray]:
        """커널들을 차례로 돌리고, target마다 값을 가진 ndarray를 돌려줍니다."""
        if self.generation != compiler.generation():
            self._choose_launchers()
        bindings = bindings or {}
        pool: list = [None] * len(self.kinds)
        made: dict[int, np.ndarray] = {}  # 커널 출력 노드 id -> 1차원 버퍼

        def flat(base: LazyBuffer) -> np.ndarray:
            if base.realized is None:
                return made[id(base)]
            return bindings.get(id(base), base.realized).reshape(-1)

        for (launch, out_id, slot, (dtype, n)), k in zip(self.steps, self.kernels, strict=True):
            if slot is None:
                out = np.empty(n, dtype)
            else:
                if pool[slot] is None:
                    pool[slot] = np.empty(n, dtype)
                out = pool[slot]
            launch(out, [flat(load.base) for load in k.loads])
            made[out_id] = out
        arrays = []
        for node in self.targets:
            base, v = self.results[id(node)]
            data = flat(base)
            if v.contiguous and size(v.shape) == data.size:
                arrays.append(data.reshape(node.shape))
            else:  # 브로드캐스트한 뷰: 읽기 전용 뷰 대신 값을 가진 배열로 돌려줍니다.
                arrays.append(np.array(_strided(data, v)))
        return arrays


def _launcher(kernel: Kernel, name: str):
    """커널 하나를 돌리는 함수 `launch(out, inputs)`. C를 쓸 수 없으면 NumPy 함수."""
    if name == "c":
        key = _signature(kernel)
        fn, text = compiler.by_signature.get(key) or (None, None)
        if fn is None:
            text = render_c.render(kernel)
            fn = compiler.load(text)
            if fn is not None:
                fn.argtypes = [ctypes.c_void_p] * (1 + len(kernel.loads))
                compiler.by_signature[key] = (fn, text)
        if fn is not None:

            def launch_c(out: np.ndarray, inputs: list[np.ndarray]) -> None:
                if _show.get():
                    print(_header(kernel, "c") + text)
                fn(out.ctypes.data, *[a.ctypes.data for a in inputs])
                counters["c"] += 1

            return launch_c
    text = render_numpy.render(kernel)
    fn = _numpy_kernels.get(text)
    if fn is None:
        scope = {"np": np}
        exec(compile(text, "<생성한 NumPy 커널>", "exec"), scope)  # noqa: S102 - 이 패키지가 만든 소스만
        fn = _numpy_kernels[text] = scope["kernel"]
    shape = kernel.output.shape if kernel.axes is not None else kernel.shape
    views = [load.view for load in kernel.loads]

    def launch_numpy(out: np.ndarray, inputs: list[np.ndarray]) -> None:
        if _show.get():
            print(_header(kernel, "numpy").replace("//", "#") + text)
        with np.errstate(all="ignore"):  # C 커널처럼 경고 없이 inf, NaN을 냅니다(두 백엔드가 같게)
            fn(out.reshape(shape), *[_strided(a, v) for a, v in zip(inputs, views, strict=True)])
        counters["numpy"] += 1

    return launch_numpy


def _signature(kernel: Kernel) -> tuple:
    """생성할 소스를 정하는 모든 것. 수는 비트(`graph.bits`)로 넣어 -0.0과 0.0, 부호나 payload가 다른 NaN도 가릅니다."""
    stmts = tuple(
        (op, args, dtype, bits(arg) if op == "const" else arg)
        for op, args, dtype, arg in kernel.stmts
    )
    loads = tuple((load.view, load.base.dtype) for load in kernel.loads)
    return kernel.shape, kernel.axes, kernel.output.dtype, stmts, loads


def _strided(flat: np.ndarray, v) -> np.ndarray:
    """1차원 버퍼 위의 뷰를 ndarray로(복사 없이, 읽기 전용)."""
    item = flat.itemsize
    return np.lib.stride_tricks.as_strided(
        flat[v.offset :], v.shape, tuple(s * item for s in v.strides), writeable=False
    )


def _header(kernel: Kernel, name: str) -> str:
    kind = f"줄이기(축 {kernel.axes})" if kernel.axes is not None else "원소별"
    return f"// 커널: {kind}, 모양 {kernel.shape}, 연산 {kernel.op_count}개, 백엔드 {name}\n"
