"""12단계: 가변 길이 인수(variable-length arguments)로 부르기 쉽게 만듭니다.

11단계와 비교해 ``Function.__call__``과 ``Add``가 바뀝니다(``Variable``과 ``as_array``는
여전히 9단계 것입니다).

- ``__call__(*inputs)``: ``Add()(x0, x1)``처럼 리스트 없이 인수를 나열합니다.
- ``forward(*xs)``: 하위 클래스도 ``forward(x0, x1)``처럼 평범한 인수로 받습니다.
  반환값이 튜플이 아니면 ``__call__``이 튜플로 감쌉니다.
- 출력이 하나뿐이면 리스트가 아니라 그 변수 하나를 돌려줍니다.
- ``add(x0, x1)``: ``Add()(x0, x1)``의 줄임입니다.

한계: 역전파는 여전히 안 됩니다(``Variable.backward``가 ``f.input``을 찾다가
``AttributeError``가 납니다). 13단계에서 고칩니다.
"""

from . import step11 as _previous
from .step09 import Variable, as_array
from .step11 import *  # noqa: F403

__all__ = [*_previous.__all__, "add"]


# --8<-- [start:function]
class Function:
    """인수를 몇 개든 받을 수 있는 함수의 기반 클래스입니다."""

    def __call__(self, *inputs):
        xs = [x.data for x in inputs]
        ys = self.forward(*xs)  # 리스트를 풀어서(언팩) 넘깁니다.
        if not isinstance(ys, tuple):
            ys = (ys,)  # 출력이 하나면 튜플로 감싸 아래 코드를 하나로 둡니다.
        outputs = [Variable(as_array(y)) for y in ys]
        for output in outputs:
            output.set_creator(self)
        self.inputs = inputs
        self.outputs = outputs
        return outputs if len(outputs) > 1 else outputs[0]

    def forward(self, *xs):
        raise NotImplementedError(
            f"{type(self).__name__}.forward가 구현되지 않았습니다. "
            "Function을 상속한 클래스에서 forward를 정의하세요."
        )

    def backward(self, *gys):
        raise NotImplementedError(
            f"{type(self).__name__}.backward가 구현되지 않았습니다. "
            "Function을 상속한 클래스에서 backward를 정의하세요."
        )


# --8<-- [end:function]


# --8<-- [start:add]
class Add(Function):
    """두 입력을 더합니다: y = x0 + x1"""

    def forward(self, x0, x1):
        y = x0 + x1
        return y


def add(x0, x1):
    """``Add()(x0, x1)``을 한 번에 부릅니다."""
    return Add()(x0, x1)


# --8<-- [end:add]
