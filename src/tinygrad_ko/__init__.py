"""tinygrad_ko: 한국어 튜토리얼과 함께 밑바닥부터 만드는 자동 미분 엔진.

여기서 내보내는 이름이 최종 엔진입니다. 변수, 함수, 역전파와 모드는 `autograd/`에, 미분할 수 있는
연산은 `functions/`에 있고, 여기서는 두 폴더의 공개 이름(각 `__all__`)을 그대로 모아 내보냅니다.
작은 프레임워크는 `tinygrad_ko.nn`, `tinygrad_ko.optimizers`, `tinygrad_ko.data`에, 튜토리얼 각
단계의 엔진은 `tinygrad_ko.steps`에 있습니다.
"""

from . import autograd, functions
from .autograd import *  # noqa: F403 - autograd.__all__
from .functions import *  # noqa: F403 - functions.__all__ (연산자도 이때 Variable에 붙습니다)

__version__ = "0.1.0"

__all__ = [*autograd.__all__, *functions.__all__]
