"""지연 텐서(`lazy.Tensor`): 연산을 바로 계산하지 않고 그래프(`LazyBuffer`)로 적어 둡니다.

값은 `.numpy()`(또는 `lazy.realize(...)`)를 부를 때 계산합니다. 그때 스케줄러가 그래프를 커널로 자르고,
고른 백엔드가 커널을 돌립니다. 미분이 필요한 텐서(`requires_grad=True`)에서 나온 연산은 최종 엔진의 함수
클래스와 함께 기록해 두었다가(`gradients.Record`), `backward()`가 그 클래스의 backward 규칙을 부릅니다.

연산의 결과는 NumPy와 같은 약속을 따릅니다. 파이썬 수는 텐서의 dtype으로 바꿔 계산하고(float32 텐서 * 0.1은
float32), 모양이 다르면 브로드캐스트합니다. dtype이 다른 두 텐서는 섞지 않습니다.
"""

from __future__ import annotations

from numbers import Number

import numpy as np

from ..functions import activations, elementwise, reductions, shapes
from . import graph, messages, runner
from .gradients import Record
from .gradients import backward as _backward

FLOATS = (np.dtype(np.float32), np.dtype(np.float64))


class Tensor:
    """지연 텐서. `Tensor(ndarray, requires_grad=False)`. 받은 배열은 복사해 둡니다(뒤에 바꿔도 그대로)."""

    __array_ufunc__ = None  # ndarray * Tensor에서 NumPy가 Tensor의 __rmul__에 맡기게 합니다.

    def __init__(self, data: np.ndarray, requires_grad: bool = False) -> None:
        if not isinstance(data, np.ndarray):
            raise messages.not_an_array(data)
        if data.dtype not in FLOATS:
            raise messages.bad_dtype(data.dtype)
        self.lazydata = graph.buffer(np.array(data, order="C", copy=True))
        self.requires_grad = bool(requires_grad)
        self.grad: Tensor | None = None
        self.record: Record | None = None

    @classmethod
    def from_lazy(cls, lazydata: graph.LazyBuffer, requires_grad: bool = False) -> Tensor:
        """이미 있는 그래프 노드를 감싼 텐서(복사하지 않습니다)."""
        t = cls.__new__(cls)
        t.lazydata, t.requires_grad, t.grad, t.record = lazydata, requires_grad, None, None
        return t

    # --- 보기 ----------------------------------------------------------------------------
    shape = property(lambda self: self.lazydata.shape, doc="모양(계산하지 않고 압니다).")
    dtype = property(lambda self: self.lazydata.dtype, doc="dtype(계산하지 않고 압니다).")
    ndim = property(lambda self: len(self.lazydata.shape))
    generation = property(lambda self: self.record.generation if self.record else 0)

    def __repr__(self) -> str:
        state = (
            "계산됨"
            if self.lazydata.realized is not None
            else f"아직 계산 안 함: {self.lazydata.op}"
        )
        grad = ", requires_grad=True" if self.requires_grad else ""
        return f"lazy.Tensor(모양 {self.shape}, {self.dtype}, {state}{grad})"

    def numpy(self) -> np.ndarray:
        """값을 계산해(필요하면) ndarray로 돌려줍니다. 돌려준 배열은 이 텐서의 값 자신입니다."""
        runner.realize([self.lazydata])
        return self.lazydata.realized

    def backward(self) -> None:
        """0차원 결과에서 역전파합니다. 말단 텐서의 grad에 미분값(지연 텐서)이 쌓입니다."""
        _backward(self)

    # --- 기록 ----------------------------------------------------------------------------
    def _record(self, rule: type, inputs: tuple, node: graph.LazyBuffer, **shapes) -> Tensor:
        out = Tensor.from_lazy(node)
        if any(isinstance(x, Tensor) and x.requires_grad for x in inputs):
            out.requires_grad = True
            out.record = Record(rule, inputs, out, **shapes)
        return out

    def _operand(self, other: object) -> object:
        """연산 상대: 지연 텐서는 그대로, 수는 이 텐서의 dtype으로 반올림한 파이썬 float, 배열은 텐서로."""
        if isinstance(other, Tensor):
            if other.dtype != self.dtype:
                raise messages.mixed_dtypes(self.dtype, other.dtype)
            return other
        if isinstance(other, (Number, np.generic)) and not isinstance(
            other, (bool, np.bool_, complex)
        ):
            if isinstance(other, np.generic) and other.dtype.kind not in "iuf":
                raise messages.bad_operand(other)
            try:
                return graph.rounded(other, self.dtype)
            except OverflowError:  # float64로도 적을 수 없는 파이썬 정수(예: 10**400)
                raise messages.number_too_large(other, self.dtype) from None
        if isinstance(other, np.ndarray) and other.dtype in FLOATS:
            return self._operand(Tensor(other))
        raise messages.bad_operand(other)

    def _broadcast(self, a: object, b: object) -> list[graph.LazyBuffer]:
        """두 연산 상대의 노드를 같은 모양으로: 수는 const 노드로, 텐서는 필요하면 expand 노드로."""
        nodes = [
            x.lazydata if isinstance(x, Tensor) else graph.const(x, self.dtype) for x in (a, b)
        ]
        a_shape, b_shape = nodes[0].shape, nodes[1].shape
        # 흔한 경우(같은 모양, 수와 텐서)는 NumPy의 broadcast_shapes(몇 µs)를 부르지 않습니다.
        if a_shape == b_shape or not a_shape or not b_shape:
            return [graph.movement("expand", n, a_shape or b_shape) for n in nodes]
        try:
            shape = np.broadcast_shapes(a_shape, b_shape)
        except ValueError:
            raise messages.shapes_mismatch(a_shape, b_shape) from None
        return [graph.movement("expand", n, shape) for n in nodes]

    def _binary(self, rule: type, op: str, a: object, b: object) -> Tensor:
        return self._record(rule, (a, b), graph.elementwise(op, *self._broadcast(a, b)))

    def _unary(self, rule: type, op: str) -> Tensor:
        return self._record(rule, (self,), graph.elementwise(op, self.lazydata))

    # --- 연산: 규칙은 최종 엔진의 함수 클래스입니다 ------------------------------------------------
    def __add__(self, other):
        return self._binary(elementwise.Add, "add", self, self._operand(other))

    def __radd__(self, other):
        return self._binary(elementwise.Add, "add", self._operand(other), self)

    def __sub__(self, other):
        return self._binary(elementwise.Sub, "sub", self, self._operand(other))

    def __rsub__(self, other):
        return self._binary(elementwise.Sub, "sub", self._operand(other), self)

    def __mul__(self, other):
        return self._binary(elementwise.Mul, "mul", self, self._operand(other))

    def __rmul__(self, other):
        return self._binary(elementwise.Mul, "mul", self._operand(other), self)

    def __truediv__(self, other):
        return self._binary(elementwise.Div, "div", self, self._operand(other))

    def __rtruediv__(self, other):
        return self._binary(elementwise.Div, "div", self._operand(other), self)

    def __neg__(self):
        return self._unary(elementwise.Neg, "neg")

    def exp(self) -> Tensor:
        return self._unary(elementwise.Exp, "exp")

    def log(self) -> Tensor:
        return self._unary(elementwise.Log, "log")

    def relu(self) -> Tensor:
        return self._unary(activations.ReLU, "relu")

    def sum(self, axis: object = None, keepdims: bool = False) -> Tensor:
        """축을 따라 더합니다(None이면 모든 원소). 축의 검사는 최종 엔진의 sum과 같습니다."""
        axes = reductions.normalize_axis(axis, self.shape, "sum")
        axes = tuple(range(self.ndim)) if axes is None else tuple(sorted(axes))
        node = graph.reduce_sum(self.lazydata, axes)
        kept = node.shape
        if not keepdims:
            node = graph.movement(
                "reshape", node, tuple(n for i, n in enumerate(self.shape) if i not in axes)
            )
        return self._record(reductions.Sum, (self,), node, x_shape=self.shape, kept_shape=kept)

    def reshape(self, *shape: object) -> Tensor:
        """원소 순서를 지킨 채 모양을 바꿉니다. `reshape(2, 3)`과 `reshape((2, 3))` 모두 됩니다."""
        new = shape[0] if len(shape) == 1 and isinstance(shape[0], tuple | list) else shape
        try:  # -1과 원소 수의 검사는 NumPy에게: 보폭이 모두 0인 뷰라 메모리를 쓰지 않습니다.
            new = np.broadcast_to(np.empty((), np.uint8), self.shape).reshape(new).shape
        except (TypeError, ValueError):
            raise messages.bad_reshape(self.shape, shape) from None
        node = graph.movement("reshape", self.lazydata, new)
        return self._record(shapes.Reshape, (self,), node, x_shape=self.shape)

    # --- 미분하지 않는 비교(relu의 역전파가 씁니다) -------------------------------------------------
    def __le__(self, other) -> Tensor:
        nodes = self._broadcast(self, self._operand(other))
        return Tensor.from_lazy(graph.elementwise("cmple", *nodes))

    def __invert__(self) -> Tensor:
        return Tensor.from_lazy(graph.elementwise("not", self.lazydata))


def realize_all(*tensors: Tensor) -> None:
    """여러 텐서의 값을 한 번의 스케줄로 계산합니다(함께 쓰는 부분을 한 번만 계산합니다)."""
    runner.realize([t.lazydata for t in tensors])
