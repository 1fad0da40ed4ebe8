"""44단계: 매개변수를 모으는 층. ``Parameter``, ``Layer``, ``Linear`` 층.

43단계까지는 ``W1``, ``b1``, ``W2``, ``b2``를 변수 하나하나로 들고 다니며 손으로 고쳤습니다. 44단계는
학습으로 고칠 변수를 ``Parameter``(``Variable``과 같고 타입만 다름)로 표시하고, ``Layer``가 그것을
모읍니다. 책처럼 ``Layer.__setattr__``이 속성을 넣는 순간 ``Parameter``의 이름을 집합에 적어 두고,
``params()``가 그 집합을 돕니다. ``Linear``는 43단계의 ``linear`` 함수를 부르는 층이고, 입력 크기를
주지 않으면 첫 입력을 보고 가중치를 만듭니다(전역 ``np.random``으로).

한계: 가중치의 처음 값은 책의 식 그대로 ``randn(...).astype(float32) * np.sqrt(1 / I)``인데, NumPy
2부터(NEP 50) ``np.sqrt``가 돌려주는 ``np.float64``가 배열을 끌어올려 float64가 됩니다(NumPy 1에서는
float32). 이름을 집합(``set``)에 두므로 ``params()``의 순서가 실행마다 달라질 수 있습니다(문자열 해시가
실행마다 바뀝니다). 층 안의 층은 아직 모으지 않습니다(45단계). 하위 클래스가
``super().__init__()``을 부르지 않으면 ``AttributeError``가 납니다. 그 밖에는 43단계와 같습니다.
"""

import weakref

import numpy as np

from . import step43 as _previous
from .step43 import *  # noqa: F403
from .step43 import Variable, linear

__all__ = [*_previous.__all__, "Parameter", "Layer"]


# --8<-- [start:parameter]
class Parameter(Variable):
    pass


# --8<-- [end:parameter]


# --8<-- [start:layer]
class Layer:
    """매개변수를 속성으로 가지는 층. 속성을 넣을 때 Parameter의 이름을 집합에 적어 둡니다."""

    def __init__(self):
        self._params = set()

    def __setattr__(self, name, value):
        if isinstance(value, Parameter):
            self._params.add(name)
        super().__setattr__(name, value)

    def __call__(self, *inputs):
        outputs = self.forward(*inputs)
        if not isinstance(outputs, tuple):
            outputs = (outputs,)
        self.inputs = [weakref.ref(x) for x in inputs]
        self.outputs = [weakref.ref(y) for y in outputs]
        return outputs if len(outputs) > 1 else outputs[0]

    def forward(self, inputs):
        raise NotImplementedError(f"{type(self).__name__}.forward를 하위 클래스에서 정의하세요.")

    def params(self):
        for name in self._params:
            yield self.__dict__[name]

    def cleargrads(self):
        for param in self.params():
            param.cleargrad()


# --8<-- [end:layer]


class Linear(Layer):
    """y = x @ W + b. ``in_size``를 주지 않으면 첫 입력의 마지막 축 크기로 W를 만듭니다."""

    def __init__(self, out_size, nobias=False, dtype=np.float32, in_size=None):
        super().__init__()
        self.in_size = in_size
        self.out_size = out_size
        self.dtype = dtype

        self.W = Parameter(None, name="W")
        if self.in_size is not None:
            self._init_W()

        if nobias:
            self.b = None
        else:
            self.b = Parameter(np.zeros(out_size, dtype=dtype), name="b")

    def _init_W(self):
        in_size, out_size = self.in_size, self.out_size
        W_data = np.random.randn(in_size, out_size).astype(self.dtype) * np.sqrt(1 / in_size)
        self.W.data = W_data

    def forward(self, x):
        if self.W.data is None:
            self.in_size = x.shape[1]
            self._init_W()
        return linear(x, self.W, self.b)
