"""최종 엔진의 뼈대: 변수(`Variable`), 함수(`Function`), 그리고 역전파(`backward`).

책의 DeZero(제2고지 끝)와 같은 설계이지만, 책의 코드가 무너지는 곳을 고쳤습니다.

- 역전파는 재귀 없이 반복문으로 돌고, 함수를 세대 순서대로 우선순위 큐(heapq)에서 꺼냅니다.
  책처럼 삽입할 때마다 정렬하지 않으므로, 가지가 많은 그래프에서도 느려지지 않습니다.
- 말단 변수에서 `backward()`를 불러도 됩니다(미분값이 1로 채워질 뿐입니다).
- 출력이 여럿인 함수에서 쓰이지 않은 출력이 이미 사라졌거나 미분값이 없으면 0으로 봅니다.
- 같은 `Function` 인스턴스를 두 번 호출하면, 두 번째 호출부터는 인스턴스의 얕은 복사본이
  새 노드가 됩니다. 첫 번째 그래프는 그대로 남습니다.
- 미분값을 누적할 때 다른 변수나 사용자의 배열과 같은 객체를 공유하지 않습니다.
- 잘못된 입력과 잘못된 모양의 미분값은 한국어 메시지와 함께 바로 거부합니다. 검사는 값을
  바꾸기 전에 하므로 그래프가 반쯤 갱신된 채 남지 않습니다.
- 역전파 활성 모드는 스레드마다 따로입니다(`config.py`).
- 역전파를 마치면 PyTorch처럼 그래프가 저장한 입력을 놓아 줍니다. 같은 그래프로 두 번
  역전파하려면 `backward(retain_graph=True)`를 씁니다(책의 엔진은 늘 그래프를 남깁니다).
"""

from __future__ import annotations

import copy
import weakref
from numbers import Number

import numpy as np

from .backprop import backpropagate
from .config import backprop_enabled

# 미분할 수 없는 dtype: 문자열, 바이트, 파이썬 객체, 구조체, 날짜/시간.
_REJECTED_KINDS = frozenset("OSUVMm")


def as_array(x: object) -> np.ndarray:
    """스칼라(파이썬 수, NumPy 스칼라)를 0차원 ndarray로 바꿉니다. ndarray는 그대로 돌려줍니다.

    NumPy 연산은 0차원 배열끼리 계산하면 `np.float64` 같은 스칼라를 돌려주므로,
    함수의 출력을 `Variable`에 담기 전에 이 함수로 다시 배열로 만듭니다.
    """
    if isinstance(x, np.ndarray):
        return x
    if np.isscalar(x):
        return np.array(x)
    return x  # type: ignore[return-value]


def _describe(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


class Variable:
    """데이터(`data`)와 그 미분값(`grad`)을 담는 상자이자 계산 그래프의 변수 노드입니다."""

    __slots__ = ("data", "name", "grad", "creator", "generation", "__weakref__")
    # ndarray가 왼쪽에 와도(`np.array(2.0) * x`) Variable의 연산자가 먼저 불리게 합니다.
    __array_priority__ = 200

    def __init__(self, data: np.ndarray | None, name: str | None = None) -> None:
        if data is not None:
            if not isinstance(data, np.ndarray):
                raise TypeError(
                    f"Variable에는 numpy.ndarray(또는 None)만 넣을 수 있습니다. "
                    f"받은 값: {type(data).__name__} {_describe(data)}. "
                    f"np.array(...)로 감싸서 넘겨 주세요."
                )
            if data.dtype.kind in _REJECTED_KINDS:
                raise TypeError(
                    f"Variable에는 수치형 배열만 넣을 수 있습니다. 받은 배열의 dtype: {data.dtype}. "
                    f"np.asarray(..., dtype=float)처럼 수치형으로 바꿔 주세요."
                )
        self.data = data
        self.name = name
        self.grad: np.ndarray | None = None
        self.creator: Function | None = None
        self.generation = 0

    # --- ndarray처럼 보이게 하는 편의 기능 -------------------------------------------
    @property
    def shape(self) -> tuple[int, ...]:
        return self.data.shape

    @property
    def ndim(self) -> int:
        return self.data.ndim

    @property
    def size(self) -> int:
        return self.data.size

    @property
    def dtype(self) -> np.dtype:
        return self.data.dtype

    def __len__(self) -> int:
        return len(self.data)

    def __repr__(self) -> str:
        if self.data is None:
            return "variable(None)"
        body = str(self.data).replace("\n", "\n" + " " * 9)
        return f"variable({body})"

    # --- 계산 그래프 ---------------------------------------------------------------
    def set_creator(self, func: Function) -> None:
        """이 변수를 만든 함수(창조자)를 기억하고, 세대를 창조자보다 하나 크게 둡니다."""
        self.creator = func
        self.generation = func.generation + 1

    def cleargrad(self) -> None:
        """미분값을 지웁니다. 같은 변수로 새 계산을 미분하기 전에 부릅니다."""
        self.grad = None

    def backward(self, retain_grad: bool = False, retain_graph: bool = False) -> None:
        """이 변수에서 시작해 계산 그래프를 거꾸로 따라가며 모든 입력의 미분값을 구합니다.

        - `retain_grad=False`(기본값): 창조자가 있는 변수(중간 변수와 이 변수 자신)의 미분값은
          쓰고 나서 지웁니다. 말단 변수의 미분값만 남습니다.
        - `retain_graph=False`(기본값): 역전파를 마친 함수는 입력을 놓아 줍니다. PyTorch처럼,
          출력 `y`를 쥐고 있어도 중간 결과의 메모리가 바로 풀립니다. 같은 그래프로 역전파를
          한 번 더 하려면 첫 번째 호출에 `retain_graph=True`를 주세요.

        알고리즘은 `backprop.py`에 있습니다.
        """
        backpropagate(self, retain_grad=retain_grad, retain_graph=retain_graph)


def as_variable(obj: object) -> Variable:
    """Variable은 그대로, ndarray와 파이썬/NumPy 수는 Variable로 감싸서 돌려줍니다."""
    if isinstance(obj, Variable):
        return obj
    if isinstance(obj, np.ndarray):
        return Variable(obj)
    if isinstance(obj, Number | np.generic) and not isinstance(obj, str):
        return Variable(np.asarray(obj))
    raise TypeError(
        f"Variable, numpy.ndarray 또는 수가 필요합니다. 받은 값: {type(obj).__name__} "
        f"{_describe(obj)}. 리스트라면 np.array(...)로 바꿔서 넘겨 주세요."
    )


class Function:
    """함수 노드의 기반 클래스. 하위 클래스는 `forward`와 `backward`를 ndarray로 구현합니다.

    호출하면 입력을 `Variable`로 맞추고, `forward`를 계산하고, 역전파 활성 모드라면
    입력과 출력(약한 참조)을 기억해 계산 그래프에 연결합니다.
    """

    inputs: list[Variable] | None = None
    outputs: list[weakref.ref] | None = None
    generation = 0
    # 출력이 여럿일 때 사라진 출력의 미분값을 0으로 채우기 위한 (모양, dtype) 목록.
    output_specs: list[tuple[tuple[int, ...], np.dtype]] | None = None
    # 이 인스턴스가 이미 그래프의 노드가 되었는지. 그렇다면 다음 호출은 복사본을 씁니다.
    in_graph = False
    # 역전파가 backward의 결과(개수와 모양)를 검사할지. 사용자가 만든 함수는 늘 검사합니다.
    # 라이브러리의 함수(functions.py)는 테스트로 모양을 보장하므로 검사를 건너뜁니다.
    checks_backward = True

    def __call__(self, *inputs: object) -> Variable | list[Variable]:
        variables = [x if type(x) is Variable else as_variable(x) for x in inputs]
        # 이미 그래프에 들어간 인스턴스를 다시 부르면 첫 그래프를 지키기 위해 복사본을 씁니다.
        node = copy.copy(self) if self.in_graph else self
        try:
            # 입력이 한두 개인 흔한 경우는 리스트를 만들지 않고 바로 넘깁니다(속도).
            if len(variables) == 2:
                ys = node.forward(variables[0].data, variables[1].data)
            elif len(variables) == 1:
                ys = node.forward(variables[0].data)
            else:
                ys = node.forward(*[x.data for x in variables])
        except ValueError as error:
            # NumPy의 영어 오류(예: 브로드캐스트할 수 없는 모양)에 무엇을 받았는지 덧붙입니다.
            shapes = ", ".join(str(x.data.shape) for x in variables)
            raise ValueError(
                f"{type(self).__name__}의 순전파를 계산할 수 없습니다. 입력의 모양: {shapes}. "
                f"모양이 같거나 브로드캐스트할 수 있는 입력을 넣어 주세요. (NumPy: {error})"
            ) from error
        if type(ys) is tuple:
            outputs = [wrap_array(y) for y in ys]
        else:
            outputs = [wrap_array(ys)]

        if backprop_enabled():
            generation = 0
            for x in variables:
                if x.generation > generation:
                    generation = x.generation
            node.generation = generation
            for output in outputs:
                output.creator = node
                output.generation = generation + 1
            node.inputs = variables
            node.in_graph = True
            if len(outputs) == 1:
                node.outputs = [weakref.ref(outputs[0])]
            else:
                node.outputs = [weakref.ref(output) for output in outputs]
                node.output_specs = [(y.data.shape, y.data.dtype) for y in outputs]
        return outputs[0] if len(outputs) == 1 else outputs

    def forward(self, *xs: np.ndarray) -> np.ndarray | tuple[np.ndarray, ...]:
        raise NotImplementedError(f"{type(self).__name__}.forward를 구현해야 합니다.")

    def backward(self, *gys: np.ndarray) -> np.ndarray | tuple[np.ndarray | None, ...]:
        raise NotImplementedError(f"{type(self).__name__}.backward를 구현해야 합니다.")


def wrap_array(y: object) -> Variable:
    """엔진이 만든 수치 배열을 검사 없이 빠르게 Variable로 감쌉니다(함수의 출력, 상수).

    0차원 연산이 돌려준 NumPy 스칼라는 배열로 바꿉니다. 사용자의 입력은 검사하는
    `Variable(...)`이나 `as_variable`로 받습니다.
    """
    if type(y) is not np.ndarray:
        y = np.array(y) if isinstance(y, np.generic) else as_array(y)
        if not isinstance(y, np.ndarray):
            raise TypeError(
                f"forward는 numpy.ndarray를 돌려주어야 합니다. 받은 값: {type(y).__name__}."
            )
    output = Variable.__new__(Variable)
    output.data = y
    output.name = None
    output.grad = None
    output.creator = None
    output.generation = 0
    return output
