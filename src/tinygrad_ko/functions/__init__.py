"""미분할 수 있는 연산을 종류별로 모은 곳입니다. DeZero처럼 `import tinygrad_ko.functions as F`로 씁니다.

원소별 함수와 브로드캐스트(`elementwise`), 모양 바꾸기와 인덱싱(`shapes`), 축을 따라 줄이기
(`reductions`), 행렬 곱과 linear(`matrix`), 활성화 함수(`activations`), 손실 함수(`losses`),
소프트맥스와 교차 엔트로피(`softmax`), 정확도(`metrics`), 합성곱과 풀링(`conv`), 드롭아웃(`dropout`). `operators`는 이 함수들을 `Variable`의
연산자(`+`, `*`, `@`, …)와 메서드(`x.reshape`, `x.sum`, …)로 붙입니다.
"""

from . import operators as _operators  # noqa: F401 - 이 함수들을 Variable의 연산자와 메서드로 붙입니다.
from .activations import ReLU, Sigmoid, relu, sigmoid
from .conv import (
    AveragePooling,
    Col2im,
    Conv2dFunction,
    Im2col,
    Pooling,
    average_pooling,
    col2im,
    conv2d,
    conv2d_simple,
    get_conv_outsize,
    im2col,
    pooling,
)
from .dropout import dropout
from .elementwise import (
    Add,
    BroadcastTo,
    Clip,
    Cos,
    Div,
    Exp,
    Log,
    Mul,
    Neg,
    Pow,
    Sin,
    Square,
    Sub,
    SumTo,
    Tanh,
    add,
    broadcast_to,
    clip,
    cos,
    div,
    exp,
    log,
    mul,
    neg,
    pow,
    sin,
    square,
    sub,
    sum_to,
    tanh,
)
from .losses import MeanSquaredError, mean_squared_error
from .matrix import LinearFunction, MatMul, linear, matmul
from .metrics import accuracy
from .reductions import Max, Mean, Min, Sum, max, mean, min, sum
from .renamed import old_name as _old_name
from .shapes import GetItem, Reshape, Transpose, get_item, reshape, transpose
from .softmax import (
    LogSoftmax,
    Softmax,
    SoftmaxCrossEntropy,
    log_softmax,
    softmax,
    softmax_cross_entropy,
)

__all__ = [
    "AveragePooling",
    "Col2im",
    "Im2col",
    "Pooling",
    "average_pooling",
    "col2im",
    "conv2d",
    "conv2d_simple",
    "get_conv_outsize",
    "im2col",
    "pooling",
    "Conv2dFunction",
    "Add",
    "BroadcastTo",
    "Clip",
    "Cos",
    "Div",
    "Exp",
    "GetItem",
    "LinearFunction",
    "Log",
    "LogSoftmax",
    "MatMul",
    "Max",
    "Mean",
    "MeanSquaredError",
    "Min",
    "Mul",
    "Neg",
    "Pow",
    "ReLU",
    "Reshape",
    "Sigmoid",
    "Sin",
    "Softmax",
    "SoftmaxCrossEntropy",
    "Square",
    "Sub",
    "Sum",
    "SumTo",
    "Tanh",
    "Transpose",
    "accuracy",
    "add",
    "broadcast_to",
    "clip",
    "cos",
    "div",
    "dropout",
    "exp",
    "get_item",
    "linear",
    "log",
    "log_softmax",
    "matmul",
    "max",
    "mean",
    "mean_squared_error",
    "min",
    "mul",
    "neg",
    "pow",
    "relu",
    "reshape",
    "sigmoid",
    "sin",
    "softmax",
    "softmax_cross_entropy",
    "square",
    "sub",
    "sum",
    "sum_to",
    "tanh",
    "transpose",
]


def __getattr__(name: str) -> type:
    """옛 이름 `F.Linear`, `F.Conv2d`: 한 판 동안 새 이름을 알리며 받아 줍니다(`renamed.py`)."""
    return _old_name(__name__, name)
