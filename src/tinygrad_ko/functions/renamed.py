"""이름 하나가 두 가지를 뜻하지 않게 바꾼 옛 이름을 한 판(0.1) 동안만 받아 주는 곳입니다.

예전에는 `tinygrad_ko.Linear`와 `tinygrad_ko.Conv2d`가 함수 클래스였고, 같은 이름의 층이
`tinygrad_ko.nn`에 있었습니다. 이제 두 이름은 층만 뜻하고(`nn`), 함수 클래스는 `LinearFunction`,
`Conv2dFunction`입니다. 옛 이름으로 부르면 새 이름을 알려 주는 FutureWarning을 내고 함수 클래스를
돌려주므로, 옛 코드는 이번 판에서는 그대로 돕니다. 다음 판에서 이 모듈과 두 `__getattr__`을 지웁니다.
"""

from __future__ import annotations

import warnings

from ..autograd import messages
from .conv import Conv2dFunction
from .matrix import LinearFunction

# 옛 이름 → (새 함수 클래스, 함수 형태의 이름)
RENAMED = {
    "Linear": (LinearFunction, "linear"),
    "Conv2d": (Conv2dFunction, "conv2d"),
}


def old_name(module: str, name: str) -> type:
    """`module.name`이 바뀐 옛 이름이면 경고와 함께 새 함수 클래스를, 아니면 보통의 AttributeError."""
    if name not in RENAMED:
        raise AttributeError(f"module {module!r} has no attribute {name!r}")
    new, functional = RENAMED[name]
    text = messages.renamed_function_class(
        f"{module}.{name}", f"tinygrad_ko.nn.{name}", new.__name__, functional
    )
    warnings.warn(text, FutureWarning, stacklevel=3)  # 경고가 옛 이름을 쓴 줄을 가리키게
    return new
