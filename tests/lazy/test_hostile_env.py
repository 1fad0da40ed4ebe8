"""적대적인 환경 변수(TINYGRAD_KO_CC, _CC_TIMEOUT, _CACHE_BYTES, _LAZY_BACKEND): 영어 예외나 엉뚱한 값 대신
받은 값을 말하는 한국어 오류를 냅니다."""

import numpy as np
import pytest

from tinygrad_ko import lazy
from tinygrad_ko.lazy import cache, compiler

from .conftest import needs_cc

A = np.arange(12.0).reshape(3, 4)


def compute():
    with lazy.using_backend("c"):
        return (lazy.Tensor(A) * 2.0 + 1.0).numpy()


def test_compiler_command_with_an_unclosed_quote_is_refused_in_korean(fresh_cache, monkeypatch):
    monkeypatch.setenv("TINYGRAD_KO_CC", "gcc '-O")
    compiler.reset()
    with pytest.raises(ValueError, match="TINYGRAD_KO_CC") as info:
        compiler.command()
    assert "gcc '-O" in str(info.value) and "따옴표" in str(info.value)


@needs_cc
def test_compiler_command_of_only_spaces_means_unset(fresh_cache, monkeypatch):
    monkeypatch.setenv("TINYGRAD_KO_CC", "   ")
    compiler.reset()
    assert compiler.command() is not None and compiler.command() != []
    assert np.array_equal(compute(), A * 2.0 + 1.0)


@pytest.mark.parametrize("text", ["nan", "inf", "-1", "0", "abc", "1e400"])
def test_bad_compiler_timeout_is_refused_in_korean(fresh_cache, monkeypatch, text):
    monkeypatch.setenv("TINYGRAD_KO_CC_TIMEOUT", text)
    compiler.reset()
    with pytest.raises(ValueError, match="TINYGRAD_KO_CC_TIMEOUT") as info:
        compiler._timeout()
    assert repr(text) in str(info.value)


@pytest.mark.parametrize("text", [" 2.5 ", "1e-3", "600"])
def test_good_compiler_timeout_is_read(monkeypatch, text):
    monkeypatch.setenv("TINYGRAD_KO_CC_TIMEOUT", text)
    assert compiler._timeout() == float(text)


@pytest.mark.parametrize("text", ["-5", "abc", "1.5", "²"])
def test_bad_cache_limit_is_refused_in_korean(monkeypatch, text):
    monkeypatch.setenv("TINYGRAD_KO_CACHE_BYTES", text)
    with pytest.raises(ValueError, match="TINYGRAD_KO_CACHE_BYTES") as info:
        cache.limit()
    assert repr(text) in str(info.value)


@pytest.mark.parametrize("text", ["0", "1000", str(10**30)])
def test_good_cache_limit_is_read(monkeypatch, text):
    monkeypatch.setenv("TINYGRAD_KO_CACHE_BYTES", text)
    assert cache.limit() == int(text)


def test_empty_values_mean_unset(monkeypatch):
    monkeypatch.setenv("TINYGRAD_KO_CC_TIMEOUT", "")
    monkeypatch.setenv("TINYGRAD_KO_CACHE_BYTES", "")
    assert compiler._timeout() == 60.0
    assert cache.limit() == cache.DEFAULT_LIMIT
