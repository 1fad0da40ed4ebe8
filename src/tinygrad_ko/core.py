"""최종 엔진의 뼈대: 변수(`Variable`)와 함수(`Function`). 역전파 알고리즘은 `backprop.py`에 있습니다.

책의 DeZero(제2고지 끝)와 같은 설계이지만, 책의 코드가 무너지는 곳을 고치고 PyTorch처럼
필요한 일만 합니다.

- 미분이 필요한지(`requires_grad`): 사용자가 만든 변수는 미분이 필요하고, 연산자가 파이썬 수나
  배열을 감싼 상수는 필요 없습니다. 미분이 필요한 입력이 하나도 없으면 그래프를 기록하지 않고,
  함수는 `needs_input_grad`를 보고 필요 없는 입력의 미분을 계산하지 않습니다.
- 역전파에 필요한 것만 붙잡기(`keep`): 함수는 역전파에 쓸 입력만 붙잡습니다. 나머지 중간 변수는
  (창조자, 출력 번호)만 기억하므로, 사용자가 놓으면 그 데이터가 바로 풀립니다. `y = y * c + d`
  사슬에서 중간 결과가 쌓이지 않습니다. 사용자가 만든 함수는 책처럼 모든 입력을 붙잡습니다.
- 역전파는 재귀 없이 세대 순서의 우선순위 큐(heapq)로 돕니다(`backprop.py`).
- 역전파도 계산 그래프로 기록할 수 있습니다(`backward(create_graph=True)`): 그러면 미분값이
  `Variable`이 되어 한 번 더 미분할 수 있습니다(고계 미분).
- 같은 `Function` 인스턴스를 두 번 호출하면 두 번째 호출부터는 얕은 복사본이 새 노드가 됩니다.
- 잘못된 입력과 잘못된 모양의 미분값은 한국어 메시지와 함께 바로 거부합니다.
- 역전파 활성 모드는 스레드마다 따로입니다(`config.py`).
"""

from __future__ import annotations

import copy
import weakref
from numbers import Number

import numpy as np

from .backprop import backpropagate, output_index
from .config import backprop_enabled

# 미분할 수 없는 dtype: 문자열, 바이트, 파이썬 객체, 구조체, 날짜/시간.
_REJECTED_KINDS = frozenset("OSUVMm")
# 연산자가 파이썬 수를 바꾼 상수의 타입. 검사 없이 받아도 되므로 빠른 길로 보냅니다.
_FLOAT_SCALARS = frozenset({np.float16, np.float32, np.float64, np.longdouble})


def as_array(x: object) -> np.ndarray:
    """ndarray는 그대로, 그 밖의 수(파이썬 수, NumPy 스칼라)는 0차원 ndarray로 바꿔 돌려줍니다.

    NumPy 연산은 0차원 배열끼리 계산하면 `np.float64` 같은 스칼라를 돌려주므로,
    함수의 출력을 `Variable`에 담기 전에 이 함수로 다시 배열로 만듭니다.
    """
    if isinstance(x, np.ndarray):
        return x
    return np.asarray(x)


def describe(value: object) -> str:
    """오류 메시지에 넣을 값의 짧은 표현: 타입 이름과 60자 이하의 repr."""
    text = repr(value)
    if len(text) > 60:
        text = text[:57] + "..."
    return f"{type(value).__name__} {text}"


class Variable:
    """데이터(`data`)와 그 미분값(`grad`)을 담는 상자이자 계산 그래프의 변수 노드입니다.

    `requires_grad=False`로 만든 변수는 상수로 다룹니다: 역전파가 그 미분값을 구하지 않습니다.
    """

    __slots__ = ("data", "name", "grad", "creator", "generation", "requires_grad", "__weakref__")
    # ndarray가 왼쪽에 와도(`np.array(2.0) * x`) Variable의 연산자가 먼저 불리게 합니다.
    __array_priority__ = 200

    def __init__(
        self, data: np.ndarray | None, name: str | None = None, requires_grad: bool = True
    ) -> None:
        if data is not None:
            if not isinstance(data, np.ndarray):
                raise TypeError(
                    f"Variable에는 numpy.ndarray(또는 None)만 넣을 수 있습니다. "
                    f"받은 값: {describe(data)}. np.array(...)로 감싸서 넘겨 주세요."
                )
            if data.dtype.kind in _REJECTED_KINDS:
                raise TypeError(
                    f"Variable에는 수치형 배열만 넣을 수 있습니다. 받은 배열의 dtype: {data.dtype}. "
                    f"np.asarray(..., dtype=float)처럼 수치형으로 바꿔 주세요."
                )
        if type(requires_grad) is not bool:
            raise TypeError(
                f"requires_grad에는 True나 False를 넣어 주세요. 받은 값: {describe(requires_grad)}."
            )
        self.data = data
        self.name = name
        self.grad: np.ndarray | Variable | None = None
        self.creator: Function | None = None
        self.generation = 0
        self.requires_grad = requires_grad

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

    def backward(
        self,
        retain_grad: bool = False,
        retain_graph: bool | None = None,
        create_graph: bool = False,
    ) -> None:
        """이 변수에서 시작해 계산 그래프를 거꾸로 따라가며 입력들의 미분값을 구합니다.

        - `retain_grad=False`(기본값): 말단 변수의 미분값만 남깁니다. True이면 중간 변수와 이
          변수 자신의 미분값도 남깁니다.
        - `retain_graph`: False이면 역전파를 마친 함수가 붙잡아 둔 입력을 놓아 줍니다. 같은
          그래프로 역전파를 한 번 더 하려면 True를 주세요. 주지 않으면 `create_graph`와 같습니다.
        - `create_graph=True`: 역전파의 계산도 그래프로 기록합니다. 미분값이 `Variable`이 되므로
          `x.grad.backward()`로 2계 미분을 구할 수 있습니다.

        알고리즘은 `backprop.py`에 있습니다.
        """
        if retain_graph is None:
            retain_graph = create_graph
        backpropagate(self, retain_grad, retain_graph, create_graph)


# --8<-- [start:parameter]
class Parameter(Variable):
    """학습으로 고칠 값(가중치, 편향)을 담는 변수. 하는 일은 Variable과 똑같습니다.

    다른 점은 타입 하나뿐입니다. 층(`Layer`)이 속성 가운데 Parameter인 것만 골라 모으므로,
    입력이나 중간 결과를 속성에 담아 두어도 매개변수로 잘못 세지 않습니다.
    """

    __slots__ = ()

    def __repr__(self) -> str:
        return "parameter" + super().__repr__()[len("variable") :]
        # --8<-- [end:parameter]


def as_variable(obj: object) -> Variable:
    """Variable은 그대로, ndarray와 파이썬/NumPy 수는 Variable로 감싸서 돌려줍니다."""
    if isinstance(obj, Variable):
        return obj
    if isinstance(obj, np.ndarray):
        return Variable(obj)
    if isinstance(obj, Number | np.generic) and not isinstance(obj, str):
        return Variable(np.asarray(obj))
    raise TypeError(
        f"Variable, numpy.ndarray 또는 수가 필요합니다. 받은 값: {describe(obj)}. "
        f"리스트라면 np.array(...)로 바꿔서 넘겨 주세요."
    )


class Function:
    """함수 노드의 기반 클래스. 하위 클래스는 `forward`와 `backward`를 구현합니다.

    호출하면 입력의 데이터로 `forward`를 계산합니다. Variable이 아닌 입력(ndarray, 파이썬 수)은
    미분하지 않는 상수입니다. 역전파 활성 모드이고 미분이 필요한 입력이 있으면 출력의 창조자가
    되어 계산 그래프에 들어갑니다. 이때 `keep(needs)`가 고른 입력만 붙잡고, 나머지 중간 변수는
    (창조자, 출력 번호)로만 기억합니다.

    `backward`는 보통 ndarray로, `create_graph=True`일 때는 Variable로 불립니다. 라이브러리의
    함수는 두 경우에 같은 식이 맞도록 `self.saved()`로 붙잡은 입력을 꺼냅니다.
    """

    generation = 0
    # 입력마다 미분이 필요한지. 그래프에 들어갈 때 정해집니다.
    needs_input_grad: list[bool] | tuple = ()
    # 입력마다: 붙잡은 Variable, 상수의 데이터, 또는 풀려도 되는 중간 변수의 (창조자, 출력 번호).
    # 역전파가 그래프를 놓아 주면 None이 됩니다.
    edges: list | None = None
    # 입력마다 `keep`이 골랐는지(역전파에 쓰는지).
    kept: tuple[bool, ...] = ()
    outputs: list[weakref.ref] | None = None
    # 입력의 모양. 첫 출력과 모양이 다른 입력(브로드캐스트)이 있을 때만 기억하고, 아니면
    # None입니다. 브로드캐스트한 이항 연산이 미분값을 입력의 모양으로 되돌릴 때 씁니다.
    input_shapes: tuple | None = None
    # 출력의 (모양, dtype). 사라진 출력의 미분값을 0으로 채울 때 씁니다.
    output_specs: list[tuple[tuple[int, ...], np.dtype]] | None = None
    # 역전파가 backward의 결과(개수와 모양)를 검사할지. 라이브러리의 함수는 테스트로 보장합니다.
    checks_backward = True
    # backward가 Variable 연산으로 쓰여 create_graph=True(고계 미분)에서도 맞는지.
    # 사용자가 만든 함수는 ndarray로 계산한다고 보고, 표시한 경우에만 create_graph에 씁니다.
    supports_create_graph = False
    # 순전파의 출력을 역전파에 쓰는지(Exp, Tanh). 그러면 출력의 데이터를 붙잡습니다.
    keeps_output = False
    output_data: tuple | None = None
    # 입력에 Variable의 하위 클래스(Parameter)가 있는 함수가 붙잡은 입력(드문 길). 아니면 None.
    subclassed_kept: list | None = None

    def __call__(self, *inputs: object) -> Variable | list[Variable]:
        # 이미 그래프의 노드인 인스턴스(출력이 있는)를 다시 부르면 첫 그래프를 지키려고 복사본을 씁니다.
        node = self if self.outputs is None else copy.copy(self)
        # 함수를 부를 때마다 도는 곳이라 한 번의 반복문으로 입력, 데이터, 미분 필요 여부를 모읍니다.
        datas, needs, subclassed = [], [], False
        for x in inputs:
            if type(x) is Variable:
                datas.append(x.data)
                needs.append(x.requires_grad)
            else:  # 상수: NumPy 실수 스칼라와 수치 배열은 그대로 받고, 그 밖의 것은 확인합니다.
                if type(x) not in _FLOAT_SCALARS and (
                    not isinstance(x, np.ndarray | np.generic) or x.dtype.kind in _REJECTED_KINDS
                ):
                    if isinstance(x, Variable):  # Parameter 같은 Variable의 하위 클래스(드문 길)
                        datas.append(x.data)
                        needs.append(x.requires_grad)
                        subclassed = True
                        continue
                    _check_constant(x)
                datas.append(x)
                needs.append(False)
        try:
            ys = node.forward(*datas)
        except ValueError as error:
            _explain_shape_error(node, inputs, error)
            raise
        if type(ys) is tuple:
            outputs = [_wrap_output(y) for y in ys]
        else:
            outputs = [_wrap_output(ys)]

        if True in needs and backprop_enabled():
            node._connect(inputs, outputs, needs)
            if subclassed:  # Parameter 같은 Variable의 하위 클래스가 입력에 있습니다(드문 길).
                node._fix_subclassed(inputs, outputs)
        else:  # 그래프에 들어가지 않은 출력은 미분할 수 없는 상수입니다.
            for output in outputs:
                output.requires_grad = False
        return outputs[0] if len(outputs) == 1 else outputs

    def _connect(self, args: tuple, outputs: list[Variable], needs: list[bool]) -> None:
        """출력의 창조자가 되어 그래프에 들어갑니다. 역전파에 필요한 입력만 붙잡습니다.

        함수를 부를 때마다 도는 곳이라, 입력마다 한 번 도는 반복문 하나로 모두 정합니다.
        """
        self.needs_input_grad = needs
        self.kept = kept = self.keep(needs)
        if len(kept) != len(args):
            raise ValueError(
                f"{type(self).__name__}.keep이 {len(kept)}개를 돌려주었지만 입력은 {len(args)}개입니다. "
                f"입력마다 True나 False를 하나씩 돌려주세요."
            )
        out_shape = outputs[0].data.shape
        edges, kept_inputs, generation, broadcast, i = [], [], 0, False, 0
        for x in args:  # zip과 enumerate보다 빠릅니다(파이썬 3.11).
            keep = kept[i]
            i += 1
            kept_inputs.append(x if keep else None)
            if type(x) is not Variable:  # 상수는 데이터 그대로 둡니다.
                edges.append(x)
                continue
            if x.generation > generation:
                generation = x.generation
            if x.data.shape != out_shape:
                broadcast = True
            creator = x.creator
            if keep or creator is None:
                edges.append(x)  # 역전파에 쓰는 입력과 말단 변수는 붙잡습니다.
            elif len(creator.outputs) == 1:
                edges.append((creator, 0))  # 나머지 중간 변수는 (창조자, 출력 번호)만 기억합니다.
            else:
                edges.append((creator, output_index(creator, x)))
        self.edges = edges
        self.kept_inputs = kept_inputs
        if broadcast:
            self.input_shapes = tuple([np.shape(_data(x)) for x in args])
        self.generation = generation
        for output in outputs:
            output.creator = self
            output.generation = generation + 1
        if len(outputs) == 1:
            self.outputs = [weakref.ref(outputs[0])]
        else:
            self.outputs = [weakref.ref(output) for output in outputs]
            self.output_specs = [(y.data.shape, y.data.dtype) for y in outputs]
        if self.keeps_output:
            self.output_data = tuple([y.data for y in outputs])

    def _fix_subclassed(self, args: tuple, outputs: list[Variable]) -> None:
        """입력에 Variable의 하위 클래스(Parameter)가 있을 때 `_connect` 다음에 부릅니다(드문 길).

        `_connect`는 빠르게 돌려고 `type(x) is Variable`만 변수로 보므로 하위 클래스를 상수처럼 적어
        둡니다. 적어 둔 것은 그 객체 자신이라 역전파는 그대로 되고, 여기서 세대와 브로드캐스트한
        입력의 모양을 바로잡고, 붙잡은 입력을 `kept_inputs` 대신 `subclassed_kept`로 옮깁니다.
        그러면 흔한 길의 `saved`는 아무것도 더 검사하지 않고, `kept_inputs`가 None일 때만 도는 드문
        길(`_saved_subclassed`)이 하위 클래스에서도 데이터를 꺼냅니다.
        """
        out_shape = outputs[0].data.shape
        for x in args:
            if type(x) is not Variable and isinstance(x, Variable):
                if x.generation > self.generation:
                    self.generation = x.generation
                if x.data.shape != out_shape:
                    self.input_shapes = tuple([np.shape(_data(a)) for a in args])
        for output in outputs:
            output.generation = self.generation + 1
        self.subclassed_kept, self.kept_inputs = self.kept_inputs, None

    def _saved_subclassed(self) -> list:
        """`saved`의 드문 길: Parameter 같은 하위 클래스에서도 데이터를 꺼냅니다."""
        kept = self.subclassed_kept
        if kept is None or self.edges is None:  # 역전파가 그래프를 놓아 주었습니다.
            raise _released(self)
        if backprop_enabled():
            return [_as_graph_input(x) for x in kept]
        return [x.data if _is_variable(x) else x for x in kept]

    # --- 하위 클래스가 정하는 것 -------------------------------------------------------
    def forward(self, *xs: np.ndarray) -> np.ndarray | tuple[np.ndarray, ...]:
        raise NotImplementedError(f"{type(self).__name__}.forward를 구현해야 합니다.")

    def backward(self, *gys: np.ndarray) -> np.ndarray | tuple[np.ndarray | None, ...]:
        raise NotImplementedError(f"{type(self).__name__}.backward를 구현해야 합니다.")

    def keep(self, needs: list[bool]) -> tuple[bool, ...]:
        """역전파에 쓸 입력을 고릅니다. 기본값은 책처럼 모든 입력입니다.

        `needs[i]`는 i번 입력의 미분이 필요한지입니다. 예를 들어 곱셈은 x0의 미분에 x1이,
        x1의 미분에 x0이 필요하므로 `(needs[1], needs[0])`을 돌려줍니다.
        """
        return (True,) * len(needs)

    # --- 그래프 읽기와 backward 안에서 쓰는 도구 -------------------------------------------
    @property
    def inputs(self) -> list[Variable | None] | None:
        """입력 변수들. 붙잡지 않은 중간 변수가 이미 사라졌으면 그 자리는 None입니다.

        역전파가 그래프를 놓아 주었으면 None입니다(책과 같음).
        """
        edges = self.edges
        if edges is None:
            return None
        for i, edge in enumerate(edges):
            if type(edge) is not tuple and not _is_variable(edge):
                edges[i] = constant(edge)  # 상수는 보여 줄 때 한 번만 감쌉니다.
        return [_resolve(edge) for edge in edges]

    def saved(self) -> list:
        """`keep`이 고른 입력을 돌려줍니다(고르지 않은 자리는 None).

        보통의 역전파(역전파 비활성 모드)에서는 데이터(ndarray)를, `create_graph=True`일 때
        (역전파 활성 모드)는 Variable을 돌려줍니다. 그래서 `gy * cos(x)` 같은 한 가지 식이 두
        경우에 모두 맞습니다.
        """
        kept = self.kept_inputs
        if kept is None:
            return self._saved_subclassed()  # 하위 클래스 입력이 있는 함수, 또는 해제된 그래프
        if backprop_enabled():
            return [_as_graph_input(x) for x in kept]
        values = []
        for x in kept:  # 입력이 한두 개라 컴프리헨션보다 반복문이 빠릅니다(파이썬 3.11).
            values.append(x.data if type(x) is Variable else x)
        return values

    def saved_output(self, index: int = 0) -> np.ndarray | Variable:
        """순전파의 출력(`keeps_output = True`인 함수). create_graph 모드에서는 출력 변수입니다.

        출력 변수가 이미 사라졌으면, 붙잡아 둔 데이터로 같은 자리의 변수를 다시 만듭니다.
        """
        if self.output_data is None:
            raise _released(self)
        data = self.output_data[index]
        if not backprop_enabled():
            return data
        output = self.outputs[index]()
        if output is None:
            output = _wrap_output(data)
            output.creator = self
            output.generation = self.generation + 1
        return output


def _check_constant(x: object) -> None:
    """Variable이 아닌 입력은 상수입니다. 수(파이썬 수, NumPy 스칼라)와 수치 배열만 받습니다."""
    if isinstance(x, np.ndarray | np.generic):
        if x.dtype.kind in _REJECTED_KINDS:
            as_variable(
                np.asarray(x)
            )  # 수치형이 아닌 배열: Variable과 같은 한국어 메시지로 거부합니다.
    elif not isinstance(x, Number):
        as_variable(x)  # 리스트, None, 문자열: 알맞은 한국어 메시지로 거부합니다.


def constant(data: object) -> Variable:
    """미분하지 않는 상수 변수를 검사 없이 만듭니다(엔진 안에서, 수치 데이터에만 씁니다)."""
    const = _wrap_output(np.asarray(data))
    const.requires_grad = False
    return const


def _is_variable(x: object) -> bool:
    """Variable이거나 그 하위 클래스(Parameter)인지."""
    return type(x) is Variable or isinstance(x, Variable)


def _data(x: object) -> object:
    return x.data if _is_variable(x) else x


def _as_graph_input(x: object) -> object:
    """create_graph 모드의 backward에 넘길 값: Variable은 그대로, 상수는 미분하지 않는 Variable로."""
    if x is None or _is_variable(x):
        return x
    return constant(x)


def _explain_shape_error(func: Function, args: list, error: ValueError) -> None:
    """forward가 낸 ValueError가 브로드캐스트할 수 없는 모양 때문이면 받은 모양을 알려 줍니다.

    모양 문제가 아니면(예: 사용자의 forward가 낸 오류) 아무것도 하지 않아 원래 오류가 그대로
    올라갑니다.
    """
    shapes = [np.shape(_data(x)) for x in args]
    try:
        np.broadcast_shapes(*shapes)
    except ValueError:
        listed = ", ".join(str(s) for s in shapes)
        raise ValueError(
            f"{type(func).__name__}의 순전파를 계산할 수 없습니다. 입력의 모양: {listed}. "
            f"모양이 같거나 브로드캐스트할 수 있는 입력을 넣어 주세요. (NumPy: {error})"
        ) from error


def _resolve(edge: Variable | tuple) -> Variable | None:
    if type(edge) is tuple:
        creator, index = edge
        return creator.outputs[index]()
    return edge


def _released(func: Function) -> RuntimeError:
    return RuntimeError(
        f"{type(func).__name__}의 그래프는 앞선 역전파에서 이미 해제되었습니다. "
        f"같은 그래프로 두 번 역전파하려면 첫 번째 호출을 backward(retain_graph=True)로 하세요."
    )


def _wrap_output(y: object) -> Variable:
    """forward의 결과를 Variable로 감쌉니다. 0차원 연산이 돌려준 NumPy 스칼라는 배열로 바꿉니다."""
    if type(y) is not np.ndarray:
        # 0차원 연산이 돌려준 NumPy 스칼라(가장 흔함), 또는 파이썬 수는 0차원 배열로 바꿉니다.
        if not isinstance(y, np.ndarray | np.generic) and not isinstance(y, Number):
            raise TypeError(
                f"forward는 numpy.ndarray를 돌려주어야 합니다. 받은 값: {describe(y)}. "
                f"np.array(...)로 감싸서 돌려주세요."
            )
        y = y.__array__() if isinstance(y, np.generic) else np.asarray(y)
    output = Variable.__new__(Variable)  # 검사 없이 만듭니다(엔진 안에서만). 자주 불려 펼쳐 둡니다.
    output.data = y
    output.name = None
    output.grad = None
    output.creator = None
    output.generation = 0
    output.requires_grad = True
    return output
