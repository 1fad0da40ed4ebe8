"""잘못된 입력: 알맞은 예외 종류와, 받은 것과 할 일을 말하는 한국어 메시지."""

import numpy as np
import pytest
from korean_messages import korean_instruction

from tinygrad_ko import lazy


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ([1.0, 2.0], "list"),
        (3.0, "float"),
        (None, "NoneType"),
        (np.float64(1.0), "float64"),
    ],
)
def test_tensor_needs_an_ndarray(data, words):
    with pytest.raises(TypeError) as error:
        lazy.Tensor(data)
    assert words in korean_instruction(error.value)


@pytest.mark.parametrize("dtype", [np.int64, np.bool_, np.float16, np.complex128, object])
def test_tensor_needs_float32_or_float64(dtype):
    with pytest.raises(TypeError) as error:
        lazy.Tensor(np.zeros(3, dtype))
    assert str(np.dtype(dtype)) in korean_instruction(error.value)


@pytest.mark.parametrize("other", [[1.0, 2.0], "2", None, True, 1j, np.zeros(3, np.int32)])
def test_bad_operands(other):
    x = lazy.Tensor(np.ones(3))
    with pytest.raises(TypeError) as error:
        x * other
    korean_instruction(error.value)


def test_mismatched_shapes():
    with pytest.raises(ValueError) as error:
        lazy.Tensor(np.ones((2, 3))) + lazy.Tensor(np.ones((4,)))
    message = korean_instruction(error.value)
    assert "(2, 3)" in message and "(4,)" in message


def test_mixed_dtypes_are_not_silently_promoted():
    with pytest.raises(TypeError) as error:
        lazy.Tensor(np.ones(2, np.float32)) + lazy.Tensor(np.ones(2))
    message = korean_instruction(error.value)
    assert "float32" in message and "float64" in message


def test_bad_axis_and_reshape():
    x = lazy.Tensor(np.ones((2, 3)))
    with pytest.raises(ValueError) as error:
        x.sum(axis=2)
    korean_instruction(error.value)
    with pytest.raises(TypeError):
        x.sum(axis="0")
    with pytest.raises(ValueError) as error:
        x.reshape(4, 2)
    korean_instruction(error.value)


def test_unknown_backend():
    with pytest.raises(ValueError) as error:
        lazy.set_backend("cuda")
    assert "'cuda'" in korean_instruction(error.value)
    with pytest.raises(ValueError), lazy.using_backend("gpu"):
        pass


def test_bad_backend_in_environment(monkeypatch):
    monkeypatch.setenv("TINYGRAD_KO_LAZY_BACKEND", "fast")
    with pytest.raises(ValueError) as error:
        (lazy.Tensor(np.ones(2)) * 2.0).numpy()
    assert "TINYGRAD_KO_LAZY_BACKEND" in korean_instruction(error.value)


def test_huge_constant_in_float32_becomes_inf_like_numpy(backend):
    a = np.ones(3, np.float32)
    got = (lazy.Tensor(a) * 1e300).numpy()
    with np.errstate(over="ignore"):
        want = a * 1e300
    assert got.dtype == np.float32 and np.array_equal(got, want)


def test_c_chosen_in_environment_without_a_compiler_is_refused_in_korean(monkeypatch, tmp_path):
    """환경 변수로 C를 고른 사람에게 NumPy로 조용히 바꿔 계산하지 않습니다(set_backend("c")와 같게)."""
    from tinygrad_ko.lazy import compiler

    monkeypatch.delenv("TINYGRAD_KO_CC", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))  # 컴파일러가 하나도 없는 PATH
    monkeypatch.setenv("TINYGRAD_KO_LAZY_BACKEND", "c")
    compiler.reset()
    try:
        with pytest.raises(RuntimeError) as error:
            (lazy.Tensor(np.ones(2)) * 2.0).numpy()
        message = korean_instruction(error.value)
        assert "TINYGRAD_KO_LAZY_BACKEND" in message and "apt-get install gcc" in message
        monkeypatch.setenv("TINYGRAD_KO_LAZY_BACKEND", "numpy")  # 고른 것을 바꾸면 계산합니다
        assert np.array_equal((lazy.Tensor(np.ones(2)) * 2.0).numpy(), np.full(2, 2.0))
    finally:
        compiler.reset()
