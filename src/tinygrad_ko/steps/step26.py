"""25~26단계: 계산 그래프를 DOT 언어로 적어 그림으로 볼 수 있게 합니다.

엔진은 24단계(곧 22단계) 것을 그대로 씁니다. 25단계는 그래프를 그리는 도구 Graphviz와 그 입력
형식인 DOT 언어를 배우는 단계라 코드가 없고, 26단계가 엔진의 그래프를 DOT 텍스트로 바꾸는
``get_dot_graph``를 더합니다.

- ``get_dot_graph(output, verbose=True)``: 출력 변수에서 창조자를 거꾸로 따라가며 만나는 변수와
  함수를 DOT의 노드로, 값이 흐르는 방향을 간선으로 적습니다. 변수는 주황색 타원, 함수는 하늘색
  상자입니다. ``verbose=True``이면 변수의 이름 옆에 모양과 dtype도 적습니다.
- 그래프를 따라가는 방법은 역전파와 같습니다(함수 목록과 이미 본 함수의 집합). 다만 그려지는
  노드와 간선은 순서와 상관없으므로 세대 순으로 정렬하지 않습니다.

이 텍스트를 파일로 저장해 Graphviz의 ``dot`` 명령(``dot graph.dot -T png -o graph.png``)에 넘기면
그림이 됩니다.

한계: 노드의 이름으로 객체의 주소(``id``)를 쓰므로 같은 계산을 다시 해도 텍스트가 같다는 보장이 없습니다.
같은 변수를 두 번 입력으로 쓰면 그 변수의 노드 줄도 두 번 적힙니다(DOT은 같은 이름을 한 노드로
합치므로 그림은 같습니다). 엔진은 22단계와 같습니다.
"""

from . import step24 as _previous
from .step24 import *  # noqa: F403

__all__ = [*_previous.__all__, "get_dot_graph"]


# --8<-- [start:get_dot_graph]
def _dot_var(v, verbose=False):
    """변수 하나를 DOT의 노드 한 줄로 적습니다. 라벨은 이름(없으면 빈칸)입니다."""
    label = "" if v.name is None else v.name
    if verbose and v.data is not None:
        if v.name is not None:
            label += ": "
        label += f"{v.shape} {v.dtype}"
    return f'{id(v)} [label="{label}", color=orange, style=filled]\n'


def _dot_func(f):
    """함수 하나를 DOT의 노드 한 줄과, 입력 → 함수 → 출력의 간선들로 적습니다."""
    text = f'{id(f)} [label="{type(f).__name__}", color=lightblue, style=filled, shape=box]\n'
    for x in f.inputs:
        text += f"{id(x)} -> {id(f)}\n"
    for y in f.outputs:  # 출력은 약한 참조이므로 불러서 변수를 꺼냅니다.
        text += f"{id(f)} -> {id(y())}\n"
    return text


def get_dot_graph(output, verbose=True):
    """``output``에서 거슬러 닿는 계산 그래프 전체를 DOT 텍스트로 돌려줍니다."""
    text = _dot_var(output, verbose)
    funcs = []
    seen_set = set()

    def add_func(f):
        if f not in seen_set:
            funcs.append(f)
            seen_set.add(f)  # 그려지는 노드와 간선은 순서와 상관없어 정렬하지 않습니다.

    add_func(output.creator)
    while funcs:
        func = funcs.pop()
        text += _dot_func(func)
        for x in func.inputs:
            text += _dot_var(x, verbose)
            if x.creator is not None:
                add_func(x.creator)
    return "digraph g {\n" + text + "}"


# --8<-- [end:get_dot_graph]
