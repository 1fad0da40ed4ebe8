"""함수(`Function`): 계산 그래프의 함수 노드. 하위 클래스는 `forward`와 `backward`를 정합니다.

책의 `Function`과 같은 설계에, 최종 엔진이 더한 것:

- 미분이 필요한 입력이 하나도 없거나 역전파 비활성 모드이면 그래프를 기록하지 않습니다.
  그래프에 들면 입력마다 미분이 필요한지(`needs_input_grad`)를 적어, backward가 필요 없는 미분을
  건너뛰게 합니다.
- 역전파에 쓸 입력만 붙잡습니다(`keep`). 나머지 중간 변수는 (창조자, 출력 번호)만 기억하므로,
  사용자가 놓으면 그 데이터가 바로 풀립니다. 사용자가 만든 함수는 책처럼 모든 입력을 붙잡습니다.
- 붙잡은 입력의 data가 순전파 뒤에 바뀌면(다른 배열, 또는 라이브러리의 제자리 수정) 역전파가 멈춥니다.
- 같은 인스턴스를 두 번 부르면 두 번째부터는 그래프 상태를 뺀 복사본이 새 노드가 됩니다.
"""

from __future__ import annotations

import threading
import weakref
from numbers import Number
from typing import NoReturn

import numpy as np

from . import messages
from .modes import backprop_enabled
from .variable import Variable, as_variable, constant, share_version

# 그래프에 든 노드의 상태: 인스턴스를 다시 부를 때 새 노드에 옮기지 않습니다(클래스의 기본값으로).
_GRAPH_STATE = frozenset(
    {
        "needs_input_grad",
        "edges",
        "stamps",
        "outputs",
        "input_shapes",
        "output_specs",
        "output_data",
        "generation",
        "in_graph",
    }
)
# 인스턴스를 이 호출이 쓸지 정하는 자물쇠(두 스레드가 같은 인스턴스를 처음 부를 때).
_claim_lock = threading.Lock()
_ARRAYS = (np.ndarray, np.generic)  # 상수로 받는 NumPy 값
_SCALARS = (np.generic, Number)  # forward가 0차원 결과로 돌려주는 수
_PYTHON_NUMBERS = (float, int, complex)
# create_graph에서 saved()가 감싸지 않고 그대로 돌려주는 입력: 변수와 파이썬 수(상대의 dtype을 따릅니다, NEP 50)
_GRAPH_AS_IS = (Variable, Number)


class Function:
    """함수 노드의 기반 클래스. 하위 클래스는 `forward`와 `backward`를 구현합니다.

    `backward`는 보통 ndarray로, `create_graph=True`일 때는 Variable로 불립니다. 라이브러리의
    함수는 두 경우에 같은 식이 맞도록 `self.saved()`로 붙잡은 입력을 꺼냅니다.
    """

    # --- 하위 클래스가 바꾸는 표시 ------------------------------------------------------
    # 역전파가 backward의 결과(개수와 모양)를 검사할지. 라이브러리의 함수는 테스트로 보장합니다.
    checks_backward = True
    # backward가 Variable 연산으로 쓰여 create_graph=True(고계 미분)에서도 맞는지.
    supports_create_graph = False
    # 순전파의 출력을 역전파에 쓰는지(Exp, Tanh). 그러면 출력의 데이터를 붙잡습니다.
    keeps_output = False

    # --- 그래프에 들 때 정해지는 상태(기본값은 "그래프 밖") ----------------------------------------
    generation = 0
    needs_input_grad: tuple = ()  # 입력마다 미분이 필요한지
    # 입력마다: 말단 변수나 붙잡은 변수, 상수의 데이터, 또는 놓아도 되는 중간 변수의 (창조자, 출력 번호).
    # 역전파가 그래프를 놓아 주면 None이 됩니다.
    edges: list | None = None
    stamps: tuple = ()  # 입력마다: 붙잡은 변수면 (data, version), 붙잡은 상수면 True, 아니면 None
    outputs: list[weakref.ref] | None = None
    # 입력의 모양. 브로드캐스트한 이항 연산이 미분값을 입력의 모양으로 되돌릴 때(`to_inputs`)와
    # 사용자 함수의 backward 결과를 검사할 때 씁니다.
    input_shapes: tuple | None = None
    output_specs: list | None = (
        None  # 출력이 여럿일 때 (모양, dtype): 사라진 출력의 미분값을 0으로 채울 때
    )
    output_data: tuple | None = None  # keeps_output인 함수가 붙잡은 출력의 데이터
    in_graph = False  # 이 인스턴스를 지금 어느 호출이 쓰고 있거나 이미 그래프의 노드인지

    def __call__(self, *inputs: object) -> Variable | list[Variable]:
        """함수를 부릅니다: 순전파를 계산하고, 미분이 필요하면 출력을 그래프에 잇습니다."""
        node = self._claim()
        xs, needs = [], []  # 입력마다 forward에 넘길 데이터와 미분이 필요한지
        for x in inputs:
            is_variable = isinstance(x, Variable)
            xs.append(x.data if is_variable else _constant_data(x))
            needs.append(is_variable and x.requires_grad)
        try:
            ys = node.forward(*xs)
        except (TypeError, ValueError) as error:
            explain_forward_error(node, inputs, error)
        ys = ys if isinstance(ys, tuple) else (ys,)
        outputs = [Variable(_as_output_data(y), requires_grad=False) for y in ys]
        share_version_of_views(inputs, outputs)
        if any(needs) and backprop_enabled():
            node._connect(inputs, outputs, needs)
        else:
            node.in_graph = False  # 그래프에 들지 않았으니 인스턴스를 다시 그대로 써도 됩니다.
        return outputs[0] if len(outputs) == 1 else outputs

    def _claim(self) -> Function:
        """이 호출이 쓸 노드: 아무도 쓰지 않는 인스턴스면 그 자신, 아니면 그래프 상태를 뺀 복사본."""
        with _claim_lock:
            if not self.in_graph:
                self.in_graph = True
                return self
        return self._fresh_node()

    def _fresh_node(self) -> Function:
        """이미 쓰이고 있는 인스턴스를 다시 부를 때의 새 노드: 그래프 상태를 뺀 속성의 복사본.

        `copy.copy`를 그대로 쓰면 앞 그래프의 상태(예: 브로드캐스트한 입력의 모양)가 새 노드에 남아
        역전파가 조용히 틀립니다. 리스트나 딕셔너리 같은 가변 속성은 두 노드가 함께 쓰게 되므로
        복사하지 않고 거부합니다.
        """
        node = object.__new__(type(self))
        for key, value in self.__dict__.copy().items():
            if key in _GRAPH_STATE:
                continue
            if isinstance(value, list | dict | set | bytearray):
                raise messages.shared_mutable_state(self, key, value)
            node.__dict__[key] = value
        node.in_graph = True
        return node

    def _connect(self, inputs: tuple, outputs: list[Variable], needs: list[bool]) -> None:
        """출력의 창조자가 되어 그래프에 들어갑니다. 중간 변수는 역전파에 필요한 것만, 말단 변수와 상수는 늘 붙잡습니다."""
        kept = self.keep(needs)
        if len(kept) != len(inputs):
            raise messages.bad_keep(self, len(kept), len(inputs))
        self.needs_input_grad = tuple(needs)
        edges, stamps, shapes, generation = [], [], [], 0
        for x, keep in zip(inputs, kept):
            if isinstance(x, Variable):
                generation = max(generation, x.generation)
                # 붙잡지 않은 중간 변수는 (창조자, 출력 번호)만 기억합니다: 사용자가 놓으면 풀리도록.
                leaf = x.creator is None
                edges.append(x if keep or leaf else (x.creator, output_index(x.creator, x)))
                stamps.append((x.data, x.version) if keep else None)
                shapes.append(x.data.shape)
            else:  # 상수의 데이터(파이썬 수의 모양은 ())
                edges.append(x)
                stamps.append(True if keep else None)
                shapes.append(x.shape if isinstance(x, _ARRAYS) else ())
        self.edges, self.stamps, self.input_shapes = edges, tuple(stamps), tuple(shapes)
        self.generation = generation
        for y in outputs:
            y.creator, y.generation, y.requires_grad = self, self.generation + 1, True
        self.outputs = list(map(weakref.ref, outputs))
        if len(outputs) > 1:  # 출력이 하나면 그 미분값은 늘 옵니다(0으로 채울 일이 없습니다).
            self.output_specs = [(y.data.shape, y.data.dtype) for y in outputs]
        if self.keeps_output:
            # 리스트에서 만듭니다: 생성기로 만든 튜플은 크게 잡았다 줄여 CPython의 튜플 재사용 목록을 비켜 가므로,
            # 함수마다 그 목록이 한 칸씩 자라 메모리 안정 테스트가 실패했습니다(상한 2,000칸까지).
            self.output_data = tuple([y.data for y in outputs])

    def release(self) -> None:
        """역전파가 끝난 뒤(retain_graph=False): 붙잡은 입력과 출력 데이터를 놓아 줍니다."""
        self.edges = None
        self.stamps = ()
        self.output_data = None

    def __getstate__(self) -> dict:
        """pickle과 복사: 그래프에 든 함수는 약한 참조와 다른 노드를 가리키므로 담지 않습니다."""
        if self.outputs is not None:
            raise messages.not_pickleable(self)
        return self.__dict__

    # --- 하위 클래스가 정하는 것 -------------------------------------------------------
    def forward(self, *xs: np.ndarray) -> np.ndarray | tuple[np.ndarray, ...]:
        """입력의 데이터(ndarray나 상수)로 출력의 데이터를 계산합니다."""
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

        역전파가 그래프를 놓아 주었으면 None입니다(책과 같음). 상수(파이썬 수, 배열)는 읽을 때마다 새
        상수 변수로 감싸 보여 줍니다. 그래프에 적힌 상수는 그대로 두므로, 읽어도 역전파의 결과(dtype과
        마지막 자리)가 바뀌지 않습니다.
        """
        edges = self.edges
        if edges is None:
            return None
        return [_input_of(edge) for edge in edges]

    @property
    def kept(self) -> tuple[bool, ...]:
        """입력마다 붙잡았는지(`keep`이 고른 입력인지). 역전파가 그래프를 놓아 주면 빈 튜플입니다."""
        return tuple(stamp is not None for stamp in self.stamps)

    def saved(self) -> list:
        """`keep`이 고른 입력을 돌려줍니다(고르지 않은 자리는 None).

        보통의 역전파(역전파 비활성 모드)에서는 데이터(ndarray)를, `create_graph=True`일 때
        (역전파 활성 모드)는 Variable을 돌려줍니다. 그래서 `gy * cos(x)` 같은 한 가지 식이 두
        경우에 모두 맞습니다. 붙잡은 변수의 data가 순전파 뒤에 바뀌었으면 꺼내기 전에 멈춥니다
        (`check_stamps`와 같은 검사).
        """
        edges = self.edges
        if edges is None:
            raise messages.released(self)
        as_graph = backprop_enabled()
        values = []
        for i, stamp in enumerate(self.stamps):
            if stamp is None:  # 붙잡지 않은 입력
                values.append(None)
                continue
            edge = edges[i]
            if stamp is not True:  # 붙잡은 변수: data가 순전파 때 그대로인지 봅니다.
                self._check_stamp(i, edge, stamp)
            if as_graph:
                values.append(edge if isinstance(edge, _GRAPH_AS_IS) else constant(edge))
            else:
                values.append(edge.data if isinstance(edge, Variable) else edge)
        return values

    def check_stamps(self) -> None:
        """붙잡은 입력의 data가 순전파 때 그대로인지 봅니다(PyTorch의 버전 검사).

        `x.data = 새 배열`과, 라이브러리가 제자리에서 고친 값(`mark_modified`: 옵티마이저의 step)을
        잡습니다. 뷰와 detach한 변수는 원본과 버전을 함께 쓰므로, 원본을 고친 것도 잡습니다. 사용자가 직접 `x.data[...] = 값`으로 고친 것은 잡지 못합니다(배열의 내용을
        비교하려면 순전파마다 복사해야 합니다).
        """
        for i, stamp in enumerate(self.stamps):
            if isinstance(stamp, tuple):  # 붙잡은 변수: (data, version)
                self._check_stamp(i, self.edges[i], stamp)

    def _check_stamp(self, i: int, edge: Variable, stamp: tuple) -> None:
        data, version = stamp
        if edge.data is not data or edge.version != version:
            raise messages.kept_input_changed(self, i, edge, edge.data is data)

    def saved_output(self, index: int = 0) -> np.ndarray | Variable:
        """순전파의 출력(`keeps_output = True`인 함수). create_graph 모드에서는 출력 변수입니다.

        출력 변수가 이미 사라졌으면, 붙잡아 둔 데이터로 같은 자리의 변수를 다시 만듭니다.
        """
        if self.output_data is None:
            raise messages.released(self)
        data = self.output_data[index]
        if not backprop_enabled():
            return data
        output = self.outputs[index]()
        if output is None:
            output = Variable(data)
            output.creator, output.generation = self, self.generation + 1
        return output


def explain_forward_error(node: Function, inputs: tuple, error: Exception) -> NoReturn:
    """forward가 낸 예외를 다시 올립니다. 모양이 맞지 않거나 data가 None인 입력 때문이면 그 입력을 짚는
    한국어 메시지로 바꾸고, 아니면(사용자의 forward가 낸 오류) 그대로 올립니다."""
    clearer = messages.forward_failed(node, inputs, error)
    if clearer is None:
        raise error
    raise clearer from error


def _constant_data(x: object) -> object:
    """Variable이 아닌 입력은 상수입니다. 수(파이썬 수, NumPy 스칼라)와 수치 배열만 받습니다."""
    if isinstance(x, _ARRAYS):
        if x.dtype.kind in messages.REJECTED_KINDS:
            raise messages.not_numeric(x.dtype)
        return x
    # 흔한 파이썬 수를 먼저 봅니다(추상 클래스 Number의 검사는 파이썬 함수를 한 번 더 부릅니다).
    if not isinstance(x, _PYTHON_NUMBERS) and not isinstance(x, Number):
        as_variable(x)  # 리스트, None, 문자열: 알맞은 한국어 메시지로 거부합니다.
    return x


def share_version_of_views(inputs: tuple, outputs: list[Variable]) -> None:
    """출력의 data가 어느 입력 변수의 data와 같은 메모리이면(뷰: `W.T`, `reshape`, 인덱싱, `broadcast_to`)
    그 입력과 버전을 함께 씁니다. 옵티마이저가 원본을 고치면 뷰의 값도 바뀌므로, 뷰를 붙잡은 그래프의
    역전파도 멈춰야 합니다(PyTorch와 같음). 복사본(정수·bool 배열 인덱싱, 뷰로 읽을 수 없는 reshape)은 따로입니다.
    """
    for y in outputs:
        data = y.data
        if (
            data.base is None
        ):  # 새로 만든 배열(거의 모든 연산): forward가 입력의 배열을 그대로 돌려준 경우만
            for x in inputs:
                if isinstance(x, Variable) and x.data is data:
                    share_version(y, x)
                    break
            continue
        owner = _memory_owner(data)
        for x in inputs:
            if isinstance(x, Variable) and _memory_owner(x.data) is owner:
                share_version(y, x)
                break


def _memory_owner(array: object) -> object:
    """배열의 메모리를 가진 객체: 뷰의 `.base`를 끝까지 따라갑니다(뷰의 뷰도 같은 주인에 닿습니다)."""
    while (base := getattr(array, "base", None)) is not None:
        array = base
    return array


def _as_output_data(y: object) -> np.ndarray:
    """forward의 결과를 ndarray로. 0차원 연산이 돌려준 NumPy 스칼라와 파이썬 수는 0차원 배열이 됩니다."""
    if isinstance(y, np.ndarray):
        return y
    if not isinstance(y, _SCALARS):
        raise messages.bad_forward_result(y)
    return np.asarray(y)


def _input_of(edge: object) -> Variable | None:
    if isinstance(edge, tuple):  # (창조자, 출력 번호): 살아 있으면 그 변수, 사라졌으면 None
        creator, index = edge
        return creator.outputs[index]()
    if isinstance(edge, Variable):
        return edge
    return constant(edge)  # 상수: 보여 줄 때만 감쌉니다(그래프의 값은 그대로)


def output_index(creator: Function, x: Variable) -> int:
    """x가 창조자의 몇 번째 출력인지. 출력이 하나면 0입니다(saved_output이 다시 만든 출력도)."""
    if len(creator.outputs) == 1:
        return 0
    for i, ref in enumerate(creator.outputs):
        if ref() is x:
            return i
    raise messages.not_in_outputs(creator)
