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
- 같은 `Function` 인스턴스를 두 번 호출하면 두 번째 호출부터는 그래프 상태를 뺀 복사본이 새 노드가
  됩니다. 두 스레드가 동시에 불러도 한 호출만 원래 인스턴스를 씁니다.
- 미분이 필요한 변수는 실수(float) 배열만 받습니다. 정수, bool, 복소수 배열의 미분값은 넘치거나
  잘리거나 켤레 규약이 필요하므로, 무엇을 하라는지 알려 주며 거부합니다(PyTorch와 같은 결정).
- 역전파에 쓸 입력의 `data`를 순전파 뒤에 다른 배열로 바꾸면, 역전파가 그것을 알아채고 멈춥니다.
- 잘못된 입력과 잘못된 모양의 미분값은 한국어 메시지와 함께 바로 거부합니다.
- 역전파 활성 모드는 스레드와 asyncio 작업마다 따로입니다(`config.py`).
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


def not_differentiable(dtype: np.dtype) -> TypeError:
    """미분이 필요한 변수에 실수가 아닌 배열을 넣었을 때의 오류(PyTorch도 정수와 bool은 거부합니다)."""
    if dtype.kind == "c":
        return TypeError(
            f"복소수 배열(dtype {dtype})에는 미분값을 구하지 않습니다. 이 엔진의 미분 공식은 실수용이라 "
            f"복소수에서는 켤레를 취하지 않은 틀린 값이 나옵니다. 실수부와 허수부를 따로 실수 변수로 "
            f"담거나(data.real, data.imag), 미분하지 않을 상수라면 requires_grad=False로 만드세요."
        )
    return TypeError(
        f"미분이 필요한 Variable에는 실수(float) 배열만 넣을 수 있습니다. 받은 배열의 dtype: {dtype}. "
        f"정수와 bool의 미분값은 그 dtype으로 계산되어 넘치거나(uint8에서 -1이 255로) 잘립니다. "
        f"이미지처럼 정수로 온 데이터라면 data.astype(np.float32)나 data.astype(np.float64)로 바꿔서 "
        f"넣고, 미분하지 않을 상수라면 Variable(data, requires_grad=False)로 만드세요."
    )


class Variable:
    """데이터(`data`)와 그 미분값(`grad`)을 담는 상자이자 계산 그래프의 변수 노드입니다.

    `requires_grad=False`로 만든 변수는 상수로 다룹니다: 역전파가 그 미분값을 구하지 않습니다.
    미분이 필요한 변수(기본값)의 데이터는 실수(float16/32/64) 배열이어야 합니다. 정수, bool, 복소수
    배열은 `requires_grad=False`일 때만 받습니다(PyTorch와 같음). 미분값(`grad`)은 변수와 같은
    dtype입니다: float32 변수를 float64 상수와 계산해도 `grad`는 float32입니다(PyTorch와 같음).

    `pickle`과 `copy.copy`는 값(data, name, requires_grad)만 담은 말단 변수를 만듭니다(PyTorch와 같음).
    `copy.deepcopy`는 말단 변수만 됩니다. 계산 그래프의 중간 변수는 거부합니다(PyTorch와 같음).
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
        if requires_grad and data is not None and data.dtype.kind != "f":
            raise not_differentiable(data.dtype)
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
        if self.data is None or self.data.ndim == 0:
            raise TypeError(
                f"0차원이거나 data가 None인 Variable에는 길이가 없습니다. 받은 변수: {self!r}. "
                f"원소 수는 x.size로, 모양은 x.shape로 보세요."
            )
        return len(self.data)

    def __bool__(self) -> bool:
        """원소가 하나인 변수만 참/거짓이 정해집니다(PyTorch, NumPy와 같음)."""
        data = self.data
        if data is None:
            raise TypeError(
                "data가 None인 Variable은 참/거짓을 정할 수 없습니다. x.data is None으로 확인하세요."
            )
        if data.size != 1:
            raise ValueError(
                f"원소가 {data.size}개인 Variable(모양 {data.shape})의 참/거짓은 정할 수 없습니다. "
                f"(x.data > 0).any()나 .all()처럼 배열로 물어보세요."
            )
        return bool(data)

    # --- 복사와 pickle: 값만 담은 말단 변수(PyTorch와 같음) ------------------------------------
    def __reduce__(self) -> tuple:
        """pickle과 copy.copy: 그래프(창조자)와 미분값 없이 값만 담은 말단 변수가 됩니다.

        창조자를 따라 그래프 전체를 담으면 약한 참조(weakref) 때문에 실패하고, 깊은 그래프에서는
        RecursionError가 납니다. PyTorch도 값과 requires_grad만 담습니다.
        """
        return (_restore_variable, (self.data, self.name, self.requires_grad))

    def __deepcopy__(self, memo: dict) -> Variable:
        if self.creator is not None:
            raise RuntimeError(
                f"계산 그래프의 중간 변수(창조자가 {type(self.creator).__name__}인 변수)는 deepcopy할 수 "
                f"없습니다(PyTorch와 같음). 복사본의 그래프는 원래 그래프와 이어지지 않아 역전파가 "
                f"틀립니다. 값만 필요하면 Variable(y.data.copy())를, 그래프가 필요하면 순전파를 다시 "
                f"계산하세요."
            )
        new = _restore_variable(copy.deepcopy(self.data, memo), self.name, self.requires_grad)
        new.grad = copy.deepcopy(self.grad, memo)
        memo[id(self)] = new
        return new

    def __repr__(self) -> str:
        if not hasattr(self, "data"):  # 생성자가 값을 넣기 전에 예외를 낸 객체(디버거가 보여 줄 때)
            return "variable(<값을 넣기 전>)"
        if self.data is None:
            return "variable(None)"
        body = str(self.data).replace("\n", "\n" + " " * 9)
        return f"variable({body})"

    # --- 계산 그래프 ---------------------------------------------------------------
    def set_creator(self, func: Function) -> None:
        """이 변수를 만든 함수(창조자)를 기억하고, 세대를 창조자보다 하나 크게 둡니다.

        최종 엔진에서는 함수를 호출할 때 엔진이 창조자를 정합니다. 책의 7단계처럼 손으로 이으면
        함수가 입력을 모르므로, 호출해서 이 변수를 출력으로 낸 함수만 받습니다.
        """
        outputs = getattr(func, "outputs", None)
        if outputs is None or all(ref() is not self for ref in outputs):
            raise RuntimeError(_hand_wired_message(self, func))
        self.creator = func
        self.generation = func.generation + 1

    def cleargrad(self) -> None:
        """미분값을 지웁니다. 같은 변수로 새 계산을 미분하기 전에 부릅니다."""
        self.grad = None

    def unchain(self) -> None:
        """창조자와의 연결을 끊어 이 변수를 말단 변수로 만듭니다(DeZero). 미분은 계속 받습니다."""
        self.creator = None

    def unchain_backward(self) -> None:
        """이 변수보다 입력 쪽의 그래프를 끊어 놓아 줍니다(DeZero, 잘린 역전파). 이 변수는 그대로입니다.

        살아 있는 중간 변수는 모두 말단 변수가 되고(`unchain`), 이미 사라진 중간 변수의 자리는 미분이
        필요 없는 입력이 됩니다. 그러면 그 앞의 함수들을 가리키는 것이 없어져 메모리에서 풀립니다.
        `backward()`가 이미 놓아 준 함수(retain_graph=False) 앞으로는 따라갈 수 없습니다.
        """
        stack = [] if self.creator is None else [self.creator]
        while stack:
            func = stack.pop()
            edges = func.edges
            if edges is None:  # 역전파가 이미 놓아 준 함수: 입력 쪽을 모릅니다.
                continue
            for i, edge in enumerate(edges):
                if type(edge) is tuple:  # 붙잡지 않은 중간 변수: (창조자, 출력 번호)
                    creator, index = edge
                    x = creator.outputs[index]()
                elif _is_variable(edge) and edge.creator is not None:
                    creator, x = edge.creator, edge
                else:  # 말단 변수, 상수, 이미 끊은 자리
                    continue
                stack.append(creator)
                if x is not None:
                    x.unchain()
                    edges[i] = x
                else:  # 사라진 중간 변수: 미분값을 받을 곳이 없으니 상수 자리로 둡니다.
                    edges[i] = constant(np.zeros(0))
                    func.needs_input_grad[i] = False

    def detach(self) -> Variable:
        """같은 data를 나눠 쓰는(복사하지 않는) 새 말단 변수, 미분은 필요 없음(PyTorch의 detach)."""
        return Variable(self.data, requires_grad=False)

    def backward(
        self,
        retain_grad: bool = False,
        retain_graph: bool | None = None,
        create_graph: bool = False,
        *,
        gradient: np.ndarray | None = None,
    ) -> None:
        """이 변수에서 시작해 계산 그래프를 거꾸로 따라가며 입력들의 미분값을 구합니다.

        - `retain_grad=False`(기본값): 말단 변수의 미분값만 남깁니다. True이면 중간 변수와 이
          변수 자신의 미분값도 남깁니다. 남긴 미분값도 말단 변수처럼 호출마다 더해집니다.
        - `retain_graph`: False이면 역전파가 끝난 뒤 함수들이 붙잡아 둔 입력을 놓아 줍니다. 같은
          그래프로 역전파를 한 번 더 하려면 True를 주세요. 주지 않으면 `create_graph`와 같습니다.
        - `create_graph=True`: 역전파의 계산도 그래프로 기록합니다. 미분값이 `Variable`이 되므로
          `x.grad.backward()`로 2계 미분을 구할 수 있습니다.
        - `gradient`: 시작 미분값(이 변수와 같은 모양의 배열). 주지 않으면 1입니다. PyTorch처럼
          이 변수의 `grad`에 미리 넣어 둔 값이나 앞선 `retain_grad=True`가 남긴 값은 시작값으로
          쓰지 않습니다(책의 7단계처럼 `y.grad`를 넣는 방식은 `tinygrad_ko.steps`의 엔진에서 씁니다).

        역전파는 전부 아니면 전무입니다: 도중에 예외가 나면(사용자 함수의 backward 오류, Ctrl+C)
        어느 변수의 `grad`도 바뀌지 않고 그래프도 놓아 주지 않으므로, 원인을 고쳐 다시 부를 수
        있습니다. 알고리즘은 `backprop.py`에 있습니다.
        """
        if (
            type(retain_grad) is not bool
            or type(create_graph) is not bool
            or (retain_graph is not None and type(retain_graph) is not bool)
        ):
            raise _bad_flags(retain_grad, retain_graph, create_graph)
        if retain_graph is None:
            retain_graph = create_graph
        backpropagate(self, retain_grad, retain_graph, create_graph, gradient)


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
    if type(obj).__name__ == "Variable" and hasattr(obj, "data"):
        module = type(obj).__module__
        raise TypeError(
            f"다른 모듈({module})의 Variable을 받았습니다. 최종 엔진(tinygrad_ko)의 함수에는 "
            f"tinygrad_ko.Variable을, 단계별 엔진의 함수에는 그 단계의 Variable을 넘겨 주세요. "
            f"값만 옮기려면 tinygrad_ko.Variable(x.data)로 감싸고, 4단계의 numerical_diff로 최종 "
            f"엔진의 함수를 확인하려던 것이라면 tinygrad_ko.numerical_diff를 쓰세요."
        )
    raise TypeError(
        f"Variable, numpy.ndarray 또는 수가 필요합니다. 받은 값: {describe(obj)}. "
        f"리스트라면 np.array(...)로 바꿔서 넘겨 주세요."
    )


def _restore_variable(data: object, name: object, requires_grad: bool) -> Variable:
    """pickle과 복사가 쓰는 생성자: 값만 담은 말단 변수(검사는 Variable()과 같음)."""
    return Variable(data, name, requires_grad)


def _hand_wired_message(var: Variable, func: object) -> str:
    name = type(func).__name__
    return (
        f"{name}은(는) 호출되어 이 변수를 출력으로 낸 함수가 아니므로 창조자로 이을 수 없습니다. "
        f"최종 엔진에서는 함수를 호출하면 출력의 창조자가 정해집니다: y = {name}()(x). 책의 "
        f"7단계처럼 set_creator로 손수 잇는 코드는 tinygrad_ko.steps.step07에서 실행하세요."
    )


def _bad_flags(retain_grad: object, retain_graph: object, create_graph: object) -> TypeError:
    for name, value in (
        ("retain_grad", retain_grad),
        ("retain_graph", retain_graph),
        ("create_graph", create_graph),
    ):
        if type(value) is not bool and not (name == "retain_graph" and value is None):
            hint = ""
            if isinstance(value, np.ndarray | Variable):
                hint = " 시작 미분값을 주려던 것이라면 backward(gradient=...)로 넘겨 주세요."
            return TypeError(
                f"backward의 {name}에는 True나 False를 넣어 주세요. 받은 값: {describe(value)}.{hint}"
            )
    return TypeError("backward의 인수를 확인해 주세요.")


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
    # 입력마다 `keep`이 골랐는지(역전파에 쓰는지). 붙잡은 변수의 자리에는 True 대신 순전파 때의
    # data 객체를 담은 튜플 `(data,)`이 있어, 역전파가 data가 바뀌었는지 확인합니다(`check_kept_data`).
    kept: tuple = ()
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
    # forward가 0차원 실수 데이터를 NumPy 스칼라(`data[()]`)로 받는지. 스칼라끼리의 계산이 0차원 배열의
    # ufunc보다 몇 배 빠르지만, 스칼라에는 원소를 쓸 수 없고 `**`는 배열과 다른 길로 계산합니다. 그래서
    # 사용자가 만든 함수는 언제나 ndarray를 받고, 스칼라에서도 배열과 같은 값을 내도록 만들고 테스트한
    # 라이브러리 함수만 스칼라를 받습니다.
    scalar_inputs = False
    output_data: tuple | None = None
    # 입력에 Variable의 하위 클래스(Parameter)가 있는 함수가 붙잡은 입력(드문 길). 아니면 None.
    subclassed_kept: list | None = None

    # 붙잡은 변수의 순전파 때 data 객체(`kept_inputs`와 같은 자리, 변수가 아닌 자리는 None). 붙잡은
    # 변수가 없는 함수(예: 상수와의 곱셈)는 None입니다. 역전파가 data가 바뀌었는지 확인합니다.
    kept_data: list | None = None
    # 역전파가 이 함수의 backward를 부르는 동안에만: 이번 역전파가 만들어 아무와도 나누지 않는 출력
    # 미분값 배열. backward는 새 배열을 만드는 대신 여기에 결과를 덮어써도 됩니다(`times`).
    reusable_gy: np.ndarray | None = None
    # 이 인스턴스를 지금 어느 호출이 쓰고 있거나 이미 그래프의 노드인지. 그렇다면 다음 호출은
    # 그래프 상태를 뺀 복사본(`_fresh_node`)을 씁니다.
    in_graph = False

    def __call__(self, *inputs: object) -> Variable | list[Variable]:
        # 읽자마자 씁니다. 읽기와 쓰기 사이에 함수 호출이 없으므로(GIL이 있는 CPython에서) 다른
        # 스레드가 끼어들 수 없어, 두 스레드가 처음 부른 같은 인스턴스를 둘 다 쓰는 일이 없습니다.
        if self.in_graph:
            node = self._fresh_node()
        else:
            self.in_graph = True
            node = self
        # 함수를 부를 때마다 도는 곳이라 한 번의 반복문으로 입력, 데이터, 미분 필요 여부를 모읍니다.
        # `scalar_inputs`인 함수에는 0차원 실수 배열을 NumPy 스칼라(`data[()]`)로 넘깁니다. 값과 dtype은
        # 같고, 스칼라끼리의 계산은 0차원 배열의 ufunc보다 몇 배 빠릅니다(곱셈 약 650 ns → 60 ns). 결과는
        # _wrap_output이 다시 0차원 배열로 감쌉니다. 정수와 bool은 배열로 둡니다(스칼라는 넘칠 때 경고하고
        # dtype 규칙도 달라, 배열과 결과가 달라집니다).
        datas, needs, subclassed = [], [], False
        for x in inputs:
            if type(x) is Variable:
                data = x.data
                if (
                    type(data) is np.ndarray
                    and data.ndim == 0
                    and data.dtype.kind == "f"
                    and node.scalar_inputs
                ):
                    data = data[()]
                datas.append(data)
                needs.append(x.requires_grad)
            else:  # 상수: NumPy 실수 스칼라와 수치 배열은 그대로 받고, 그 밖의 것은 확인합니다.
                if type(x) not in _FLOAT_SCALARS:
                    if (
                        isinstance(x, np.ndarray | np.generic)
                        and x.dtype.kind not in _REJECTED_KINDS
                    ):
                        x = _scalar_if_0d(node, x)
                    elif isinstance(x, Variable):  # Parameter 같은 Variable의 하위 클래스(드문 길)
                        datas.append(_scalar_if_0d(node, x.data))
                        needs.append(x.requires_grad)
                        subclassed = True
                        continue
                    else:
                        _check_constant(x)
                datas.append(x)
                needs.append(False)
        try:
            ys = node.forward(*datas)
        except ValueError as error:
            _explain_shape_error(node, inputs, error)
            raise
        except TypeError as error:
            _explain_missing_data(node, inputs, error)
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
            node.in_graph = False  # 그래프에 들지 않았으니 인스턴스를 다시 그대로 써도 됩니다.
        return outputs[0] if len(outputs) == 1 else outputs

    def _fresh_node(self) -> Function:
        """이미 쓰이고 있는 인스턴스를 다시 부를 때의 새 노드: 그래프 상태를 뺀 속성의 복사본.

        `copy.copy`를 그대로 쓰면 앞 그래프의 상태(예: 브로드캐스트한 입력의 모양)가 새 노드에 남아
        역전파가 조용히 틀립니다. 리스트나 딕셔너리 같은 가변 속성은 두 노드가 함께 쓰게 되므로
        (한쪽의 append가 다른 쪽의 역전파를 바꿈) 복사하지 않고 거부합니다.
        """
        state = self.__dict__.copy()  # 한 번의 C 호출: 다른 스레드가 바꾸는 중에도 안전합니다.
        node = object.__new__(type(self))
        fresh = node.__dict__
        for key, value in state.items():
            if key in _GRAPH_STATE:
                continue
            if isinstance(value, list | dict | set | bytearray):
                name = type(self).__name__
                raise TypeError(
                    f"이미 쓰이고 있는 {name} 인스턴스를 다시 불렀습니다. 속성 {key}"
                    f"({type(value).__name__})를 두 그래프가 함께 쓰게 되어, 한쪽의 변경이 다른 쪽의 "
                    f"역전파를 바꿉니다. 부를 때마다 새 인스턴스를 만들어 주세요: {name}(...)(x)."
                )
            fresh[key] = value
        return node

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
        marked = False  # 붙잡은 변수가 있는지
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
            if keep:  # 역전파에 쓰는 입력: 붙잡고, 아래에서 지금의 data 객체도 기억합니다.
                edges.append(x)
                marked = True
            elif creator is None:
                edges.append(x)  # 말단 변수도 붙잡습니다(미분값을 grad에 넣어야 하므로).
            elif len(creator.outputs) == 1:
                edges.append((creator, 0))  # 나머지 중간 변수는 (창조자, 출력 번호)만 기억합니다.
            else:
                edges.append((creator, output_index(creator, x)))
        if marked:  # 붙잡은 변수가 있으면 그 순전파 때의 data 객체를 기억합니다(check_kept_data).
            self.kept_data = [x.data if type(x) is Variable else None for x in kept_inputs]
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
        # 출력을 붙잡지 않는 함수도 자리를 둡니다. 그래야 역전파가 그래프를 놓아 줄 때 keeps_output을
        # 읽지 않고 바로 None을 쓸 수 있습니다(클래스 속성 읽기가 인스턴스 속성 쓰기보다 느립니다).
        self.output_data = None

    def _connect_keeping_output(
        self, args: tuple, outputs: list[Variable], needs: list[bool]
    ) -> None:
        """`keeps_output = True`인 함수의 `_connect`: 출력의 데이터도 붙잡습니다(`saved_output`)."""
        Function._connect(self, args, outputs, needs)
        self.output_data = tuple([y.data for y in outputs])

    def __init_subclass__(cls, **kwargs: object) -> None:
        """`keeps_output`에 맞는 `_connect`를 클래스를 만들 때 한 번 고릅니다.

        함수를 부를 때마다 `self.keeps_output`을 읽으면, 클래스 속성을 인스턴스로 읽는 느린 길을
        지납니다(파이썬 3.11에서 인스턴스 속성의 약 다섯 배).
        """
        super().__init_subclass__(**kwargs)
        current = cls.__dict__.get("_connect")
        if current is None or current in (Function._connect, Function._connect_keeping_output):
            cls._connect = (
                Function._connect_keeping_output if cls.keeps_output else Function._connect
            )

    def __getstate__(self) -> dict:
        """pickle과 복사: 그래프에 든 함수는 약한 참조와 다른 노드를 가리키므로 담지 않습니다."""
        if self.outputs is not None:
            raise TypeError(
                f"계산 그래프에 든 함수({type(self).__name__})는 pickle하거나 복사할 수 없습니다. "
                f"값을 저장하려면 값만 담기는 Variable이나 그 data를 pickle하세요."
            )
        return self.__dict__

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
        if any(_is_variable(x) for x in self.subclassed_kept):
            self.kept_data = [x.data if _is_variable(x) else None for x in self.subclassed_kept]

    def _saved_subclassed(self) -> list:
        """`saved`의 드문 길: Parameter 같은 하위 클래스에서도 데이터를 꺼냅니다."""
        kept = self.subclassed_kept
        if kept is None or self.edges is None:  # 역전파가 그래프를 놓아 주었습니다.
            raise _released(self)
        if self.kept_data is not None:
            check_kept_data(self)
        if backprop_enabled():
            return [_as_graph_input(x) for x in kept]
        return [x.data if _is_variable(x) else x for x in kept]

    # --- 하위 클래스가 정하는 것 -------------------------------------------------------
    def forward(self, *xs: np.ndarray) -> np.ndarray | tuple[np.ndarray, ...]:
        """입력의 데이터(ndarray나 상수)로 출력의 데이터를 계산합니다.

        `scalar_inputs = True`인 함수(라이브러리 함수)는 0차원 실수 데이터를 NumPy 스칼라로 받습니다.
        """
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
        if self.kept_data is not None:  # 붙잡은 변수의 data가 순전파 때의 배열인지 봅니다.
            check_kept_data(self)
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


# 그래프에 든 노드의 상태: 인스턴스를 다시 부를 때 새 노드에 옮기지 않습니다(클래스의 기본값으로).
_GRAPH_STATE = frozenset(
    {
        "needs_input_grad",
        "kept",
        "kept_inputs",
        "kept_data",
        "subclassed_kept",
        "edges",
        "outputs",
        "input_shapes",
        "output_specs",
        "output_data",
        "generation",
        "in_graph",
        "reusable_gy",
        "backward",  # trace.py가 역전파를 기록하는 동안 잠시 바꿔 끼우는 메서드
    }
)


def check_kept_data(func: Function) -> None:
    """역전파에 쓸 입력의 data가 순전파 뒤에 다른 배열로 바뀌었으면 멈춥니다(PyTorch의 버전 검사).

    순전파 때의 data 객체를 기억해 두었다가 같은 객체인지(`is`)만 봅니다. 그래서 `x.data = 새 배열`은
    잡지만, 같은 배열을 제자리에서 고치는 `x.data[...] = 값`, `x.data -= 값`은 잡지 못합니다(배열의
    내용을 비교하려면 순전파마다 복사해야 합니다).
    """
    kept_data = func.kept_data
    kept = func.kept_inputs if func.kept_inputs is not None else func.subclassed_kept
    if kept_data is None or kept is None or func.edges is None:
        return
    for i, (x, data) in enumerate(zip(kept, kept_data, strict=True)):
        if data is not None and _is_variable(x) and x.data is not data:
            name = f"'{x.name}'" if x.name else "이름 없는 변수"
            raise RuntimeError(
                f"역전파에 필요한 {type(func).__name__}의 {i}번 입력({name})의 data가 순전파 뒤에 "
                f"다른 배열로 바뀌었습니다. 이대로 계산하면 틀린 미분값이 나옵니다. data를 바꾸기 "
                f"전에 역전파를 마치거나, 바꾼 값으로 순전파를 다시 계산하세요."
            )


def _scalar_if_0d(node: Function, data: object) -> object:
    """forward에 넘기는 값: `scalar_inputs`인 함수에는 0차원 실수 배열을 NumPy 스칼라로, 나머지는 그대로.

    `__call__`의 흔한 길(Variable 입력)은 같은 조건을 펼쳐 씁니다.
    """
    if (
        type(data) is np.ndarray
        and data.ndim == 0
        and data.dtype.kind == "f"
        and node.scalar_inputs
    ):
        return data[()]
    return data


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


def _explain_missing_data(func: Function, args: tuple, error: TypeError) -> None:
    """forward의 TypeError가 data가 None인 변수 때문이면 그렇다고 알려 줍니다."""
    for i, x in enumerate(args):
        if type(x) is Variable and x.data is None:
            name = f"'{x.name}'" if x.name else "이름 없는 변수"
            raise TypeError(
                f"{type(func).__name__}의 {i}번 입력({name})의 data가 None이라 계산할 수 없습니다. "
                f"먼저 x.data에 numpy 배열을 넣어 주세요."
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
