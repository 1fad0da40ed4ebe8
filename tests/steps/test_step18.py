"""18단계: retain_grad, Config, using_config, no_grad."""

import threading

import numpy as np
import pytest

from tinygrad_ko.steps import step18


def _graph():
    x = step18.Variable(np.array(2.0))
    a = step18.square(x)
    y = step18.add(a, a)  # y = 2x², dy/dx = 4x
    return x, a, y


def test_backward_drops_intermediate_grads_by_default():
    x, a, y = _graph()
    y.backward()
    assert x.grad == 4 * 2.0
    assert a.grad is None
    assert y.grad is None  # 책대로 출력 자신의 미분값도 지웁니다.


def test_retain_grad_keeps_them():
    x, a, y = _graph()
    y.backward(retain_grad=True)
    assert x.grad == 8.0
    assert a.grad == 2.0
    assert y.grad == 1.0


def test_backprop_is_enabled_by_default():
    assert step18.Config.enable_backprop is True


def test_no_grad_records_no_graph():
    x = step18.Variable(np.array(3.0))
    f = step18.Square()
    with step18.no_grad():
        assert step18.Config.enable_backprop is False
        y = f(x)
    assert y.data == 9.0  # 순전파는 그대로 합니다.
    assert y.creator is None and y.generation == 0
    for name in ("inputs", "outputs", "generation"):
        assert not hasattr(f, name)
    assert step18.Config.enable_backprop is True


def test_graph_is_recorded_again_after_no_grad():
    x = step18.Variable(np.array(3.0))
    with step18.no_grad():
        step18.square(x)
    y = step18.square(x)
    assert isinstance(y.creator, step18.Square) and y.creator.inputs[0] is x


def test_using_config_restores_the_value_after_an_exception():
    with pytest.raises(ValueError, match="일부러"):
        with step18.using_config("enable_backprop", False):
            assert step18.Config.enable_backprop is False
            raise ValueError("일부러 낸 예외")
    assert step18.Config.enable_backprop is True


def test_using_config_nests():
    with step18.no_grad():
        with step18.using_config("enable_backprop", True):
            assert step18.square(step18.Variable(np.array(1.0))).creator is not None
        assert step18.Config.enable_backprop is False
    assert step18.Config.enable_backprop is True


def test_config_is_shared_by_every_thread():
    # 한계: Config는 전역이라, 한 스레드의 no_grad가 다른 스레드의 계산에도 미칩니다.
    creators = []

    def compute():
        creators.append(step18.square(step18.Variable(np.array(1.0))).creator)

    with step18.no_grad():
        worker = threading.Thread(target=compute)
        worker.start()
        worker.join()
    assert creators == [None]
