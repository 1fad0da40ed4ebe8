"""역전파 활성/비활성 모드: with 블록, 데코레이터, 예외, 스레드 격리."""

import threading

import numpy as np
import pytest

import tinygrad_ko as tg
from tinygrad_ko import Config, Variable


def test_no_grad_builds_no_graph():
    x = Variable(np.array(2.0))
    with tg.no_grad():
        y = tg.square(x) * 3.0
        assert Config.enable_backprop is False
    assert y.creator is None
    assert Config.enable_backprop is True
    assert tg.square(x).creator is not None


def test_using_config_restores_after_an_exception():
    with pytest.raises(RuntimeError), tg.using_config("enable_backprop", False):
        raise RuntimeError("블록 안의 오류")
    assert Config.enable_backprop is True


def test_nested_blocks_restore_the_previous_value():
    with tg.no_grad():
        with tg.using_config("enable_backprop", True):
            assert Config.enable_backprop is True
        assert Config.enable_backprop is False
    assert Config.enable_backprop is True


def test_no_grad_as_decorator():
    @tg.no_grad()
    def predict(x):
        assert Config.enable_backprop is False
        return x * 2.0

    y = predict(Variable(np.array(1.0)))
    assert y.creator is None
    assert predict(Variable(np.array(1.0))).creator is None  # 두 번째 호출도 같은 모드.
    assert Config.enable_backprop is True


def test_unknown_setting_name_is_refused_in_korean():
    with pytest.raises(AttributeError, match="알 수 없는 설정 이름입니다: 'enable_backprob'"):
        with tg.using_config("enable_backprob", False):
            pass


def test_no_grad_in_one_thread_does_not_stop_another():
    inside = threading.Event()
    recorded = threading.Event()
    results = {}

    def inference():
        with tg.no_grad():
            inside.set()
            results["inference"] = tg.square(Variable(np.array(3.0))).creator
            recorded.wait(timeout=10)

    def training():
        inside.wait(timeout=10)
        y = tg.square(Variable(np.array(3.0)))
        results["training"] = y.creator
        results["training_mode"] = Config.enable_backprop
        recorded.set()

    threads = [threading.Thread(target=inference), threading.Thread(target=training)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=20)
    assert results["inference"] is None
    assert results["training"] is not None
    assert results["training_mode"] is True
