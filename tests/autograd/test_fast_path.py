"""빠른 길(fastpath.py)과 기준 구현: 스위치 하나로 바꾸고, 같은 계산이 비트 단위로 같은 결과를 냅니다.

같은 작업을 두 길로 돌려 순전파의 값, 미분값, 학습한 가중치의 바이트를 비교합니다. 잘못된 입력에는 두
길이 같은 종류의 예외와 같은 메시지를 냅니다.
"""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

import tinygrad_ko as tg
from tinygrad_ko import Function, Variable
from tinygrad_ko.autograd import backprop, fastpath
from tinygrad_ko.functions import elementwise
from tinygrad_ko.gpt.config import GPTConfig, init_weights
from tinygrad_ko.gpt.tensor_model import TensorEngine, TensorGPT
from tinygrad_ko.gpt.training import train
from tinygrad_ko.nn import LSTM, MLP, DigitCNN
from tinygrad_ko.optimizers import SGD, Adam

from .two_paths import both_paths, fingerprint


def test_the_switch_swaps_the_call_and_the_loop_and_returns_the_previous_state():
    previous = tg.use_fast_path(True)
    try:
        assert Function.__call__ is fastpath.call and backprop.loop is fastpath.propagate
        assert tg.use_fast_path(False) is True
        assert not tg.fast_path_enabled()
        assert Function.__call__ is fastpath._REFERENCE_CALL
        assert backprop.loop is backprop.propagate
    finally:
        tg.use_fast_path(previous)


@pytest.mark.parametrize("value", [1, "yes", None])
def test_the_switch_takes_only_a_bool(value):
    before = tg.fast_path_enabled()
    with pytest.raises(TypeError, match="use_fast_path의 enabled"):
        tg.use_fast_path(value)
    assert tg.fast_path_enabled() is before


@pytest.mark.parametrize(("value", "enabled"), [("0", False), ("1", True), (None, True)])
def test_the_environment_variable_chooses_the_path_at_import(value, enabled):
    env = {k: v for k, v in os.environ.items() if k != "TINYGRAD_KO_FAST_PATH"}
    if value is not None:
        env["TINYGRAD_KO_FAST_PATH"] = value
    code = "import tinygrad_ko as tg; print(tg.fast_path_enabled())"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == str(enabled)


def test_a_wrong_environment_value_is_refused_with_the_value_named():
    env = {**os.environ, "TINYGRAD_KO_FAST_PATH": "yes"}
    out = subprocess.run(
        [sys.executable, "-c", "import tinygrad_ko"], env=env, capture_output=True, text=True
    )
    assert out.returncode != 0
    assert "ValueError" in out.stderr and "TINYGRAD_KO_FAST_PATH" in out.stderr
    assert "'yes'" in out.stderr


def test_the_fast_path_hands_zero_dim_floats_to_arithmetic_as_numpy_scalars():
    seen = []

    class Spy(elementwise.Mul):
        def forward(self, x0, x1):
            seen.append(type(x0))
            return super().forward(x0, x1)

    x = Variable(np.array(2.0))
    reference, fast = both_paths(lambda: Spy()(x, 3.0))
    assert seen == [np.ndarray, np.float64]
    assert fingerprint(*[reference]) == fingerprint(*[fast])
    assert type(fast.data) is np.ndarray and fast.data.shape == ()


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_zero_dim_arithmetic_chains_are_bit_identical(dtype):
    rng = np.random.default_rng(3)
    starts = rng.uniform(-3, 3, 40).astype(dtype)

    def work():
        results = []
        for start in starts:
            x = Variable(np.array(start))
            c = Variable(np.array(dtype(0.7)))
            y = x
            for k in range(1, 6):
                y = (y * c - k) / (x * x + 1.5) + (-y) * 0.25 + (y * 0.1) ** 2
            y = tg.tanh(y) * tg.exp(-x) + tg.sin(y) / 3
            y.backward()
            results += [y, x.grad, c.grad]
        return fingerprint(*results)

    reference, fast = both_paths(work)
    assert reference == fast


def test_special_values_are_the_same():
    def work():
        with np.errstate(all="ignore"):
            xs = [Variable(np.array(v)) for v in (0.0, -0.0, np.inf, -np.inf, np.nan, 1e308)]
            ys = [x / 0.0 + x * 10.0 - x for x in xs]
            for y in ys:
                y.backward()
        return fingerprint(*ys + [x.grad for x in xs])

    reference, fast = both_paths(work)
    assert reference == fast


def test_zero_dim_float_warnings_have_the_same_kind_but_numpy_names_the_scalar_loop():
    """0차원 사칙연산의 NumPy 경고와 FloatingPointError: 종류와 값은 같고, 빠른 길의 글에는 "scalar"가 붙습니다.

    빠른 길은 0차원 실수를 NumPy 스칼라로 넘기므로 NumPy가 스칼라의 연산 이름("scalar divide")을 적습니다.
    """
    import warnings

    def work():
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            y = Variable(np.array(1.0)) / 0.0
        with np.errstate(all="raise"), pytest.raises(FloatingPointError) as raised:
            Variable(np.array(1.0)) / 0.0
        return fingerprint(*[y]), [(w.category, str(w.message)) for w in caught], str(raised.value)

    reference, fast = both_paths(work)
    assert reference[0] == fast[0]
    assert reference[1] == [(RuntimeWarning, "divide by zero encountered in divide")]
    assert fast[1] == [(RuntimeWarning, "divide by zero encountered in scalar divide")]
    assert (reference[2], fast[2]) == (reference[1][0][1], fast[1][0][1])


def test_higher_order_derivatives_are_bit_identical():
    def work():
        x = Variable(np.array(0.8))
        y = x**4 - 2 * x**3 + tg.sin(x) * x
        grads = []
        for _ in range(4):
            x.cleargrad()
            y.backward(create_graph=True)
            grads.append(x.grad)
            y = x.grad
        gx = tg.grad(x**5, x, create_graph=True)[0]
        gxx = tg.grad(gx, x)[0]
        return fingerprint(*[*grads, gx, gxx])

    reference, fast = both_paths(work)
    assert reference == fast


def test_retain_grad_unchain_and_released_graphs_behave_the_same():
    def work():
        x = Variable(np.array([1.0, 2.0, 3.0]))
        a = x * 2.0
        b = a * a
        c = tg.sum(b * x)
        c.backward(retain_grad=True)
        kept = [a.grad, b.grad, x.grad]
        h = a.data.copy()
        a.unchain()  # a는 이제 말단 변수: 새 계산의 미분값은 a.grad에 쌓입니다
        d = tg.sum(a * 3.0)
        d.backward()
        with pytest.raises(RuntimeError) as second:
            d.backward()
        return fingerprint(*[*kept, a.grad, x.grad, h]) + [type(second.value), str(second.value)]

    reference, fast = both_paths(work)
    assert reference == fast


def test_mlp_training_steps_are_bit_identical():
    rng = np.random.default_rng(0)
    x, t = rng.normal(size=(16, 5)), rng.integers(0, 3, 16)

    def work():
        model = MLP((8, 3), activation=tg.relu, seed=1)
        optimizer = SGD(model, lr=0.1)
        losses = []
        for _ in range(3):
            loss = tg.softmax_cross_entropy(model(x), t)
            model.cleargrads()
            loss.backward()
            optimizer.step()
            losses.append(loss)
        return fingerprint(*losses + [p.data for p in model.params()])

    reference, fast = both_paths(work)
    assert reference == fast


def test_cnn_and_lstm_steps_are_bit_identical():
    rng = np.random.default_rng(1)
    images, labels = rng.normal(size=(2, 1, 28, 28)), rng.integers(0, 10, 2)
    sequence = rng.normal(size=(6, 1, 3))

    def work():
        cnn = DigitCNN(seed=2)
        loss = tg.softmax_cross_entropy(cnn(images), labels)
        loss.backward()
        lstm = LSTM(4, seed=3)
        optimizer = Adam(lstm)
        total = 0
        for x in sequence:
            total = total + tg.sum(lstm(x) ** 2)
        total.backward()
        optimizer.step()
        return fingerprint(
            *[loss, total] + [p.grad for p in cnn.params()] + [p.data for p in lstm.params()]
        )

    reference, fast = both_paths(work)
    assert reference == fast


def test_gpt_training_steps_are_bit_identical():
    config = GPTConfig(vocab_size=6, n_embd=8, n_head=2, block_size=6, mlp_ratio=2)
    names = ["abc", "bca", "ccab"]

    class Letters:
        vocab_size = 6

        def encode(self, name):
            return [0, *("abc".index(ch) + 1 for ch in name), 0]

    def work():
        model = TensorGPT(config, init_weights(config, seed=5))
        losses = train(TensorEngine(model), names, Letters(), 3, seed=0)
        return [np.float64(v).tobytes() for v in losses] + fingerprint(*model.state_dict().values())

    reference, fast = both_paths(work)
    assert reference == fast


class Twice(Function):
    """사용자가 만든 함수: backward가 잘못된 모양을 돌려줍니다(역전파가 검사해서 거부해야 합니다)."""

    def forward(self, x):
        return 2 * x

    def backward(self, gy):
        return np.ones(7)


@pytest.mark.parametrize(
    "bad",
    [
        lambda: Variable(np.ones((2, 3))) + Variable(np.ones(4)),  # 브로드캐스트할 수 없는 모양
        lambda: Variable(np.array(1.0)) * [1, 2],  # 리스트 상수
        lambda: tg.exp(Variable(None)),  # data가 None
        lambda: Twice()(Variable(np.ones(3))).backward(),  # 사용자 함수의 잘못된 미분값
        lambda: Variable(np.array(1.0)) * np.array(["a"]),  # 수가 아닌 배열
    ],
)
def test_bad_inputs_get_the_same_exception_on_both_paths(bad):
    def work():
        with pytest.raises(Exception) as caught:
            bad()
        return type(caught.value), str(caught.value)

    reference, fast = both_paths(work)
    assert reference == fast
    assert reference[0] in (TypeError, ValueError)


def test_reusing_one_instance_builds_the_same_graph_on_both_paths():
    def work():
        square = elementwise.Square()
        x = Variable(np.array([1.0, 2.0]))
        y = square(square(x))
        node = y.creator
        state = (node.needs_input_grad, node.kept, node.input_shapes, node.generation)
        y.backward(gradient=np.array([1.0, 1.0]))
        return fingerprint(*[y, x.grad]) + [state]

    reference, fast = both_paths(work)
    assert reference == fast
