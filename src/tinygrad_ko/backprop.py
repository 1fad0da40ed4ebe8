"""역전파 알고리즘: 계산 그래프를 출력에서 입력 쪽으로 거슬러 올라가며 미분값을 전합니다.

- 재귀를 쓰지 않습니다. 백만 단계짜리 사슬도 파이썬 호출 스택과 상관없이 돕니다.
- 함수는 세대가 큰 것부터 우선순위 큐(heapq)에서 꺼냅니다. 같은 세대는 넣은 순서대로 꺼내므로
  순서가 늘 같습니다. 책처럼 넣을 때마다 정렬하면 가지가 K개인 그래프에서 O(K^2 log K)이지만,
  힙은 O(K log K)입니다.
- 함수의 backward 결과는 값을 하나라도 바꾸기 전에 모두 검사합니다.
"""

from __future__ import annotations

import heapq
from itertools import count
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from .core import Function, Variable


def backpropagate(root: Variable, retain_grad: bool, retain_graph: bool) -> None:
    if root.data is None:
        raise ValueError("data가 None인 Variable에서는 역전파를 시작할 수 없습니다.")
    if root.grad is None:
        root.grad = np.ones_like(root.data)
    else:
        _check_grad(root.grad, root, "미리 넣어 둔 미분값(grad)")
        # 사용자의 배열을 입력의 미분값으로 그대로 넘기면 같은 객체를 공유하게 되므로 복사합니다.
        root.grad = np.array(root.grad, copy=True)
    if root.creator is None:
        return  # 말단 변수: 거슬러 올라갈 함수가 없습니다.

    # 힙의 원소: (세대의 음수, 넣은 순서, 함수, 붙잡아 둘 변수). 세대가 큰 함수가 먼저 나옵니다.
    # retain_graph=False이면 함수가 입력을 놓아 주므로, 미분값을 들고 창조자를 기다리는 중간
    # 변수가 사라지지 않게 힙 원소에 함께 넣어 둡니다. 같은 창조자로 두 번째 이후에 도착한
    # 변수(출력이 여럿인 함수)는 `also_waiting`에 둡니다.
    heap: list[tuple] = [(-root.creator.generation, 0, root.creator, root)]
    seen = {id(root.creator)}
    also_waiting: dict[int, list[Variable]] = {}
    order = count(1)

    while heap:
        entry = heapq.heappop(heap)  # entry[3]이 이 함수의 출력을 처리 중에 붙잡아 둡니다.
        func = entry[2]
        inputs = func.inputs
        if inputs is None:
            raise RuntimeError(
                f"{type(func).__name__}의 그래프는 앞선 역전파에서 이미 해제되었습니다. "
                f"같은 그래프로 두 번 역전파하려면 첫 번째 호출을 backward(retain_graph=True)로 하세요."
            )
        outputs = func.outputs
        y = outputs[0]() if len(outputs) == 1 else None
        if y is not None and y.grad is not None:  # 가장 흔한 경우: 출력 하나, 미분값 있음.
            gys = (y.grad,)
        else:
            gys = _output_grads(func)
        gxs = func.backward(*gys)
        if type(gxs) is not tuple:
            gxs = (gxs,)
        if func.checks_backward:  # 값을 하나라도 바꾸기 전에 개수와 모양을 모두 검사합니다.
            if len(gxs) != len(inputs):
                _check(func, gxs)
            for x, gx in zip(inputs, gxs, strict=True):
                if gx is not None and getattr(gx, "shape", None) != x.data.shape:
                    _check(func, gxs)

        for i in range(len(inputs)):  # 개수는 위에서 확인했습니다.
            gx = gxs[i]
            if gx is None:
                continue
            x = inputs[i]
            creator = x.creator
            if x.grad is None:
                # 사용자가 보게 될 미분값(말단 변수, retain_grad)은 다른 변수와 배열을 공유하면
                # 안 됩니다. 출력의 미분값을 그대로 넘겨받았거나 앞선 입력과 같은 배열이면 복사합니다.
                # 중간 변수의 미분값은 곧 버려지고 엔진은 배열을 제자리에서 바꾸지 않으므로 괜찮습니다.
                if (creator is None or retain_grad) and _is_shared(gx, gys, gxs, i):
                    gx = gx.copy()
                x.grad = gx
            else:
                x.grad = x.grad + gx  # 제자리 덧셈을 하지 않습니다: 공유된 배열을 지킵니다.
            if creator is None:
                if type(x.grad) is not np.ndarray:
                    x.grad = np.array(x.grad)  # 말단 변수의 미분값은 늘 ndarray로 남깁니다.
            elif id(creator) not in seen:
                seen.add(id(creator))
                heapq.heappush(heap, (-creator.generation, next(order), creator, x))
            elif not retain_graph:
                also_waiting.setdefault(id(creator), []).append(x)

        if not retain_grad:
            for ref in outputs:
                y = ref()
                if y is not None:
                    y.grad = None
        else:
            for x in inputs:
                if x.grad is not None and type(x.grad) is not np.ndarray:
                    x.grad = np.array(x.grad)
        if not retain_graph:
            func.inputs = None  # 순전파 때 저장한 입력(과 그 데이터)을 놓아 줍니다.
            if also_waiting:
                also_waiting.pop(id(func), None)


def _is_shared(gx: object, gys: tuple | list, gxs: tuple, i: int) -> bool:
    """gx가 출력의 미분값 그 자체이거나, 앞선 입력에 이미 준 배열인지."""
    if len(gys) == 1 and i < 2:  # 가장 흔한 경우(출력 하나, 입력 한두 개)를 먼저 봅니다.
        return gx is gys[0] or (i == 1 and gx is gxs[0])
    for gy in gys:
        if gx is gy:
            return True
    for j in range(i):
        if gx is gxs[j]:
            return True
    return False


def _output_grads(func: Function) -> list[np.ndarray]:
    """출력들의 미분값. 사라졌거나 미분값이 없는 출력은 0으로 봅니다."""
    outputs = func.outputs
    if len(outputs) == 1:  # 가장 흔한 경우: 출력 하나, 살아 있고 미분값이 있습니다.
        y = outputs[0]()
        if y is not None and y.grad is not None:
            return [y.grad]
    grads = []
    for i, ref in enumerate(func.outputs):
        y = ref()
        grad = None if y is None else y.grad
        if grad is None:
            if y is not None:
                grad = np.zeros_like(y.data)
            else:
                shape, dtype = func.output_specs[i]
                grad = np.zeros(shape, dtype)
        grads.append(grad)
    return grads


def _check(func: Function, gxs: tuple) -> None:
    """backward의 결과가 입력마다 하나씩이고, 각 미분값의 모양이 입력과 같은지 검사합니다.

    0차원 배열끼리의 NumPy 연산은 `np.float64` 같은 스칼라를 돌려줍니다. 이것도 모양이 ()인
    값이므로 받아 두고, 말단 변수(또는 남겨 둘 변수)에 담을 때 ndarray로 바꿉니다. 중간 변수의
    미분값은 곧 버려지므로 바꾸는 비용을 아낍니다.
    """
    inputs = func.inputs
    if len(gxs) != len(inputs):
        raise ValueError(
            f"{type(func).__name__}.backward가 미분값 {len(gxs)}개를 돌려주었지만 "
            f"입력은 {len(inputs)}개입니다. 입력마다 하나씩(필요 없으면 None) 돌려주세요."
        )
    for i, gx in enumerate(gxs):
        if gx is not None and getattr(gx, "shape", None) != inputs[i].data.shape:
            _check_grad(
                gx, inputs[i], f"{type(func).__name__}.backward가 돌려준 {i}번 입력의 미분값"
            )


def _check_grad(grad: object, var: Variable, what: str) -> None:
    if not isinstance(grad, np.ndarray | np.generic):
        raise TypeError(
            f"{what}은(는) numpy.ndarray여야 합니다. 받은 값: {type(grad).__name__}. "
            f"np.array(...)로 감싸 주세요."
        )
    if grad.shape != var.data.shape:
        raise ValueError(
            f"{what}의 모양 {grad.shape}이(가) 변수의 모양 {var.data.shape}과(와) 다릅니다. "
            f"변수와 같은 모양의 배열을 넣어 주세요."
        )
