"""`tinygrad_ko.micrograd.nn`(Value 위의 신경망)과 `tinygrad_ko.data.datasets` 테스트."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from tinygrad_ko.data.datasets import make_moons
from tinygrad_ko.micrograd.nn import MLP, Layer, Neuron, hinge_loss, sgd_step, sign_accuracy, train
from tinygrad_ko.micrograd.value import Value


def test_neuron_computes_relu_of_weighted_sum_plus_bias():
    n = Neuron(3, rng=random.Random(0))
    n.b.data = 0.25
    x = [0.5, -1.0, 2.0]
    expected = sum(w.data * xi for w, xi in zip(n.w, x, strict=True)) + 0.25
    assert n(x).data == pytest.approx(max(0.0, expected), rel=1e-12)
    linear = Neuron(3, nonlin=False, rng=random.Random(0))
    linear.b.data = 0.25
    assert linear(x).data == pytest.approx(expected, rel=1e-12)
    assert linear(x)._op == "+" and n(x)._op == "relu"


def test_neuron_weights_start_uniform_in_minus_one_to_one_and_bias_zero():
    n = Neuron(200, rng=random.Random(1))
    weights = [w.data for w in n.w]
    assert all(-1.0 <= w <= 1.0 for w in weights)
    assert min(weights) < -0.5 < 0.5 < max(weights)  # 한쪽으로 몰리지 않았습니다
    assert n.b.data == 0.0
    assert n.parameters() == [*n.w, n.b]


def test_parameter_counts():
    assert len(Neuron(4).parameters()) == 5
    assert len(Layer(4, 3).parameters()) == 15
    assert len(MLP(2, [16, 16, 1]).parameters()) == (2 + 1) * 16 + (16 + 1) * 16 + (16 + 1) * 1


def test_layer_with_one_neuron_returns_a_value_and_mlp_accepts_it_as_hidden_layer():
    assert isinstance(Layer(2, 1, rng=random.Random(0))([1.0, 2.0]), Value)
    outs = Layer(2, 3, rng=random.Random(0))([1.0, 2.0])
    assert isinstance(outs, list) and len(outs) == 3
    model = MLP(2, [1, 3], seed=0)
    assert len(model([0.5, -0.5])) == 3


def test_mlp_gradients_match_numerical_differentiation():
    # seed=4: 이 x에서 은닉 뉴런 8개 가운데 6개가 켜져 있고, 0에 가장 가까운 ReLU 입력도 0.064라
    # h = 1e-6의 차분이 ReLU의 꺾임을 넘지 않습니다(모든 은닉 뉴런이 꺼진 시드는 이 비교가 뜻이 없습니다).
    model = MLP(3, [4, 4, 1], seed=4)
    x = [0.3, -0.7, 1.1]

    def output() -> float:
        return model(x).data

    out = model(x)
    model.zero_grad()
    out.backward()
    h = 1e-6
    for p in model.parameters():
        analytic = p.grad
        original = p.data
        p.data = original + h
        plus = output()
        p.data = original - h
        minus = output()
        p.data = original
        assert analytic == pytest.approx((plus - minus) / (2 * h), rel=1e-5, abs=1e-7)
    assert sum(p.grad != 0.0 for p in model.parameters()) > len(model.parameters()) / 2


def test_zero_grad_resets_every_parameter():
    model = MLP(2, [3, 1], seed=0)
    model([1.0, 1.0]).backward()
    assert any(p.grad != 0.0 for p in model.parameters())
    model.zero_grad()
    assert all(p.grad == 0.0 for p in model.parameters())


def test_same_seed_gives_the_same_network_and_outputs():
    a, b = MLP(2, [5, 5, 1], seed=7), MLP(2, [5, 5, 1], seed=7)
    assert [p.data for p in a.parameters()] == [p.data for p in b.parameters()]
    assert a([0.1, 0.2]).data == b([0.1, 0.2]).data
    c = MLP(2, [5, 5, 1], seed=8)
    assert [p.data for p in a.parameters()] != [p.data for p in c.parameters()]


def test_without_seed_networks_differ():
    a, b = MLP(2, [5, 1]), MLP(2, [5, 1])
    assert [p.data for p in a.parameters()] != [p.data for p in b.parameters()]


def test_input_validation():
    model = MLP(2, [3, 1], seed=0)
    with pytest.raises(ValueError, match="입력 길이가 3입니다. 이 층은 수 2개를"):
        model([1.0, 2.0, 3.0])
    with pytest.raises(TypeError, match="받은 것: str"):
        model("ab")
    with pytest.raises(TypeError, match="받은 것: float"):
        model(1.0)
    with pytest.raises(TypeError, match="Value에는 실수"):
        model([1.0, "x"])
    with pytest.raises(ValueError, match="nin"):
        MLP(0, [1])
    with pytest.raises(TypeError, match="nouts"):
        MLP(2, 3)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="nouts의 원소"):
        MLP(2, [4, 0])
    with pytest.raises(TypeError, match=r"random\.Random\(0\)"):
        Neuron(2, rng=42)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="random.Random을"):
        Layer(2, 2, rng=np.random.default_rng(0))  # type: ignore[arg-type]  # NumPy의 생성기는 받지 않습니다
    for bad in (1.5, "0", True):
        with pytest.raises(TypeError, match="seed는 정수여야 합니다"):
            MLP(2, [1], seed=bad)  # type: ignore[arg-type]


def test_numpy_rows_are_accepted_as_inputs():
    model = MLP(2, [3, 1], seed=0)
    row = np.array([0.5, -0.25])
    assert model(row).data == model([0.5, -0.25]).data


def test_repr_shows_structure():
    assert repr(MLP(2, [3, 1], seed=0)) == "MLP[Layer(2 -> 3, ReLU), Layer(3 -> 1, Linear)]"
    assert repr(Neuron(4, nonlin=False)) == "LinearNeuron(4)"


# ---------------------------------------------------------------------------------------
# 손실, 정확도, 경사 하강법


def test_hinge_loss_value_and_gradient():
    scores = [Value(2.0), Value(0.5), Value(-0.25)]
    labels = [1.0, 1.0, 1.0]
    loss = hinge_loss(scores, labels)
    # max(0, 1-2)=0, max(0, 1-0.5)=0.5, max(0, 1+0.25)=1.25 → 평균 0.5833...
    assert loss.data == pytest.approx((0.0 + 0.5 + 1.25) / 3)
    loss.backward()
    assert [s.grad for s in scores] == pytest.approx([0.0, -1 / 3, -1 / 3])


def test_accuracy_counts_sign_agreement():
    scores = [Value(2.0), Value(-0.5), Value(0.1), Value(-3.0)]
    assert sign_accuracy(scores, [1.0, -1.0, -1.0, 1.0]) == 0.5
    assert sign_accuracy(scores, np.array([1.0, -1.0, 1.0, -1.0])) == 1.0
    with pytest.raises(ValueError, match="수가 같아야"):
        sign_accuracy(scores, [1.0])
    with pytest.raises(ValueError, match="수가 같아야"):
        hinge_loss([], [])


def test_sgd_step_moves_against_the_gradient():
    p = Value(1.0)
    p.grad = 2.0
    sgd_step([p], 0.1)
    assert p.data == pytest.approx(0.8)


@pytest.mark.slow
def test_training_lowers_the_loss_and_reaches_high_accuracy():
    X, y = make_moons(30, noise=0.1, seed=0)
    model = MLP(2, [8, 8, 1], seed=0)
    history = []
    final_loss, final_acc = train(
        model, X, y, steps=60, learning_rate=0.5, on_step=lambda *row: history.append(row)
    )
    assert [step for step, _, _ in history] == list(range(60))
    assert history[0][2] < 0.7  # 처음에는 거의 찍는 수준입니다
    assert final_loss < history[0][1] / 3
    assert final_acc >= 0.9


def test_training_repeats_exactly_with_the_same_seeds():
    def run() -> list[tuple[int, float, float]]:
        X, y = make_moons(20, noise=0.1, seed=5)
        model = MLP(2, [4, 1], seed=5)
        history = []
        train(model, X, y, steps=5, learning_rate=0.3, on_step=lambda *row: history.append(row))
        return history

    assert run() == run()


# ---------------------------------------------------------------------------------------
# 반달 데이터


def test_make_moons_shapes_labels_and_seed():
    X, y = make_moons(101, noise=0.1, seed=0)
    assert X.shape == (101, 2) and y.shape == (101,)
    assert sorted(set(y.tolist())) == [-1.0, 1.0]
    assert (y == -1.0).sum() == 50 and (y == 1.0).sum() == 51
    X2, y2 = make_moons(101, noise=0.1, seed=0)
    assert np.array_equal(X, X2) and np.array_equal(y, y2)
    X3, _ = make_moons(101, noise=0.1, seed=1)
    assert not np.array_equal(X, X3)


def test_make_moons_without_noise_lies_on_two_half_circles():
    X, y = make_moons(40, noise=0.0, seed=0)
    upper, lower = X[y == -1.0], X[y == 1.0]
    assert np.allclose(np.hypot(upper[:, 0], upper[:, 1]), 1.0)
    assert np.all(upper[:, 1] >= -1e-12)
    assert np.allclose(np.hypot(lower[:, 0] - 1.0, lower[:, 1] - 0.5), 1.0)
    assert np.all(lower[:, 1] <= 0.5 + 1e-12)
    assert math.isclose(upper[:, 0].min(), -1.0) and math.isclose(lower[:, 0].max(), 2.0)


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"n_samples": 1}, ValueError, "n_samples"),
        ({"n_samples": 10.0}, TypeError, "n_samples"),
        ({"n_samples": 10, "noise": -0.1}, ValueError, "noise"),
        ({"n_samples": 10, "noise": "big"}, TypeError, "noise"),
    ],
)
def test_make_moons_rejects_bad_arguments(kwargs, error, message):
    with pytest.raises(error, match=message):
        make_moons(**kwargs)


def test_train_stops_with_a_korean_message_when_the_loss_is_not_finite():
    X, y = make_moons(40, noise=0.1, seed=0)
    model = MLP(2, [8, 1], seed=0)
    losses = []
    with pytest.raises(RuntimeError, match="학습률") as info:
        train(
            model,
            X,
            y,
            steps=10,
            learning_rate=1e100,
            on_step=lambda step, loss, acc: losses.append(loss),
        )
    message = str(info.value)
    assert "유한한 수가 아닙니다" in message and "learning_rate=1e+100" in message
    assert message.endswith("세요.")
    # 고치기 전에는 inf 다음에 손실 0.0이 이어져 "수렴"처럼 보였습니다.
    assert all(math.isfinite(loss) for loss in losses[:-1]) and not math.isfinite(losses[-1])
    assert len(losses) < 10


def test_train_names_the_input_scale_when_huge_inputs_make_the_loss_not_finite():
    # 입력이 1e160쯤이면 학습률을 아무리 줄여도 1번 스텝에서 손실이 nan이 됩니다(rev60b). 메시지가
    # 학습률만 탓하면 틀린 길로 보냅니다: 입력의 가장 큰 절댓값도 보여 주어야 합니다.
    X, y = make_moons(40, noise=0.1, seed=0)
    X = X * 1e160
    with pytest.raises(RuntimeError) as info:
        train(MLP(2, [8, 1], seed=0), X, y, steps=5, learning_rate=1e-6)
    message = str(info.value)
    assert "1번 스텝" in message and "learning_rate=1e-06" in message
    assert "발산했으므로" not in message  # 원인을 단정하지 않습니다
    assert f"{float(np.abs(X).max()):.3g}" in message and "입력" in message
    assert message.endswith("세요.")


def test_train_blames_the_data_not_the_learning_rate_when_the_loss_is_not_finite_at_step_0():
    X, y = make_moons(40, noise=0.1, seed=0)
    X[5, 0] = float("nan")
    model = MLP(2, [8, 1], seed=0)
    before = _weights(model)
    with pytest.raises(RuntimeError) as info:
        train(model, X, y, steps=3, learning_rate=0.5)
    message = str(info.value)
    # 갱신이 한 번도 없었으므로 발산도, 학습률도 원인이 아닙니다.
    assert "갱신 전" in message and "학습률 탓이 아닙니다" in message
    assert "발산" not in message and "learning_rate" not in message
    assert "X[5]" in message and "nan" in message  # 받은 값 중 문제인 것을 짚습니다
    assert message.endswith("세요.")
    assert np.array_equal(_weights(model), before, equal_nan=True)
    # X가 멀쩡하면 받은 모델의 처음 가중치를 의심하라고 합니다.
    X, y = make_moons(40, noise=0.1, seed=0)
    model.parameters()[0].data = float("nan")
    with pytest.raises(RuntimeError, match="처음 가중치가 유한한지") as info:
        train(model, X, y, steps=3, learning_rate=0.5)
    assert "학습률 탓이 아닙니다" in str(info.value)


def _weights(module):
    return [p.data for p in module.parameters()]


@pytest.fixture
def global_random_state():
    """테스트가 바꾼 파이썬 전역 random 상태를 되돌립니다."""
    state = random.getstate()
    yield
    random.setstate(state)


def test_mlp_honours_the_global_random_seed_when_no_seed_is_given(global_random_state):
    # micrograd의 예제처럼 전역 시드(random.seed)만 정하고 seed=를 주지 않아도 같은 신경망이 됩니다.
    random.seed(1337)
    a = MLP(2, [4, 1])
    random.seed(1337)
    b = MLP(2, [4, 1])
    assert _weights(a) == _weights(b)
    random.seed(1338)
    assert _weights(MLP(2, [4, 1])) != _weights(a)
    for make in (lambda: Neuron(3), lambda: Layer(3, 2)):  # rng를 주지 않은 뉴런과 층도 같습니다.
        random.seed(5)
        first = _weights(make())
        random.seed(5)
        assert _weights(make()) == first


def test_explicit_seed_ignores_the_global_state(global_random_state):
    random.seed(0)
    a = MLP(2, [4, 1], seed=3)
    random.seed(99)
    before = random.getstate()
    b = MLP(2, [4, 1], seed=3)
    assert _weights(a) == _weights(b)
    assert random.getstate() == before  # seed를 주면 전역 상태를 건드리지 않습니다


def test_numpy_global_seed_is_not_used(global_random_state):
    # 가중치는 파이썬의 random으로 뽑습니다(micrograd와 같음). NumPy의 전역 상태는 쓰지도 바꾸지도 않습니다.
    np_state = np.random.get_state()
    random.seed(7)
    np.random.seed(1)
    a = MLP(2, [3, 1])
    random.seed(7)
    np.random.seed(2)
    b = MLP(2, [3, 1])
    assert _weights(a) == _weights(b)  # NumPy의 시드가 달라도 같은 신경망
    np.random.seed(2)
    MLP(2, [3, 1])
    assert np.random.randint(0, 2**31) == np.random.RandomState(2).randint(
        0, 2**31
    )  # 소비하지 않습니다
    np.random.set_state(np_state)
