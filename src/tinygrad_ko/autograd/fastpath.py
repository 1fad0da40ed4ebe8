"""빠른 길: 기준 구현과 같은 결과를 더 빨리 냅니다(작은 배열에서는 파이썬의 일을, 큰 배열의 역전파에서는
새로 만드는 배열을 덜어서).

기준 구현은 `function.py`의 `Function.__call__`과 `_connect`, `backprop.py`의 `propagate`입니다. 알고리즘을
읽을 곳도, 페이지가 보여 주는 것도 그쪽입니다. 이 모듈은 같은 일을 같은 순서로 하되 다음만 다릅니다.

- 0차원 실수 데이터를 NumPy 스칼라로 넘깁니다(`scalar_inputs = True`인 사칙연산만). 스칼라끼리의
  사칙연산은 0차원 배열의 ufunc보다 열 배쯤 빠르고(곱셈 하나에 약 35 ns 대 400 ns), IEEE 연산이 같아
  값과 dtype이 같습니다. 다른 것은 NumPy의 경고와 `FloatingPointError`의 글뿐입니다(0으로 나누면
  "divide" 대신 "scalar divide"; 경고의 종류는 같습니다). 이 사칙연산의 하위 클래스도 forward에서 스칼라를 받습니다.
- 출력 변수를 `Variable.__init__`을 거치지 않고 만듭니다(엔진이 이미 아는 것을 다시 검사하지 않습니다).
- 작은 도우미 호출들을 한 함수 안에 펼쳐 둡니다.
- 큰 배열의 역전파에서는 엔진만 가진 미분값 배열에 결과를 제자리로 씁니다(`functions/inplace.py`의 규칙).
  한 줄로 쓴 NumPy 식이 임시 배열을 다시 쓰는 것(temporary elision)과 같은 효과입니다.

스위치는 하나, `use_fast_path`입니다. 라이브러리를 가져올 때 켜지고, 환경 변수
`TINYGRAD_KO_FAST_PATH=0`이면 꺼진 채 시작합니다. 두 길이 비트 단위로 같은 결과를 낸다는 것은
`tests/autograd/test_fast_path.py`와 `test_in_place_backward.py`가 확인합니다. 파이썬의 참조 횟수나 GIL에 기대는 곳은 없습니다.
"""

from __future__ import annotations

import heapq
import itertools
import os
import weakref
from collections.abc import Callable

import numpy as np

from .._checks import check_flag
from . import backprop, messages
from .backprop import Collector
from .function import (
    Function,
    _as_output_data,
    _claim_lock,
    _constant_data,
    explain_forward_error,
    output_index,
    share_version_of_views,
)
from .modes import backprop_enabled
from .variable import Variable

_REFERENCE_CALL = Function.__call__
_REFERENCE_LOOP = backprop.propagate
_REJECTED_KINDS = messages.REJECTED_KINDS
_PLAIN_NUMBERS = (float, int)  # 가장 흔한 상수. 기준 구현의 _constant_data도 그대로 돌려줍니다.
_enabled = False


def use_fast_path(enabled: bool) -> bool:
    """빠른 길을 켜거나(True) 끄고(False), 앞의 상태를 돌려줍니다. 프로세스 전체에 한 번에 적용됩니다.

    끄면 `Function.__call__`과 역전파의 반복문이 기준 구현으로 돌아갑니다. 결과는 어느 쪽이든 같습니다.
    """
    global _enabled
    check_flag("use_fast_path의 enabled", enabled)
    previous = _enabled
    Function.__call__ = call if enabled else _REFERENCE_CALL
    backprop.loop = propagate if enabled else _REFERENCE_LOOP
    _enabled = enabled
    return previous


def fast_path_enabled() -> bool:
    """빠른 길이 켜져 있는지."""
    return _enabled


def enabled_from_environment() -> bool:
    """환경 변수 `TINYGRAD_KO_FAST_PATH`: 없거나 "1"이면 켜고, "0"이면 끕니다."""
    value = os.environ.get("TINYGRAD_KO_FAST_PATH", "1")
    if value not in ("0", "1"):
        raise ValueError(
            f"환경 변수 TINYGRAD_KO_FAST_PATH는 0(기준 구현만) 또는 1(빠른 길)이어야 합니다. "
            f"받은 값: {value!r}"
        )
    return value == "1"


def call(self: Function, *inputs: object) -> Variable | list[Variable]:
    """`Function.__call__`의 빠른 길. 하는 일과 순서, 내는 예외의 종류는 기준 구현과 같습니다(0차원 사칙연산의
    NumPy 경고와 FloatingPointError의 글만 다릅니다: 모듈 설명)."""
    _claim_lock.acquire()  # 기준 구현의 _claim. with 문보다 호출마다 명령어 약 800개가 적습니다.
    try:
        claimed = not self.in_graph
        if claimed:
            self.in_graph = True
    finally:
        _claim_lock.release()
    node = self if claimed else self._fresh_node()
    scalars = node.scalar_inputs
    xs, needs, wanted = [], [], False
    for x in inputs:
        if isinstance(x, Variable):
            data = x.data
            if scalars and type(data) is np.ndarray and data.shape == () and data.dtype.kind == "f":
                data = data[()]  # 0차원 배열 -> 같은 dtype의 NumPy 스칼라
            xs.append(data)
            need = x.requires_grad
            needs.append(need)
            if need:
                wanted = True
        else:
            xs.append(x if type(x) in _PLAIN_NUMBERS else _constant_data(x))
            needs.append(False)
    try:
        ys = node.forward(*xs)
    except (TypeError, ValueError) as error:
        explain_forward_error(node, inputs, error)
    outputs = [_output(y) for y in ys] if isinstance(ys, tuple) else [_output(ys)]
    share_version_of_views(inputs, outputs)
    if wanted and backprop_enabled():
        _connect(node, inputs, outputs, needs)
    else:
        node.in_graph = False
    return outputs[0] if len(outputs) == 1 else outputs


def _output(y: object) -> Variable:
    """forward의 결과를 출력 변수로. `Variable.__init__`의 검사 가운데 출력에 해당하는 것(수치 dtype)만 합니다."""
    if type(y) is not np.ndarray:  # 보통은 0차원 연산이 돌려준 NumPy 스칼라
        y = y.__array__() if isinstance(y, np.generic) else _as_output_data(y)
    if y.dtype.kind in _REJECTED_KINDS:
        raise messages.not_numeric(y.dtype)
    output = Variable.__new__(Variable)
    output.data = y
    output.name = output.grad = output.creator = output.version_counter = None
    output.generation = 0
    output.requires_grad = False
    return output


def _connect(node: Function, inputs: tuple, outputs: list[Variable], needs: list[bool]) -> None:
    """`Function._connect`의 빠른 길: 같은 상태(edges, stamps, 모양, 세대, 출력)를 만듭니다."""
    kept = node.keep(needs)
    if len(kept) != len(inputs):
        raise messages.bad_keep(node, len(kept), len(inputs))
    node.needs_input_grad = tuple(needs)
    edges, stamps, shapes, generation, i = [], [], [], 0, 0
    for (
        x
    ) in inputs:  # 번호로 읽는 쪽이 zip(inputs, kept)보다 연산마다 명령어 약 1,500개가 적습니다.
        keep = kept[i]
        i += 1
        if not isinstance(x, Variable):  # 상수
            edges.append(x)
            stamps.append(True if keep else None)
            shapes.append(x.shape if isinstance(x, np.ndarray | np.generic) else ())
            continue
        if x.generation > generation:
            generation = x.generation
        creator = x.creator
        if keep or creator is None:
            edges.append(x)
        else:
            index = 0 if len(creator.outputs) == 1 else output_index(creator, x)
            edges.append((creator, index))
        stamps.append((x.data, x.version) if keep else None)
        shapes.append(x.data.shape)
    node.edges, node.stamps, node.input_shapes = edges, tuple(stamps), tuple(shapes)
    node.generation = generation
    for y in outputs:
        y.creator, y.generation, y.requires_grad = node, generation + 1, True
    if len(outputs) == 1:
        node.outputs = [weakref.ref(outputs[0])]
    else:
        node.outputs = [weakref.ref(y) for y in outputs]
        node.output_specs = [(y.data.shape, y.data.dtype) for y in outputs]
    if node.keeps_output:
        node.output_data = tuple([y.data for y in outputs])


def propagate(
    pending: dict[Function, list], collector: Collector, retain_graph: bool, create_graph: bool
) -> None:
    """`backprop.propagate`의 빠른 길. 보통의 `backward()`만 맡고(create_graph, retain_grad, `grad()`는
    기준 구현으로), 도우미를 펼쳐 둡니다. 큰 배열에서는 엔진만 가진 미분값 배열(`ours`, `mine`: 아래)에 제자리로 씁니다.
    """
    if create_graph or type(collector) is not Collector or collector.retain_grad:
        return _REFERENCE_LOOP(pending, collector, retain_graph, create_graph)
    heap, ours = _queue(pending)
    order, done = len(heap), []
    mine: set[int] = (
        set()
    )  # grad를 이번 역전파가 새로 만든 말단 변수의 id(그 grad에는 제자리로 더함)
    try:
        while heap:
            func = heapq.heappop(heap)[2]
            gys = pending.pop(func)
            if ours or mine or len(gys) > 1 or gys[0] is None or func.checks_backward:
                gxs, gxs_ours = _backward(func, gys, ours, mine)
            elif func.edges is None:
                raise messages.released(func)
            else:  # 가장 흔한 길: 출력 하나, 라이브러리의 함수, 작은 배열
                gxs, gxs_ours = func.backward(*gys), _NOT_OURS
                gxs = gxs if isinstance(gxs, tuple) else (gxs,)
            for edge, needs, gx, own in zip(func.edges, func.needs_input_grad, gxs, gxs_ours):
                if gx is None or not needs:
                    continue
                creator, index = backprop._route(edge)
                if creator is None:  # 말단 변수(index 자리에 그 변수)
                    _leaf(collector, mine, index, gx, own)
                    continue
                slots = pending.get(creator)
                if slots is None:  # 처음 미분값을 받는 함수
                    pending[creator] = slots = [None] * len(creator.outputs)
                    order += 1
                    heapq.heappush(heap, (-creator.generation, order, creator))
                total = slots[index]
                if total is None and not own:
                    slots[index] = gx
                else:
                    slots[index] = _accumulate(ours, total, gx, own)
            done.append(func)
            gys = gxs = gx = total = None
    except BaseException:
        collector.undo()
        raise
    if not retain_graph:
        backprop.release(done)
    return None


# --- 큰 배열의 제자리 계산 ------------------------------------------------------------------
# NumPy가 한 줄 식의 임시 배열을 제자리에서 다시 쓰는 기준과 같은 크기(256 KiB). 작은 배열은 늘 새로 만듭니다.
IN_PLACE_BYTES = 1 << 18
# 클래스 -> 제자리 규칙(functions/inplace.py가 채웁니다). 하위 클래스는 backward를 바꿨을 수 있어 정확한 클래스만.
IN_PLACE: dict[type, Callable] = {}
# 규칙을 등록할 때 그 클래스의 backward. 누가 클래스의 backward를 바꿔 끼웠으면(부른 횟수 세기, 고쳐 쓰기)
# 규칙은 그 backward와 같은 일을 한다고 할 수 없으므로, 규칙 대신 바뀐 backward를 부릅니다.
STANDS_FOR: dict[type, Callable] = {}


def register_in_place(cls: type, rule: Callable) -> None:
    """클래스 cls의 제자리 규칙을 등록합니다(`functions/inplace.py`). 지금의 `cls.backward`와 같은 값을 내야 합니다."""
    IN_PLACE[cls] = rule
    STANDS_FOR[cls] = cls.backward


# 기준 구현의 backward가 돌려준 미분값: 누가 또 가졌는지 모릅니다.
_NOT_OURS = itertools.repeat(False)


def _big(value: object) -> bool:
    return type(value) is np.ndarray and value.nbytes >= IN_PLACE_BYTES


def _release_ours(ours: set[int], gys: list) -> bool:
    """칸에서 꺼낸 미분값들을 `ours`에서 뺍니다. 출력이 하나이고 그 배열이 엔진만 가진 것이었는지 돌려줍니다."""
    found = [id(gy) in ours for gy in gys]
    for gy, was_ours in zip(gys, found, strict=True):
        if was_ours:
            ours.discard(id(gy))
    return found == [True]


def _queue(pending: dict[Function, list]) -> tuple[list, set[int]]:
    """시작값이 든 함수들의 힙(기준 구현과 같은 원소), 그리고 엔진만 가진 배열의 id(`ours`).

    `ours`: 시작값, 엔진이 더한 합, 제자리 규칙의 결과처럼 칸 하나에만 든 큰 배열. 시작값은 backpropagate가
    새로 만든 배열이므로 처음부터 엔진만 가집니다.
    """
    heap: list[tuple] = []
    for order, func in enumerate(pending):
        heapq.heappush(heap, (-func.generation, order, func))
    return heap, {id(gy) for slots in pending.values() for gy in slots if _big(gy)}


def _backward(func: Function, gys: list, ours: set[int], mine: set[int]) -> tuple:
    """꺼낸 함수의 backward: (입력마다의 미분값, 그 가운데 엔진만 가진 배열인지)."""
    if func.checks_backward or "backward" in func.__dict__:
        # 사용자의 코드(사용자 함수의 backward, tools/trace의 기록 장치)가 돕니다. 그 코드는 말단 변수의 grad나
        # 칸의 배열을 쥘 수 있으므로, 지금까지의 배열은 이제 엔진만 가진 것이 아닙니다.
        ours.clear()
        mine.clear()
    owned = bool(ours) and _release_ours(ours, gys)
    # 출력이 여럿이거나(받지 못한 출력은 0으로 채움) 결과를 검사할 사용자 함수: 기준 구현의 도우미로
    if len(gys) > 1 or gys[0] is None or func.checks_backward:
        gys = backprop._output_grads(func, gys, False)
        return backprop._call_backward(func, gys, False), _NOT_OURS
    if func.edges is None:
        raise messages.released(func)
    # tools/trace가 인스턴스의 backward를 바꿔 끼웠으면 규칙 대신 그 backward를 부릅니다.
    if owned and "backward" not in func.__dict__:
        cls = type(func)
        rule = IN_PLACE.get(cls)
        if rule is not None and cls.backward is STANDS_FOR.get(cls):
            result = rule(func, gys[0])
            if result is not None:
                return result
    gxs = func.backward(*gys)
    return (gxs if isinstance(gxs, tuple) else (gxs,)), _NOT_OURS


def _accumulate(ours: set[int], total: object, gx: object, own: bool) -> object:
    """칸에 미분값을 더합니다. 칸의 배열이 엔진만 가진 것이면 그 자리에, 아니면 새 배열로(기준 구현의 _add)."""
    if total is None:
        if own and _big(gx):
            ours.add(id(gx))
        return gx
    if id(total) in ours and gx is not total and _same_layout(total, gx):
        return np.add(total, gx, out=total)
    ours.discard(id(total))
    total = total + gx
    if _big(total):
        ours.add(id(total))  # 방금 만든 합은 이 칸에만 있습니다.
    return total


def _leaf(collector: Collector, mine: set[int], x: Variable, gx: object, own: bool) -> None:
    """말단 변수의 grad에 더합니다(기준 구현의 Collector.leaf). 이번 역전파가 만든 grad면 그 자리에 더합니다.

    역전파 전부터 있던 grad는 사용자가 쥐고 있을 수 있으므로 덮어쓰지 않습니다.
    """
    grad = x.grad
    if grad is not None and id(x) in mine and gx is not grad and _same_layout(grad, gx):
        np.add(grad, gx, out=grad)
        return
    collector.leaf(x, gx)
    # 기준 구현이 새로 더한 합, 또는 엔진만 가진 gx를 그대로 받은 grad는 이 역전파의 것입니다.
    if _big(x.grad) and (grad is not None or (own and x.grad is gx)):
        mine.add(id(x))


def _same_layout(target: np.ndarray, value: object) -> bool:
    """`target += value`가 `target + value`와 같은 배열을 내는지: 모양과 dtype이 같은 배열일 때."""
    return type(value) is np.ndarray and value.shape == target.shape and value.dtype == target.dtype
