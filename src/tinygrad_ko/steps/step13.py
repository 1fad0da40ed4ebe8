"""13단계: 입력이 여러 개인 함수도 역전파합니다.

12단계와 비교해 바뀐 점은 다음과 같습니다.

- ``Variable.backward``: 함수의 출력들(``f.outputs``)의 미분값을 모아 ``f.backward(*gys)``에
  넘기고, 돌아온 미분값들(``gxs``)을 입력들(``f.inputs``)과 하나씩 짝지어 넣습니다.
- ``Square.backward``는 ``self.input`` 대신 ``self.inputs[0]``을 읽습니다.
- ``Add.backward``는 출력 쪽 미분값을 두 입력에 그대로 흘려보냅니다(덧셈의 국소 미분은 1).

``Variable``은 12단계(곧 9단계)의 상자를 물려받아 ``backward``만 새로 적습니다. ``Function``은
12단계를 물려받고, 출력을 이 모듈의 ``Variable``로 만들어야 하므로 같은 ``__call__``만 다시 적습니다.

한계: 같은 변수를 두 번 넣으면 미분값이 틀립니다. ``y = add(x, x)``에서 dy/dx는 2인데,
두 번째 미분값이 첫 번째 것을 덮어써서 1이 나옵니다(14단계에서 고칩니다).
"""

import numpy as np

from . import step12 as _previous
from .step09 import as_array
from .step12 import *  # noqa: F403

__all__ = [*_previous.__all__, "Square", "square"]


class Variable(_previous.Variable):
    """9단계의 상자에서 ``backward``만 바꿉니다(입력과 출력이 여럿)."""

    # --8<-- [start:backward]
    def backward(self):
        if self.grad is None:
            self.grad = np.ones_like(self.data)

        funcs = [self.creator]
        while funcs:
            f = funcs.pop()
            gys = [output.grad for output in f.outputs]  # 출력들의 미분값을 모읍니다.
            gxs = f.backward(*gys)
            if not isinstance(gxs, tuple):
                gxs = (gxs,)

            for x, gx in zip(f.inputs, gxs, strict=True):  # 입력 하나에 미분값 하나씩 짝짓습니다.
                x.grad = gx  # 덮어씁니다: 같은 변수가 두 번 나오면 앞의 값이 사라집니다.
                if x.creator is not None:
                    funcs.append(x.creator)

    # --8<-- [end:backward]


class Function(_previous.Function):
    """12단계와 같은 ``__call__``입니다. 이 모듈의 ``Variable``을 만들도록 다시 적었습니다."""

    def __call__(self, *inputs):
        xs = [x.data for x in inputs]
        ys = self.forward(*xs)
        if not isinstance(ys, tuple):
            ys = (ys,)
        outputs = [Variable(as_array(y)) for y in ys]
        for output in outputs:
            output.set_creator(self)
        self.inputs = inputs
        self.outputs = outputs
        return outputs if len(outputs) > 1 else outputs[0]


# --8<-- [start:square]
class Square(Function):
    """y = x², 국소 미분은 2x입니다."""

    def forward(self, x):
        return x**2

    def backward(self, gy):
        x = self.inputs[0].data  # 입력이 리스트가 되었으므로 첫 번째 것을 꺼냅니다.
        return 2 * x * gy


def square(x):
    return Square()(x)


# --8<-- [end:square]


# --8<-- [start:add]
class Add(Function):
    """y = x0 + x1, 두 입력의 국소 미분은 모두 1입니다."""

    def forward(self, x0, x1):
        return x0 + x1

    def backward(self, gy):
        return gy, gy  # 출력의 미분값을 두 입력에 그대로 전합니다.


def add(x0, x1):
    return Add()(x0, x1)


# --8<-- [end:add]
