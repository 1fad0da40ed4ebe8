"""빠른 길의 제자리 역전파(큰 배열): 기준 구현과 비트 단위로 같고, 남이 가진 배열은 덮어쓰지 않습니다.

엔진만 가진 미분값 배열(시작값, 엔진이 더한 합, 제자리 규칙의 결과)에만 결과를 덮어씁니다. 여기서는 그
규칙이 실제로 불리는지, 결과가 기준 구현과 같은지, 사용자의 배열(입력의 data, 전에 받은 grad, 붙잡은 출력)이
그대로인지 봅니다.
"""

from __future__ import annotations

import numpy as np
import pytest

import tinygrad_ko as tg
from tinygrad_ko import Variable
from tinygrad_ko.autograd import fastpath
from tinygrad_ko.tools.trace import traced_backward

from .two_paths import both_paths, fingerprint

N = 300  # 300×300 float64 = 720 KB: 제자리로 계산하는 크기(IN_PLACE_BYTES = 256 KiB) 이상


def test_the_sizes_here_are_in_place_sizes():
    assert np.zeros((N, N)).nbytes >= fastpath.IN_PLACE_BYTES > np.zeros((100, 100)).nbytes


@pytest.fixture
def rule_calls(monkeypatch):
    """제자리 규칙이 불린 횟수를 클래스 이름별로 셉니다(규칙은 그대로 돕니다)."""
    calls: dict[str, int] = {}
    for cls, rule in list(fastpath.IN_PLACE.items()):

        def counted(func, gy, rule=rule, name=cls.__name__):
            calls[name] = calls.get(name, 0) + 1
            return rule(func, gy)

        monkeypatch.setitem(fastpath.IN_PLACE, cls, counted)
    return calls


def data(seed=0, shape=(N, N), dtype=np.float64):
    return np.random.default_rng(seed).uniform(0.2, 1.0, shape).astype(dtype)


@pytest.mark.parametrize("w_grad", [False, True])
def test_the_benchmark_chain_is_bit_identical_and_uses_the_rules(w_grad, rule_calls):
    x_data, w_data = data(0), data(1)

    def work():
        x = Variable(x_data.copy())
        w = Variable(w_data.copy()) if w_grad else w_data.copy()
        y = x
        for _ in range(3):
            y = tg.exp(-tg.square(y * w - x))
        y.backward()
        w_array = w.data if w_grad else w
        grads = [x.grad] + ([w.grad] if w_grad else [])
        return fingerprint(*grads, y, x.data, w_array)

    reference, fast = both_paths(work)
    assert reference == fast
    assert fingerprint(x_data, w_data) == reference[-2:]  # 입력의 data는 그대로
    assert {"Exp", "Neg", "Square", "Sub", "Mul"} <= set(rule_calls)


def test_a_grad_the_user_already_holds_is_not_overwritten():
    x_data = data(2)

    def work():
        x = Variable(x_data.copy())
        tg.sum(x * 3.0).backward()
        first = x.grad
        kept = first.copy()
        y = tg.exp(x) + tg.exp(-x)  # x의 grad에 두 번 더합니다
        y.backward(gradient=np.ones((N, N)))
        assert np.array_equal(first, kept)  # 앞선 역전파의 grad 배열은 그대로
        return fingerprint(x.grad, first)

    reference, fast = both_paths(work)
    assert reference == fast


def test_retain_graph_keeps_saved_outputs_and_inputs_intact():
    x_data = data(3)

    def work():
        x = Variable(x_data.copy())
        y = tg.exp(tg.square(x) * 0.5)
        saved_output = y.data.copy()  # Exp가 역전파에 쓰려고 붙잡은 출력과 같은 배열
        y.backward(gradient=np.ones((N, N)), retain_graph=True)
        first = x.grad.copy()
        x.cleargrad()
        y.backward(gradient=np.ones((N, N)))
        assert np.array_equal(y.data, saved_output)
        return fingerprint(first, x.grad, x.data)

    reference, fast = both_paths(work)
    assert reference == fast
    assert reference[0] == reference[1]  # 두 번째 역전파도 같은 미분값


@pytest.mark.parametrize(
    "expression",
    [
        lambda x, c: x + x,  # 같은 배열이 두 입력으로
        lambda x, c: (x - c) - (c - x),  # 뺄셈의 두 쪽
        lambda x, c: tg.exp(x) * tg.exp(x) - x,  # 같은 출력을 두 함수가 씀
        lambda x, c: x * c[0] + x[0] * x,  # 브로드캐스트(모양이 다른 곱)
        lambda x, c: -(x * 2.0) * (x * 2.0),
    ],
)
def test_mixed_graphs_are_bit_identical(expression):
    x_data, c_data = data(4), data(5)

    def work():
        x = Variable(x_data.copy())
        c = Variable(c_data.copy())
        y = expression(x, c)
        y.backward(gradient=np.ones(y.shape, y.dtype))
        return fingerprint(x.grad, c.grad if c.grad is not None else np.zeros(0), x.data, c.data)

    reference, fast = both_paths(work)
    assert reference == fast


def test_float32_arrays_with_float64_constants_keep_the_reference_dtypes():
    x_data = data(6, dtype=np.float32)

    def work():
        x = Variable(x_data.copy())
        y = tg.exp(x * np.ones((N, N)))  # float32 × float64 배열 = float64 출력
        y.backward()
        return fingerprint(x.grad, y)

    reference, fast = both_paths(work)
    assert reference == fast
    assert reference[0][0] == np.dtype(np.float32).str  # grad는 변수의 dtype


def test_a_traced_backward_still_sees_every_function():
    def work():
        x = Variable(data(7))
        y = tg.exp(-tg.square(x))
        seen = []
        traced_backward(y, lambda step: seen.append(type(step.func).__name__))
        return seen, fingerprint(x.grad)

    reference, fast = both_paths(work)
    assert reference == fast
    assert reference[0] == ["Exp", "Neg", "Square"]


def test_a_failed_backward_leaves_no_half_written_grads():
    class Broken(tg.Function):
        def forward(self, x):
            return x * 1.0

        def backward(self, gy):
            raise ValueError("일부러")

    def work():
        x = Variable(data(8))
        x.grad = np.full((N, N), 5.0)
        before = x.grad
        y = tg.exp(x) + Broken()(tg.exp(x))
        with pytest.raises(ValueError, match="일부러"):
            y.backward(gradient=np.ones((N, N)))
        assert x.grad is before and np.all(before == 5.0)
        return fingerprint(x.grad)

    reference, fast = both_paths(work)
    assert reference == fast


def test_read_only_views_from_reductions_are_never_written_into():
    """합의 역전파는 읽기 전용 뷰(broadcast_to)를 돌려줍니다. 그런 미분값이 모이는 칸은 새 배열로 더합니다."""
    x_data = data(9)

    def work():
        x = Variable(x_data.copy())
        y = tg.exp(x)
        loss = tg.sum(tg.sum(y, axis=0)) + tg.sum(tg.sum(y, axis=1))
        loss.backward()
        return fingerprint(x.grad)

    reference, fast = both_paths(work)
    assert reference == fast


def test_a_seed_of_another_dtype_is_not_overwritten_with_the_wrong_dtype():
    x_data = data(10)

    def work():
        x = Variable(x_data.copy())
        y = tg.square(tg.exp(x))
        y.backward(gradient=np.ones((N, N), np.float32))  # float32 시작값, float64 출력
        return fingerprint(x.grad)

    reference, fast = both_paths(work)
    assert reference == fast


def minus(v, times):
    for _ in range(times):
        v = -v
    return v


def test_a_grad_read_by_a_user_backward_is_not_overwritten_afterwards():
    """사용자 함수의 backward는 역전파 도중에 말단 변수의 grad를 쥘 수 있습니다. 그 뒤로는 그 배열에 더하지 않습니다."""
    x_data, c_data = data(11), data(12)

    class Peek(tg.Function):
        def __init__(self, watch, log):
            self.watch, self.log = watch, log

        def forward(self, x):
            return x.copy()

        def backward(self, gy):
            self.log.append((self.watch.grad, self.watch.grad.copy()))
            return gy

    def work():
        log = []
        x, c = Variable(x_data.copy()), Variable(c_data.copy())
        p = x * minus(c, 5)  # 세대 5의 곱: x.grad가 여기서 생깁니다
        q = Peek(x, log)(-x)  # 세대 1: x.grad를 쥡니다
        (p * q).backward()  # 세대 0의 Neg가 그 뒤에 x.grad에 더합니다
        [(held, copied)] = log
        assert np.array_equal(held, copied)
        return fingerprint(x.grad, c.grad)

    reference, fast = both_paths(work)
    assert reference == fast


def test_a_trace_keeps_the_values_it_was_shown():
    """tools/trace의 Step은 칸에서 기다리던 미분값과 그때의 grad를 봅니다. 역전파가 뒤에서 그 배열을 고치지 않습니다."""
    x_data, c_data = data(13), data(14)

    def work():
        shown = []
        x, c = Variable(x_data.copy()), Variable(c_data.copy())

        def on_call(step):
            values = [grad for _, grad in step.arrived] + ([] if x.grad is None else [x.grad])
            shown.append([(value, value.copy()) for value in values])

        y = tg.exp(x)
        # y의 칸과 x.grad에 세 번씩 더합니다(세대 3, 2, 1). 두 번째 뒤의 합을 기록 장치가 봅니다.
        z = y * minus(c, 3) + y * minus(c, 2) + (-y) + x * minus(c, 3) + x * minus(c, 2) + (-x)
        traced_backward(z, on_call, gradient=np.ones((N, N)))
        assert all(np.array_equal(held, copied) for step in shown for held, copied in step)
        return fingerprint(x.grad, c.grad)

    reference, fast = both_paths(work)
    assert reference == fast


def test_a_backward_swapped_on_the_class_is_called_instead_of_the_rule(monkeypatch, rule_calls):
    """클래스의 backward를 바꿔 끼우면(예: 부른 횟수 세기) 제자리 규칙이 아니라 그 backward가 불립니다."""
    calls = []
    original = tg.functions.Exp.backward

    def counted(self, gy):
        calls.append(gy.shape)
        return original(self, gy)

    monkeypatch.setattr(tg.functions.Exp, "backward", counted)
    x_data = data(15)

    def work():
        calls.clear()
        x = Variable(x_data.copy())
        tg.exp(tg.exp(x)).backward()
        return len(calls), fingerprint(x.grad)

    reference, fast = both_paths(work)
    assert reference == fast
    assert reference[0] == 2 and "Exp" not in rule_calls
