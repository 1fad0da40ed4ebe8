"""코드 생성: 수를 비트 하나 다르지 않게 옮기고, 소스에는 이 패키지가 만든 글자만 들어갑니다."""

import re

import numpy as np
import pytest

from tinygrad_ko import lazy
from tinygrad_ko.lazy import render_c

TRICKY = [
    0.1,
    1 / 3,
    1e-45,
    1.4e-45,
    3.4028235e38,
    5e-324,
    2.2250738585072014e-308,
    -0.0,
    1e300,
    16777217.0,
]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_constants_arrive_bit_for_bit(backend, dtype):
    a = np.array([1.0, -1.0, 0.0, 3.0], dtype)
    t = lazy.Tensor(a)
    for c in TRICKY:
        with np.errstate(all="ignore"):
            got, want = (t * c).numpy(), a * c
        assert got.dtype == want.dtype
        assert np.array_equal(got.view(np.uint8), want.view(np.uint8)), c


def test_c_spelling_of_numbers_round_trips():
    """C 소스에 적은 수를 다시 읽으면 같은 비트입니다(16진 부동소수점은 C99가 정확히 읽습니다)."""
    rng = np.random.default_rng(0)
    values = [*TRICKY, *rng.standard_normal(300) * 10.0 ** rng.integers(-300, 300, 300)]
    for dtype in (np.dtype(np.float32), np.dtype(np.float64)):
        for v in values:
            with np.errstate(over="ignore", under="ignore"):
                value = float(dtype.type(v))
            if not np.isfinite(value):
                continue
            text = render_c.number(value, dtype).replace("(", "").replace(")", "")
            body = text[:-1] if dtype == np.float32 else text
            back = float.fromhex(body) if "0x" in body else float(body)
            assert np.float64(back).view(np.uint64) == np.float64(value).view(np.uint64), (v, text)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_inf_and_nan_constants(backend, dtype):
    a = np.array([1.0, -2.0, 0.0], dtype)
    t = lazy.Tensor(a)
    with np.errstate(all="ignore"):
        assert np.array_equal((t * np.inf).numpy(), a * np.inf, equal_nan=True)
        assert np.array_equal((t - np.inf).numpy(), a - np.inf)
        assert np.isnan((t + np.nan).numpy()).all()


def test_c_number_spelling():
    f32, f64 = np.dtype(np.float32), np.dtype(np.float64)
    assert render_c.number(2.0, f32) == "2.0f"
    assert render_c.number(-2.0, f64) == "(-2.0)"
    assert render_c.number(float(np.float32(0.1)), f32) == "0x1.99999ap-4f"
    assert render_c.number(-0.0, f64) == "(-0.0)"
    assert render_c.number(float("inf"), f32) == "INFINITY"
    assert render_c.number(float("nan"), f64) == "NAN"


def test_generated_c_has_only_our_characters():
    """소스의 글자: C의 예약어와 기호, 변수 이름, 수. 사용자가 준 어떤 글자도 들어가지 않습니다."""
    x = lazy.Tensor(np.ones((3, 4), np.float32))
    y = ((x * 0.1 - 1e-40) / (x + 3.0)).relu().exp().log().sum(axis=1)
    for kernel in lazy.schedule(y):
        source = lazy.source(kernel, "c")
        assert re.fullmatch(r"[A-Za-z0-9_ ()\[\]{}<>=+\-*/;.,?:!#&\n]*", source), source
        numbers = re.findall(r"(?<![\w.])(?:0x[0-9a-f.]+p[+-]\d+|\d+\.\d+)f?", source)
        assert numbers  # 수는 16진 부동소수점이나 정수.0으로만 적힙니다


def test_show_kernels_prints_what_runs(backend, capsys):
    x = lazy.Tensor(np.ones(5))
    with lazy.show_kernels():
        (x * 2.0 + 1.0).numpy()
    out = capsys.readouterr().out
    assert "커널: 원소별, 모양 (5,), 연산 2개" in out
    assert ("void kernel(" in out) if backend == "c" else ("def kernel(out, in0):" in out)
