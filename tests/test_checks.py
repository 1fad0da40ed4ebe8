"""`tinygrad_ko._checks`: 여러 모듈이 함께 쓰는 인수 검사(개수, 실수, 비율, True/False).

타입이 틀리면 TypeError, 값이 범위 밖이면 ValueError이고, 메시지는 받은 값(`describe`)과 넣을 것을
말합니다. 아래쪽 표는 그 검사를 쓰는 공개 API가 실제로 이 모듈의 문장으로 거부하는지 봅니다.
"""

from __future__ import annotations

import ast
import decimal
import fractions
import math
from pathlib import Path

import numpy as np
import pytest
from korean_messages import korean_instruction

import tinygrad_ko as tg
from tinygrad_ko import _checks
from tinygrad_ko._checks import (
    check_count,
    check_flag,
    check_fraction,
    check_positive,
    check_real,
    is_integer,
    is_real,
    not_bool,
)
from tinygrad_ko.autograd import messages


# --- 판정 ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("value", "integer", "real"),
    [
        (3, True, True),
        (np.int64(3), True, True),
        (np.uint8(3), True, True),
        (3.0, False, True),
        (np.float32(0.5), False, True),
        (math.nan, False, True),
        (fractions.Fraction(1, 2), False, True),
        (True, False, False),
        (np.bool_(True), False, False),
        ("3", False, False),
        (None, False, False),
        (1 + 2j, False, False),
        (decimal.Decimal("0.5"), False, False),
        (np.array(3), False, False),
    ],
)
def test_what_counts_as_an_integer_and_a_real(value, integer, real):
    assert is_integer(value) is integer
    assert is_real(value) is real


# --- check_count --------------------------------------------------------------------------
def test_count_returns_a_python_int():
    assert check_count("n", 3) == 3
    result = check_count("n", np.int64(7))
    assert result == 7 and type(result) is int
    assert check_count("n", 0, minimum=0) == 0
    assert check_count("n", 10**30) == 10**30


def test_count_message_names_the_value_and_what_to_put():
    with pytest.raises(ValueError) as info:
        check_count("out_size", 0)
    assert str(info.value) == "out_size에는 1 이상의 정수를 넣어 주세요. 받은 값: int 0."
    korean_instruction(info.value)


@pytest.mark.parametrize(("value", "minimum"), [(0, 1), (-1, 1), (1, 2), (-1, 0), (np.int8(-3), 0)])
def test_count_below_the_minimum_is_a_value_error(value, minimum):
    with pytest.raises(
        ValueError, match=rf"^n에는 {minimum} 이상의 정수를 넣어 주세요\. 받은 값: "
    ):
        check_count("n", value, minimum=minimum)


@pytest.mark.parametrize(
    ("value", "received", "tip"),
    [
        (2.5, "float 2.5", ""),
        (2.0, "float 2.0", ""),
        (True, "bool True", " True와 False는 수로 받지 않습니다."),
        ("3", "str '3'", " 문자열이라면 int('3')처럼 먼저 수로 바꾸세요."),
        (None, "NoneType None", ""),
        (np.array(3), "ndarray array(3)", ""),
    ],
)
def test_count_of_the_wrong_type_is_a_type_error(value, received, tip):
    with pytest.raises(TypeError) as info:
        check_count("batch_size", value)
    assert (
        str(info.value) == f"batch_size에는 1 이상의 정수를 넣어 주세요. 받은 값: {received}.{tip}"
    )


def test_hint_is_appended_and_long_values_are_shortened():
    with pytest.raises(TypeError) as info:
        check_count("steps", "x" * 200, hint=" 예: steps=100.")
    message = str(info.value)
    assert message.startswith("steps에는 1 이상의 정수를 넣어 주세요. 받은 값: str 'xxx")
    assert message.endswith("... 문자열이라면 int(문자열)처럼 먼저 수로 바꾸세요. 예: steps=100.")
    assert len(message) < 150  # 받은 값은 repr 60자까지만 적습니다


# --- check_real ---------------------------------------------------------------------------
@pytest.mark.parametrize("value", [-1, 0, 2.5, math.inf, -math.inf, np.float32(0.5), np.int64(2)])
def test_real_takes_any_real_number(value):
    result = check_real("x", value)
    assert type(result) is float and result == float(value)


def test_real_keeps_nan_and_turns_a_huge_int_into_inf():
    assert math.isnan(check_real("x", math.nan))
    assert check_real("x", 10**400) == math.inf  # float(10**400)은 OverflowError입니다
    assert check_real("x", -(10**400)) == -math.inf


@pytest.mark.parametrize("value", ["1.0", None, True, [1.0], 1 + 2j, decimal.Decimal("1")])
def test_real_of_the_wrong_type(value):
    with pytest.raises(TypeError, match=r"^max_norm에는 실수를 넣어 주세요\. 받은 값: "):
        check_real("max_norm", value)


# --- check_positive -----------------------------------------------------------------------
def test_positive_accepts_and_returns_float():
    assert check_positive("lr", 0.1) == 0.1
    assert type(check_positive("lr", 1)) is float
    assert check_positive("momentum", 0, zero_ok=True) == 0.0
    assert check_positive("noise", math.inf, zero_ok=True, finite=False) == math.inf


@pytest.mark.parametrize(
    ("value", "options", "wanted"),
    [
        (0, {}, "0보다 큰 유한한 실수"),
        (-0.1, {}, "0보다 큰 유한한 실수"),
        (math.nan, {}, "0보다 큰 유한한 실수"),
        (math.inf, {}, "0보다 큰 유한한 실수"),
        (10**400, {}, "0보다 큰 유한한 실수"),  # OverflowError가 아니라 범위 밖
        (-1e-9, {"zero_ok": True}, "0 이상의 유한한 실수"),
        (math.nan, {"zero_ok": True, "finite": False}, "0 이상의 실수"),
        (-math.inf, {"zero_ok": True, "finite": False}, "0 이상의 실수"),
        (0.0, {"finite": False}, "0보다 큰 실수"),
    ],
)
def test_positive_out_of_range_is_a_value_error(value, options, wanted):
    with pytest.raises(ValueError) as info:
        check_positive("lr", value, **options)
    assert str(info.value).startswith(
        f"lr에는 {wanted}를 넣어 주세요. 받은 값: {type(value).__name__} "
    )


@pytest.mark.parametrize("value", ["0.1", None, False, np.array(0.1)])
def test_positive_of_the_wrong_type(value):
    with pytest.raises(TypeError, match=r"^lr에는 0보다 큰 유한한 실수를 넣어 주세요\. 받은 값: "):
        check_positive("lr", value)


def test_string_tip_suggests_float():
    with pytest.raises(TypeError, match=r"float\('0\.1'\)처럼 먼저 수로 바꾸세요\.$"):
        check_positive("lr", "0.1")


# --- check_fraction -----------------------------------------------------------------------
@pytest.mark.parametrize("value", [0, 0.0, 0.5, 0.999, np.float32(0.9)])
def test_fraction_below_one(value):
    assert check_fraction("betas[0]", value) == float(value)


@pytest.mark.parametrize("value", [1, 1.0, -0.1, math.nan, math.inf])
def test_fraction_of_one_or_outside_is_a_value_error(value):
    with pytest.raises(
        ValueError, match=r"^betas\[0\]에는 0 이상이고 1보다 작은 실수를 넣어 주세요"
    ):
        check_fraction("betas[0]", value)


def test_fraction_may_include_one():
    assert check_fraction("ratio", 1, include_one=True) == 1.0
    for value in (1.0000001, -1e-12, math.nan):
        with pytest.raises(ValueError, match=r"^ratio에는 0 이상 1 이하의 실수를 넣어 주세요"):
            check_fraction("ratio", value, include_one=True)


@pytest.mark.parametrize("value", ["0.5", True, None])
def test_fraction_of_the_wrong_type(value):
    with pytest.raises(TypeError, match=r"^ratio에는 0 이상 1 이하의 실수를 넣어 주세요"):
        check_fraction("ratio", value, include_one=True)


# --- check_flag / not_bool ----------------------------------------------------------------
def test_flag_takes_only_bools():
    assert check_flag("train", True) is True
    assert check_flag("train", False) is False
    result = check_flag("train", np.bool_(False), also=np.bool_)
    assert result is False  # 파이썬 bool로 돌려줍니다


@pytest.mark.parametrize("value", ["False", 0, 1, None, np.bool_(True), [True]])
def test_flag_refuses_other_values(value):
    with pytest.raises(TypeError, match=r"^keepdims에는 True나 False를 넣어 주세요\. 받은 값: "):
        check_flag("keepdims", value)


def test_not_bool_is_the_engines_message():
    """엔진의 `messages.not_bool`은 이 함수이고, 페이지가 보이는 문장 그대로입니다."""
    assert messages.not_bool is not_bool
    error = not_bool("설정 enable_backprop", "False")
    assert isinstance(error, TypeError)
    assert (
        str(error) == "설정 enable_backprop에는 True나 False를 넣어 주세요. 받은 값: str 'False'."
    )
    hinted = not_bool("backward의 create_graph", 1, " 힌트입니다.")
    assert str(hinted).endswith("받은 값: int 1. 힌트입니다.")


# --- 모듈 자체 ----------------------------------------------------------------------------
def test_the_module_imports_only_the_standard_library_and_describe():
    """NumPy 없는 micrograd도 이 모듈을 씁니다(tests/micrograd_side/test_without_numpy.py가 실제로 돌려 봄)."""
    tree = ast.parse(Path(_checks.__file__).read_text(encoding="utf-8"))
    imported = set()
    for node in tree.body:
        if isinstance(node, ast.Import):
            imported.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            imported.add("." * node.level + (node.module or ""))
    assert imported == {"math", "numbers", "._describe"}


# --- 이 검사를 쓰는 공개 API --------------------------------------------------------------
def _variable():
    return tg.Variable(np.ones((2, 3)))


def _callers():
    from tinygrad_ko.data.datasets import make_moons, make_sin_curve, make_spiral
    from tinygrad_ko.data.loaders import DataLoader
    from tinygrad_ko.gpt.config import GPTConfig
    from tinygrad_ko.micrograd.nn import MLP
    from tinygrad_ko.nn.conv import Conv2d
    from tinygrad_ko.nn.dropout import Dropout
    from tinygrad_ko.nn.layers import Linear
    from tinygrad_ko.nn.rnn import LSTM
    from tinygrad_ko.optimizers import SGD, Adam, clip_grad_norm_
    from tinygrad_ko.tools.viz import to_mermaid

    params = [tg.Parameter(np.ones(2))]
    return [
        # (부른 것, 잘못된 타입으로, 범위 밖의 값으로, 메시지의 앞부분)
        ("Linear", lambda v: Linear(v), "3", 0, "out_size에는 1 이상의 정수"),
        ("Conv2d", lambda v: Conv2d(v, 3), 2.0, -1, "out_channels에는 1 이상의 정수"),
        ("LSTM", lambda v: LSTM(v), True, 0, "hidden_size에는 1 이상의 정수"),
        ("MLP", lambda v: MLP(v, [1]), 1.5, 0, "nin에는 1 이상의 정수"),
        ("make_spiral", lambda v: make_spiral(v), None, 0, "n_per_class에는 1 이상의 정수"),
        ("make_moons", lambda v: make_moons(v), 10.0, 1, "n_samples에는 2 이상의 정수"),
        ("DataLoader", lambda v: DataLoader(np.ones(4), v), "2", 0, "batch_size에는 1 이상의 정수"),
        ("GPTConfig", lambda v: GPTConfig(vocab_size=v), 5.0, 0, "vocab_size에는 1 이상의 정수"),
        ("to_mermaid", lambda v: to_mermaid(_variable(), max_nodes=v), 2.5, 0, "max_nodes에는 1"),
        ("SGD", lambda v: SGD(params, lr=v), "0.1", 0, "lr에는 0보다 큰 유한한 실수"),
        ("Adam", lambda v: Adam(params, betas=(v, 0.999)), "0.9", 1.0, "betas[0]에는 0 이상이고"),
        (
            "make_sin_curve",
            lambda v: make_sin_curve(10, noise=v),
            "big",
            -1,
            "noise에는 0 이상의 실수",
        ),
        ("Dropout", lambda v: Dropout(v), "0.5", 1.5, "ratio에는 0 이상 1 이하의 실수"),
        (
            "GPTConfig.init_std",
            lambda v: GPTConfig(vocab_size=5, init_std=v),
            "0.1",
            0.0,
            "init_std에는 0보다 큰 유한한 실수",
        ),
        (
            "clip_grad_norm_",
            lambda v: clip_grad_norm_(params, max_norm=v),
            "1.0",
            None,
            "clip_grad_norm_의 max_norm에는 실수",
        ),
    ]


@pytest.mark.parametrize("case", range(len(_callers())), ids=[c[0] for c in _callers()])
def test_public_api_refuses_with_the_shared_wording(case):
    _, call, bad_type, bad_value, start = _callers()[case]
    with pytest.raises(TypeError) as info:
        call(bad_type)
    assert str(info.value).startswith(start), str(info.value)
    korean_instruction(info.value)
    if bad_value is not None:
        with pytest.raises(ValueError) as info:
            call(bad_value)
        assert str(info.value).startswith(start), str(info.value)


@pytest.mark.parametrize(
    ("call", "start"),
    [
        (lambda: tg.sum(_variable(), keepdims="yes"), "sum의 keepdims에는 True나 False"),
        (lambda: tg.using_config("train", 1), "설정 train에는 True나 False"),
        (lambda: setattr(tg.Config, "enable_backprop", "False"), "설정 enable_backprop에는"),
    ],
)
def test_engine_flags_refuse_with_the_shared_wording(call, start):
    with pytest.raises(TypeError) as info:
        call()
    assert str(info.value).startswith(start), str(info.value)


def test_flags_outside_the_engine():
    from tinygrad_ko.data.datasets import SinCurve, load_mnist
    from tinygrad_ko.optimizers import clip_grad_norm_

    with pytest.raises(
        TypeError, match=r"^train에는 True나 False를 넣어 주세요\. 받은 값: int 1\.$"
    ):
        load_mnist(1)
    with pytest.raises(TypeError, match=r"^train에는 True나 False"):
        SinCurve(train="False")
    assert SinCurve(train=np.bool_(False)).train is False
    with pytest.raises(TypeError, match=r"^error_if_nonfinite에는 True나 False"):
        clip_grad_norm_([tg.Parameter(np.ones(1))], 1.0, error_if_nonfinite="yes")
