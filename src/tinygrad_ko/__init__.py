"""tinygrad_ko: 한국어 튜토리얼과 함께 밑바닥부터 만드는 자동 미분 엔진.

여기서 내보내는 이름이 최종 엔진입니다. 튜토리얼 각 단계의 엔진은 `tinygrad_ko.steps`에 있습니다.

함수가 있는 곳: 원소별 함수와 브로드캐스트(`functions.py`), 모양 바꾸기와 인덱싱(`shapes.py`),
축을 따라 줄이기(`reductions.py`), 행렬 곱과 linear(`matrix.py`), 활성화 함수(`activations.py`),
손실 함수(`losses.py`).
"""

from .autograd.backprop import grad
from .autograd.core import Function, Parameter, Variable, as_array, as_variable
from .autograd.gradcheck import gradient_check, numerical_diff, numerical_grad
from .autograd.modes import Config, no_grad, test_mode, using_config
from .functions import operators as _operators  # noqa: F401 - Variable에 연산자를 붙입니다.
from .functions.activations import ReLU, Sigmoid, relu, sigmoid
from .functions.elementwise import (
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
from .functions.losses import MeanSquaredError, mean_squared_error
from .functions.matrix import Linear, MatMul, linear, matmul
from .functions.reductions import Max, Mean, Min, Sum, max, mean, min, sum
from .functions.shapes import GetItem, Reshape, Transpose, get_item, reshape, transpose

__version__ = "0.1.0"

__all__ = [
    "Add",
    "BroadcastTo",
    "Clip",
    "Config",
    "Cos",
    "Div",
    "Exp",
    "Function",
    "GetItem",
    "Linear",
    "Log",
    "MatMul",
    "Max",
    "Mean",
    "MeanSquaredError",
    "Min",
    "Mul",
    "Neg",
    "Parameter",
    "Pow",
    "ReLU",
    "Reshape",
    "Sigmoid",
    "Sin",
    "Square",
    "Sub",
    "Sum",
    "SumTo",
    "Tanh",
    "Transpose",
    "Variable",
    "add",
    "as_array",
    "as_variable",
    "broadcast_to",
    "clip",
    "cos",
    "div",
    "exp",
    "get_item",
    "grad",
    "gradient_check",
    "linear",
    "log",
    "matmul",
    "max",
    "mean",
    "mean_squared_error",
    "min",
    "mul",
    "neg",
    "no_grad",
    "numerical_diff",
    "numerical_grad",
    "pow",
    "relu",
    "reshape",
    "sigmoid",
    "sin",
    "square",
    "sub",
    "sum",
    "sum_to",
    "tanh",
    "test_mode",
    "transpose",
    "using_config",
]
