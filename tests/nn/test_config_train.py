"""학습/시험 모드(Config.train, test_mode)가 no_grad처럼 스레드마다 따로인지."""

import threading

import numpy as np
import pytest

import tinygrad_ko as tg
from tinygrad_ko.autograd.modes import train_enabled


def test_train_mode_is_default_and_test_mode_switches_it_off():
    assert tg.Config.train is True
    with tg.test_mode():
        assert tg.Config.train is False
        assert train_enabled() is False
    assert tg.Config.train is True


def test_test_mode_restores_after_exception():
    with pytest.raises(RuntimeError), tg.test_mode():
        raise RuntimeError("x")
    assert train_enabled()


def test_test_mode_in_one_thread_does_not_change_another():
    inside = threading.Event()
    release = threading.Event()
    seen = []

    def worker():
        with tg.test_mode():
            inside.set()
            release.wait(5)

    thread = threading.Thread(target=worker)
    thread.start()
    inside.wait(5)
    seen.append(train_enabled())
    release.set()
    thread.join()
    assert seen == [True]


def test_unknown_setting_is_refused():
    with pytest.raises(AttributeError, match="train"):
        with tg.using_config("training", False):
            pass


@pytest.mark.parametrize("value", ["False", 0, 1, None, np.bool_(False)])
def test_train_refuses_non_bool_like_enable_backprop(value):
    # "False"는 참으로 읽히므로 받으면 학습 모드가 조용히 켜진 채 남습니다.
    with pytest.raises(TypeError, match="설정 train에는 True나 False"):
        tg.Config.train = value
    assert tg.Config.train is True


def test_train_accepts_bools_and_restores():
    tg.Config.train = False
    try:
        assert train_enabled() is False
    finally:
        tg.Config.train = True
    assert train_enabled() is True
