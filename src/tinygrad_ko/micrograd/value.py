"""micrograd 방식의 스칼라 자동 미분 노드 `Value`.

`Value` 하나는 파이썬 float 하나와 그 기울기를 담고, 자신을 만든 입력 노드(`_prev`)와
연산 이름(`_op`)을 기억합니다. 역전파 규칙은 노드마다 클로저로 만들지 않고 연산마다 하나씩
모듈 함수로 두며, 노드는 그 함수를 `_rule`로 가리킵니다. 그래서 노드를 만들 때 함수 객체를
새로 만들지 않고, 출력 노드와 규칙 사이에 순환 참조도 생기지 않습니다.

micrograd와 같은 이름(`data`, `grad`, `_backward`, `_prev`, `_op`)을 그대로 씁니다.
다른 점: `_prev`는 입력 순서를 지키는 튜플이고, 위상 정렬은 재귀 대신 스택을 쓰며
(노드 1,000,000개짜리 사슬도 역전파됩니다), 잘못된 입력에는 한국어 오류를 냅니다.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable
from functools import partial

from .._describe import describe

__all__ = ["Value", "topological_order"]

# 역전파 규칙: 출력 노드 하나를 받아 그 기울기를 입력 노드들의 grad에 더합니다.
Rule = Callable[["Value"], None]


def _add_backward(out: Value) -> None:
    a, b = out._prev
    a.grad += out.grad  # ∂(a+b)/∂a = 1
    b.grad += out.grad  # ∂(a+b)/∂b = 1


def _sub_backward(out: Value) -> None:
    a, b = out._prev
    a.grad += out.grad
    b.grad -= out.grad  # ∂(a-b)/∂b = -1


# --8<-- [start:mul-rule]
def _mul_backward(out: Value) -> None:
    a, b = out._prev
    a.grad += b.data * out.grad  # ∂(ab)/∂a = b: 상대의 값을 곱합니다
    b.grad += a.data * out.grad  # ∂(ab)/∂b = a
    # --8<-- [end:mul-rule]


def _div_backward(out: Value) -> None:
    a, b = out._prev
    a.grad += out.grad / b.data  # ∂(a/b)/∂a = 1/b
    b.grad -= out.grad * out.data / b.data  # ∂(a/b)/∂b = -a/b² = -(a/b)/b


def _neg_backward(out: Value) -> None:
    (a,) = out._prev
    a.grad -= out.grad


def _pow_backward(out: Value) -> None:
    (a,) = out._prev
    n = out._exponent
    if n == 0:
        return  # x⁰ = 1 은 x에 따라 변하지 않습니다 (x = 0에서 0⁻¹을 계산하지 않도록).
    try:
        local = n * a.data ** (n - 1)
    except ZeroDivisionError:
        raise ZeroDivisionError(
            f"x ** {n!r} 의 기울기는 x = 0 에서 정의되지 않습니다 "
            f"(n·x^(n-1) 이 0의 음수 거듭제곱이 됩니다). 받은 x: {a.data!r}. "
            "x = 0 을 지나지 않는 식으로 바꾸세요."
        ) from None
    a.grad += local * out.grad


def _relu_backward(out: Value) -> None:
    (a,) = out._prev
    # 0 이하 구간의 기울기는 0(0에서도 0으로 둡니다), 나머지는 1입니다. NaN은 0 이하가 아니므로
    # PyTorch처럼 기울기를 그대로 넘깁니다(NaN이 0으로 사라지지 않고 드러나게).
    if not out.data <= 0.0:
        a.grad += out.grad


def _tanh_backward(out: Value) -> None:
    (a,) = out._prev
    a.grad += (1.0 - out.data * out.data) * out.grad  # tanh' = 1 - tanh²


def _exp_backward(out: Value) -> None:
    (a,) = out._prev
    a.grad += out.data * out.grad  # exp' = exp: 이미 계산한 출력값을 다시 씁니다


def _log_backward(out: Value) -> None:
    (a,) = out._prev
    a.grad += out.grad / a.data  # log' = 1/x


def _do_nothing() -> None:
    """말단 변수의 `_backward()`: 전할 입력이 없습니다."""


_new_value = object.__new__


# --8<-- [start:node]
def _node(data: float, prev: tuple[Value, ...], op: str, rule: Rule | None) -> Value:
    """연산 결과 노드를 만듭니다. 값이 이미 float임을 아는 내부 경로라 검사를 건너뜁니다."""
    out = _new_value(Value)
    out.data = data
    out.grad = 0.0
    out._prev = prev
    out._op = op
    out._rule = rule
    out.label = ""
    return out


# --8<-- [end:node]


def _to_float(data: object) -> float:
    """`Value(data)`에 들어온 것을 float로 바꿉니다. 수가 아니면 무엇을 받았는지 알립니다."""
    if isinstance(data, Value):
        raise TypeError(
            f"Value 안에 Value를 넣을 수 없습니다. 받은 것: {data!r}. "
            "이미 Value이므로 그대로 쓰거나, 값만 필요하면 .data 를 넘기세요."
        )
    if isinstance(data, numbers.Real):
        try:
            return float(data)
        except OverflowError:  # 10**400 같은 아주 큰 정수
            raise OverflowError(
                f"Value에 넣은 수가 float 범위(약 1.8e308)를 넘습니다(받은 것: {describe(data)}). "
                "입력의 크기를 줄이세요."
            ) from None
    hint = "int나 float 같은 실수를 넘기세요."
    if isinstance(data, str):
        hint = f"문자열이라면 float({data!r})처럼 먼저 수로 바꾸세요."
    elif data is None:
        hint = "값이 아직 없다면 0.0 같은 수로 시작하세요."
    elif isinstance(data, complex):
        hint = "Value는 실수만 다룹니다. 실수부와 허수부를 따로 Value에 담으세요."
    elif hasattr(data, "shape"):
        hint = "Value는 스칼라 하나를 담습니다. 원소 하나짜리 배열이라면 .item()으로 꺼내 넘기세요."
    raise TypeError(f"Value에는 실수 하나를 넣어야 합니다. 받은 것: {describe(data)}. {hint}")


def _lift(other: object, op: str) -> Value:
    """연산의 상대편을 Value로 만듭니다 (파이썬 수는 말단 변수가 됩니다)."""
    if type(other) is float:  # 가장 흔한 경우: 검사 없이 바로 말단 노드를 만듭니다.
        return _node(other, (), "", None)
    if isinstance(other, Value):
        return other
    if isinstance(other, numbers.Real):
        return Value(other)
    raise TypeError(
        f"Value와 {type(other).__name__}는 '{op}' 연산을 할 수 없습니다. "
        f"받은 것: {describe(other)}. 파이썬 수(int, float)나 Value를 쓰세요."
    )


# --8<-- [start:class]
class Value:
    """스칼라 하나와 그 기울기를 담는 계산 그래프의 노드입니다.

    - data: 순전파로 구한 값(float)
    - grad: 최종 출력에 대한 기울기(처음에는 0.0)
    - _prev: 이 노드를 만든 입력 노드들(입력 순서를 지키는 튜플)
    - _op: 이 노드를 만든 연산의 이름('+', '*' 등. 말단 변수는 '')
    - _rule: 그 연산의 역전파 규칙 함수(말단 변수는 None). `_backward()`가 이것을 부릅니다.
    """

    __slots__ = ("data", "grad", "_prev", "_op", "_rule", "_exponent", "label", "__weakref__")

    def __init__(
        self, data: float, _children: tuple[Value, ...] = (), _op: str = "", *, label: str = ""
    ):
        self.data = data if type(data) is float else _to_float(data)
        self.grad = 0.0
        self._prev = _check_children(_children)
        self._op = _op
        self._rule: Rule | None = None
        self.label = label

    # --8<-- [end:class]

    # --8<-- [start:backward-field]
    @property
    def _backward(self) -> Callable[[], None]:
        """micrograd처럼 인수 없이 부르면 이 노드의 기울기를 입력 노드로 한 단계 전합니다."""
        rule = self._rule
        return _do_nothing if rule is None else partial(rule, self)
        # --8<-- [end:backward-field]

    @_backward.setter
    def _backward(self, fn: Callable[[], None]) -> None:
        # micrograd 식 확장 코드(out._backward = 클로저)도 그대로 동작하도록 받아 줍니다.
        if not callable(fn):
            raise TypeError(
                f"_backward 에는 인수 없는 함수를 넣어야 합니다. 받은 것: {describe(fn)}. "
                "def rule(): ... 처럼 인수 없이 부를 수 있는 함수를 넣으세요."
            )
        self._rule = lambda _out: fn()

    def __repr__(self) -> str:
        return f"Value(data={self.data!r}, grad={self.grad!r})"

    def __add__(self, other: Value | float) -> Value:
        if type(other) is not Value:
            other = _lift(other, "+")
        return _node(self.data + other.data, (self, other), "+", _add_backward)

    def __radd__(self, other: float) -> Value:  # 2 + x
        return _lift(other, "+") + self

    def __sub__(self, other: Value | float) -> Value:
        if type(other) is not Value:
            other = _lift(other, "-")
        return _node(self.data - other.data, (self, other), "-", _sub_backward)

    def __rsub__(self, other: float) -> Value:  # 2 - x
        return _lift(other, "-") - self

    # --8<-- [start:mul]
    def __mul__(self, other: Value | float) -> Value:
        if type(other) is not Value:
            other = _lift(other, "*")
        return _node(self.data * other.data, (self, other), "*", _mul_backward)

    # --8<-- [end:mul]

    def __rmul__(self, other: float) -> Value:  # 2 * x
        return _lift(other, "*") * self

    def __truediv__(self, other: Value | float) -> Value:
        if type(other) is not Value:
            other = _lift(other, "/")
        try:
            quotient = self.data / other.data
        except ZeroDivisionError:
            raise ZeroDivisionError(
                f"0으로 나눌 수 없습니다: {self.data!r} / {other.data!r}. 분모가 0이 아닌지 확인하세요."
            ) from None
        return _node(quotient, (self, other), "/", _div_backward)

    def __rtruediv__(self, other: float) -> Value:  # 2 / x
        return _lift(other, "/") / self

    def __neg__(self) -> Value:
        return _node(-self.data, (self,), "neg", _neg_backward)

    def __pos__(self) -> Value:
        return self

    def __pow__(self, exponent: float) -> Value:
        if isinstance(exponent, Value):
            raise TypeError(
                f"지수로 Value를 쓸 수 없습니다. 받은 지수: {exponent!r}. 지수는 int나 float여야 "
                "합니다. 지수까지 미분하려면 (x.log() * y).exp() 처럼 쓰세요 (x > 0)."
            )
        if not isinstance(exponent, numbers.Real):
            raise TypeError(
                f"지수는 int나 float여야 합니다. 받은 것: {describe(exponent)}. x ** 2, x ** 0.5처럼 파이썬 수를 쓰세요."
            )
        try:
            result = self.data**exponent
        except ZeroDivisionError:
            raise ZeroDivisionError(
                f"0의 음수 거듭제곱은 정의되지 않습니다: {self.data!r} ** {exponent!r}. 밑이 0이 아닌지 확인하세요."
            ) from None
        except OverflowError:
            raise OverflowError(
                f"{self.data!r} ** {exponent!r} 가 float 범위를 넘습니다. 입력의 크기를 줄이세요."
            ) from None
        if type(result) is complex:
            raise ValueError(
                f"음수의 정수 아닌 거듭제곱은 실수가 아닙니다: {self.data!r} ** {exponent!r}. "
                "밑이 0 이상인지 확인하세요."
            )
        out = _node(float(result), (self,), f"**{exponent}", _pow_backward)
        out._exponent = exponent
        return out

    def __rpow__(self, base: object) -> Value:  # 2 ** x
        raise TypeError(
            f"{describe(base)} ** Value 는 지원하지 않습니다 (지수는 파이썬 수여야 합니다). "
            "c ** x 가 필요하면 (x * math.log(c)).exp() 로 쓰세요 (c > 0)."
        )

    def relu(self) -> Value:
        x = self.data
        # `x > 0.0`으로 고르면 NaN이 0.0이 되어 발산한 학습이 손실 0으로 보입니다. 음수만 0으로 바꾸므로
        # NaN은 NaN으로 남습니다(micrograd, PyTorch와 같음).
        return _node(0.0 if x < 0.0 else x, (self,), "relu", _relu_backward)

    def tanh(self) -> Value:
        return _node(math.tanh(self.data), (self,), "tanh", _tanh_backward)

    def exp(self) -> Value:
        try:
            result = math.exp(self.data)
        except OverflowError:
            raise OverflowError(
                f"exp({self.data!r}) 가 float 범위를 넘습니다 (약 709.78 보다 큰 입력). "
                "입력의 크기를 줄이세요."
            ) from None
        return _node(result, (self,), "exp", _exp_backward)

    def log(self) -> Value:
        x = self.data
        if not x > 0.0:  # NaN도 여기서 걸러집니다.
            raise ValueError(
                f"log는 양수에서만 정의됩니다. 받은 값: {x!r} ({self!r}). 양수인 입력을 넣으세요."
            )
        return _node(math.log(x), (self,), "log", _log_backward)

    # --8<-- [start:backward]
    def backward(self) -> None:
        """이 노드에 대한 모든 선행 노드의 기울기를 grad에 더합니다 (두 번 부르면 누적됩니다).

        규칙 하나가 예외를 내면(예: 0에서 x ** 0.5의 기울기) 모든 노드의 grad를 부르기 전으로
        되돌리고 예외를 그대로 올립니다. 기울기가 반쯤 더해진 채 남지 않습니다.
        """
        order = topological_order(self)
        before = [node.grad for node in order]  # 실패하면 되돌릴 값
        self.grad = 1.0  # dself/dself = 1
        try:
            for node in reversed(order):  # 출력에서 입력 쪽으로
                rule = node._rule
                if rule is not None:  # 말단 변수에는 전할 곳이 없습니다
                    rule(node)
        except BaseException:
            for node, grad in zip(order, before, strict=True):
                node.grad = grad
            raise

    # --8<-- [end:backward]


def _check_children(children: object) -> tuple[Value, ...]:
    if type(children) is tuple and all(type(c) is Value for c in children):
        return children
    try:
        items = tuple(children)  # type: ignore[call-overload]
    except TypeError:
        raise TypeError(
            f"_children 에는 Value들의 튜플을 넣어야 합니다. 받은 것: {describe(children)}. "
            "(a, b)처럼 입력 노드를 튜플로 묶어 넣으세요."
        ) from None
    for item in items:
        if not isinstance(item, Value):
            raise TypeError(
                f"_children 의 원소는 Value여야 합니다. 받은 원소: {describe(item)}. "
                "수라면 Value(...)로 감싸서 넣으세요."
            )
    return items


# --8<-- [start:topo]
def topological_order(root: Value) -> list[Value]:
    """root에 닿는 모든 노드를, 각 노드가 그 입력들보다 뒤에 오도록 나열합니다.

    재귀 깊이 우선 탐색의 후위 순서와 같은 결과를 명시적인 스택으로 만듭니다.
    노드를 처음 꺼내면 자신을 다시 넣고 그 위에 입력들을 올리며, 두 번째로 꺼낼 때는
    입력들이 모두 끝났으므로 순서에 넣습니다. `_prev`가 튜플이라 순서는 늘 같습니다.
    """
    order: list[Value] = []
    opened: set[Value] = set()  # 입력을 스택에 올린 노드
    finished: set[Value] = set()  # order에 들어간 노드
    stack = [root]
    while stack:
        node = stack.pop()
        if node in opened:  # 두 번째 만남: 입력이 모두 order에 있습니다
            if node not in finished:  # 같은 노드가 스택에 두 번 있었던 경우 건너뜁니다
                finished.add(node)
                order.append(node)
            continue
        opened.add(node)
        stack.append(node)  # 입력들이 끝난 뒤 다시 꺼내도록 먼저 넣습니다
        for child in reversed(node._prev):  # 첫 입력을 먼저 탐색하도록 거꾸로 올립니다
            if child not in opened:
                stack.append(child)
    return order


# --8<-- [end:topo]
