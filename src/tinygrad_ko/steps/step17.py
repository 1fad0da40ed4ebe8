"""17단계: 약한 참조(weak reference)로 순환 참조를 끊습니다.

16단계와 비교해 바뀐 것은 두 줄입니다.

- ``Function.__call__``: 출력 변수를 ``weakref.ref``로 감싸서 기억합니다.
  함수는 출력을 "가리키기만" 하고 살려 두지는 않습니다.
- ``Variable.backward``: 출력의 미분값을 읽을 때 ``output().grad``처럼 약한 참조를 불러
  실제 변수를 꺼냅니다.

이제 변수 → 창조자 → 입력 변수 방향으로만 강한 참조가 있습니다. 출력 변수가 사라지면
참조 카운트가 0이 되어, GC가 꺼져 있어도 그래프 가운데 바깥에서 따로 쥐지 않은 부분(이름으로 쥔
변수와 거기서 강한 참조로 닿는 것을 뺀 부분)이 곧바로 풀려납니다.

한계: 역전파가 끝나면 중간 변수의 미분값까지 모두 메모리에 남고, 추론처럼 역전파가 필요 없을
때도 그래프를 만듭니다(18단계에서 고칩니다). 넓은 그래프에서의 정렬 비용은 16단계와 같습니다.
"""

import weakref

import numpy as np

from . import step16 as _previous
from .step09 import as_array
from .step16 import *  # noqa: F403

__all__ = [*_previous.__all__]


class Variable(_previous.Variable):
    """16단계의 상자에서 ``backward``만 바꿉니다(출력을 약한 참조로 읽습니다)."""

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
            gys = [output().grad for output in f.outputs]  # 약한 참조를 불러 변수를 꺼냅니다.
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
    """출력을 약한 참조로 기억하는 함수의 기반 클래스입니다."""

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
        self.outputs = [weakref.ref(output) for output in outputs]  # 출력은 약하게 참조합니다.
        return outputs if len(outputs) > 1 else outputs[0]


# --8<-- [end:function]


class Square(_previous.Square, Function):
    """16단계의 ``Square``를 이 모듈의 ``Function``으로 부릅니다."""


def square(x):
    return Square()(x)


class Add(_previous.Add, Function):
    """16단계의 ``Add``를 이 모듈의 ``Function``으로 부릅니다."""


def add(x0, x1):
    return Add()(x0, x1)
