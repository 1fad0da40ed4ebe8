"""변수(`Variable`): 데이터와 미분값을 담는 상자이자 계산 그래프의 변수 노드. 1~15장(책의 1~24단계)에서 만든 것입니다.

책의 `Variable`과 다른 점:

- `requires_grad`: 사용자가 만든 변수는 미분이 필요하고, 연산이 감싼 상수는 필요 없습니다. 미분이
  필요한 변수는 실수(float) 배열만 받습니다(정수와 bool의 미분값은 넘치거나 잘립니다. PyTorch와 같음).
- `version`: 라이브러리가 data를 제자리에서 고칠 때마다(옵티마이저의 `step`) 하나씩
  늘어납니다. 역전파는 붙잡아 둔 입력의 버전이 순전파 때와 같은지 보고, 다르면 멈춥니다(PyTorch와 같음).
  뷰(`W.T`, `reshape`, 인덱싱, `broadcast_to`)와 `detach()`는 원본과 같은 메모리를 쓰므로 버전도 함께
  씁니다(`VersionCounter`): 원본을 고치면 뷰를 붙잡은 그래프도 멈춥니다(PyTorch와 같음).
- `backward`는 `backprop.py`의 알고리즘을 부릅니다.

세 모듈은 한 방향으로 가져옵니다: `function`은 이 모듈을, `backprop`은 둘 다를 가져옵니다. 거꾸로 가는 곳은
하나뿐입니다. `Variable.backward`가 부를 때 `backprop`을 가져옵니다(역전파 알고리즘이 변수와 함수를 읽으므로).
"""

from __future__ import annotations

import copy
import threading
from numbers import Number
from typing import TYPE_CHECKING

import numpy as np

from . import messages

if TYPE_CHECKING:
    from .function import Function


class VersionCounter:
    """data를 함께 쓰는 변수들(원본, 그 뷰, detach한 변수)이 함께 보는 버전 번호(PyTorch의 version counter)."""

    __slots__ = ("value",)

    def __init__(self) -> None:
        self.value = 0


def as_array(x: object) -> np.ndarray:
    """ndarray는 그대로, 그 밖의 수(파이썬 수, NumPy 스칼라)는 0차원 ndarray로 바꿔 돌려줍니다.

    NumPy 연산은 0차원 배열끼리 계산하면 `np.float64` 같은 스칼라를 돌려주므로,
    함수의 출력을 `Variable`에 담기 전에 이 함수로 다시 배열로 만듭니다.
    """
    if isinstance(x, np.ndarray):
        return x
    return np.asarray(x)


class Variable:
    """데이터(`data`)와 그 미분값(`grad`)을 담는 상자이자 계산 그래프의 변수 노드입니다.

    `requires_grad=False`로 만든 변수는 상수로 다룹니다: 역전파가 그 미분값을 구하지 않습니다.
    미분이 필요한 변수(기본값)의 데이터는 실수(float16/32/64) 배열이어야 합니다. 미분값(`grad`)은
    변수와 같은 dtype입니다: float32 변수를 float64 상수와 계산해도 `grad`는 float32입니다.

    `pickle`과 `copy.copy`는 값(data, name, requires_grad)만 담은 말단 변수를 만듭니다(PyTorch와 같음).
    `copy.deepcopy`는 말단 변수만 됩니다. 계산 그래프의 중간 변수는 거부합니다(PyTorch와 같음).
    """

    __slots__ = (
        "data",
        "name",
        "grad",
        "creator",
        "generation",
        "requires_grad",
        "version_counter",
        "__weakref__",
    )
    # ndarray가 왼쪽에 와도(`np.array(2.0) * x`) Variable의 연산자가 먼저 불리게 합니다.
    __array_priority__ = 200

    def __init__(
        self, data: np.ndarray | None, name: str | None = None, requires_grad: bool = True
    ) -> None:
        if data is not None and not isinstance(data, np.ndarray):
            raise messages.not_an_array(data)
        if data is not None and data.dtype.kind in messages.REJECTED_KINDS:
            raise messages.not_numeric(data.dtype)
        if type(requires_grad) is not bool:
            raise messages.not_bool("requires_grad", requires_grad)
        if requires_grad and data is not None and data.dtype.kind != "f":
            raise messages.not_differentiable(data.dtype)
        self.data = data
        self.name = name
        self.grad: np.ndarray | Variable | None = None
        self.creator: Function | None = None
        self.generation = 0
        self.requires_grad = requires_grad
        # 버전 번호를 담는 상자. 처음 고치거나 뷰를 만들 때 생깁니다(변수마다 객체를 하나 더 만들지 않게).
        self.version_counter: VersionCounter | None = None

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

    @property
    def version(self) -> int:
        """라이브러리가 data를 제자리에서 고친 횟수. 뷰와 detach한 변수는 원본과 같은 수를 봅니다."""
        counter = self.version_counter
        return 0 if counter is None else counter.value

    def __len__(self) -> int:
        if self.data is None or self.data.ndim == 0:
            raise messages.no_length(self)
        return len(self.data)

    def __bool__(self) -> bool:
        """원소가 하나인 변수만 참/거짓이 정해집니다(PyTorch, NumPy와 같음)."""
        if self.data is None or self.data.size != 1:
            raise messages.no_truth_value(self.data)
        return bool(self.data)

    def __repr__(self) -> str:
        if not hasattr(self, "data"):  # 생성자가 값을 넣기 전에 예외를 낸 객체(디버거가 보여 줄 때)
            return "variable(<값을 넣기 전>)"
        if self.data is None:
            return "variable(None)"
        body = str(self.data).replace("\n", "\n" + " " * 9)
        return f"variable({body})"

    # --- 복사와 pickle: 값만 담은 말단 변수(PyTorch와 같음) ------------------------------------
    def __reduce__(self) -> tuple:
        """pickle과 copy.copy: 그래프(창조자)와 미분값 없이 값만 담은 말단 변수가 됩니다.

        창조자를 따라 그래프 전체를 담으면 약한 참조(weakref) 때문에 실패하고, 깊은 그래프에서는
        RecursionError가 납니다. PyTorch도 값과 requires_grad만 담습니다. 하위 클래스(Parameter)는
        하위 클래스 그대로 돌아옵니다.
        """
        return (type(self), (self.data, self.name, self.requires_grad))

    def __deepcopy__(self, memo: dict) -> Variable:
        if self.creator is not None:
            raise messages.deepcopy_intermediate(self.creator)
        new = type(self)(copy.deepcopy(self.data, memo), self.name, self.requires_grad)
        if type(self) is Variable:  # 복사한 Parameter는 미분값 없이 시작합니다(PyTorch와 같음).
            new.grad = copy.deepcopy(self.grad, memo)
        memo[id(self)] = new
        return new

    # --- 계산 그래프 ---------------------------------------------------------------
    def set_creator(self, func: Function) -> None:
        """이 변수를 만든 함수(창조자)를 기억하고, 세대를 창조자보다 하나 크게 둡니다.

        최종 엔진에서는 함수를 호출할 때 엔진이 창조자를 정합니다. 책의 7단계처럼 손으로 이으면
        함수가 입력을 모르므로, 호출해서 이 변수를 출력으로 낸 함수만 받습니다.
        """
        outputs = getattr(func, "outputs", None)
        if outputs is None or all(ref() is not self for ref in outputs):
            raise messages.hand_wired(func)
        self.creator = func
        self.generation = func.generation + 1

    def cleargrad(self) -> None:
        """미분값을 지웁니다. 같은 변수로 새 계산을 미분하기 전에 부릅니다."""
        self.grad = None

    # --8<-- [start:unchain]
    def unchain(self) -> None:
        """창조자와의 연결을 끊어 이 변수를 말단 변수로 만듭니다(DeZero). 미분은 계속 받습니다."""
        self.creator = None

    def unchain_backward(self) -> None:
        """이 변수보다 입력 쪽의 그래프를 끊어 놓아 줍니다(DeZero, 잘린 역전파). 이 변수는 그대로입니다.

        살아 있는 중간 변수는 모두 말단 변수가 되고(`unchain`), 이미 사라진 중간 변수의 자리는 미분이
        필요 없는 상수가 됩니다. 그러면 그 앞의 함수들을 가리키는 것이 없어져 메모리에서 풀립니다.
        `backward()`가 이미 놓아 준 그래프(retain_graph=False)는 따라갈 수 없으므로, 이 변수의 창조자가
        놓아 준 함수이면 RuntimeError로 알립니다(그대로 두면 다음 역전파에서야 실패합니다).
        """
        if self.creator is not None and self.creator.edges is None:
            raise messages.unchain_released(self.creator)

        stack = [] if self.creator is None else [self.creator]
        while stack:
            func = stack.pop()
            if func.edges is None:  # 역전파가 이미 놓아 준 함수: 입력 쪽을 모릅니다.
                continue
            needs = list(func.needs_input_grad)
            for i, edge in enumerate(func.edges):
                if isinstance(edge, tuple):  # 붙잡지 않은 중간 변수: (창조자, 출력 번호)
                    creator, x = edge[0], edge[0].outputs[edge[1]]()
                elif isinstance(edge, Variable) and edge.creator is not None:
                    creator, x = edge.creator, edge
                else:  # 말단 변수, 상수, 이미 끊은 자리
                    continue
                stack.append(creator)
                if x is not None:
                    x.unchain()
                    func.edges[i] = x
                else:  # 사라진 중간 변수: 미분값을 받을 곳이 없으니 상수 자리로 둡니다.
                    func.edges[i], needs[i] = constant(np.zeros(0)), False
            func.needs_input_grad = tuple(needs)

    def detach(self) -> Variable:
        """같은 data를 나눠 쓰는(복사하지 않는) 새 말단 변수, 미분은 필요 없음(PyTorch의 detach).

        data를 함께 쓰므로 버전도 함께 씁니다: 원본을 고치면 detach한 변수를 붙잡은 그래프도 멈춥니다.
        """
        detached = Variable(self.data, requires_grad=False)
        share_version(detached, self)
        return detached

    # --8<-- [end:unchain]

    def backward(
        self,
        retain_grad: bool = False,
        retain_graph: bool | None = None,
        create_graph: bool = False,
        *,
        gradient: np.ndarray | Variable | None = None,
    ) -> None:
        """이 변수에서 시작해 계산 그래프를 거꾸로 따라가며 입력들의 미분값을 구합니다.

        - `retain_grad=False`(기본값): 말단 변수의 미분값만 남깁니다. True이면 중간 변수와 이
          변수 자신의 미분값도 남깁니다. 남긴 미분값도 말단 변수처럼 호출마다 더해집니다.
        - `retain_graph`: False이면 역전파가 끝난 뒤 함수들이 붙잡아 둔 입력을 놓아 줍니다. 같은
          그래프로 역전파를 한 번 더 하려면 True를 주세요. 주지 않으면 `create_graph`와 같습니다.
        - `create_graph=True`: 역전파의 계산도 그래프로 기록합니다. 미분값이 `Variable`이 되므로
          `x.grad.backward()`로 2계 미분을 구할 수 있습니다.
        - `gradient`: 시작 미분값(이 변수와 같은 모양). 주지 않으면 1입니다. `create_graph=True`이고
          Variable을 주면 그 그래프도 이어집니다(PyTorch와 같음). 이 변수의 `grad`에 미리 넣어 둔 값은
          시작값으로 쓰지 않습니다(책의 7단계 방식은 `tinygrad_ko.steps`의 엔진에서 씁니다).

        역전파는 전부 아니면 전무입니다: 도중에 예외가 나면 어느 변수의 `grad`도 바뀌지 않고 그래프도
        놓아 주지 않으므로, 원인을 고쳐 다시 부를 수 있습니다.
        """
        for where, flag in (("retain_grad", retain_grad), ("create_graph", create_graph)):
            if type(flag) is not bool:
                raise messages.not_bool(f"backward의 {where}", flag, _gradient_hint(flag))
        if retain_graph is None:
            retain_graph = create_graph
        elif type(retain_graph) is not bool:
            raise messages.not_bool("backward의 retain_graph", retain_graph)
        # 세 모듈 사이에서 거꾸로 가져오는 단 한 곳(모듈 설명): backprop이 이 모듈을 가져오므로 부를 때 가져옵니다.
        from .backprop import backpropagate

        backpropagate(self, retain_grad, retain_graph, create_graph, gradient)


def _gradient_hint(flag: object) -> str:
    if isinstance(flag, np.ndarray | Variable):
        return " 시작 미분값을 주려던 것이라면 backward(gradient=...)로 넘겨 주세요."
    return ""


# --8<-- [start:parameter]
class Parameter(Variable):
    """학습으로 고칠 값(가중치, 편향)을 담는 변수. 계산과 미분은 Variable과 똑같습니다.

    다른 점은 타입, 출력할 때의 이름(parameter), 그리고 깊은 복사가 미분값을 버리는 것입니다(PyTorch의
    nn.Parameter와 같음). 층(`Layer`)이 속성 가운데 Parameter인 것만 골라 모으므로,
    입력이나 중간 결과를 속성에 담아 두어도 매개변수로 잘못 세지 않습니다.
    """

    __slots__ = ()

    def __repr__(self) -> str:
        return "parameter" + super().__repr__()[len("variable") :]


# --8<-- [end:parameter]


def constant(data: object) -> Variable:
    """미분하지 않는 상수 변수를 만듭니다(엔진 안에서, 수치 데이터에만 씁니다)."""
    return Variable(as_array(data), requires_grad=False)


def as_variable(obj: object) -> Variable:
    """Variable은 그대로, ndarray와 파이썬/NumPy 수는 Variable로 감싸서 돌려줍니다."""
    if isinstance(obj, Variable):
        return obj
    if isinstance(obj, np.ndarray):
        return Variable(obj)
    if isinstance(obj, Number | np.generic) and not isinstance(obj, str):
        return Variable(np.asarray(obj))
    if type(obj).__name__ == "Variable" and hasattr(obj, "data"):
        raise messages.foreign_variable(obj)
    raise messages.not_a_value(obj)


def mark_modified(x: Variable) -> None:
    """라이브러리가 x.data를 제자리에서 고친 뒤 부릅니다. 그 값을 붙잡은 그래프의 역전파가 멈춥니다."""
    _counter_of(x).value += 1


def share_version(view: Variable, source: Variable) -> None:
    """view의 data가 source의 data와 같은 메모리입니다(뷰, detach): 두 변수가 버전 번호 하나를 봅니다."""
    view.version_counter = _counter_of(source)


def _counter_of(x: Variable) -> VersionCounter:
    counter = x.version_counter
    if counter is None:
        with (
            _counter_lock
        ):  # 두 스레드가 함께 처음 상자를 만들면 하나만 남게(뷰가 다른 상자를 보지 않게)
            if x.version_counter is None:
                x.version_counter = VersionCounter()
            counter = x.version_counter
    return counter


_counter_lock = threading.Lock()
