"""15~16단계: 세대(generation)로 복잡한 계산 그래프를 올바른 순서로 역전파합니다.

14단계와 비교해 바뀐 점은 다음과 같습니다.

- ``Variable.generation``: 창조자의 세대 + 1. 사용자가 만든 변수는 0세대입니다.
- ``Function.generation``: 입력들 가운데 가장 큰 세대입니다.
- ``Variable.backward``: 처리할 함수를 ``add_func``로 넣습니다. ``seen_set``으로 같은 함수를
  두 번 넣지 않고, 넣을 때마다 ``funcs``를 세대 순으로 정렬해서 ``pop()``이 언제나 세대가
  가장 큰(출력에 가장 가까운) 함수를 꺼내게 합니다. 그러면 어떤 변수의 미분값이 다 모인
  뒤에야 그 변수의 창조자를 처리합니다.

여기서 세대는 계산 그래프 안의 순서입니다. 파이썬 GC의 "세대별 가비지 컬렉션"과는 다른 뜻입니다.

한계:

- 함수를 넣을 때마다 리스트 전체를 정렬합니다. 한 변수가 수천 갈래로 쓰이는 넓은 그래프에서는
  역전파가 눈에 띄게 느려집니다(책의 방식을 그대로 둡니다).
- 변수와 함수가 서로를 강하게 참조하는 순환 참조(circular reference)입니다. 출력을 지워도
  참조 카운트(reference count)가 0이 되지 않아, 가비지 컬렉션(GC)이 돌기 전까지 그래프가
  메모리에 남습니다(17단계에서 약한 참조로 고칩니다).
"""

import numpy as np

from . import step14 as _previous
from .step09 import as_array
from .step14 import *  # noqa: F403

__all__ = [*_previous.__all__]


class Variable(_previous.Variable):
    """데이터, 미분값, 창조자, 세대를 기억하는 상자입니다(``cleargrad``는 14단계 그대로)."""

    def __init__(self, data):
        super().__init__(data)  # 14단계(곧 9단계)의 검사와 data, grad, creator
        self.generation = 0  # 사용자가 만든 변수는 0세대입니다.

    # --8<-- [start:set_creator]
    def set_creator(self, func):
        self.creator = func
        self.generation = func.generation + 1  # 부모 함수보다 한 세대 뒤입니다.

    # --8<-- [end:set_creator]

    # --8<-- [start:backward]
    def backward(self):
        if self.grad is None:
            self.grad = np.ones_like(self.data)

        funcs = []
        seen_set = set()

        def add_func(f):
            if f not in seen_set:  # 같은 함수를 두 번 넣지 않습니다.
                funcs.append(f)
                seen_set.add(f)
                funcs.sort(key=lambda x: x.generation)  # 넣을 때마다 세대 순으로 정렬합니다.

        add_func(self.creator)

        while funcs:
            f = funcs.pop()  # 세대가 가장 큰 함수가 나옵니다.
            gys = [output.grad for output in f.outputs]
            gxs = f.backward(*gys)
            if not isinstance(gxs, tuple):
                gxs = (gxs,)

            for x, gx in zip(f.inputs, gxs, strict=True):
                if x.grad is None:
                    x.grad = gx
                else:
                    x.grad = x.grad + gx
                if x.creator is not None:
                    add_func(x.creator)

    # --8<-- [end:backward]


# --8<-- [start:function]
class Function(_previous.Function):
    """입력 가운데 가장 큰 세대를 자신의 세대로 삼는 함수의 기반 클래스입니다."""

    def __call__(self, *inputs):
        xs = [x.data for x in inputs]
        ys = self.forward(*xs)
        if not isinstance(ys, tuple):
            ys = (ys,)
        outputs = [Variable(as_array(y)) for y in ys]

        self.generation = max(x.generation for x in inputs)  # set_creator보다 먼저 정합니다.
        for output in outputs:
            output.set_creator(self)
        self.inputs = inputs
        self.outputs = outputs
        return outputs if len(outputs) > 1 else outputs[0]


# --8<-- [end:function]


class Square(_previous.Square, Function):
    """14단계의 ``Square``를 이 모듈의 ``Function``으로 부릅니다."""


def square(x):
    return Square()(x)


class Add(_previous.Add, Function):
    """14단계의 ``Add``를 이 모듈의 ``Function``으로 부릅니다."""


def add(x0, x1):
    return Add()(x0, x1)
