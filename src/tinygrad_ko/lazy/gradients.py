"""지연 그래프의 역전파: 최종 엔진의 backward 규칙을 그대로 불러, 미분값도 지연 그래프로 기록합니다.

최종 엔진의 `Mul.backward(self, gy)`는 `self`에게 몇 가지만 묻습니다: 붙잡은 입력(`saved()`), 출력
(`saved_output()`), 입력마다 미분이 필요한지(`needs_input_grad`), 브로드캐스트의 되돌리기(`to_inputs`),
원소 고르기(`select`), 줄인 축 늘리기(`expand`). `Record`는 같은 물음에 지연 텐서로 답합니다. 그래서
`Mul.backward(record, gy)`의 `gy * x1`은 ndarray가 아니라 지연 텐서의 곱셈이 되고, 미분값의 계산도
그래프로 남아 순전파와 함께 융합됩니다. 규칙(수식)은 엔진의 것 하나뿐입니다.

역전파의 순서도 엔진과 같습니다(`autograd/backprop.py`): 세대가 큰 함수부터, 같은 세대는 넣은 순서로
꺼내고, 미분값은 먼저 모인 것 + 새것 순서로 더합니다. 덧셈의 순서까지 같으므로, 브로드캐스트가 없는 사칙연산,
부호, relu 그래프의 미분값이 엔진과 비트까지 같기를 기대합니다. 한 커널 안의 수를 값이 아니라 비트로 가르는
것(`graph.bits`)도 여기에 필요합니다. 0.0 == -0.0이라 값으로 가르면 커널에 먼저 나온 쪽이 남아, relu
역전파의 0.0이 사용자의 -0.0을 대신하거나 사용자의 -0.0이 relu 역전파의 0.0을 대신합니다. 54장은 ±0,
±inf인 수와 입력을 넣은 무작위 그래프로 NaN이 아닌 칸을 확인합니다. NaN이 된 칸의 부호 비트는 두
백엔드 모두 약속하지 않습니다. IEEE 754가 정하지 않고, gcc(`render_c.py`)와 NumPy의 SIMD 반복이
피연산자의 순서를 바꾸기도 합니다. 합(브로드캐스트의 되돌리기 포함)과 exp, log가 든 그래프는 미분값이
비트까지 같다고 약속하지 않습니다(C 백엔드는 더하는 순서, double 누적, libm이 다릅니다).
"""

from __future__ import annotations

import heapq
from typing import TYPE_CHECKING

import numpy as np

from ..functions.elementwise import LibraryFunction
from . import graph, messages

if TYPE_CHECKING:
    from .tensor import Tensor


# --8<-- [start:record]
class Record:
    """지연 텐서 하나를 만든 연산의 기록. 엔진 함수의 backward에게 `self`가 되어 줍니다."""

    # 브로드캐스트한 이항 연산의 미분값을 입력 모양으로 더해 줄이기: 엔진의 메서드를 그대로 씁니다
    # (미분값의 shape, ndim, sum(axis=...), sum(axis=..., keepdims=True), reshape만 쓰므로 지연 텐서에도
    # 맞습니다).
    to_inputs = LibraryFunction.to_inputs

    def __init__(self, rule: type, inputs: tuple, output: Tensor, **shapes: tuple) -> None:
        from .tensor import Tensor

        self.rule = rule  # 엔진의 함수 클래스(예: functions.elementwise.Mul)
        self.inputs = inputs  # 지연 텐서 또는 파이썬 수
        self.needs_input_grad = tuple(isinstance(x, Tensor) and x.requires_grad for x in inputs)
        self.input_shapes = tuple(x.shape if isinstance(x, Tensor) else () for x in inputs)
        self.generation = 1 + max(
            (x.generation for x in inputs if isinstance(x, Tensor)), default=0
        )
        self.output = output.lazydata if rule.keeps_output else None
        self.__dict__.update(shapes)  # 모양을 바꾸는 함수의 x_shape, kept_shape

    def saved(self) -> list:
        kept = self.rule.keep(self, list(self.needs_input_grad))
        return [_plain(x) if keep else None for x, keep in zip(self.inputs, kept, strict=True)]

    def saved_output(self, index: int = 0) -> Tensor:
        from .tensor import Tensor

        return Tensor.from_lazy(self.output)

    def select(self, gy: Tensor, mask: Tensor) -> Tensor:
        """mask가 참인 칸의 gy, 나머지는 0(곱하지 않고 고릅니다: 엔진의 select와 같은 약속)."""
        from .tensor import Tensor

        zero = graph.const(0.0, gy.dtype)
        return Tensor.from_lazy(graph.elementwise("where", mask.lazydata, gy.lazydata, zero))

    def expand(self, gy: Tensor) -> Tensor:
        """줄인 미분값을 입력의 모양으로: 없앤 축을 크기 1로 되살리고 브로드캐스트합니다."""
        from .tensor import Tensor

        gy = gy.reshape(self.kept_shape)
        return Tensor.from_lazy(graph.movement("expand", gy.lazydata, self.x_shape))

    def backward(self, gy: Tensor) -> tuple:
        gxs = self.rule.backward(self, gy)  # 엔진의 규칙을, self 자리에 이 기록을 넣어 부릅니다
        return gxs if isinstance(gxs, tuple) else (gxs,)


# --8<-- [end:record]


def _plain(x: object) -> object:
    """붙잡은 입력을 미분을 기록하지 않는 텐서로(같은 노드). 수는 그대로."""
    from .tensor import Tensor

    return Tensor.from_lazy(x.lazydata) if isinstance(x, Tensor) else x


# --8<-- [start:backward]
def backward(root: Tensor) -> None:
    """0차원 root에서 시작해 말단 텐서들의 grad에 미분값(지연 텐서)을 더합니다."""
    from .tensor import Tensor

    if root.shape != ():
        raise messages.not_scalar_root(root.shape)
    if not root.requires_grad:
        raise messages.no_grad_root()
    seed = Tensor.from_lazy(graph.constant_buffer(np.ones((), root.dtype)))
    # 말단 텐서 id -> [텐서, 이번 역전파까지의 grad]. 끝까지 성공하면 grad에 씁니다.
    leaves: dict[int, list] = {}
    if root.record is None:  # 말단 텐서 자신: 미분값은 시작값입니다.
        _accumulate(leaves, root, seed)
        root.grad = leaves[id(root)][1]
        return
    if root.record.inputs is None:
        raise messages.released()
    done = _propagate(root.record, seed, leaves)
    for x, total in leaves.values():
        x.grad = total
    for record in done:  # 엔진처럼 그래프를 놓아 줍니다(붙잡은 입력과 출력).
        record.inputs = record.output = None


# --8<-- [end:backward]


# --8<-- [start:backward-loop]
def _propagate(root: Record, seed: Tensor, leaves: dict) -> list[Record]:
    """세대가 큰 기록부터(같으면 먼저 넣은 것부터) 규칙의 backward를 부르고, 거친 기록들을 돌려줍니다."""
    heap = [(-root.generation, 0, root)]
    pending = {root: seed}
    order, done = 1, []
    while heap:
        _, _, record = heapq.heappop(heap)
        gxs = record.backward(pending.pop(record))
        for x, needs, gx in zip(record.inputs, record.needs_input_grad, gxs, strict=True):
            if gx is None or not needs:
                continue
            if x.record is None:
                _accumulate(leaves, x, gx)
            elif x.record not in pending:
                if x.record.inputs is None:
                    raise messages.released()
                order += 1
                heapq.heappush(heap, (-x.record.generation, order, x.record))
                pending[x.record] = gx
            else:
                pending[x.record] = pending[x.record] + gx
        done.append(record)
    return done


# --8<-- [end:backward-loop]


def _accumulate(leaves: dict, x: Tensor, gx: Tensor) -> None:
    """엔진의 Collector.leaf와 같은 순서: 먼저 있던 grad + 새 미분값."""
    entry = leaves.setdefault(id(x), [x, x.grad])
    entry[1] = gx if entry[1] is None else entry[1] + gx
