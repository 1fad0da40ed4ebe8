"""엔진의 모드(역전파 활성/비활성, 학습/시험)를 스레드와 asyncio 작업마다 따로 관리합니다.

책의 DeZero는 `Config.enable_backprop`을 전역 클래스 속성으로 둡니다. 그러면 한 스레드가
`no_grad()`에 들어가는 순간 다른 모든 스레드도 계산 그래프를 기록하지 않게 됩니다.
여기서는 값을 `contextvars.ContextVar`에 담습니다. 그래서

- 스레드마다 따로입니다. 새 스레드는 기본값(활성)에서 시작합니다.
- asyncio 작업(Task)마다 따로입니다. 작업은 만들어질 때의 값을 복사해 시작하므로, `no_grad()` 안에서
  만든 작업은 비활성으로 시작하고, 한 작업이 `await` 하는 동안 `no_grad()` 안에 있어도 다른 작업의
  계산에는 영향이 없습니다. (PyTorch의 모드는 스레드마다 따로일 뿐이라, 같은 스레드의 작업끼리는 섞입니다.)
- Jupyter(ipykernel 7)의 셀은 같은 컨텍스트에서 차례로 돌므로, 한 셀에서 `Config.enable_backprop`을 바꾸면
  다음 셀에도 남습니다. 스크립트의 위에서 아래로 실행하는 것과 같습니다.

`with` 블록은 들어간 스레드(작업)에서 나와야 합니다. 다른 스레드에서 나오려고 하면 아무것도 바꾸지 않고
한국어 RuntimeError를 내므로, 들어간 쪽은 여전히 제대로 나올 수 있습니다.
"""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Callable
from typing import TypeVar

from .._checks import check_flag

# 설정 이름 -> 그 설정을 담는 ContextVar. 새 스레드는 기본값에서 시작합니다.
_ENABLE_BACKPROP: contextvars.ContextVar[bool] = contextvars.ContextVar(
    "enable_backprop", default=True
)
# 학습 모드인지. 드롭아웃처럼 학습과 추론(시험)에서 다르게 도는 함수가 봅니다(54단계).
_TRAIN: contextvars.ContextVar[bool] = contextvars.ContextVar("train", default=True)
_SETTINGS: dict[str, contextvars.ContextVar[bool]] = {
    "enable_backprop": _ENABLE_BACKPROP,
    "train": _TRAIN,
}

F = TypeVar("F", bound=Callable)


def _setting(name: object) -> contextvars.ContextVar[bool]:
    try:
        return _SETTINGS[name]  # type: ignore[index]
    except (KeyError, TypeError):
        known = ", ".join(sorted(_SETTINGS))
        raise AttributeError(
            f"알 수 없는 설정 이름입니다: {name!r}. 사용할 수 있는 이름: {known}"
        ) from None


class _ConfigMeta(type):
    """`Config.enable_backprop`을 읽고 쓰면 현재 스레드(작업)의 값이 바뀌도록 합니다."""

    @property
    def enable_backprop(cls) -> bool:
        return _SETTINGS["enable_backprop"].get()

    @enable_backprop.setter
    def enable_backprop(cls, value: bool) -> None:
        _SETTINGS["enable_backprop"].set(check_flag("설정 enable_backprop", value))

    @property
    def train(cls) -> bool:
        return _SETTINGS["train"].get()

    @train.setter
    def train(cls, value: bool) -> None:
        _SETTINGS["train"].set(check_flag("설정 train", value))


class Config(metaclass=_ConfigMeta):
    """엔진의 설정. 값은 스레드마다 따로입니다.

    - `Config.enable_backprop`: 현재 스레드에서 계산 그래프를 기록할지(역전파 활성 모드).
    - `Config.train`: 학습 모드인지. False이면 시험 모드로, 드롭아웃이 아무것도 끄지 않습니다.
    """


class using_config(contextlib.ContextDecorator):  # noqa: N801 - 책과 같은 함수 이름을 씁니다.
    """`with` 블록(또는 데코레이터로 감싼 함수) 안에서만 설정 `name`을 `value`로 바꿉니다.

    블록이 예외로 끝나도 이전 값으로 되돌립니다. 데코레이터로 쓰면 호출마다 새 블록이 되므로
    여러 스레드가 같은 함수를 함께 불러도 됩니다. 같은 객체로 `with`를 겹쳐 써도 됩니다.
    """

    def __init__(self, name: str, value: bool) -> None:
        self._var = _setting(name)
        self._name = name
        self._value = check_flag(f"설정 {name}", value)
        self._tokens: list[contextvars.Token[bool]] = []

    def _recreate_cm(self) -> using_config:  # 데코레이터: 호출마다 새 블록
        return type(self)(self._name, self._value)

    def __enter__(self) -> None:
        self._tokens.append(self._var.set(self._value))

    def __exit__(self, *exc_info: object) -> None:
        if not self._tokens:
            raise RuntimeError(
                f"using_config({self._name!r}, {self._value}) 블록에 들어가지 않았는데 나오려고 "
                f"했습니다. with 문으로 쓰세요."
            )
        try:
            self._var.reset(self._tokens[-1])
        except ValueError:  # 토큰을 만든 컨텍스트(스레드, asyncio 작업)가 아닙니다.
            raise RuntimeError(
                f"using_config({self._name!r}, {self._value}) 블록(no_grad 포함)은 들어간 스레드"
                f"(또는 asyncio 작업)에서 나와야 합니다. 이 블록은 다른 스레드에서 열렸으므로 아무것도 "
                f"바꾸지 않았습니다. 블록을 연 스레드에서 with 문으로 닫으세요."
            ) from None
        self._tokens.pop()


# 현재 스레드가 계산 그래프를 기록하는지(역전파 활성 모드인지) 알려 줍니다.
# 함수를 호출할 때마다 불리므로, 파이썬 함수로 감싸지 않고 ContextVar.get을 그대로 씁니다.
backprop_enabled = _ENABLE_BACKPROP.get


def no_grad() -> using_config:
    """역전파 비활성 모드: 추론처럼 미분이 필요 없을 때 계산 그래프를 기록하지 않습니다."""
    return using_config("enable_backprop", False)


# --8<-- [start:train]
# 현재 스레드가 학습 모드인지 알려 줍니다(드롭아웃이 부릅니다).
train_enabled = _TRAIN.get


def test_mode() -> contextlib.AbstractContextManager[None]:
    """시험(추론) 모드: 블록 안에서는 드롭아웃이 뉴런을 끄지 않고 입력을 그대로 내보냅니다.

    `no_grad()`처럼 스레드마다 따로이고, 블록을 나가면(예외로 나가도) 이전 모드로 돌아갑니다.
    """
    return using_config("train", False)


# --8<-- [end:train]


test_mode.__test__ = False  # pytest가 이 이름을 테스트 함수로 모으지 않게 합니다.
