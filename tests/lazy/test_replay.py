"""되풀이(Replay): 처음 한 번 기록한 계획을 새 입력으로 다시 돌립니다."""

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from korean_messages import korean_instruction

import tinygrad_ko as tk
from tinygrad_ko import lazy
from tinygrad_ko.lazy import runner

from .conftest import needs_cc

SRC = Path(__file__).resolve().parents[2] / "src"


def step(x, w):
    """작은 학습 스텝: 손실의 미분값으로 w를 한 번 고친 값과 손실."""
    loss = ((x * w - 1.0).relu() * (x * w - 1.0)).sum()
    loss.backward()
    return w - w.grad * 0.01, loss


def test_replay_gives_the_same_values_as_running_again(backend):
    rng = np.random.default_rng(0)
    replayed = lazy.Replay(step)
    for _ in range(3):
        x_data = rng.standard_normal((4, 5))
        w_data = rng.standard_normal((4, 5))
        new_w, loss = replayed(lazy.Tensor(x_data), lazy.Tensor(w_data, requires_grad=True))
        want_w, want_loss = step(lazy.Tensor(x_data), lazy.Tensor(w_data, requires_grad=True))
        assert np.array_equal(new_w.numpy(), want_w.numpy())
        assert np.array_equal(loss.numpy(), want_loss.numpy())
        v = tk.Variable(w_data)
        ((tk.relu(x_data * v - 1.0)) * (x_data * v - 1.0)).sum().backward()
        assert np.array_equal(new_w.numpy(), w_data - v.grad * 0.01)
    assert len(replayed.plans) == 1  # 모양이 같으니 처음 한 번만 기록했습니다


def test_replay_does_not_schedule_again(backend, monkeypatch):
    replayed = lazy.Replay(lambda x: (x * 2.0 + 1.0).relu())
    replayed(lazy.Tensor(np.ones(3)))

    def no_more_planning(*args):
        raise AssertionError("다시 스케줄했습니다")

    monkeypatch.setattr(runner, "schedule", no_more_planning)
    assert np.array_equal(replayed(lazy.Tensor(np.full(3, -2.0))).numpy(), [0.0, 0.0, 0.0])
    assert np.array_equal(replayed(lazy.Tensor(np.full(3, 4.0))).numpy(), [9.0, 9.0, 9.0])


def test_new_shape_is_recorded_again(backend):
    replayed = lazy.Replay(lambda x: x * 3.0)
    replayed(lazy.Tensor(np.ones(2)))
    assert np.array_equal(replayed(lazy.Tensor(np.ones((2, 2)))).numpy(), np.full((2, 2), 3.0))
    assert len(replayed.plans) == 2


def test_replay_needs_lazy_results():
    with pytest.raises(ValueError) as error:
        lazy.Replay(lambda x: (x * 2.0).numpy())(lazy.Tensor(np.ones(2)))
    korean_instruction(error.value)
    with pytest.raises(TypeError):
        lazy.Replay(lambda x: x)(np.ones(2))


@pytest.mark.parametrize("first_same", [True, False])
def test_replay_does_not_mix_up_the_same_tensor_passed_twice(backend, first_same):
    """처음에 같은 텐서를 두 번 주고 다음에 다른 둘을 주면(또는 그 반대) 계획을 따로 세웁니다.

    고치기 전에는 입력 노드의 id로 바꿔 끼워, 같은 텐서로 기록한 계획이 두 입력을 하나로 읽었습니다."""
    replayed = lazy.Replay(lambda x, y: x - y)
    t = lazy.Tensor(np.arange(3.0))
    a, b = lazy.Tensor(np.arange(3.0) * 5), lazy.Tensor(np.ones(3))
    calls = [(t, t), (a, b)] if first_same else [(a, b), (t, t)]
    for x, y in calls:
        assert np.array_equal(replayed(x, y).numpy(), x.numpy() - y.numpy())


def test_replay_refuses_values_taken_out_inside_the_function(backend):
    """f 안에서 .numpy()로 꺼낸 값은 계획에 들지 않아, 고치기 전에는 다음 호출부터 처음 값이 조용히 나왔습니다."""
    replayed = lazy.Replay(lambda x: lazy.Tensor((x * 2.0).numpy()) + 1.0)
    with pytest.raises(ValueError) as error:
        replayed(lazy.Tensor(np.zeros(2, np.float32)))
    message = korean_instruction(error.value)
    assert ".numpy()" in message
    # 인수의 값을 꺼내기만 해도 같습니다(그 값으로 한 계산이 고정됩니다).
    with pytest.raises(ValueError):
        lazy.Replay(lambda x: x * float(x.numpy()[0]))(lazy.Tensor(np.ones(2)))
    assert not replayed.plans


def test_replay_refuses_tensors_that_are_not_arguments(backend):
    """바깥 변수의 텐서는 처음 값으로 계획에 박힙니다. 고치기 전에는 w를 바꿔도 옛 w로 계산했습니다."""
    w = lazy.Tensor(np.full(2, 3.0))
    replayed = lazy.Replay(lambda x: x * w)
    with pytest.raises(ValueError) as error:
        replayed(lazy.Tensor(np.ones(2)))
    message = korean_instruction(error.value)
    assert "(2,)" in message and "float64" in message  # 어느 텐서인지 모양과 dtype으로 알려 줍니다
    with pytest.raises(ValueError):  # 함수 안에서 ndarray로 만든 텐서도 인수가 아닙니다
        lazy.Replay(lambda x: x + lazy.Tensor(np.ones(2)))(lazy.Tensor(np.ones(2)))


def test_replay_refuses_an_outside_tensor_even_when_it_is_also_the_first_argument(backend):
    """rev56G: 바깥 w를 처음에 인수로도 주면, 고치기 전에는 함수 안의 w가 인수 자리로 기록되어 다음 부름에서
    조용히 틀렸습니다(1 * w = [3, 3]이어야 할 값이 [1, 1]). 뷰로 읽어도 같았습니다."""
    w = lazy.Tensor(np.full(2, 3.0))
    for fn in (lambda x: x * w, lambda x: x * w.reshape(2, 1).reshape(2)):
        with pytest.raises(ValueError) as error:
            lazy.Replay(fn)(w)
        assert "(2,)" in korean_instruction(error.value)


def test_replay_accepts_the_backward_seed_and_numbers():
    """역전파의 시작값(엔진이 만든 1)과 파이썬 수는 인수가 아니어도 됩니다: 바뀌지 않는 값입니다."""
    replayed = lazy.Replay(step)
    x, w = lazy.Tensor(np.ones((2, 2))), lazy.Tensor(np.full((2, 2), 2.0), requires_grad=True)
    new_w, _ = replayed(x, w)
    assert np.array_equal(new_w.numpy(), np.full((2, 2), 2.0 - 0.01 * 2.0))


def test_requires_grad_is_part_of_the_plan_key(backend):
    """requires_grad=True로 기록한 계획을 requires_grad가 없는 입력에 조용히 쓰지 않습니다(rev26D)."""

    def grad_of(x):
        (x * x).sum().backward()
        return x.grad * 1.0

    replayed = lazy.Replay(grad_of)
    got = replayed(lazy.Tensor(np.array([5.0, 7.0]), requires_grad=True))
    assert np.array_equal(got.numpy(), [10.0, 14.0])
    with pytest.raises(Exception) as direct:  # 감싸지 않고 부르면 backward할 수 없다고 합니다
        grad_of(lazy.Tensor(np.array([1.0, 2.0])))
    with pytest.raises(
        type(direct.value)
    ):  # 되풀이도 같은 오류를 내야 합니다(처음 계획의 미분값이 아니라)
        replayed(lazy.Tensor(np.array([1.0, 2.0])))
    assert len(replayed.plans) == 1


def test_plan_recorded_without_requires_grad_is_not_used_with_it(backend):
    replayed = lazy.Replay(lambda x: x * 2.0)
    replayed(lazy.Tensor(np.ones(2)))
    y = replayed(lazy.Tensor(np.ones(2), requires_grad=True))
    assert len(replayed.plans) == 2
    assert np.array_equal(y.numpy(), [2.0, 2.0])


def stdout_of_fresh_python(script: str, cache) -> str:
    """script를 따로 띄운 파이썬에서 돌려 표준 출력을 돌려줍니다(닫힌 커널을 부르면 신호 11로 죽으므로)."""
    env = {**os.environ, "TINYGRAD_KO_CACHE": str(cache), "PYTHONPATH": str(SRC)}
    done = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, (done.returncode, done.stderr[-2000:])
    return done.stdout


@needs_cc
def test_replay_recorded_before_a_compiler_reset_records_again_instead_of_crashing(tmp_path):
    """`set_backend("c")`와 `compiler.reset()`은 불러온 라이브러리를 닫습니다. 그 전에 기록한 되풀이가 닫힌
    커널을 부르면 프로세스가 죽으므로(고치기 전: 신호 11), 따로 띄운 파이썬에서 확인합니다."""
    script = (
        "import numpy as np\n"
        "from tinygrad_ko import lazy\n"
        "from tinygrad_ko.lazy import compiler\n"
        "lazy.set_backend('c')\n"
        "r = lazy.Replay(lambda x: (x * 2.0 + 1.0).relu())\n"
        "r(lazy.Tensor(np.ones(4)))\n"
        "compiler.reset()\n"
        "print(r(lazy.Tensor(np.arange(4.0) - 1.0)).numpy().tolist(), len(r.plans))\n"
    )
    assert stdout_of_fresh_python(script, tmp_path).split() == [
        "[0.0,",
        "1.0,",
        "3.0,",
        "5.0]",
        "1",
    ]


@needs_cc
def test_a_plan_made_before_a_compiler_reset_runs_after_it(tmp_path):
    """`runner.Plan`을 직접 만들어 돌려도(53장처럼) reset 뒤에 닫힌 커널을 부르지 않습니다."""
    script = (
        "import numpy as np\n"
        "from tinygrad_ko import lazy\n"
        "from tinygrad_ko.lazy import compiler, runner\n"
        "lazy.set_backend('c')\n"
        "y = (lazy.Tensor(np.arange(3.0)) * 3.0 - 1.0).relu()\n"
        "plan = runner.Plan([y.lazydata])\n"
        "plan.run()\n"
        "compiler.reset()\n"
        "print(plan.run()[0].tolist())\n"
    )
    assert stdout_of_fresh_python(script, tmp_path).split() == ["[0.0,", "2.0,", "5.0]"]
