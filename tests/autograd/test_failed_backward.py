"""전부 아니면 전무인 역전파: 도중에 예외가 나면 어느 미분값도 남지 않고, 그래프도 그대로라 다시 할 수 있습니다."""

from __future__ import annotations

import numpy as np
import pytest

import tinygrad_ko as tg
from tinygrad_ko import Function, Variable


class Flaky(Function):
    """첫 backward에서만 실패하는 사용자 함수(고칠 수 있는 오류를 흉내 냅니다)."""

    def __init__(self, error: BaseException) -> None:
        self.error = error

    def forward(self, x):
        return x * 2.0

    def backward(self, gy):
        if self.error is not None:
            error, self.error = self.error, None
            raise error
        return gy * 2.0


@pytest.mark.parametrize("error", [ZeroDivisionError("실수"), KeyboardInterrupt()])
def test_failed_backward_leaves_grads_untouched_and_a_retry_works(error):
    x = Variable(np.array(1.0))
    w = Variable(np.array(3.0))
    x.grad = np.array(100.0)  # 앞선 역전파가 남긴 값
    y = Flaky(error)(x) + x * w  # x * w 쪽이 먼저 처리되어 x, w에 미분값이 갑니다
    with pytest.raises(type(error)):
        y.backward(retain_grad=True)
    assert x.grad == 100.0 and w.grad is None and y.grad is None  # 고치기 전: x.grad 103, w.grad 1
    y.backward()  # 고치기 전: "이미 해제되었습니다"
    assert x.grad == 100.0 + 2.0 + 3.0 and w.grad == 1.0


def test_refused_create_graph_midway_leaves_no_partial_variable_grads():
    class Plain(Function):  # create_graph를 지원한다고 표시하지 않은 사용자 함수
        def forward(self, x):
            return x * 2.0

        def backward(self, gy):
            return gy * 2.0

    x = Variable(np.array(1.0))
    y = tg.sin(x) + Plain()(x)  # Sin이 먼저 처리되어 x에 cos(1)을 보낸 뒤 Plain에서 멈춥니다
    with pytest.raises(TypeError, match="supports_create_graph"):
        y.backward(create_graph=True)
    assert x.grad is None  # 고치기 전: cos(1)이 담긴 Variable이 남아 다음 역전파에 더해짐
    y.backward()
    assert x.grad == pytest.approx(2.0 + np.cos(1.0))


def test_grad_function_failure_leaves_the_graph_usable():
    x = Variable(np.array(1.0))
    y = Flaky(ValueError("실수"))(x) * 3.0  # Mul을 마친 뒤 Flaky에서 멈춥니다
    with pytest.raises(ValueError):
        tg.grad(y, x)
    (gx,) = tg.grad(y, x)  # 고치기 전: Mul의 그래프가 이미 해제되었다는 오류
    assert gx == 6.0
