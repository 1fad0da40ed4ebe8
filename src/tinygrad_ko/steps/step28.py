"""28단계: 경사 하강법으로 로젠브록 함수의 최솟값을 찾습니다.

엔진은 27단계(곧 22단계) 것을 그대로 씁니다. 더한 것은 시험용 함수 하나입니다.

- ``rosenbrock(x0, x1) = 100 (x1 - x0²)² + (x0 - 1)²``: 최솟값은 (1, 1)에서 0입니다. 최솟값이
  바닥이 평평하고 길게 휜 골짜기 안에 있어서, 기울기만 보고 내려가는 방법이 얼마나 느린지 보여
  주는 데 자주 씁니다.

경사 하강법 자체는 엔진의 일이 아니라 엔진을 쓰는 코드입니다. 역전파로 미분값을 구하고,
``x.data -= lr * x.grad``처럼 기울기의 반대쪽으로 조금씩 옮기기를 되풀이합니다(17장).

한계: 엔진은 22단계와 같습니다. 미분값은 1계까지만 구할 수 있습니다(``x.grad``가 ndarray).
"""

from .step27 import (
    Add,
    Config,
    Div,
    Exp,
    Function,
    Mul,
    Neg,
    Pow,
    Sin,
    Square,
    Sub,
    Variable,
    add,
    as_array,
    as_variable,
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
    rsub,
    sin,
    sphere,
    square,
    sub,
    taylor_sin,
    using_config,
)

__all__ = [
    "Add",
    "Config",
    "Div",
    "Exp",
    "Function",
    "Mul",
    "Neg",
    "Pow",
    "Sin",
    "Square",
    "Sub",
    "Variable",
    "add",
    "as_array",
    "as_variable",
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
    "taylor_sin",
    "using_config",
]


# --8<-- [start:rosenbrock]
def rosenbrock(x0, x1):
    """y = 100 (x1 - x0²)² + (x0 - 1)². 최솟값은 (1, 1)에서 0입니다."""
    return 100 * (x1 - x0**2) ** 2 + (x0 - 1) ** 2


# --8<-- [end:rosenbrock]
