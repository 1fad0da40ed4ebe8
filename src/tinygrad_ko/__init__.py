"""tinygrad_ko: 한국어 튜토리얼과 함께 밑바닥부터 만드는 자동 미분 엔진.

여기서 내보내는 이름이 최종 엔진입니다. 튜토리얼 각 단계의 엔진은 `tinygrad_ko.steps`에 있습니다.
"""

from . import operators as _operators  # noqa: F401 - Variable에 연산자를 붙입니다.
from .backprop import grad
from .config import Config, no_grad, test_mode, using_config
from .core import Function, Parameter, Variable, as_array, as_variable
from .functions import (
    Add,
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
    Tanh,
    add,
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
    tanh,
)
from .utils import gradient_check, numerical_diff, numerical_grad

__version__ = "0.1.0"

__all__ = [
    "Add",
    "Config",
    "Cos",
    "Div",
    "Exp",
    "Function",
    "Log",
    "Mul",
    "Neg",
    "Parameter",
    "Pow",
    "Sin",
    "Square",
    "Sub",
    "Tanh",
    "Variable",
    "add",
    "as_array",
    "as_variable",
    "cos",
    "div",
    "exp",
    "grad",
    "gradient_check",
    "log",
    "mul",
    "neg",
    "no_grad",
    "numerical_diff",
    "numerical_grad",
    "pow",
    "sin",
    "square",
    "sub",
    "tanh",
    "test_mode",
    "using_config",
]
