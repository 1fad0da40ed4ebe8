"""36단계: 이중 역전파. 제3고지 끝의 엔진(35단계 엔진 그대로)입니다.

36단계는 새 코드를 더하지 않고, 32~35단계의 엔진으로 할 수 있는 일을 봅니다. 미분값
``x.grad``가 계산 그래프를 가진 ``Variable``이므로, 미분값을 넣은 식을 다시 미분할 수 있습니다.
이것을 이중 역전파(double backpropagation)라고 합니다. 예를 들어 y = x²에서 gx = dy/dx = 2x를
구하고, z = gx³ + y를 다시 x로 미분하면 dz/dx = 24x² + 2x, x = 2에서 100입니다(21장).

이 모듈이 제3고지 끝의 "책의 엔진"입니다. 제4고지(37단계~)의 스냅숏은 이 모듈에서 시작합니다.

한계: 35단계와 같습니다. 미분값은 ``x.grad``에 누적되므로 이중 역전파 전에 ``x.cleargrad()``를
불러야 합니다. 역전파마다 그래프 전체를 정렬하며 돌고(넣을 때마다 정렬), 그래프를 놓아 주지
않으며, ``Config``는 전역입니다.
"""

from .step35 import (
    Add,
    Config,
    Cos,
    Div,
    Exp,
    Function,
    Mul,
    Neg,
    Pow,
    Sin,
    Square,
    Sub,
    Tanh,
    Variable,
    add,
    as_array,
    as_variable,
    cos,
    div,
    exp,
    get_dot_graph,
    goldstein,
    matyas,
    mul,
    neg,
    no_grad,
    power,
    rdiv,
    rosenbrock,
    rsub,
    sin,
    sphere,
    square,
    sub,
    tanh,
    taylor_sin,
    using_config,
)

__all__ = [
    "Add",
    "Config",
    "Cos",
    "Div",
    "Exp",
    "Function",
    "Mul",
    "Neg",
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
    "get_dot_graph",
    "goldstein",
    "matyas",
    "mul",
    "neg",
    "no_grad",
    "power",
    "rdiv",
    "rosenbrock",
    "rsub",
    "sin",
    "sphere",
    "square",
    "sub",
    "tanh",
    "taylor_sin",
    "using_config",
]
