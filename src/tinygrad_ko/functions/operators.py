"""Variable에 연산자(`+ - * / ** @`, 단항 `-`, 인덱싱 `[]`)와 ndarray 같은 메서드를 붙입니다.

`autograd/`가 함수 모듈들을 모르도록, 둘을 이어 주는 일만 여기서 따로 합니다.
`functions/__init__.py`가 이 모듈을 불러 연산자와 메서드가 붙습니다. `tinygrad_ko/__init__.py`가
`functions`를 가져오므로 `import tinygrad_ko`만 해도 붙습니다.

메서드는 ndarray와 같은 이름과 인수를 씁니다: `x.reshape(2, 3)`과 `x.reshape((2, 3))`,
`x.transpose()`, `x.transpose(1, 0, 2)`, `x.T`, `x.sum(axis=0, keepdims=True)`. 그래서 역전파의
`gy.reshape(...)` 같은 식이 gy가 ndarray이든 Variable이든 맞습니다.
"""

from __future__ import annotations

from ..autograd.variable import Variable
from . import activations, matrix, reductions, shapes
from . import elementwise as F


def _rpow(x, c):
    raise TypeError(
        f"{type(c).__name__} ** Variable 은 지원하지 않습니다: 지수는 파이썬 수만 됩니다. "
        f"밑이 양수인 상수 c라면 exp(x * log(c))로 표현해 주세요."
    )


def _shape_args(args: tuple) -> object:
    """`f(2, 3)`과 `f((2, 3))`을 같게 받습니다(ndarray의 reshape, transpose처럼)."""
    if len(args) == 1 and (args[0] is None or isinstance(args[0], tuple | list)):
        return args[0]
    if not args:
        return None
    return args


def _reshape(x, *shape):
    """`x.reshape(2, 3)` 또는 `x.reshape((2, 3))`. 한 축은 -1로 둘 수 있습니다."""
    shape = _shape_args(shape)
    if shape is None:
        raise TypeError("reshape에는 새 모양을 주세요. 예: x.reshape(2, 3) 또는 x.reshape((2, 3))")
    return shapes.reshape(x, shape)


def _transpose(x, *axes):
    """`x.transpose()`(축을 모두 뒤집기), `x.transpose(1, 0, 2)` 또는 `x.transpose((1, 0, 2))`."""
    return shapes.transpose(x, _shape_args(axes))


def _iter(x):
    """`for row in x`: 첫 축을 따라 하나씩 꺼냅니다(0차원 Variable은 TypeError)."""
    for i in range(len(x)):
        yield shapes.get_item(x, i)


# --8<-- [start:install]
def install_operators() -> None:
    Variable.__add__ = F.add
    Variable.__radd__ = F.add
    Variable.__mul__ = F.mul
    Variable.__rmul__ = F.mul
    Variable.__sub__ = F.sub
    Variable.__rsub__ = F.rsub
    Variable.__truediv__ = F.div
    Variable.__rtruediv__ = F.rdiv
    Variable.__neg__ = F.neg
    Variable.__pow__ = F.pow
    Variable.__rpow__ = _rpow
    Variable.__matmul__ = matrix.matmul
    Variable.__rmatmul__ = matrix.rmatmul
    Variable.__getitem__ = shapes.get_item
    Variable.__iter__ = _iter
    Variable.reshape = _reshape
    Variable.transpose = _transpose
    Variable.T = property(shapes.transpose, doc="축을 모두 뒤집은 Variable(행렬이면 전치 행렬).")
    Variable.sum = reductions.sum
    Variable.mean = reductions.mean
    Variable.max = reductions.max
    Variable.min = reductions.min
    Variable.clip = F.clip
    Variable.sigmoid = activations.sigmoid
    Variable.relu = activations.relu


install_operators()  # 이 모듈을 처음 import할 때 한 번 실행됩니다
# --8<-- [end:install]
