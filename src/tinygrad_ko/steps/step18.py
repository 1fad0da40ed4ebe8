"""18단계: 메모리 절약 모드(memory-saving mode)를 만듭니다.

17단계와 비교해 바뀐 점은 다음과 같습니다.

- ``Variable.backward(retain_grad=False)``: 함수 하나를 처리하고 나면 그 함수의 출력 변수들의
  미분값을 ``None``으로 지웁니다. 그래서 역전파가 끝나면 말단 변수(사용자가 만든 변수)에만
  미분값이 남습니다. 중간 변수의 미분값까지 보고 싶으면 ``retain_grad=True``를 넘깁니다.
- ``Config.enable_backprop``: ``True``면 역전파 활성 모드, ``False``면 역전파 비활성 모드입니다.
  비활성 모드에서 ``Function``은 계산만 하고 그래프(창조자, 입력, 출력, 세대)를 남기지 않습니다.
- ``using_config(name, value)``: ``with`` 문 안에서만 ``Config``의 값을 바꾸고, 블록을 나갈 때
  (예외가 나도) 원래 값으로 되돌리는 컨텍스트 관리자입니다.
- ``no_grad()``: ``using_config("enable_backprop", False)``의 줄임입니다.

한계: ``Config``는 모듈 전체가 함께 쓰는 전역 값입니다. 한 스레드가 ``no_grad()`` 안에 있는 동안에는
다른 스레드도 그래프를 만들지 못합니다. 정렬 비용은 16단계와 같습니다.
"""

import contextlib
import weakref

import numpy as np

from . import step17 as _previous
from .step09 import as_array
from .step17 import *  # noqa: F403

__all__ = [*_previous.__all__, "Config", "using_config", "no_grad"]


# --8<-- [start:config]
class Config:
    """엔진 전체의 설정입니다. 클래스 속성이므로 인스턴스를 만들지 않고 그대로 씁니다."""

    enable_backprop = True  # False면 순전파만 하고 계산 그래프를 만들지 않습니다.


# --8<-- [end:config]


# --8<-- [start:using_config]
@contextlib.contextmanager
def using_config(name, value):
    """``with`` 블록 안에서만 ``Config.<name>``을 ``value``로 바꿉니다."""
    old_value = getattr(Config, name)
    setattr(Config, name, value)
    try:
        yield
    finally:
        setattr(Config, name, old_value)  # 블록 안에서 예외가 나도 되돌립니다.


# --8<-- [end:using_config]


# --8<-- [start:no_grad]
def no_grad():
    """역전파 비활성 모드로 계산하는 ``with`` 블록을 만듭니다."""
    return using_config("enable_backprop", False)


# --8<-- [end:no_grad]


class Variable(_previous.Variable):
    """17단계의 상자에서 ``backward``만 바꿉니다(``retain_grad``)."""

    # --8<-- [start:backward]
    def backward(self, retain_grad=False):
        if self.grad is None:
            self.grad = np.ones_like(self.data)

        funcs = []
        seen_set = set()

        def add_func(f):
            if f not in seen_set:
                funcs.append(f)
                seen_set.add(f)
                funcs.sort(key=lambda x: x.generation)

        add_func(self.creator)

        while funcs:
            f = funcs.pop()
            gys = [output().grad for output in f.outputs]
            gxs = f.backward(*gys)
            if not isinstance(gxs, tuple):
                gxs = (gxs,)

            for x, gx in zip(f.inputs, gxs, strict=True):
                if x.grad is None:
                    x.grad = gx
                else:
                    x.grad = x.grad + gx
                if x.creator is not None:
                    add_func(x.creator)

            if not retain_grad:
                for y in f.outputs:
                    y().grad = None  # 이 함수의 출력 미분값은 더 쓸 일이 없으므로 지웁니다.

    # --8<-- [end:backward]


# --8<-- [start:function]
class Function(_previous.Function):
    """역전파 활성 모드일 때만 계산 그래프를 기록하는 함수의 기반 클래스입니다."""

    def __call__(self, *inputs):
        xs = [x.data for x in inputs]
        ys = self.forward(*xs)
        if not isinstance(ys, tuple):
            ys = (ys,)
        outputs = [Variable(as_array(y)) for y in ys]

        if Config.enable_backprop:  # 비활성 모드면 창조자도 입력도 남기지 않습니다.
            self.generation = max(x.generation for x in inputs)
            for output in outputs:
                output.set_creator(self)
            self.inputs = inputs
            self.outputs = [weakref.ref(output) for output in outputs]

        return outputs if len(outputs) > 1 else outputs[0]


# --8<-- [end:function]


class Square(_previous.Square, Function):
    """17단계의 ``Square``를 이 모듈의 ``Function``으로 부릅니다."""


def square(x):
    return Square()(x)


class Add(_previous.Add, Function):
    """17단계의 ``Add``를 이 모듈의 ``Function``으로 부릅니다."""


def add(x0, x1):
    return Add()(x0, x1)
