"""역전파를 지켜보는 곳: 역전파의 반복문이 함수 하나의 backward를 부르기 직전마다 알려 줍니다.

```python
with observe_backward(print_step):
    loss.backward()
```

`observe_backward(callback)` 블록 안에서 역전파(`backward()`, `grad()`)를 하면, 반복문이 함수를 힙에서 꺼내
backward를 부르기 직전에 `callback(step)`을 부릅니다. `step`은 그 순간을 담은 `BackwardStep`입니다.
`tools/trace.py`의 그림과 부록의 힙 세기가 이것으로 역전파를 봅니다. 엔진의 코드나 모듈을 바꿔 끼우지
않고, 반복문의 지역 변수를 읽지도 않습니다.

- 듣는 쪽이 없으면 반복문은 한 걸음마다 값 하나가 비었는지만 봅니다.
- 듣는 쪽은 `contextvars.ContextVar`에 담깁니다. 스레드마다 따로이므로, 한 스레드가 건 callback은 다른
  스레드의 역전파를 보지 않습니다(asyncio 작업은 만들어질 때의 값을 물려받습니다).
- 블록을 겹치면 바깥 것부터 차례로 모두 불립니다.
- callback은 보기만 합니다. `step`에 담긴 미분값 배열은 엔진이 계속 쓰므로 고치면 안 됩니다(역전파는 칸의
  배열을 제자리에서 고치지 않으므로, 본 값은 나중에도 그대로입니다). callback이 예외를 내면 역전파가 실패한
  것과 같아서, 바꾼 grad를 모두 되돌리고 그 예외를 올립니다.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import TYPE_CHECKING

from . import messages

if TYPE_CHECKING:
    from .function import Function

# 지금 이 스레드(작업)에서 역전파를 듣는 callback들. 비어 있으면 아무도 듣지 않습니다.
_listeners: ContextVar[tuple[Callable, ...]] = ContextVar("backward_listeners", default=())


@dataclass(frozen=True)
class BackwardStep:
    """역전파의 한 걸음: 함수 `func`의 backward를 부르기 직전의 상태입니다.

    - `func`: 방금 힙에서 꺼내 이제 backward를 부를 함수
    - `entry`: 그 함수의 힙 원소 `(세대의 음수, 넣은 순서, 함수)`
    - `output_grads`: `func`의 출력마다의 미분값(backward가 받을 값)
    - `heap`: 힙에 남아 기다리는 원소들, **다음에 꺼낼 것부터**
    - `arrived`: 기다리는 함수마다 지금까지 도착한 출력의 미분값, `(함수, 출력마다의 미분값)`
      (아직 아무것도 오지 않은 출력의 자리는 None)
    """

    func: Function
    entry: tuple
    output_grads: tuple
    heap: tuple[tuple, ...]
    arrived: tuple[tuple[Function, tuple], ...]

    @property
    def waiting(self) -> list[Function]:
        """힙에서 기다리는 함수들, 다음에 꺼낼 것부터."""
        return [entry[2] for entry in self.heap]


@contextmanager
def observe_backward(callback: Callable[[BackwardStep], object]) -> Iterator[None]:
    """블록 안의 역전파가 함수의 backward를 부르기 직전마다 `callback(step)`을 부릅니다."""
    if not callable(callback):
        raise messages.not_a_listener(callback)
    token = _listeners.set((*_listeners.get(), callback))
    try:
        yield
    finally:
        _listeners.reset(token)


def listeners() -> tuple[Callable, ...]:
    """지금 역전파를 듣는 callback들(역전파가 시작할 때 한 번 읽습니다)."""
    return _listeners.get()


def notify(callbacks: tuple, entry: tuple, gys: list, heap: list, pending: dict) -> None:
    """반복문이 한 걸음마다 부릅니다: 그 순간의 상태를 `BackwardStep`으로 만들어 callback들에 넘깁니다."""
    step = BackwardStep(
        func=entry[2],
        entry=entry,
        output_grads=tuple(gys),
        heap=tuple(sorted(heap, key=lambda item: item[:2])),  # (세대의 음수, 넣은 순서)
        arrived=tuple((func, tuple(slots)) for func, slots in pending.items()),
    )
    for callback in callbacks:
        callback(step)
