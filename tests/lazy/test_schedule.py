"""스케줄러와 메모리 계획: 어디서 커널을 자르는지, 버퍼를 몇 개 쓰는지, 긴 사슬."""

import sys

import numpy as np
import pytest

from tinygrad_ko import lazy
from tinygrad_ko.lazy import runner, scheduler
from tinygrad_ko.lazy.memory import assign_slots


def chain(t, rounds=4):
    for _ in range(rounds):
        t = -((t * 1.01 + 0.5 - 0.25).relu())
    return t


def test_elementwise_chain_is_one_kernel():
    x = lazy.Tensor(np.ones((10, 10), np.float32))
    kernels = lazy.schedule(chain(x))
    assert len(kernels) == 1
    assert kernels[0].op_count == 20
    assert len(kernels[0].loads) == 1  # x를 한 번만 읽습니다


def test_elementwise_fuses_into_the_reduction():
    x = lazy.Tensor(np.ones((10, 10)))
    kernels = lazy.schedule((chain(x) * x).sum(axis=0))
    assert len(kernels) == 1 and kernels[0].axes == (0,)


def test_cuts_at_sum_and_before_broadcasting_a_computed_value():
    x = lazy.Tensor(np.ones((4, 5)))
    centered = x - x.sum(axis=1, keepdims=True)  # 합(4, 1)의 버퍼를 보폭 0인 뷰로 늘려 읽습니다
    assert [k.axes for k in lazy.schedule(centered)] == [(1,), None]
    mean = (
        x - x.sum(axis=1, keepdims=True) / 5.0
    )  # 늘리기 전의 원소별 연산(/ 5)은 따로 버퍼에 씁니다
    assert [k.axes for k in lazy.schedule(mean)] == [(1,), None, None]


def test_shared_subexpression_is_computed_once_per_kernel():
    x = lazy.Tensor(np.ones(8))
    h = (x * 3.0).exp()
    kernels = lazy.schedule(h * h + h)
    assert len(kernels) == 1
    ops = [op for op, *_ in kernels[0].stmts]
    assert ops.count("exp") == 1


def test_realize_several_tensors_in_one_schedule(backend):
    a = np.arange(6.0)
    x = lazy.Tensor(a)
    y, z = x * 2.0, x + 1.0
    lazy.realize(y, z)
    assert np.array_equal(y.numpy(), a * 2.0) and np.array_equal(z.numpy(), a + 1.0)
    before = dict(runner.counters)
    y.numpy()
    assert runner.counters == before  # 이미 계산한 텐서는 다시 계산하지 않습니다


def test_planner_reuses_dead_buffers():
    # a -> b -> c -> d: 죽은 버퍼를 돌려 쓰면 버퍼 둘로 충분합니다(출력이 입력과 겹치지 않게).
    steps = [("a", (), "f"), ("b", ("a",), "f"), ("c", ("b",), "f"), ("d", ("c",), "f")]
    slots, kinds = assign_slots(steps)
    assert len(kinds) == 2
    assert slots["a"] != slots["b"] and slots["b"] != slots["c"]
    in_place, kinds = assign_slots(steps, in_place=True)
    assert len(kinds) == 1  # 제자리 계산이 허락되면 버퍼 하나
    kept, kinds = assign_slots(steps, keep={"d"})
    assert kept["d"] is None  # 돌려줄 값은 따로 만듭니다
    mixed, kinds = assign_slots([("a", (), "f"), ("b", ("a",), "g")])
    assert len(kinds) == 2  # 종류(dtype, 크기)가 다르면 돌려 쓰지 않습니다


def test_numpy_kernel_of_a_chain_writes_in_place_into_the_output():
    x = lazy.Tensor(np.ones((10, 10), np.float32))
    source = lazy.source(lazy.schedule(chain(x))[0], "numpy")
    assert "np.empty" not in source  # 중간값 20개가 출력 버퍼 하나를 돌려 씁니다
    assert source.count("out=out") == 20


@pytest.mark.slow
def test_a_chain_twenty_times_the_recursion_limit_realizes_and_backpropagates(backend):
    """재귀 없이 스케줄하므로 파이썬의 재귀 한도(1,000)의 스무 배인 2만 단계 사슬도 계산합니다.

    (10만 단계는 이 시험 하나가 백엔드마다 40초 가까이 걸려, 한도를 넘는다는 같은 것을 보이는 2만으로 줄였습니다.)
    """
    assert 20 * sys.getrecursionlimit() <= 20_000
    x = lazy.Tensor(np.array([0.5, -0.25]), requires_grad=True)
    y = x
    for _ in range(20_000):
        y = y * 0.99999 + 0.00001
    want = np.array([0.5, -0.25])
    for _ in range(20_000):
        want = want * 0.99999 + 0.00001
    assert np.array_equal(y.numpy(), want)
    y.sum().backward()
    assert np.allclose(x.grad.numpy(), 0.99999**20_000, rtol=1e-9)


def test_long_chains_are_cut_into_kernels_of_bounded_depth(backend):
    """파이썬의 재귀 한도(1,000)보다 긴 사슬: 재귀 없이 스케줄하고, 커널 하나는 MAX_DEPTH단까지입니다."""
    n = 5 * scheduler.MAX_DEPTH + 10
    assert n > sys.getrecursionlimit()
    x = lazy.Tensor(np.array([1.0, 2.0]))
    y = x
    for _ in range(n):
        y = -y
    kernels = lazy.schedule(y)
    assert len(kernels) == 6
    assert max(k.op_count for k in kernels) == scheduler.MAX_DEPTH
    assert np.array_equal(y.numpy(), [1.0, 2.0])  # 부호를 짝수 번 바꿨습니다


def test_runner_plan_reuses_buffers_between_kernels():
    """커널 여섯 개의 사슬: 중간 버퍼는 둘을 번갈아 씁니다(출력이 입력과 겹치지 않게). 결과만 따로 만듭니다."""
    x = lazy.Tensor(np.ones(4))
    y = x
    for _ in range(5 * scheduler.MAX_DEPTH + 10):
        y = -y
    plan = runner.Plan([y.lazydata])
    assert len(plan.kernels) == 6
    assert len(plan.kinds) == 2
    assert [slot for _, _, slot, _ in plan.steps][-1] is None  # 돌려줄 값은 돌려 쓰지 않습니다


def test_mermaid_drawing_groups_nodes_by_kernel():
    x = lazy.Tensor(np.ones((4, 5)))
    y = ((x * 2.0 + 1.0).relu() - x.sum(axis=1, keepdims=True)).sum()
    text = lazy.to_mermaid(y)
    assert text == lazy.to_mermaid(y)  # 같은 그래프는 같은 텍스트
    assert text.count("subgraph") == len(lazy.schedule(y)) == 2
    assert 'n0(["4×5"])' in text and '["mul 2<br/>4×5"]' in text


def test_mermaid_draws_only_the_copied_view_in_a_copy_kernel():
    """rev70a: 복사 커널(출력이 뷰)의 상자에 그 뷰의 입력 뷰까지 그려, 어느 연산도 읽지 않는 뷰가 상자 안에 있었습니다."""
    x = lazy.Tensor(np.ones((2, 3), np.float32), requires_grad=True)
    x.reshape(6).sum().backward()
    ((kernel,),) = [lazy.schedule(x.grad)]
    assert kernel.output.op == "expand"
    box = lazy.to_mermaid(x.grad).split('subgraph k0["커널 0"]')[1].split("end")[0]
    assert "expand" in box and "reshape" not in box


def test_same_operation_on_same_inputs_is_computed_once():
    """w * w의 역전파는 gy * w를 두 번 만듭니다. 커널 안에서는 한 번만 계산합니다."""
    w = lazy.Tensor(np.ones(4), requires_grad=True)
    (w * w).sum().backward()
    (kernel,) = lazy.schedule(w.grad)
    ops = [op for op, *_ in kernel.stmts]
    assert ops.count("mul") == 1 and ops.count("add") == 1


def test_plan_does_not_depend_on_string_hashing():
    """두 값이 같은 단계에서 죽을 때 돌려놓는 순서가 해시(PYTHONHASHSEED)에 따라 달라지면 안 됩니다."""
    import os
    import subprocess
    import sys

    code = (
        "from tinygrad_ko.lazy.memory import assign_slots;"
        "steps=[('h',('x',),'f'),('a',('h',),'f'),('b',('h',),'f'),('y',('a','b'),'f')];"
        "print(assign_slots(steps, in_place=True)[0])"
    )
    outputs = {
        subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "PYTHONHASHSEED": str(seed)},
        ).stdout
        for seed in range(6)
    }
    assert outputs == {"{'h': 0, 'a': 1, 'b': 0, 'y': 0}\n"}


def test_a_sum_of_two_thousand_tensors_runs_on_both_backends(backend):
    """입력 텐서가 아주 많은 넓은 식. ctypes는 인수를 1,024개까지만 받으므로(출력 포인터 포함), 커널 하나가
    버퍼를 그보다 많이 읽으면 C 커널을 부를 수 없습니다. 스케줄러가 커널을 잘라 두 백엔드의 값이 같아야 합니다."""
    n = 2100
    terms = [lazy.Tensor(np.full(3, float(i), np.float32)) for i in range(n)]
    while len(terms) > 1:  # 둘씩 더합니다(홀수면 마지막 항은 다음 단으로 넘깁니다)
        pairs = [terms[i] + terms[i + 1] for i in range(0, len(terms) - 1, 2)]
        terms = pairs + terms[len(terms) - len(terms) % 2 :]
    assert np.array_equal(terms[0].numpy(), np.full(3, n * (n - 1) / 2, np.float32))


@pytest.mark.parametrize("limit", [2, 3])
def test_cutting_an_input_for_max_loads_does_not_push_an_earlier_kernel_over_the_limit(
    backend, monkeypatch, limit
):
    """rev57G: 한도를 넘는 노드에서 입력 s를 자르면, s를 이미 녹여 넣은 다른 커널이 s의 버퍼를 하나 더 읽습니다.
    고치기 전에는 그 커널이 한도보다 하나 많이 읽었고, 진짜 한도(1,023)에서는 C 백엔드가 ctypes 오류로 멈췄습니다."""
    monkeypatch.setattr(scheduler, "MAX_LOADS", limit)
    t = [lazy.Tensor(np.full(4, float(i))) for i in range(4)]
    s = t[0] * 2.0
    c = (t[0] + t[1]) + s  # 읽는 짝 {t0, t1}
    n = s + (t[2] + t[3])  # 읽는 짝 {t0, t2, t3}: 한도 2를 넘어 s를 자름
    kernels = lazy.schedule(c + n)
    assert max(len(k.loads) for k in kernels) <= limit
    assert np.array_equal((c + n).numpy(), np.full(4, 1.0 + 0.0 + 2.0 + 3.0 + 0.0))


def test_a_kernel_reads_at_most_max_loads_buffers():
    assert scheduler.MAX_LOADS + 1 <= 1024  # 출력 포인터와 함께 ctypes의 인수 한도 안
    terms = [lazy.Tensor(np.full(2, float(i))) for i in range(2048)]
    while len(terms) > 1:
        terms = [terms[i] + terms[i + 1] for i in range(0, len(terms), 2)]
    kernels = lazy.schedule(terms[0])
    assert len(kernels) > 1
    assert max(len(k.loads) for k in kernels) <= scheduler.MAX_LOADS
