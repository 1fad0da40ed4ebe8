"""엔진의 모드(역전파 활성/비활성, 학습/시험)를 스레드마다 따로 관리합니다.

책의 DeZero는 `Config.enable_backprop`을 전역 클래스 속성으로 둡니다. 그러면 한 스레드가
`no_grad()`에 들어가는 순간 다른 모든 스레드도 계산 그래프를 기록하지 않게 됩니다.
여기서는 값을 `contextvars.ContextVar`에 담아, 스레드(와 asyncio 작업)마다 독립적으로 둡니다.
"""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Iterator

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


def _setting(name: object) -> contextvars.ContextVar[bool]:
    try:
        return _SETTINGS[name]  # type: ignore[index]
    except (KeyError, TypeError):
        known = ", ".join(sorted(_SETTINGS))
        raise AttributeError(
            f"알 수 없는 설정 이름입니다: {name!r}. 사용할 수 있는 이름: {known}"
        ) from None


class _ConfigMeta(type):
    """`Config.enable_backprop`을 읽고 쓰면 현재 스레드의 값이 바뀌도록 합니다."""

    @property
    def enable_backprop(cls) -> bool:
        return _SETTINGS["enable_backprop"].get()

    @enable_backprop.setter
    def enable_backprop(cls, value: bool) -> None:
        _SETTINGS["enable_backprop"].set(bool(value))

    @property
    def train(cls) -> bool:
        return _SETTINGS["train"].get()

    @train.setter
    def train(cls, value: bool) -> None:
        _SETTINGS["train"].set(bool(value))


class Config(metaclass=_ConfigMeta):
    """엔진의 설정. 값은 스레드마다 따로입니다.

    - `Config.enable_backprop`: 현재 스레드에서 계산 그래프를 기록할지(역전파 활성 모드).
    - `Config.train`: 학습 모드인지. False이면 시험 모드로, 드롭아웃이 아무것도 끄지 않습니다.
    """


@contextlib.contextmanager
def using_config(name: str, value: bool) -> Iterator[None]:
    """`with` 블록(또는 데코레이터로 감싼 함수) 안에서만 설정 `name`을 `value`로 바꿉니다.

    블록이 예외로 끝나도 이전 값으로 되돌립니다. `contextlib.contextmanager`로 만든 객체는
    `ContextDecorator`이기도 하므로 `@using_config("enable_backprop", False)`처럼 쓸 수 있습니다.
    """
    token = _setting(name).set(bool(value))
    try:
        yield
    finally:
        _setting(name).reset(token)


# 현재 스레드가 계산 그래프를 기록하는지(역전파 활성 모드인지) 알려 줍니다.
# 함수를 호출할 때마다 불리므로, 파이썬 함수로 감싸지 않고 ContextVar.get을 그대로 씁니다.
backprop_enabled = _ENABLE_BACKPROP.get


def no_grad() -> contextlib.AbstractContextManager[None]:
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
