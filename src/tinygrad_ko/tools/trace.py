"""역전파를 한 걸음씩 들여다봅니다: 함수마다 backward가 불리는 순간의 상태를 기록합니다.

최종 엔진(`tinygrad_ko`)은 역전파를 지켜보는 곳을 스스로 내놓습니다(`tinygrad_ko.autograd.observe_backward`).
여기서는 그 알림을 받아 적기만 하고, 엔진의 코드나 지역 변수는 건드리지 않습니다. 기다리는 함수는 힙(`heap`)에
든 것들입니다.

책의 단계를 옮긴 엔진(`tinygrad_ko.steps`)에는 그런 곳이 없습니다. 그래서 그래프 안의 함수 객체마다
`backward`를 "기록하고 원래 backward를 부르는" 함수로 잠시 바꿔 끼우고(역전파가 끝나면, 예외가 나도
되돌립니다), 기록하는 순간에 그 함수를 부른 쪽(그 단계의 역전파 코드)의 지역 변수를 읽어 기다리는 함수들을
알아냅니다.

- 8단계 이후의 반복문: 지역 변수 `funcs`(스택, 또는 세대 순으로 정렬한 리스트)
- 7단계의 재귀: 기다리는 목록이 따로 없고, 파이썬의 호출 스택에 쌓인 `Variable.backward` 호출들

`backward_frames`는 이 기록으로 mermaid 그림을 한 장씩 만듭니다. 그림마다 방금 꺼낸 함수를 강조하고,
이미 처리한 함수를 흐리게 칠하며, 그때까지 채워진 미분값과 기다리는 목록(또는 호출 스택)을 보여 줍니다.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass, field

from ..autograd import BackwardStep, Variable, observe_backward
from .viz import is_variable_node, live_outputs, mermaid_text, node_name, nodes, to_mermaid

__all__ = ["Step", "backward_frames", "describe_function", "traced_backward"]


@dataclass
class Step:
    """함수 하나의 backward가 불리기 직전의 상태입니다.

    - func: 지금 역전파하는 함수 객체
    - kind: 기다리는 목록의 종류. "funcs"(반복문의 리스트), "heap"(우선순위 큐), "stack"(재귀의 호출 스택)
    - pending: "funcs"와 "heap"이면 기다리는 함수들을 **다음에 꺼낼 것부터**, "stack"이면
      호출 스택에 쌓인 `backward` 호출의 변수들을 **가장 최근 것부터** 담습니다.
    """

    func: object
    kind: str
    pending: list[object]
    # 최종 엔진: 이미 도착했지만 아직 변수의 grad가 아니라 창조자의 칸(`pending`)에 있는 미분값.
    arrived: list[tuple[object, object]] = field(default_factory=list)


def traced_backward(output: object, on_call: Callable[[Step], None], **backward_kwargs) -> None:
    """`output.backward(**backward_kwargs)`를 부르면서, 함수의 backward가 불릴 때마다 `on_call`을 부릅니다."""
    if isinstance(output, Variable):  # 최종 엔진: 엔진이 내놓은 관찰 지점으로
        with observe_backward(lambda step: on_call(_step_of_final_engine(step))):
            output.backward(**backward_kwargs)
        return
    functions = [node for node in nodes(output) if not is_variable_node(node)]
    try:
        for func in functions:
            func.backward = _recorder(func, func.backward, on_call)
        output.backward(**backward_kwargs)
    finally:
        for func in functions:
            func.__dict__.pop("backward", None)  # 클래스의 backward가 다시 보이게 합니다.


def backward_frames(output: object, **backward_kwargs) -> list[str]:
    """역전파를 함수 하나씩 멈춰 그린 mermaid 그림들. 마지막 그림은 역전파가 끝난 뒤입니다.

    그림을 그리려면 역전파하는 동안 그래프가 남아 있어야 합니다. 최종 엔진은
    `retain_graph=True`(그리고 중간 미분값까지 보려면 `retain_grad=True`)로 부르세요.
    """
    frames: list[str] = []
    done: list[object] = []
    kind = "funcs"

    def on_call(step: Step) -> None:
        nonlocal kind
        kind = step.kind
        title = f"{len(frames) + 1}. {describe_function(step.func)} 처리"
        frames.append(_frame(output, title, step, highlight=[step.func], fade=done))
        done.append(step.func)

    traced_backward(output, on_call, **backward_kwargs)
    last = Step(func=None, kind=kind, pending=[])
    frames.append(_frame(output, f"{len(frames) + 1}. 끝", last, highlight=[], fade=done))
    return frames


# --- 기록 장치 ---------------------------------------------------------------------------


def _step_of_final_engine(step: BackwardStep) -> Step:
    return Step(step.func, "heap", step.waiting, _arrived(step.arrived))


def _recorder(func: object, original: Callable, on_call: Callable[[Step], None]) -> Callable:
    def recorded(*gys):
        caller = sys._getframe(1)  # 이 backward를 부른 단계 엔진의 코드
        on_call(_step_from(func, caller))
        return original(*gys)

    return recorded


def _step_from(func: object, caller) -> Step:
    """단계 엔진의 상태: 부른 쪽의 지역 변수 `funcs`, 없으면(7단계의 재귀) 호출 스택."""
    local = caller.f_locals
    if "funcs" in local:
        return Step(func, "funcs", list(reversed(local["funcs"])))  # pop()은 끝에서 꺼냅니다.
    stack = []
    frame = caller
    while frame is not None:  # 재귀: 끝나지 않은 Variable.backward 호출들
        owner = frame.f_locals.get("self")
        if frame.f_code.co_name == "backward" and is_variable_node(owner):
            stack.append(owner)
        frame = frame.f_back
    return Step(func, "stack", stack)


def _arrived(arrived: tuple) -> list[tuple[object, object]]:
    """최종 엔진의 칸들((함수, 출력마다 모은 미분값))에서 (살아 있는 출력 변수, 미분값)."""
    found = []
    for func, slots in arrived:
        for ref, grad in zip(func.outputs, slots, strict=True):
            variable = ref()
            if variable is not None and grad is not None:
                found.append((variable, grad))
    return found


# --- 그림 -------------------------------------------------------------------------------

_PENDING_TITLE = {
    "funcs": "funcs: 위가 다음 차례",
    "heap": "힙: 위가 다음 차례",
    "stack": "호출 스택: 위가 가장 최근",
}


def _frame(output, title, step: Step, highlight, fade) -> str:
    # 창조자의 칸에서 기다리는 미분값도 그 변수에 도착한 것으로 그립니다(그리는 동안만 grad에 둡니다).
    before = [(variable, variable.grad) for variable, _ in step.arrived]
    try:
        for variable, grad in step.arrived:
            variable.grad = grad
        graph = to_mermaid(output, show_grad=True, highlight=highlight, fade=fade)
    finally:
        for variable, grad in before:
            variable.grad = grad
    body = graph.removeprefix("flowchart LR\n")
    if step.kind == "stack":
        items = [f"{_variable_name(v)}.backward()" for v in step.pending]
    else:
        items = [describe_function(f) + _generation(f) for f in step.pending]
    lines = [
        "---",
        f"title: {title}",
        "---",
        "flowchart LR",
        body,
        f'    subgraph pending["{_PENDING_TITLE[step.kind]}"]',
    ]
    text = "<br>".join(mermaid_text(item) for item in items) or "(비어 있음)"
    lines += [f'        pending_items["{text}"]', "    end"]
    return "\n".join(lines)


def describe_function(func: object) -> str:
    """`Square → b`처럼 함수의 클래스 이름과 (이름이 있으면) 출력 변수의 이름."""
    names = []
    for out in live_outputs(func):
        name = node_name(out)
        if name:
            names.append(name)
    arrow = f" → {', '.join(names)}" if names else ""
    return f"{type(func).__name__}{arrow}"


def _generation(func: object) -> str:
    """세대를 매기는 단계(16단계 이후)라면 기다리는 함수 옆에 세대를 적습니다."""
    generation = getattr(func, "generation", None)
    return "" if generation is None else f" · {generation}세대"


def _variable_name(var: object) -> str:
    return node_name(var) or "(이름 없는 변수)"
