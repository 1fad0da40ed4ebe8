"""Variable에 연산자(`+ - * / **`, 단항 `-`)를 붙입니다: 연산자 오버로드.

`core.py`가 `functions.py`를 모르도록, 둘을 이어 주는 일만 여기서 따로 합니다.
패키지를 import하면 `__init__.py`가 이 모듈을 불러 연산자가 붙습니다.
"""

from __future__ import annotations

from . import functions as F
from .core import Variable


def _rpow(x, c):
    raise TypeError(
        f"{type(c).__name__} ** Variable 은 지원하지 않습니다: 지수는 파이썬 수만 됩니다. "
        f"밑이 상수라면 exp(x * log(c))로 표현해 주세요."
    )


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


install_operators()
