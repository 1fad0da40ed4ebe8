"""역전파 알고리즘: 계산 그래프를 출력에서 입력 쪽으로 거슬러 올라가며 미분값을 전합니다.

- 재귀를 쓰지 않습니다. 백만 단계짜리 사슬도 파이썬 호출 스택과 상관없이 돕니다.
- 함수는 세대가 큰 것부터 우선순위 큐(heapq)에서 꺼냅니다. 같은 세대는 넣은 순서대로 꺼내므로
  순서가 늘 같습니다. 책처럼 넣을 때마다 정렬하면 가지가 K개인 그래프에서 O(K^2)이지만(거의 정렬된
  목록을 다시 정렬하는 데 한 번에 O(K), 11장), 힙은 O(K log K)입니다.
- 중간 변수의 미분값은 변수가 아니라 그 창조자의 칸(`pending[창조자][출력 번호]`)에 모읍니다.
  그래서 사용자가 놓아 이미 사라진 중간 변수를 지나서도 미분값이 흐릅니다. 말단 변수의 미분값만
  `grad`에 남고, `retain_grad=True`이면 살아 있는 중간 변수에도 남깁니다.
- 보통은 역전파 비활성 모드에서 ndarray로 계산합니다. `create_graph=True`이면 역전파 활성
  모드에서 Variable로 계산하므로, 역전파의 계산도 그래프로 기록됩니다(고계 미분).
- 전부 아니면 전무: 역전파 도중에 예외가 나면 이번 역전파가 바꾼 `grad`를 모두 되돌리고, 그래프도
  놓아 주지 않습니다. 그래프는 역전파가 끝까지 성공한 뒤에 한꺼번에 놓아 줍니다(`retain_graph=False`).
- 말단 변수의 미분값은 그 변수의 dtype으로 맞춥니다(float32 변수의 grad는 float32, PyTorch와 같음).
"""

from __future__ import annotations

import heapq
import weakref
from collections.abc import Sequence

import numpy as np

from . import messages, observe
from .function import Function, output_index
from .modes import using_config
from .variable import Variable, constant


def backpropagate(
    root: Variable, retain_grad: bool, retain_graph: bool, create_graph: bool, gradient: object
) -> None:
    """`Variable.backward`의 본체: root에서 시작해 말단 변수들의 grad에 미분값을 누적합니다."""
    _check_root(root)
    if (
        root.creator is None
    ):  # 말단 변수: 거슬러 올라갈 함수가 없습니다. 미분값은 시작값 자신입니다.
        if not root.requires_grad:
            raise messages.no_grad_root(root)
        Collector(False).leaf(root, _seed(root, gradient, create_graph))
        return
    pending = _start(root.creator)
    # 시작값은 지역 변수에 두지 않고 바로 칸에 넣습니다(역전파 내내 메모리에 남지 않게).
    pending[root.creator][_index(root)] = _seed(root, gradient, create_graph)
    with using_config("enable_backprop", create_graph):
        propagate(pending, Collector(retain_grad), retain_graph, create_graph)


def grad(
    outputs: Variable | Sequence[Variable],
    inputs: Variable | Sequence[Variable],
    grad_outputs: object = None,
    retain_graph: bool | None = None,
    create_graph: bool = False,
    allow_unused: bool = False,
) -> tuple:
    """출력들을 입력들로 미분한 값을 돌려줍니다. 어느 변수의 `grad`도 바꾸지 않습니다.

    `torch.autograd.grad`를 본떴습니다. 입력마다 미분값 하나씩을 담은 튜플을 돌려주고, 미분값은
    보통 ndarray, `create_graph=True`이면 한 번 더 미분할 수 있는 Variable입니다. `grad_outputs`는
    출력마다의 시작값(없으면 1)입니다. 그래프에 쓰이지 않은 입력은 `allow_unused=True`일 때 None이고,
    아니면 RuntimeError입니다. 2계 미분, 기울기 벌점(gradient penalty), 헤세 행렬과 벡터의 곱에 씁니다.
    """
    for where, flag in (("create_graph", create_graph), ("allow_unused", allow_unused)):
        if type(flag) is not bool:
            raise messages.not_bool(f"grad의 {where}", flag)
    if retain_graph is None:
        retain_graph = create_graph
    elif type(retain_graph) is not bool:
        raise messages.not_bool("grad의 retain_graph", retain_graph)
    outputs, inputs = _as_list(outputs, "outputs"), _as_list(inputs, "inputs")
    for position, given in enumerate(inputs, start=1):  # 역전파(그래프를 놓기) 전에 검사합니다
        if not isinstance(given, Variable):
            raise messages.grad_input_not_variable(position, given)
    seeds = (
        [None] * len(outputs) if grad_outputs is None else _as_list(grad_outputs, "grad_outputs")
    )
    if len(seeds) != len(outputs):
        raise messages.seed_count(len(outputs), len(seeds))
    collector = Capture(inputs)
    pending: dict = {}
    for y, given in zip(outputs, seeds, strict=True):
        _check_root(y)
        seed = _seed(y, given, create_graph)
        if y.creator is None:  # 말단 변수인 출력: dy/dy = 시작값
            collector.leaf(y, seed)
        else:
            slots = pending.setdefault(y.creator, _start(y.creator)[y.creator])
            slots[_index(y)] = _add(slots[_index(y)], seed)
    if pending:
        with using_config("enable_backprop", create_graph):
            propagate(pending, collector, retain_graph, create_graph)
    return collector.results(allow_unused)


# --8<-- [start:propagate]
def propagate(
    pending: dict[Function, list],
    collector: Collector,
    retain_graph: bool,
    create_graph: bool,
) -> None:
    """역전파의 반복문. `pending`은 함수 -> 출력마다 모은 미분값이고, 시작값이 든 칸에서 출발합니다.

    도중에 예외가 나면 바꾼 grad를 모두 되돌리고, 그래프를 놓아 주지 않은 채 다시 올립니다.
    `observe.observe_backward`로 듣는 쪽이 있으면 backward를 부르기 직전마다 알립니다.
    """
    # 힙의 원소: (세대의 음수, 넣은 순서, 함수). 세대가 큰 함수가 먼저 나옵니다.
    heap: list[tuple] = []
    for order, func in enumerate(pending):  # 시작값이 든 함수들(y.backward()이면 y의 창조자 하나)
        heapq.heappush(heap, (-func.generation, order, func))
    order = len(heap)
    done = []  # backward를 마친 함수들. 끝까지 성공하면 그때 놓아 줍니다.
    listeners = observe.listeners()  # 이 역전파를 지켜보는 쪽(보통은 없음)
    try:
        while heap:
            entry = heapq.heappop(heap)
            func = entry[2]
            gys = _output_grads(func, pending.pop(func), create_graph)
            collector.outputs(func, gys)
            if listeners:
                observe.notify(listeners, entry, gys, heap, pending)
            gxs = _call_backward(func, gys, create_graph)
            for edge, needs, gx in zip(func.edges, func.needs_input_grad, gxs):
                if gx is None or not needs or not collector.wants(edge, gx):
                    continue
                creator, index = _route(edge)
                if creator is None:  # 말단 변수(index 자리에 그 변수)
                    collector.leaf(index, gx)
                    continue
                if creator not in pending:  # 처음 미분값을 받는 함수: 칸을 만들고 힙에 넣습니다.
                    pending[creator] = [None] * len(creator.outputs)
                    heapq.heappush(heap, (-creator.generation, order, creator))
                    order += 1
                pending[creator][index] = _add(pending[creator][index], gx)
            done.append(func)
            gys = gxs = gx = None  # 다 쓴 미분값을 다음 함수를 꺼내기 전에 놓습니다(메모리).
    except BaseException:
        collector.undo()
        raise
    if not retain_graph:
        release(done)


# --8<-- [end:propagate]


def release(funcs: list[Function]) -> None:
    """역전파가 끝까지 성공한 뒤, backward를 마친 함수들이 붙잡은 것을 한꺼번에 놓아 줍니다."""
    for func in funcs:
        func.release()


def _route(edge: object) -> tuple:
    """입력의 미분값을 보낼 곳: 중간 변수면 (창조자, 출력 번호), 말단 변수면 (None, 그 변수).

    `unchain()`으로 창조자를 끊은 중간 변수는, 끊기 전에 만든 그래프에서도 말단 변수입니다(DeZero와 같음).
    """
    if isinstance(edge, tuple):  # 붙잡지 않은 중간 변수: (창조자, 출력 번호)
        creator, index = edge
        x = creator.outputs[index]()
        return (None, x) if x is not None and x.creator is None else edge
    if edge.creator is None:
        return None, edge
    return edge.creator, _index(edge)


def _output_grads(func: Function, gys: list, create_graph: bool) -> list:
    """꺼낸 함수의 출력 미분값. 받지 못한 출력(쓰지 않았거나 이미 사라진 출력)의 자리는 0입니다."""
    if func.edges is None:
        raise messages.released(func)
    for i, gy in enumerate(gys):
        if gy is None:
            zeros = np.zeros(*func.output_specs[i])
            gys[i] = constant(zeros) if create_graph else zeros
    return gys


def _call_backward(func: Function, gys: list, create_graph: bool) -> tuple:
    """backward를 불러 입력마다의 미분값 튜플을 받습니다. 사용자가 만든 함수의 결과는 검사합니다."""
    if create_graph and not func.supports_create_graph:
        raise messages.not_graph_ready(func)
    if (
        func.checks_backward
    ):  # 사용자의 함수는 self.inputs를 직접 읽으므로 여기서 data를 확인합니다.
        func.check_stamps()
    gxs = func.backward(*gys)
    gxs = gxs if isinstance(gxs, tuple) else (gxs,)
    if func.checks_backward:  # 값을 하나라도 바꾸기 전에 개수, 종류, 모양을 모두 검사합니다.
        _validate_backward_result(func, gxs, create_graph)
    return gxs


def _add(total: object, gx: object) -> object:
    """칸에 미분값을 더합니다. 늘 새 배열을 만듭니다(칸의 배열을 다른 곳이 볼 수 있으므로)."""
    return gx if total is None else total + gx


class Collector:
    """`backward`: 말단 변수의 grad에 미분값을 더하고, 실패하면 되돌릴 수 있게 바꾸기 전 값을 적습니다.

    `retain_grad=True`이면 살아 있는 중간 변수의 grad에도 더합니다(말단 변수처럼, PyTorch와 같음).
    덧셈의 역전파는 같은 배열을 두 입력에 넘기므로, 이미 다른 변수에 준 배열과 뷰는 복사해서 남깁니다.
    그래야 사용자가 한 변수의 grad를 제자리에서 고쳐도 다른 변수가 바뀌지 않습니다.
    """

    def __init__(self, retain_grad: bool) -> None:
        self.retain_grad = retain_grad
        self.touched: dict[int, tuple] = {}  # id -> (변수, 바꾸기 전의 grad)
        # 이번 역전파가 변수에 준 배열(id -> 약한 참조). 먼저 준 배열이 풀린 뒤 새 배열이 같은 id를
        # 받을 수 있으므로 id만이 아니라 같은 객체인지도 봅니다.
        self.given: dict[int, weakref.ref] = {}

    def wants(self, edge: object, gx: object) -> bool:
        return True

    def outputs(self, func: Function, gys: list) -> None:
        if self.retain_grad:
            for ref, gy in zip(func.outputs, gys, strict=True):
                if (y := ref()) is not None:
                    self.leaf(y, gy)

    def leaf(self, x: Variable, gx: object) -> None:
        if id(x) not in self.touched:
            self.touched[id(x)] = (x, x.grad)
        if x.grad is not None:
            x.grad = _in_dtype_of(x, x.grad + gx)  # 더한 결과는 새 배열입니다.
        else:
            x.grad = self._unshared(_in_dtype_of(x, gx))

    def _unshared(self, gx: object) -> object:
        if not isinstance(gx, np.ndarray):
            return gx  # create_graph의 미분값(Variable)
        ref = self.given.get(id(gx))
        if gx.base is not None or (ref is not None and ref() is gx):
            gx = gx.copy()
        self.given[id(gx)] = weakref.ref(gx)
        return gx

    def undo(self) -> None:
        for x, old in self.touched.values():
            x.grad = old


class Capture(Collector):
    """`grad()`: grad를 바꾸지 않고, 입력으로 준 변수들의 미분값만 모읍니다.

    입력으로 준 중간 변수의 미분값은 그 창조자를 꺼낼 때 다 모여 있습니다. 가장 낮은 입력보다 세대가
    작은 함수는 어느 입력에도 닿지 않으므로 꺼내지 않고, 그 그래프는 놓아 주지도 않습니다(PyTorch처럼
    입력까지만 계산합니다).
    """

    def __init__(self, inputs: list[Variable]) -> None:
        self.inputs = inputs
        self.found: list = [None] * len(inputs)
        self.lowest = min(_generation(x) for x in inputs)

    def wants(self, edge: object, gx: object) -> bool:
        """이 입력 쪽으로 더 거슬러 올라갈지. 창조자의 세대가 가장 낮은 입력보다 낮으면 그 앞에는 입력이
        없으므로 멈추고, 그 자리의 변수가 입력이면 미분값을 여기서 모읍니다."""
        creator = edge[0] if isinstance(edge, tuple) else edge.creator
        if creator is None or creator.generation >= self.lowest:
            return True
        self.leaf(edge[0].outputs[edge[1]]() if isinstance(edge, tuple) else edge, gx)
        return False

    def outputs(self, func: Function, gys: list) -> None:
        for ref, gy in zip(func.outputs, gys, strict=True):
            self.leaf(ref(), gy)

    def leaf(self, x: Variable | None, gx: object) -> None:
        for i, wanted in enumerate(self.inputs):
            if (
                wanted is x
            ):  # 돌려줄 배열은 늘 새 배열로, dtype은 입력의 것으로(create_graph면 Variable 그대로)
                total = _add(self.found[i], gx)
                self.found[i] = (
                    total if isinstance(total, Variable) else np.array(total, x.data.dtype)
                )

    def undo(self) -> None:
        pass

    def results(self, allow_unused: bool) -> tuple:
        for x, found in zip(self.inputs, self.found, strict=True):
            if found is None and not allow_unused:
                raise messages.unused_input(x)
        return tuple(self.found)


def _in_dtype_of(x: Variable, gx: object) -> object:
    """미분값을 변수 x의 dtype의 ndarray로(PyTorch와 같음). create_graph의 미분값(Variable)은 그대로."""
    if isinstance(gx, Variable):
        return gx
    return np.asarray(gx, dtype=x.data.dtype)


def _generation(x: Variable) -> int:
    return x.generation if isinstance(x, Variable) else 0


def _start(creator: Function) -> dict:
    """창조자 하나의 빈 칸들. 그래프를 하나도 바꾸기 전에, 이미 놓아 준 그래프인지 알립니다."""
    if creator.edges is None:
        raise messages.released(creator)
    return {creator: [None] * len(creator.outputs)}


def _index(x: Variable) -> int:
    return output_index(x.creator, x)


def _check_root(root: object) -> None:
    if not isinstance(root, Variable):
        raise messages.not_a_root(root)
    if root.data is None:
        raise messages.empty_root()
    if root.data.dtype.kind != "f":
        raise messages.non_float_root(root.data.dtype)


def _as_list(value: object, what: str) -> list:
    if isinstance(value, list | tuple):
        return list(value)
    if value is None:
        raise messages.none_given(what)
    return [value]


def _seed(root: Variable, given: object, create_graph: bool) -> object:
    """역전파의 시작값: 주어진 값(`backward(gradient=)`, grad의 `grad_outputs`), 없으면 출력과 같은 모양의 1.

    root.grad에 남은 값은 쓰지 않습니다(PyTorch와 같음). create_graph에서 Variable을 주면 그 그래프도
    이어지게 그대로 씁니다(야코비안-벡터 곱의 이중 vjp). 그 밖에는 사용자의 배열과 나눠 쓰지 않게 복사합니다.
    """
    if given is None:
        seed = np.ones_like(root.data)
    else:
        array = given.data if isinstance(given, Variable) else given
        _check_grad(array, root.data.shape, "시작 미분값(gradient)")
        if array.dtype.kind != "f":
            raise messages.non_float_seed(array.dtype)
        if create_graph and isinstance(given, Variable):
            return given
        seed = np.array(array, copy=True)
    return constant(seed) if create_graph else seed


def _validate_backward_result(func: Function, gxs: tuple, create_graph: bool) -> None:
    """사용자가 만든 함수의 backward 결과: 입력마다 하나씩, 입력과 같은 모양인지 검사합니다.

    0차원 배열끼리의 NumPy 연산은 `np.float64` 같은 스칼라를 돌려줍니다. 이것도 모양이 ()인
    값이므로 받아 두고, 말단 변수에 담을 때 ndarray로 바꿉니다.
    """
    name = type(func).__name__
    if len(gxs) == 1 and isinstance(gxs[0], list) and len(func.edges) != 1:
        raise messages.grads_as_list(func, len(gxs[0]))
    if len(gxs) != len(func.edges):
        raise messages.grad_count(func, len(gxs), len(func.edges))
    for i, gx in enumerate(gxs):
        if gx is None:
            continue
        what = f"{name}.backward가 돌려준 {i}번 입력의 미분값"
        if create_graph and not isinstance(gx, Variable):
            raise messages.grad_not_variable(what, gx)
        _check_grad(gx.data if isinstance(gx, Variable) else gx, func.input_shapes[i], what)


def _check_grad(grad: object, shape: tuple[int, ...], what: str) -> None:
    if not isinstance(grad, np.ndarray | np.generic):
        raise messages.grad_not_array(what, grad)
    if grad.shape != shape:
        raise messages.grad_shape(what, grad.shape, shape)
