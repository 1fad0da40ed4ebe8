"""역전파 알고리즘: 계산 그래프를 출력에서 입력 쪽으로 거슬러 올라가며 미분값을 전합니다.

- 재귀를 쓰지 않습니다. 백만 단계짜리 사슬도 파이썬 호출 스택과 상관없이 돕니다.
- 함수는 세대가 큰 것부터 우선순위 큐(heapq)에서 꺼냅니다. 같은 세대는 넣은 순서대로 꺼내므로
  순서가 늘 같습니다. 책처럼 넣을 때마다 정렬하면 가지가 K개인 그래프에서 O(K^2 log K)이지만,
  힙은 O(K log K)입니다.
- 중간 변수의 미분값은 변수가 아니라 그 창조자의 칸(`pending[창조자][출력 번호]`)에 모읍니다.
  그래서 사용자가 놓아 이미 사라진 중간 변수를 지나서도 미분값이 흐릅니다. 말단 변수의 미분값만
  `grad`에 남고, `retain_grad=True`이면 살아 있는 중간 변수에도 남깁니다.
- 보통은 역전파 비활성 모드에서 ndarray로 계산합니다. `create_graph=True`이면 역전파 활성
  모드에서 Variable로 계산하므로, 역전파의 계산도 그래프로 기록됩니다(고계 미분).
- 사용자가 만든 함수의 backward 결과는 값을 하나라도 바꾸기 전에 모두 검사합니다.
- 전부 아니면 전무: 역전파 도중에 예외가 나면 이번 역전파가 바꾼 `grad`를 모두 되돌리고, 그래프도
  놓아 주지 않습니다. 그래프는 역전파가 끝까지 성공한 뒤에 한꺼번에 놓아 줍니다(`retain_graph=False`).
- 시작 미분값은 PyTorch처럼 `gradient`로 준 값이거나 1입니다. 변수의 `grad`에 남은 값은 쓰지 않습니다.
- 말단 변수의 미분값은 그 변수의 dtype으로 맞춥니다(float32 변수의 grad는 float32, PyTorch와 같음).
"""

from __future__ import annotations

import heapq
import sys
import weakref
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from .modes import using_config

if TYPE_CHECKING:
    from .core import Function, Variable


def backpropagate(
    root: Variable,
    retain_grad: bool,
    retain_graph: bool,
    create_graph: bool,
    gradient: object = None,
) -> None:
    """`Variable.backward`의 본체: root에서 시작해 말단 변수들의 grad에 미분값을 누적합니다."""
    _check_root(root)
    creator = root.creator
    if creator is None:  # 말단 변수: 거슬러 올라갈 함수가 없습니다. 미분값은 시작값 자신입니다.
        if not root.requires_grad:
            raise _no_grad_root(root)
        _accumulate_leaf(root, _seed(root, gradient, create_graph), [], (), 0, create_graph)
        return
    if creator.edges is None:
        raise _released(creator)  # 그래프를 하나도 바꾸기 전에 알립니다.
    # 시작값은 지역 변수로 붙잡지 않고 바로 창조자의 칸에 둡니다(역전파 내내 메모리에 남지 않게).
    pending = {creator: [None] * len(creator.outputs)}
    pending[creator][output_index(creator, root)] = _seed(root, gradient, create_graph)
    with using_config("enable_backprop", create_graph):
        propagate(pending, retain_grad, retain_graph, create_graph)


def grad(
    outputs: Variable | Sequence[Variable],
    inputs: Variable | Sequence[Variable],
    grad_outputs: object = None,
    retain_graph: bool | None = None,
    create_graph: bool = False,
    allow_unused: bool = False,
) -> tuple:
    """출력들을 입력들로 미분한 값을 돌려줍니다. 어느 변수의 `grad`도 바꾸지 않습니다.

    `torch.autograd.grad`와 같은 약속입니다. 입력마다 미분값 하나씩의 튜플을 돌려주고, 미분값은
    보통 ndarray, `create_graph=True`이면 한 번 더 미분할 수 있는 Variable입니다. `grad_outputs`는
    출력마다의 시작값(없으면 1)입니다. 그래프에 쓰이지 않은 입력은 `allow_unused=True`일 때 None이고,
    아니면 RuntimeError입니다. 2계 미분, 기울기 벌점(gradient penalty), 헤세 행렬과 벡터의 곱에 씁니다.
    """
    for name, flag in (
        ("retain_graph", retain_graph),
        ("create_graph", create_graph),
        ("allow_unused", allow_unused),
    ):
        if type(flag) is not bool and not (name == "retain_graph" and flag is None):
            raise TypeError(
                f"grad의 {name}에는 True나 False를 넣어 주세요. 받은 값: {type(flag).__name__} {flag!r}."
            )
    outputs = _as_list(outputs, "outputs")
    inputs = _as_list(inputs, "inputs")
    seeds = _as_list(grad_outputs, "grad_outputs") if grad_outputs is not None else None
    if seeds is not None and len(seeds) != len(outputs):
        raise ValueError(
            f"grad_outputs는 출력마다 하나씩이어야 합니다. 출력 {len(outputs)}개, "
            f"grad_outputs {len(seeds)}개를 받았습니다."
        )
    if retain_graph is None:
        retain_graph = create_graph
    results: list = [None] * len(inputs)
    captured = {id(x): i for i, x in enumerate(inputs)}
    pending: dict = {}
    for k, y in enumerate(outputs):
        _check_root(y)
        seed = _seed(y, None if seeds is None else seeds[k], create_graph)
        if id(y) in captured:  # 출력 자신을 입력으로 준 경우: dy/dy = 시작값
            _add_result(results, captured[id(y)], seed)
        creator = y.creator
        if creator is None:
            continue
        if creator.edges is None:
            raise _released(creator)
        slots = pending.setdefault(creator, [None] * len(creator.outputs))
        index = output_index(creator, y)
        slots[index] = seed if slots[index] is None else slots[index] + seed
    if pending:
        with using_config("enable_backprop", create_graph):
            propagate(pending, False, retain_graph, create_graph, captured, results)
    for x, result in zip(inputs, results, strict=True):
        if result is None and not allow_unused:
            raise RuntimeError(
                f"입력 {x!r}이(가) 출력을 계산하는 데 쓰이지 않았습니다. 쓰이지 않은 입력의 자리에 "
                f"None을 받으려면 allow_unused=True를 주세요."
            )
    return tuple(results)


def propagate(
    pending: dict[Function, list],
    retain_grad: bool,
    retain_graph: bool,
    create_graph: bool,
    captured: dict[int, int] | None = None,
    results: list | None = None,
) -> None:
    """역전파의 반복문. `pending`은 함수 -> 출력마다 모은 미분값이고, 시작값이 든 칸에서 출발합니다.

    `captured`(grad 함수)가 있으면 미분값을 grad에 누적하지 않고, 그 변수들의 미분값만 `results`에
    모읍니다. 도중에 예외가 나면 바꾼 grad를 모두 되돌리고 그래프를 놓아 주지 않은 채 다시 올립니다.
    """
    # 힙의 원소: (세대의 음수, 넣은 순서, 함수). 세대가 큰 함수가 먼저 나옵니다.
    heap: list[tuple] = []
    for order, func in enumerate(pending):  # 시작값이 든 함수들(출력이 하나면 하나)
        heapq.heappush(heap, (-func.generation, order, func))
    order = len(heap)
    # 이번 역전파가 grad를 바꾼 변수: id -> (변수, 바꾸기 전의 grad). 실패하면 되돌립니다.
    touched: dict[int, tuple] = {}
    # backward를 마친 함수들. 역전파가 끝까지 성공하면 그때 놓아 줍니다(retain_graph=False).
    done: list[Function] = []
    # retain_grad=True: 변수에 남긴 미분값 배열들(id -> 약한 참조). 같은 배열을 두 변수에 남기지 않으려고
    # 셉니다. id만 적으면 먼저 남긴 배열이 풀린 뒤 새 배열이 같은 id를 받아 괜히 복사될 수 있습니다.
    retained: dict[int, weakref.ref] = {}
    ndarray = np.ndarray  # 반복문에서 함수마다 읽으므로 지역 이름으로 둡니다.

    try:
        while heap:
            _, _, func = heapq.heappop(heap)
            edges = func.edges
            if edges is None:
                raise _released(func)
            gys = pending.pop(func)
            # 흔한 경우(출력 하나, 미분값 있음)를 먼저 거릅니다.
            if len(gys) != 1 or gys[0] is None:
                _fill_missing_grads(func, gys, create_graph)
            if retain_grad:
                _keep_output_grads(func, gys, create_graph, retained, touched)
            if captured:
                _capture_outputs(func, gys, captured, results)
            checks = func.checks_backward
            if checks:  # 사용자가 만든 함수: create_graph를 지원하는지, 입력의 data가 그대로인지
                _check_user_function(func, create_graph)
            elif create_graph and not func.supports_create_graph:
                raise _not_graph_ready(func)
            # 출력 미분값을 이 칸만 가지고 있으면 라이브러리 함수는 새 배열 대신 그 자리에 씁니다.
            owns_gy = not checks and type(gys[0]) is ndarray and _owned(gys[0])
            if owns_gy:
                func.reusable_gy = gys[0]
                try:
                    gxs = func.backward(*gys)
                finally:
                    func.reusable_gy = None
            else:
                gxs = func.backward(*gys)
            if type(gxs) is not tuple:
                gxs = (gxs,)
            if checks:  # 값을 하나라도 바꾸기 전에 개수, 종류, 모양을 모두 검사합니다.
                _validate_backward_result(func, gxs, create_graph)

            needs = func.needs_input_grad
            for i, gx in enumerate(gxs):
                if gx is None or not needs[i]:
                    continue
                edge = edges[i]
                if type(edge) is tuple:  # 붙잡지 않은 중간 변수: (창조자, 출력 번호)
                    creator, index = edge
                else:
                    creator = edge.creator
                    if creator is None:  # 말단 변수: 미분값을 grad에 누적합니다.
                        if captured is None:
                            if id(edge) not in touched:
                                touched[id(edge)] = (edge, edge.grad)
                            # 덮어써도 되던 gy는 이 함수만 가졌으므로 말단 변수에 그대로 주어도 됩니다.
                            outer = () if owns_gy else gys
                            _accumulate_leaf(edge, gx, outer, gxs, i, create_graph)
                        elif id(edge) in captured:
                            _add_result(results, captured[id(edge)], _as_dtype_of(edge, gx))
                        continue
                    index = output_index(creator, edge)
                slots = pending.get(creator)
                if slots is None:  # 처음 미분값을 받는 함수: 칸을 만들고 힙에 넣습니다.
                    if len(creator.outputs) == 1:
                        pending[creator] = [gx]
                    else:
                        pending[creator] = slots = [None] * len(creator.outputs)
                        slots[index] = gx
                    order += 1
                    heapq.heappush(heap, (-creator.generation, order, creator))
                elif slots[index] is None:
                    slots[index] = gx
                elif _owned(slots[index]) and _adds_in_place(slots[index], gx):
                    slots[index] += gx  # 이 칸만 가진 배열이므로 제자리에서 더합니다.
                else:
                    slots[index] = slots[index] + gx
            done.append(func)
            # 다음 함수가 칸의 배열을 칸 혼자 가진 것으로 볼 수 있게(_owned) 이번 미분값의 참조를 놓습니다.
            gys = gxs = gx = None
    except BaseException:  # 전부 아니면 전무: 바꾼 grad를 되돌리고, 그래프는 그대로 둡니다.
        for x, grad in touched.values():
            x.grad = grad
        raise
    if not retain_graph:  # 붙잡은 입력과 출력 데이터를 놓아 줍니다.
        for func in done:
            # 붙잡은 입력과 그 순전파 때의 data(check_kept_data)도 함께 놓아 줍니다.
            func.edges = func.kept_inputs = func.kept_data = None
            func.output_data = None  # keeps_output이 아닌 함수에도 자리가 있습니다(_connect).


def _check_root(root: object) -> None:
    if not _is_variable(root):
        raise TypeError(
            f"미분을 시작할 출력은 Variable이어야 합니다. 받은 값: {type(root).__name__}."
        )
    if root.data is None:
        raise ValueError("data가 None인 Variable에서는 역전파를 시작할 수 없습니다.")
    if root.data.dtype.kind != "f":
        dtype = root.data.dtype
        what = "복소수" if dtype.kind == "c" else "실수가 아닌"
        raise TypeError(
            f"{what} 출력(dtype {dtype})에서는 역전파를 시작할 수 없습니다. 이 엔진의 미분은 실수 "
            f"출력에서만 정의합니다(PyTorch도 복소수 출력의 시작값은 만들지 않습니다). 실수 배열로 "
            f"계산하거나, 복소수라면 실수부와 허수부를 따로 실수 변수로 계산하세요."
        )


def _no_grad_root(root: Variable) -> RuntimeError:
    return RuntimeError(
        f"미분이 필요 없는 변수(requires_grad=False)에서는 역전파를 시작할 수 없습니다. 받은 변수: "
        f"{root!r}. no_grad 안에서 계산했거나 상수만으로 계산한 결과입니다. 미분할 입력을 "
        f"Variable(data)로 만들고 no_grad 밖에서 계산하세요."
    )


def _as_list(value: object, what: str) -> list:
    if isinstance(value, list | tuple):
        return list(value)
    if value is None:
        raise TypeError(f"{what}에 None을 줄 수 없습니다. Variable이나 그 리스트를 주세요.")
    return [value]


def _add_result(results: list, position: int, gx: object) -> None:
    previous = results[position]
    if previous is None:
        results[position] = gx.copy() if type(gx) is np.ndarray else gx
    else:
        results[position] = previous + gx


def _capture_outputs(func: Function, gys: list, captured: dict[int, int], results: list) -> None:
    """grad 함수: 입력으로 준 중간 변수의 미분값은 그 창조자를 꺼낼 때 다 모여 있습니다."""
    for ref, gy in zip(func.outputs, gys, strict=True):
        y = ref()
        if y is not None and id(y) in captured:
            _add_result(results, captured[id(y)], gy)


def output_index(creator: Function, x: Variable) -> int:
    """x가 창조자의 몇 번째 출력인지. 출력이 하나면 0입니다."""
    outputs = creator.outputs
    if len(outputs) == 1:
        return 0
    for i, ref in enumerate(outputs):
        if ref() is x:
            return i
    raise RuntimeError(f"{type(creator).__name__}의 출력 목록에 이 변수가 없습니다.")


def _seed(root: Variable, given: object, create_graph: bool) -> object:
    """역전파의 시작값: 주어진 값(`backward(gradient=)`, grad 함수의 `grad_outputs`)의 복사본, 없으면
    출력과 같은 모양의 1. root.grad에 남은 값은 쓰지 않습니다(PyTorch와 같음). create_graph이면
    미분하지 않는 상수 Variable로 감쌉니다."""
    if given is None:
        seed = np.ones_like(root.data)
    else:
        array = _array_of(given)
        _check_grad(array, root.data.shape, "시작 미분값(gradient)")
        if array.dtype.kind != "f":
            raise TypeError(
                f"시작 미분값(gradient)은 실수 배열이어야 합니다. 받은 dtype: {array.dtype}. "
                f"np.asarray(gradient, dtype=float)로 바꿔서 넘겨 주세요."
            )
        # 사용자의 배열을 입력의 미분값으로 그대로 넘기면 같은 객체를 공유하게 되므로 복사합니다.
        seed = np.array(array, copy=True)
    return type(root)(seed, requires_grad=False) if create_graph else seed


def _fill_missing_grads(func: Function, gys: list, create_graph: bool) -> None:
    """미분값을 받지 못한 출력(쓰지 않았거나 이미 사라진 출력)의 미분값을 0으로 채웁니다.

    create_graph이면 0도 미분하지 않는 상수 Variable이어야 합니다. 다른 출력이 받은 미분값이 하나는
    있으므로(그래서 이 함수가 힙에 들어왔습니다) 그 타입으로 만듭니다.
    """
    variable_type = type(next(gy for gy in gys if gy is not None)) if create_graph else None
    for i, ref in enumerate(func.outputs):
        if gys[i] is None:
            y = ref()
            zeros = np.zeros_like(y.data) if y is not None else np.zeros(*func.output_specs[i])
            gys[i] = zeros if variable_type is None else variable_type(zeros, requires_grad=False)


def _keep_output_grads(
    func: Function,
    gys: list,
    create_graph: bool,
    retained: dict[int, weakref.ref],
    touched: dict[int, tuple],
) -> None:
    """retain_grad=True: 살아 있는 출력 변수의 grad에 그 미분값을 더합니다(말단 변수처럼, PyTorch와 같음).

    덧셈처럼 미분값을 그대로 넘기는 함수 때문에 같은 배열이 여러 변수에 갈 수 있으므로, 이미 다른
    변수에 남긴 배열이면 복사합니다(사용자가 한 변수의 grad를 고쳐도 다른 변수가 바뀌지 않게).
    """
    for ref, gy in zip(func.outputs, gys, strict=True):
        y = ref()
        if y is None:
            continue
        if id(y) not in touched:
            touched[id(y)] = (y, y.grad)
        if y.grad is not None:
            gy = y.grad + gy  # 제자리 덧셈을 하지 않습니다: 새 배열이 됩니다.
        if not create_graph:
            if type(gy) is not np.ndarray or _already_retained(gy, retained):
                gy = np.array(gy, copy=True)
            retained[id(gy)] = weakref.ref(gy)
        y.grad = gy


def _already_retained(gy: np.ndarray, retained: dict[int, weakref.ref]) -> bool:
    """gy가 이미 다른 변수의 grad로 남긴 바로 그 배열인지(같은 id를 받은 새 배열이 아닌지)."""
    ref = retained.get(id(gy))
    return ref is not None and ref() is gy


def _accumulate_leaf(
    x: Variable, gx: object, gys: list, gxs: tuple, i: int, create_graph: bool
) -> None:
    """말단 변수의 grad에 미분값을 더합니다. 사용자가 볼 배열이므로 다른 변수와 공유하지 않습니다.

    미분값은 변수의 dtype으로 맞춥니다: float32 변수를 float64 상수와 계산해 float64 미분값이 와도
    grad는 float32입니다(PyTorch와 같음). create_graph의 미분값(Variable)은 계산된 dtype 그대로입니다.
    """
    if x.grad is None:
        if not create_graph:
            if type(gx) is not np.ndarray:
                gx = np.asarray(gx)  # 0차원 연산이 돌려준 NumPy 스칼라
            elif gx.base is not None or _is_shared(gx, gys, gxs, i):
                gx = gx.copy()  # 뷰(reshape, broadcast_to의 결과)나 다른 곳과 나눠 쓰는 배열
            gx = _as_dtype_of(x, gx)
        x.grad = gx
    elif _owned(x.grad) and _adds_in_place(x.grad, gx):
        # 이 변수만 가진 배열(이번 역전파가 만든 배열)이므로 제자리에서 더합니다.
        x.grad += gx
    else:
        grad = x.grad + gx  # 사용자나 다른 곳이 가진 배열이면 새 배열에 더합니다.
        # 앞선 create_graph=True가 남긴 Variable 미분값에 더한 결과는 Variable 그대로 둡니다(PyTorch처럼
        # 값이 누적됩니다). 그 밖에는 0차원 연산이 돌려준 NumPy 스칼라를 배열로, dtype은 변수에 맞춥니다.
        if not create_graph and not _is_variable(grad):
            if type(grad) is not np.ndarray:
                grad = np.asarray(grad)
            grad = _as_dtype_of(x, grad)
        x.grad = grad


def _as_dtype_of(x: Variable, gx: object) -> object:
    """첫 계산의 미분값(ndarray)을 변수 x의 dtype으로 맞춥니다. 같으면 그대로 돌려줍니다."""
    data = x.data
    if type(gx) is not np.ndarray or data is None:
        return gx
    dtype = data.dtype
    if gx.dtype is dtype or gx.dtype == dtype:
        return gx
    return gx.astype(dtype)


def _is_shared(gx: object, gys: list, gxs: tuple, i: int) -> bool:
    """gx가 출력의 미분값 그 자체이거나, 앞선 입력에 이미 준 배열인지."""
    for gy in gys:
        if gx is gy:
            return True
    for j in range(i):
        if gx is gxs[j]:
            return True
    return False


# 이보다 작은 배열은 덮어써도 얻는 것이 없습니다(할당이 싸고, 확인하는 시간이 더 듭니다).
_REUSE_MIN_SIZE = 1024


# --8<-- [start:owned]
def _owned(gy: object) -> bool:
    """gy가 칸(리스트의 한 자리나 변수의 grad) 하나만 가진, 덮어써도 되는 큰 배열인지.

    NumPy가 `a * b + c`의 임시 배열을 제자리에서 계산할 때와 같은 생각입니다. 참조 수가 그 칸 하나뿐이면
    사용자도, 다른 변수의 grad도, 붙잡은 입력도, 다른 배열의 뷰도 이 배열을 보지 않습니다. 뷰인 배열은
    바탕 배열을 누가 보는지 알 수 없으니 쓰지 않습니다.
    """
    return (
        type(gy) is np.ndarray
        and gy.size >= _REUSE_MIN_SIZE
        and gy.base is None
        and sys.getrefcount(gy) == _OWNED_REFS
    )
    # --8<-- [end:owned]


def _refs_seen_inside(gy: object) -> int:
    """`_owned`와 같은 모양의 호출 안에서 본 참조 수. 파이썬 버전마다 다를 수 있어 직접 잽니다."""
    return sys.getrefcount(gy)


def _measure_owned_refs() -> int:
    slot = [np.empty(0)]  # 칸 하나만 가진 배열
    return _refs_seen_inside(slot[0])


_OWNED_REFS = _measure_owned_refs()


def _adds_in_place(total: np.ndarray, gx: object) -> bool:
    """칸에 모은 배열 total에 gx를 제자리에서 더해도 결과가 같은지(모양과 dtype이 그대로인지)."""
    return type(gx) is np.ndarray and gx.dtype == total.dtype and gx.shape == total.shape


def _released(func: Function) -> RuntimeError:
    if func.outputs is None:  # 호출된 적이 없는 함수: 창조자를 손으로 이은 경우(책의 7단계 방식)
        name = type(func).__name__
        return RuntimeError(
            f"창조자 {name}은(는) 호출되어 그래프에 든 함수가 아닙니다(창조자를 손으로 이은 것 "
            f"같습니다). 최종 엔진에서는 함수를 호출하면 출력의 창조자가 정해집니다: y = {name}()(x). "
            f"책의 7단계처럼 set_creator로 손수 잇는 코드는 tinygrad_ko.steps.step07에서 실행하세요."
        )
    return RuntimeError(
        f"{type(func).__name__}의 그래프는 앞선 역전파에서 이미 해제되었습니다. "
        f"같은 그래프로 두 번 역전파하려면 첫 번째 호출을 backward(retain_graph=True)로 하세요."
    )


def _check_user_function(func: Function, create_graph: bool) -> None:
    """사용자가 만든 함수의 backward를 부르기 전에: create_graph 지원과 입력 data의 변경을 봅니다.

    라이브러리의 함수는 `saved()`가 같은 검사를 합니다. 사용자의 함수는 `self.inputs`를 직접
    읽으므로 여기서 합니다.
    """
    if create_graph and not func.supports_create_graph:
        raise _not_graph_ready(func)
    from .core import check_kept_data  # core가 이 모듈을 가져오므로 여기서 가져옵니다.

    check_kept_data(func)


def _not_graph_ready(func: Function) -> TypeError:
    name = type(func).__name__
    return TypeError(
        f"{name}.backward는 create_graph=True에 쓸 수 있다고 표시되지 않았습니다. ndarray(.data)로 "
        f"계산한 미분값은 다시 미분할 수 없기 때문입니다. backward를 Variable 연산으로 쓰고"
        f"(입력은 self.inputs의 Variable, 함수는 tinygrad_ko의 함수) 클래스에 "
        f"supports_create_graph = True를 두세요."
    )


def _validate_backward_result(func: Function, gxs: tuple, create_graph: bool) -> None:
    """사용자가 만든 함수의 backward 결과: 입력마다 하나씩, 입력과 같은 모양인지 검사합니다.

    0차원 배열끼리의 NumPy 연산은 `np.float64` 같은 스칼라를 돌려줍니다. 이것도 모양이 ()인
    값이므로 받아 두고, 말단 변수에 담을 때 ndarray로 바꿉니다.
    """
    name = type(func).__name__
    if len(gxs) == 1 and isinstance(gxs[0], list) and len(func.edges) != 1:
        raise TypeError(
            f"{name}.backward가 미분값을 리스트로 돌려주었습니다(원소 {len(gxs[0])}개). 입력이 여럿이면 "
            f"입력마다 하나씩 튜플로 돌려주세요: return gx0, gx1."
        )
    if len(gxs) != len(func.edges):
        raise ValueError(
            f"{name}.backward가 미분값 {len(gxs)}개를 돌려주었지만 입력은 {len(func.edges)}개입니다. "
            f"입력마다 하나씩(필요 없으면 None) 돌려주세요."
        )
    for i, gx in enumerate(gxs):
        if gx is None:
            continue
        what = f"{name}.backward가 돌려준 {i}번 입력의 미분값"
        if create_graph and not _is_variable(gx):
            raise TypeError(
                f"create_graph=True인데 {what}이 {type(gx).__name__}입니다. 2계 미분을 하려면 "
                f"backward가 Variable 연산으로 미분값을 만들어야 합니다."
            )
        _check_grad(_array_of(gx), _input_shape(func, i, gxs), what)


def _input_shape(func: Function, i: int, gxs: tuple) -> tuple[int, ...]:
    """i번 입력의 모양. 함수가 따로 기억하지 않았으면 입력이 모두 출력과 같은 모양입니다."""
    if func.input_shapes is not None:
        return func.input_shapes[i]
    x = func.inputs[i]
    if x is not None:
        return x.data.shape
    return np.shape(func.outputs[0]().data)


def _array_of(grad: object) -> object:
    """미분값이 Variable이면(create_graph) 그 데이터를, 아니면 그대로 돌려줍니다."""
    return grad.data if _is_variable(grad) else grad


def _is_variable(value: object) -> bool:
    # core를 가져오지 않으려고 Variable을 속성으로 알아봅니다(ndarray에도 data는 있습니다).
    return hasattr(value, "creator") and hasattr(value, "requires_grad")


def _check_grad(grad: object, shape: tuple[int, ...], what: str) -> None:
    if not isinstance(grad, np.ndarray | np.generic):
        raise TypeError(
            f"{what}은(는) numpy.ndarray여야 합니다. 받은 값: {type(grad).__name__}. "
            f"np.array(...)로 감싸 주세요."
        )
    if grad.shape != shape:
        raise ValueError(
            f"{what}의 모양 {grad.shape}이(가) 변수의 모양 {shape}과(와) 다릅니다. "
            f"변수와 같은 모양의 배열을 넣어 주세요."
        )
