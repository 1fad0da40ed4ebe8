"""지연 그래프의 역전파: 최종 엔진(Variable)과 같은 미분값. 무작위 그래프 여러 개로 견줍니다."""

import numpy as np
import pytest
from korean_messages import korean_instruction

import tinygrad_ko as tk
from tinygrad_ko import lazy
from tinygrad_ko.functions import activations, elementwise, reductions
from tinygrad_ko.lazy.gradients import Record


def same(actual, expected):
    assert actual.dtype == expected.dtype and actual.shape == expected.shape
    assert np.array_equal(actual, expected, equal_nan=True)
    assert np.array_equal(np.signbit(actual), np.signbit(expected))


def random_program(rng, n_inputs, steps, smooth):
    """무작위 그래프: 단계마다 (연산, 앞선 노드 번호들, 수). 한 노드를 여러 번 쓰는 가지도 생깁니다.

    smooth=True이면 exp와 log도 씁니다(log는 x*x+1에, exp는 x*0.1에 씌워 값이 넘치지 않게).
    """
    ops = ["add", "sub", "mul", "div", "neg", "relu", "addc", "rsubc", "mulc", "rdivc"]
    if smooth:
        ops += ["exp", "log"]
    program = []
    for step in range(steps):
        op = ops[rng.integers(len(ops))]
        args = tuple(int(i) for i in rng.integers(0, n_inputs + step, size=2))
        program.append((op, args, float(np.round(rng.uniform(-2, 2), 3))))
    return program


STEPS = {
    "add": lambda a, b, c, f: a + b,
    "sub": lambda a, b, c, f: a - b,
    "mul": lambda a, b, c, f: a * b,
    "div": lambda a, b, c, f: a / (b * b + 1.0),
    "neg": lambda a, b, c, f: -a,
    "relu": lambda a, b, c, f: a.relu(),
    "addc": lambda a, b, c, f: a + c,
    "rsubc": lambda a, b, c, f: c - a,
    "mulc": lambda a, b, c, f: a * c,
    "rdivc": lambda a, b, c, f: c / (a * a + 1.0),
    "exp": lambda a, b, c, f: f["exp"](a * 0.1),
    "log": lambda a, b, c, f: f["log"](a * a + 1.0),
}


def run(program, inputs, exp, log):
    nodes = list(inputs)
    for op, (i, j), c in program:
        nodes.append(STEPS[op](nodes[i], nodes[j], c, {"exp": exp, "log": log}))
    total = nodes[-1].sum()
    for k in range(len(inputs), len(nodes) - 1, 3):  # 중간 노드 몇 개도 손실에 더합니다(가지)
        total = total + nodes[k].sum()
    return total


def both_engines(program, arrays):
    xs = [lazy.Tensor(a, requires_grad=True) for a in arrays]
    loss = run(program, xs, lambda v: v.exp(), lambda v: v.log())
    loss.backward()
    vs = [tk.Variable(a) for a in arrays]
    eager = run(program, vs, tk.exp, tk.log)
    eager.backward()
    return loss, xs, eager, vs


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_random_graphs_same_gradients_as_the_engine(backend, seed, dtype):
    """사칙연산, 부호, relu만 쓴 같은 모양의 그래프: 미분값이 엔진과 원소마다 같습니다."""
    rng = np.random.default_rng(seed)
    arrays = [rng.standard_normal((3, 5)).astype(dtype) for _ in range(3)]
    loss, xs, eager, vs = both_engines(random_program(rng, 3, 14, smooth=False), arrays)
    for x, v in zip(xs, vs, strict=True):
        assert (x.grad is None) == (v.grad is None)  # 쓰지 않은 입력은 둘 다 미분값이 없습니다
        if v.grad is not None:
            same(x.grad.numpy(), v.grad)


SPECIAL_STEPS = {
    "add": lambda a, b, c: a + b,
    "sub": lambda a, b, c: a - b,
    "mul": lambda a, b, c: a * b,
    "div": lambda a, b, c: a / b,  # 나눗셈을 막지 않습니다: 0으로 나누기, inf / inf도 나옵니다
    "neg": lambda a, b, c: -a,
    "relu": lambda a, b, c: a.relu() if isinstance(a, lazy.Tensor) else tk.relu(a),
    "addc": lambda a, b, c: a + c,
    "rsubc": lambda a, b, c: c - a,
    "mulc": lambda a, b, c: a * c,
    "divc": lambda a, b, c: a / c,
    "rdivc": lambda a, b, c: c / a,
}
SPECIAL_CONSTANTS = [0.0, -0.0, 1.0, -2.5, 0.1, np.inf, -np.inf, 1e30, 1e-30]
SPECIAL_INPUTS = [0.0, -0.0, np.inf, -np.inf, 1e-40, 3e38]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_random_graphs_with_special_values_and_signed_zero_constants(backend, dtype):
    """±0, ±inf, 비정규수인 입력과 -0.0, ±inf인 수: NaN이 아닌 칸은 비트까지, NaN은 자리가 엔진과 같습니다.

    NaN의 부호 비트는 약속하지 않습니다(gcc도, NumPy의 SIMD 반복도 피연산자의 순서를 바꿉니다).
    """
    checked = 0
    for seed in range(60):
        rng = np.random.default_rng(1000 + seed)
        arrays = [rng.standard_normal((2, 5)).astype(dtype) for _ in range(3)]
        for a in arrays:
            a.flat[rng.integers(10, size=2)] = rng.choice(SPECIAL_INPUTS, size=2)
        ops = list(SPECIAL_STEPS)
        program = [
            (ops[rng.integers(len(ops))], rng.integers(0, 3 + k, size=2), rng.integers(9))
            for k in range(10)
        ]

        def run_special(inputs, program=program):
            nodes = list(inputs)
            for op, (i, j), c in program:
                nodes.append(SPECIAL_STEPS[op](nodes[i], nodes[j], SPECIAL_CONSTANTS[c]))
            return nodes[-1].sum()

        xs = [lazy.Tensor(a, requires_grad=True) for a in arrays]
        run_special(xs).backward()
        vs = [tk.Variable(a) for a in arrays]
        with np.errstate(all="ignore"):
            run_special(vs).backward()
        for x, v in zip(xs, vs, strict=True):
            assert (x.grad is None) == (v.grad is None)
            if v.grad is None:
                continue
            got, nan = x.grad.numpy(), np.isnan(v.grad)
            assert np.array_equal(np.isnan(got), nan)
            assert np.array_equal(got[~nan], v.grad[~nan])
            assert np.array_equal(np.signbit(got[~nan]), np.signbit(v.grad[~nan]))
            checked += 1
    assert checked > 60


@pytest.mark.parametrize("seed", range(3))
def test_random_graphs_with_broadcasting_exp_log(backend, seed):
    """브로드캐스트(미분값을 더해 줄이기)와 exp, log가 든 그래프: float64에서 1e-12 안."""
    rng = np.random.default_rng(100 + seed)
    shapes = [(4, 3), (3,), (4, 1), ()]
    arrays = [np.asarray(rng.standard_normal(s)) for s in shapes]
    loss, xs, eager, vs = both_engines(random_program(rng, 4, 16, smooth=True), arrays)
    assert np.allclose(loss.numpy(), eager.data, rtol=1e-12, atol=1e-12)
    for x, v in zip(xs, vs, strict=True):
        assert (x.grad is None) == (v.grad is None)
        if v.grad is None:
            continue
        got = x.grad.numpy()
        assert got.shape == v.grad.shape
        assert np.allclose(got, v.grad, rtol=1e-12, atol=1e-12)


def test_the_rules_are_the_engines_classes():
    """기록에 남는 규칙은 최종 엔진의 함수 클래스 그 자신입니다(따로 쓴 규칙 표가 없습니다)."""
    x = lazy.Tensor(np.ones(3), requires_grad=True)
    rules = {
        (x * 2.0).record.rule: elementwise.Mul,
        (x + x).record.rule: elementwise.Add,
        (x - 1.0).record.rule: elementwise.Sub,
        (x / 3.0).record.rule: elementwise.Div,
        (-x).record.rule: elementwise.Neg,
        x.exp().record.rule: elementwise.Exp,
        x.log().record.rule: elementwise.Log,
        x.relu().record.rule: activations.ReLU,
        x.sum().record.rule: reductions.Sum,
    }
    for got, want in rules.items():
        assert got is want
    assert isinstance((x * 2.0).record, Record)


def test_backward_of_the_chain_is_fused(backend):
    """20개 연산 사슬의 미분값은 원소별 커널 하나로 계산됩니다(순전파를 그 안에서 다시 계산)."""
    a = np.random.default_rng(7).standard_normal((50, 40)).astype(np.float32)
    x = lazy.Tensor(a, requires_grad=True)
    y = x
    for _ in range(4):
        y = -((y * 1.01 + 0.5 - 0.25).relu())
    y.sum().backward()
    kernels = lazy.schedule(x.grad)
    assert len(kernels) == 1 and kernels[0].axes is None
    v = tk.Variable(a)
    w = v
    for _ in range(4):
        w = -((w * 1.01 + 0.5 - 0.25).relu())
    w.sum().backward()
    same(x.grad.numpy(), v.grad)


def test_gradients_accumulate_over_two_backward_calls(backend):
    a = np.array([0.5, -1.0, 2.0])
    x = lazy.Tensor(a, requires_grad=True)
    (x * x).sum().backward()
    (x * 3.0).sum().backward()
    v = tk.Variable(a)
    (v * v).sum().backward()
    (v * 3.0).sum().backward()
    same(x.grad.numpy(), v.grad)


def test_leaf_root_and_constants():
    x = lazy.Tensor(np.array(2.0), requires_grad=True)
    x.backward()
    assert x.grad.numpy() == 1.0
    c = lazy.Tensor(np.ones(3))  # 미분하지 않는 텐서는 그래프를 기록하지 않습니다
    y = (c * 2.0).sum()
    assert y.record is None and not y.requires_grad
    with pytest.raises(RuntimeError) as error:
        y.backward()
    korean_instruction(error.value)


def test_backward_needs_a_scalar_and_releases_the_graph():
    x = lazy.Tensor(np.ones(3), requires_grad=True)
    with pytest.raises(RuntimeError) as error:
        (x * 2.0).backward()
    assert "(3,)" in korean_instruction(error.value)
    loss = (x * 2.0).sum()
    loss.backward()
    with pytest.raises(RuntimeError) as error:
        loss.backward()
    korean_instruction(error.value)


def test_a_training_loop_matches_the_engine(backend):
    """작은 학습 루프: y = relu(x·w + b)의 제곱 오차를 경사 하강으로. 매 스텝 매개변수가 엔진과 같습니다."""
    rng = np.random.default_rng(8)
    data = rng.standard_normal((64, 3))
    target = np.maximum(data @ np.array([1.0, -2.0, 0.5]) + 0.3, 0)[:, None]
    w0, b0 = rng.standard_normal((1, 3)) * 0.1, np.zeros((1, 1))
    lazy_params = [w0, b0]
    eager_params = [tk.Variable(w0.copy()), tk.Variable(b0.copy())]
    x_l, t_l = lazy.Tensor(data), lazy.Tensor(target)
    for _ in range(5):
        w, b = (lazy.Tensor(p, requires_grad=True) for p in lazy_params)
        pred = ((x_l * w).sum(axis=1, keepdims=True) + b).relu()
        loss = ((pred - t_l) * (pred - t_l)).sum() / 64.0
        loss.backward()
        new = [w - w.grad * 0.1, b - b.grad * 0.1]
        lazy.realize(*new)
        lazy_params = [t.numpy() for t in new]
        we, be = eager_params
        pe = tk.relu((data * we).sum(axis=1, keepdims=True) + be)
        le = ((pe - target) * (pe - target)).sum() / 64.0
        le.backward()
        eager_params = [tk.Variable(we.data - we.grad * 0.1), tk.Variable(be.data - be.grad * 0.1)]
        assert np.allclose(loss.numpy(), le.data, rtol=1e-12)
    for p, v in zip(lazy_params, eager_params, strict=True):
        assert np.allclose(p, v.data, rtol=1e-12, atol=1e-15)
