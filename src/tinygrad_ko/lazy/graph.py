"""지연 그래프의 노드(`LazyBuffer`): 아직 계산하지 않은 배열 하나를 "어떤 연산을 어떤 입력에"로 적어 둡니다.

연산은 네 종류입니다(tinygrad v0.4의 `ops.py`처럼 종류별로 나눕니다).

- 불러오기: `buffer`(값이 이미 있는 배열), `const`(수 하나. 어느 모양에도 그대로 쓰입니다)
- 원소별(elementwise): 입력과 출력의 모양이 같고, 칸마다 따로 계산합니다. 여러 개를 한 커널로 묶을 수 있습니다.
- 줄이기(reduce): `sum`. 출력은 줄인 축의 크기가 1인 모양(keepdims)입니다.
- 움직이기(movement): `reshape`, `expand`. 값은 그대로 두고 읽는 방법(뷰)만 바꿉니다.

값을 계산하면(realize) 노드는 `buffer`가 되고 입력을 놓습니다. 그래서 계산이 끝난 그래프는 메모리에서 풀립니다.
"""

from __future__ import annotations

import struct
import weakref

import numpy as np

UNARY = {"neg": 1, "exp": 1, "log": 1, "relu": 1, "not": 1}
BINARY = {"add": 2, "sub": 2, "mul": 2, "div": 2, "cmple": 2}
TERNARY = {"where": 3}
ELEMENTWISE = {**UNARY, **BINARY, **TERNARY}  # 연산 이름 -> 입력 수
REDUCE = {"sum"}
MOVEMENT = {"reshape", "expand"}
LOAD = {"buffer", "const"}
BOOL_RESULT = {"cmple", "not"}  # 결과가 참/거짓(bool)인 연산

# 계산할 수 있는 dtype. 생성한 코드에는 이 표의 이름만 들어갑니다.
DTYPES = (np.dtype(np.float32), np.dtype(np.float64), np.dtype(np.bool_))


class LazyBuffer:
    """지연 그래프의 노드. `op(srcs, arg)`가 모양 `shape`, dtype `dtype`인 배열을 만든다는 기록입니다.

    `realized`는 값이 있으면 그 ndarray(C 순서로 빈틈없이 놓인 배열)입니다.
    """

    __slots__ = ("op", "srcs", "arg", "shape", "dtype", "realized", "__weakref__")

    def __init__(self, op: str, srcs: tuple, arg: object, shape: tuple, dtype: np.dtype) -> None:
        self.op, self.srcs, self.arg = op, srcs, arg
        self.shape, self.dtype = shape, dtype
        self.realized: np.ndarray | None = None

    def __repr__(self) -> str:
        return f"<LazyBuffer {self.op} {self.shape} {self.dtype}>"

    def become(self, data: np.ndarray) -> None:
        """값을 얻은 노드: `buffer`가 되고 입력을 놓습니다(그 아래 그래프가 풀릴 수 있게)."""
        self.op, self.srcs, self.arg, self.realized = "buffer", (), None, data


def buffer(data: np.ndarray) -> LazyBuffer:
    node = LazyBuffer("buffer", (), None, data.shape, data.dtype)
    node.realized = data
    return node


_constants: weakref.WeakSet = weakref.WeakSet()


def constant_buffer(data: np.ndarray) -> LazyBuffer:
    """엔진이 스스로 만든, 값이 늘 같은 배열(역전파의 시작값 1). 되풀이(`Replay`)는 이것을 바깥의 텐서로 세지 않습니다."""
    node = buffer(data)
    _constants.add(node)
    return node


def is_constant_buffer(node: LazyBuffer) -> bool:
    return node in _constants


def const(value: float, dtype: np.dtype) -> LazyBuffer:
    """수 하나. 값은 그 dtype으로 반올림해 둡니다(NumPy가 float32 배열 * 0.1에서 0.1을 float32로 바꾸듯)."""
    return LazyBuffer("const", (), rounded(value, dtype), (), dtype)


def bits(value: float) -> int:
    """수의 비트(float64의 64비트 정수). 0.0과 -0.0, 부호나 payload가 다른 NaN을 가르는 열쇠입니다.

    `0.0 == -0.0`이고 해시도 같아서, 파이썬 float를 열쇠로 쓰면 두 수가 하나로 합쳐집니다. `float.hex()`는
    0.0과 -0.0은 가르지만 NaN은 모두 `'nan'`입니다.
    """
    return struct.unpack("<Q", struct.pack("<d", value))[0]


def rounded(value: object, dtype: np.dtype) -> float:
    """value를 dtype으로 반올림한 파이썬 float. 넘치면 NumPy처럼 ±inf입니다(경고 없이).

    넘칠 수 없는 수(float32의 가장 큰 수 3.4028235e38보다 작은 수)는 `np.errstate` 없이 바꿉니다. 연산마다
    부르는 곳이라, 몇 µs 걸리는 `np.errstate`가 원소별 연산 20개 사슬의 그래프 만들기에서 큰 몫이었습니다.
    """
    if abs(value) < 3.4e38:
        return float(dtype.type(value))
    with np.errstate(over="ignore"):
        return float(dtype.type(value))


def elementwise(op: str, *srcs: LazyBuffer) -> LazyBuffer:
    """원소별 연산. 입력은 모양이 같거나 `const`(모양 ())여야 합니다(부르는 쪽이 먼저 브로드캐스트)."""
    shape = next((s.shape for s in srcs if s.op != "const"), ())
    dtype = np.dtype(np.bool_) if op in BOOL_RESULT else srcs[-1].dtype
    return LazyBuffer(op, srcs, None, shape, dtype)


def reduce_sum(src: LazyBuffer, axes: tuple[int, ...]) -> LazyBuffer:
    shape = tuple(1 if i in axes else n for i, n in enumerate(src.shape))
    return LazyBuffer("sum", (src,), axes, shape, src.dtype)


def movement(op: str, src: LazyBuffer, shape: tuple[int, ...]) -> LazyBuffer:
    if src.shape == shape:
        return src
    if src.op == "const":  # 수는 어느 모양으로도 같은 수입니다.
        return src
    return LazyBuffer(op, (src,), shape, shape, src.dtype)


# --8<-- [start:toposort]
def toposort(roots: list[LazyBuffer]) -> list[LazyBuffer]:
    """roots와, 거기서 입력을 따라 닿는 모든 노드(값을 가진 `buffer`와 `const`도)를 입력이 먼저 오게 늘어놓습니다.

    재귀 대신 스택을 쓰므로 사슬이 길어도 파이썬의 재귀 한도에 걸리지 않습니다.
    """
    order, seen = [], set()
    for root in roots:
        if id(root) in seen:
            continue
        seen.add(id(root))
        stack = [(root, iter(root.srcs))]
        while stack:
            node, srcs = stack[-1]
            for src in srcs:
                if id(src) not in seen:
                    seen.add(id(src))
                    stack.append((src, iter(src.srcs)))
                    break
            else:  # 입력을 모두 내보냈으니 이 노드 차례입니다.
                stack.pop()
                order.append(node)
    return order
    # --8<-- [end:toposort]
