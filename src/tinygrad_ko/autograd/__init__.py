"""자동 미분의 심장: 변수(`variable`)와 함수(`function`), 역전파 알고리즘(`backprop`), 역전파 활성·학습
모드(`modes`), 수치 미분으로 하는 기울기 확인(`gradcheck`), 역전파를 지켜보는 곳(`observe`).

1~15장(책의 1~24단계)에서 만든 엔진을 고쳐 다듬은 것이 이 폴더입니다. 미분할 수 있는 연산은 `tinygrad_ko.functions`에 있습니다.
"""

from .backprop import grad
from .function import Function
from .gradcheck import gradient_check, numerical_diff, numerical_grad
from .modes import Config, no_grad, test_mode, using_config
from .observe import BackwardStep, observe_backward
from .variable import Parameter, Variable, as_array, as_variable

__all__ = [
    "BackwardStep",
    "Config",
    "Function",
    "Parameter",
    "Variable",
    "as_array",
    "as_variable",
    "grad",
    "gradient_check",
    "no_grad",
    "numerical_diff",
    "numerical_grad",
    "observe_backward",
    "test_mode",
    "using_config",
]
