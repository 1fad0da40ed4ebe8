"""45단계: 층 안의 층. ``Layer``가 ``Layer``도 모으고, 신경망 전체를 나타내는 ``Model``과 ``MLP``.

44단계의 ``Layer``는 자기 속성의 ``Parameter``만 모았습니다. 45단계는 속성이 ``Layer``이면 그 층의
매개변수까지 꺼내도록 ``__setattr__``과 ``params``를 고칩니다. ``Model``은 ``Layer``에 계산 그래프를
그리는 ``plot``을 더한 것이고(책은 Graphviz로 그림 파일을 만들고, 여기서는 26단계의 DOT 글을
돌려줍니다), ``MLP``는 층의 출력 크기를 튜플로 받아 ``Linear``를 쌓습니다. 층은 ``l0``, ``l1``,
... 속성으로 두고(``setattr``), 활성화 함수는 ``sigmoid``가 기본값입니다.

한계: 44단계와 같습니다(집합의 순서, ``super().__init__()``). 같은 층을 두 속성에 두면 매개변수가
두 번 나옵니다. 리스트에 담은 층은 모으지 않습니다.
"""

from . import step44 as _previous
from .step43 import get_dot_graph, sigmoid
from .step44 import *  # noqa: F403
from .step44 import Parameter

__all__ = [*_previous.__all__, "Model", "TwoLayerNet", "MLP"]


# --8<-- [start:layer]
class Layer(_previous.Layer):
    """44단계의 층을 물려받아 두 곳(표시한 줄)만 고쳐, 속성이 층이면 그 층의 매개변수도 모읍니다."""

    def __setattr__(self, name, value):
        if isinstance(value, Parameter | Layer):  # 층도 적어 둡니다
            self._params.add(name)
        super().__setattr__(name, value)

    def params(self):
        for name in self._params:
            obj = self.__dict__[name]
            if isinstance(obj, Layer):  # 층이면 그 안의 매개변수를 꺼냅니다
                yield from obj.params()
            else:
                yield obj


# --8<-- [end:layer]


class Linear(_previous.Linear, Layer):
    """44단계의 ``Linear``를 이 모듈의 ``Layer`` 위에 둡니다(코드는 44단계 그대로)."""


class Model(Layer):
    """신경망 전체. ``plot``은 입력을 넣어 순전파한 계산 그래프를 DOT 글로 돌려줍니다."""

    def plot(self, *inputs):
        y = self.forward(*inputs)
        return get_dot_graph(y, verbose=True)


class TwoLayerNet(Model):
    """책의 45단계 예제: Linear -> sigmoid -> Linear."""

    def __init__(self, hidden_size, out_size):
        super().__init__()
        self.l1 = Linear(hidden_size)
        self.l2 = Linear(out_size)

    def forward(self, x):
        y = sigmoid(self.l1(x))
        y = self.l2(y)
        return y


# --8<-- [start:mlp]
class MLP(Model):
    def __init__(self, fc_output_sizes, activation=sigmoid):
        super().__init__()
        self.activation = activation
        self.layers = []

        for i, out_size in enumerate(fc_output_sizes):
            layer = Linear(out_size)
            setattr(self, "l" + str(i), layer)
            self.layers.append(layer)

    def forward(self, x):
        for layer in self.layers[:-1]:
            x = self.activation(layer(x))
        return self.layers[-1](x)


# --8<-- [end:mlp]
