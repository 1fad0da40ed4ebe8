"""14단계: 같은 변수를 여러 번 쓸 때 미분값을 더합니다.

13단계와 비교해 바뀐 것은 ``Variable`` 두 곳입니다.

- ``backward``: 미분값이 이미 있으면 덮어쓰지 않고 더합니다. ``x.grad = x.grad + gx``처럼
  새 객체를 만듭니다(0차원 배열끼리 더하면 NumPy 스칼라). ``x.grad += gx``로 제자리(in-place)
  덧셈을 하면, 같은 배열 객체를 함께 쓰고 있는 다른 변수의 미분값까지 바뀌기
  때문입니다(``Add.backward``는 ``gy``를 두 입력에 같은 객체로 넘깁니다).
- ``cleargrad()``: 다른 계산에 같은 변수를 다시 쓰기 전에 미분값을 비웁니다.

``Variable``은 13단계의 상자를 물려받아 이 두 곳만 적습니다. ``Function``은 출력을 이 모듈의
``Variable``로 만들어야 하므로 같은 ``__call__``만 다시 적고, ``Square``와 ``Add``는 13단계의 것을
물려받아 이 모듈의 ``Function``으로 부르기만 합니다(``class Square(_previous.Square, Function)``).

한계:

- ``cleargrad()``를 잊으면 두 번째 계산의 미분값이 첫 번째 것에 더해집니다.
- 누적이 고치는 것은 창조자가 없는 말단 변수를 여러 번 쓸 때입니다.
  창조자가 있는 변수를 여러 번 쓰면 ``backward``가 쓰인 자리마다 그 창조자를 ``funcs``에
  넣어 여러 번 처리합니다. ``x = 3``, ``a = square(x)``, ``y = add(a, a)``에서 ``x.grad``는 정답 12의
  두 배인 24가 됩니다.
- 한 변수에서 갈라졌다가 다시 만나는 그래프(다이아몬드 모양)에서는 여기에 순서 문제가 겹칠 수
  있습니다. ``x = 2``, ``a = square(x)``, ``y = add(square(a), square(a))``에서는 스택에서 꺼내는
  순서 때문에 ``a``의 창조자의 첫 처리가 미분값이 다 모이기 전에 일어나고, 다 모인 뒤에 한 번 더
  처리되어 ``x.grad``가 정답 64 대신 96이 됩니다. 이 일이 생기는지는 그래프 모양만으로 정해지지
  않고 ``Add``에 넣은 인자의 순서에도 달려 있습니다. ``y = add(a, square(a))``에서는 두 번 모두 다
  모인 미분값을 받아 되풀이 처리만 일어나고, ``y = add(square(a), a)``에서는 첫 처리가 다 모이기
  전에 일어납니다. 두 문제 모두 16단계에서 고칩니다.
"""

import numpy as np

from . import step13 as _previous
from .step09 import as_array
from .step13 import *  # noqa: F403

__all__ = [*_previous.__all__]


class Variable(_previous.Variable):
    """13단계의 상자에 ``cleargrad``를 더하고 ``backward``를 바꿉니다."""

    # --8<-- [start:cleargrad]
    def cleargrad(self):
        """미분값을 비웁니다. 같은 변수로 새 계산을 하기 전에 부릅니다."""
        self.grad = None

    # --8<-- [end:cleargrad]

    # --8<-- [start:backward]
    def backward(self):
        if self.grad is None:
            self.grad = np.ones_like(self.data)

        funcs = [self.creator]
        while funcs:
            f = funcs.pop()
            gys = [output.grad for output in f.outputs]
            gxs = f.backward(*gys)
            if not isinstance(gxs, tuple):
                gxs = (gxs,)

            for x, gx in zip(f.inputs, gxs, strict=True):
                if x.grad is None:
                    x.grad = gx
                else:
                    x.grad = x.grad + gx  # 새 객체를 만듭니다(제자리 덧셈이 아닙니다).
                if x.creator is not None:
                    funcs.append(x.creator)

    # --8<-- [end:backward]


class Function(_previous.Function):
    """13단계와 같은 ``__call__``입니다. 이 모듈의 ``Variable``을 만들도록 다시 적었습니다."""

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


class Square(_previous.Square, Function):
    """13단계의 ``Square``를 이 모듈의 ``Function``으로 부릅니다."""


def square(x):
    return Square()(x)


class Add(_previous.Add, Function):
    """13단계의 ``Add``를 이 모듈의 ``Function``으로 부릅니다."""


def add(x0, x1):
    return Add()(x0, x1)
