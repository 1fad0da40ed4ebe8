"""tinygrad_ko: 한국어 튜토리얼과 함께 밑바닥부터 만드는 자동 미분 엔진.

여기서 내보내는 이름이 최종 엔진입니다. 변수, 함수, 역전파와 모드는 `autograd/`에, 미분할 수 있는
연산은 `functions/`에 있고, 여기서는 두 폴더의 공개 이름(각 `__all__`)을 그대로 모아 내보냅니다.
작은 프레임워크는 `tinygrad_ko.nn`, `tinygrad_ko.optimizers`, `tinygrad_ko.data`에, 튜토리얼 각
단계의 엔진은 `tinygrad_ko.steps`에 있습니다.

엔진은 NumPy 위에 있지만 `tinygrad_ko.micrograd`는 NumPy 없이 돕니다. 그 하위 패키지를 가져올 때도 이
파일이 먼저 실행되므로, NumPy를 가져올 수 없으면 엔진을 가져오지 않고 엔진의 이름을 쓰는 순간에 까닭을
알립니다.
"""


def _installed_version() -> str:
    """`tinygrad_ko.__version__`: 설치한 배포판의 메타데이터에 적힌 버전(물을 때 읽습니다).

    버전을 적는 곳은 pyproject.toml의 `version` 하나입니다. pip이 설치할 때(저장소 경로, git 주소,
    휠) 그 값을 메타데이터에 적으므로, 사이트의 휠(`0.1.0+소스해시`)로 설치했으면 그 휠의 버전이
    나옵니다. 메타데이터를 찾는 데 시간이 걸려(설치된 패키지가 많으면 수백 ms) import 때 읽지 않습니다.
    설치하지 않고 소스 폴더만 경로에 넣었으면 "0+unknown"입니다.
    """
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("tinygrad_ko")
    except PackageNotFoundError:
        return "0+unknown"


try:
    import numpy  # 엔진을 가져올 수 있는지만 봅니다
except ImportError as error:  # NumPy 없는 인터프리터: micrograd만 쓸 수 있습니다
    _numpy_error = error
    __all__ = []

    def __getattr__(name: str) -> object:
        if name == "__version__":
            return _installed_version()
        if name.startswith("__"):  # 파이썬이 묻는 특수 속성(__path__ 등)은 보통처럼 없다고 답합니다
            raise AttributeError(name)
        raise AttributeError(
            f"tinygrad_ko.{name}을(를) 쓸 수 없습니다. 최종 엔진은 NumPy가 필요한데 NumPy를 가져오지 "
            f"못했습니다({_numpy_error}). pip install numpy로 설치하세요. NumPy 없이 쓸 수 있는 것은 "
            f"tinygrad_ko.micrograd입니다."
        ) from None

else:
    del numpy  # 이 패키지의 이름은 엔진의 이름만입니다
    # --8<-- [start:engine]
    from . import autograd, functions  # functions를 가져올 때 operators가 연산자를 붙입니다
    from .autograd import *  # noqa: F403 - autograd.__all__
    from .functions import *  # noqa: F403 - functions.__all__

    __all__ = [*autograd.__all__, *functions.__all__]
    # --8<-- [end:engine]

    def __getattr__(name: str) -> object:
        """`__version__`은 물을 때 설치 메타데이터에서 읽습니다(`_installed_version`). 옛 이름
        `tinygrad_ko.Linear`, `tinygrad_ko.Conv2d`는 한 판 동안 새 이름을 알리며 받아 줍니다."""
        if name == "__version__":
            return _installed_version()
        return functions.renamed.old_name(__name__, name)
