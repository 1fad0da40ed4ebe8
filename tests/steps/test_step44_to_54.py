"""44~54단계 스냅숏: 층, 모델, 옵티마이저, 소프트맥스, 데이터셋, 데이터 로더, 숫자, 저장, 드롭아웃.

책의 동작(과 그 한계)을 그대로 재현하는지, 그리고 최종 엔진과 같은 값을 내는 곳은 같은지 봅니다.
"""

import threading

import numpy as np
import pytest

import tinygrad_ko as tg
from tinygrad_ko import optimizers as O
from tinygrad_ko.steps import step44, step45, step46, step47, step49, step50, step51, step53, step54
from tinygrad_ko.steps.step43 import Variable, mean_squared_error, sigmoid


def test_step44_layer_collects_parameters_only():
    class Affine(step44.Layer):
        def __init__(self):
            super().__init__()
            self.W = step44.Parameter(np.ones((2, 3)))
            self.b = step44.Parameter(np.zeros(3))
            self.x = Variable(np.ones(2))

    layer = Affine()
    assert sorted(layer._params) == ["W", "b"]
    assert {id(p) for p in layer.params()} == {id(layer.W), id(layer.b)}
    for p in layer.params():
        p.grad = Variable(np.ones_like(p.data))
    layer.cleargrads()
    assert all(p.grad is None for p in layer.params())


def test_step44_needs_super_init_and_does_not_collect_nested_layers():
    class Forgetful(step44.Layer):
        def __init__(self):
            self.W = step44.Parameter(np.ones(1))

    with pytest.raises(AttributeError):
        Forgetful()

    class Outer(step44.Layer):
        def __init__(self):
            super().__init__()
            self.inner = step44.Linear(2, in_size=2)

    assert list(Outer().params()) == []  # 45단계가 고치는 한계


def test_step44_linear_infers_in_size_and_matches_the_formula():
    np.random.seed(0)
    layer = step44.Linear(3)
    assert layer.W.data is None
    x = np.random.randn(4, 5)
    y = layer(x)
    # 책의 식 randn(...).astype(float32) * np.sqrt(1 / I)는 NumPy 2부터(NEP 50) float64가 됩니다:
    # np.sqrt가 돌려주는 np.float64가 float32 배열을 끌어올립니다. NumPy 1에서는 float32였습니다.
    assert layer.W.data.shape == (5, 3) and layer.W.data.dtype == np.float64
    np.testing.assert_allclose(y.data, x @ layer.W.data + layer.b.data, rtol=1e-6)


def test_step45_collects_nested_layers_and_trains_the_books_sin_regression():
    np.random.seed(0)
    x = np.random.rand(100, 1)
    y = np.sin(2 * np.pi * x) + np.random.rand(100, 1)
    model = step45.MLP((10, 1))
    assert sorted(model._params) == ["l0", "l1"]
    losses = []
    for _ in range(300):
        loss = mean_squared_error(model(x), y)
        model.cleargrads()
        loss.backward()
        for p in model.params():
            p.data -= 0.2 * p.grad.data
        losses.append(float(loss.data))
    assert len(list(model.params())) == 4
    assert losses[-1] < losses[0] / 2


def test_step45_counts_a_shared_layer_twice_and_skips_lists():
    class Shared(step45.Layer):
        def __init__(self):
            super().__init__()
            self.a = step45.Linear(2, in_size=2)
            self.b = self.a
            self.listed = [step45.Linear(2, in_size=2)]

    assert len(list(Shared().params())) == 4  # a와 b가 같은 층인데 W, b를 두 번씩


def test_step45_model_plot_is_dot_text():
    np.random.seed(0)
    model = step45.TwoLayerNet(10, 1)
    dot = model.plot(Variable(np.ones((5, 1)), name="x"))
    assert dot.startswith("digraph g {") and "Linear" in dot and "Sigmoid" in dot


def make_quadratic_model(start):
    class Holder(step45.Layer):
        def __init__(self):
            super().__init__()
            self.p = step44.Parameter(np.array(start, dtype=np.float64))

    return Holder()


def run_book_optimizer(optimizer, grads):
    model = make_quadratic_model([1.0, -2.0])
    optimizer.setup(model)
    for g in grads:
        model.p.grad = Variable(np.array(g))
        optimizer.update()
    return model.p.data


GRADS = [[0.5, -1.0], [0.25, 0.75], [-1.0, 2.0], [1e-9, -1e-9]]


@pytest.mark.parametrize(
    "book, final",
    [
        (lambda: step46.SGD(lr=0.1), lambda ps: O.SGD(ps, lr=0.1)),
        (
            lambda: step46.MomentumSGD(lr=0.1, momentum=0.9),
            lambda ps: O.MomentumSGD(ps, lr=0.1, momentum=0.9),
        ),
        (lambda: step46.AdaGrad(lr=0.1, eps=1e-8), lambda ps: O.AdaGrad(ps, lr=0.1, eps=1e-8)),
    ],
    ids=["SGD", "MomentumSGD", "AdaGrad"],
)
def test_step46_optimizers_agree_with_the_final_ones(book, final):
    from tinygrad_ko import Parameter

    p = Parameter(np.array([1.0, -2.0]))
    optimizer = final([p])
    for g in GRADS:
        p.grad = np.array(g)
        optimizer.step()
    np.testing.assert_allclose(run_book_optimizer(book(), GRADS), p.data, rtol=1e-12)


def test_step46_adam_differs_from_pytorchs_only_by_where_eps_goes():
    from tinygrad_ko import Parameter
    from tinygrad_ko.optimizers import Adam

    def final(eps):
        p = Parameter(np.array([1.0, -2.0]))
        optimizer = Adam([p], lr=0.01, eps=eps)
        for g in GRADS:
            p.grad = np.array(g)
            optimizer.step()
        return p.data

    book_no_eps = run_book_optimizer(step46.Adam(alpha=0.01, eps=0.0), GRADS[:3])
    p = Parameter(np.array([1.0, -2.0]))
    optimizer = Adam([p], lr=0.01, eps=0.0)
    for g in GRADS[:3]:
        p.grad = np.array(g)
        optimizer.step()
    np.testing.assert_allclose(book_no_eps, p.data, rtol=1e-12)
    # 미분값이 eps 가까이 작은 넷째 스텝에서 두 식이 갈라집니다.
    book = run_book_optimizer(step46.Adam(alpha=0.01, eps=1e-8), GRADS)
    assert not np.allclose(book, final(1e-8), rtol=1e-12, atol=0)
    np.testing.assert_allclose(book, final(1e-8), rtol=1e-4)


def test_step47_get_item_backward_adds_repeated_indices_and_double_backward():
    x = Variable(np.arange(6.0).reshape(2, 3))
    y = step47.get_item(x, ([0, 1, 1], [2, 0, 0]))
    assert y.data.tolist() == [2.0, 3.0, 3.0]
    y.backward()
    assert x.grad.data.tolist() == [[0.0, 0.0, 1.0], [2.0, 0.0, 0.0]]
    gy = Variable(np.array([1.0, 2.0, 3.0]))
    gx = step47.GetItemGrad(([0, 1, 1], [2, 0, 0]), (2, 3))(gy)
    gx.backward()
    assert gy.grad.data.tolist() == [1.0, 1.0, 1.0]


def test_step47_naive_softmax_overflows_and_the_function_does_not():
    x = np.array([[1000.0, -1000.0, 0.0]])
    with np.errstate(over="ignore", invalid="ignore"):
        naive = step47.softmax_simple(Variable(x)).data
    assert np.isnan(naive).any()
    np.testing.assert_allclose(step47.softmax(Variable(x)).data, [[1.0, 0.0, 0.0]])


def test_step47_cross_entropies_match_the_final_library_and_the_simple_one_clips():
    from tinygrad_ko.functions.softmax import softmax_cross_entropy as final

    rng = np.random.default_rng(0)
    scores, t = rng.normal(size=(4, 3)), np.array([0, 2, 1, 1])
    for f in (step47.softmax_cross_entropy_simple, step47.softmax_cross_entropy):
        x = Variable(scores.copy())
        loss = f(x, t)
        loss.backward()
        xf = tg.Variable(scores.copy())
        lf = final(xf, t)
        lf.backward()
        np.testing.assert_allclose(loss.data, lf.data, rtol=1e-12)
        np.testing.assert_allclose(x.grad.data, xf.grad, rtol=1e-9, atol=1e-12)
    extreme = np.array([[1000.0, -1000.0, 0.0]])
    x = Variable(extreme)
    loss = step47.softmax_cross_entropy_simple(x, np.array([1]))
    loss.backward()
    assert float(loss.data) == pytest.approx(-np.log(1e-15))  # 2000이 아니라 잘린 값
    assert x.grad.data[0, 1] == 0.0  # 잘린 자리로는 미분값이 흐르지 않습니다
    x = Variable(extreme)
    loss = step47.softmax_cross_entropy(x, np.array([1]))
    loss.backward()
    assert float(loss.data) == pytest.approx(2000.0)
    np.testing.assert_allclose(x.grad.data, [[1.0, -1.0, 0.0]])


def test_step49_spiral_and_dataset():
    x, t = step49.get_spiral(train=True)
    assert x.shape == (300, 2) and x.dtype == np.float32 and np.bincount(t).tolist() == [100] * 3
    x2, _ = step49.get_spiral(train=True)
    np.testing.assert_array_equal(x, x2)  # 시드를 정해 두므로 같은 점
    dataset = step49.Spiral(transform=lambda v: v * 2)
    xi, ti = dataset[0]
    np.testing.assert_array_equal(xi, x[0] * 2)
    assert len(dataset) == 300
    with pytest.raises(AssertionError):
        dataset[[0, 1]]
    f = step49.Compose([step49.Flatten(), step49.ToFloat(), step49.Normalize(0.0, 255.0)])
    assert f(np.full((2, 2), 255, dtype=np.uint8)).tolist() == [1.0] * 4


def test_step50_loader_resets_itself_and_uses_the_global_random_state():
    dataset = step49.Spiral()
    np.random.seed(0)
    loader = step50.DataLoader(dataset, batch_size=128)
    first = [len(t) for _, t in loader]
    assert first == [128, 128, 44]
    assert loader.iteration == 0  # StopIteration에서 스스로 reset
    np.random.seed(0)
    again = step50.DataLoader(dataset, batch_size=128)
    np.testing.assert_array_equal(next(iter(again))[1], next(iter(step50_reset(0, dataset)))[1])
    acc = step50.accuracy(np.array([[0.1, 0.9], [0.8, 0.2]]), np.array([1, 1]))
    assert isinstance(acc, Variable) and float(acc.data) == 0.5


def step50_reset(seed, dataset):
    np.random.seed(seed)
    return step50.DataLoader(dataset, batch_size=128)


def test_step50_training_on_spiral_lowers_the_loss():
    np.random.seed(0)
    model = step45.MLP((10, 3))
    optimizer = step46.SGD(lr=1.0).setup(model)
    loader = step50.DataLoader(step49.Spiral(), batch_size=30)
    averages = []
    for _ in range(30):
        total = 0.0
        for x, t in loader:
            loss = step47.softmax_cross_entropy(model(x), t)
            model.cleargrads()
            loss.backward()
            optimizer.update()
            total += float(loss.data) * len(t)
        averages.append(total / 300)
    assert averages[-1] < 0.8 * averages[0]


def test_step51_mnist_reads_the_shipped_file():
    train, test = step51.MNIST(train=True), step51.MNIST(train=False)
    assert len(train) == 8000 and len(test) == 2000
    assert train.data.shape == (8000, 1, 28, 28)
    x, t = train[0]
    assert x.shape == (784,) and x.dtype == np.float32 and 0 <= x.min() and x.max() <= 1
    assert len(train.show(0).splitlines()) == 28
    v = Variable(np.array([-1.0, 2.0]))
    step51.relu(v).backward()
    assert v.grad.data.tolist() == [0.0, 1.0]


def test_step51_one_epoch_on_1000_digits_learns_something():
    np.random.seed(0)
    model = step45.MLP((100, 10), activation=step51.relu)
    optimizer = step46.SGD(lr=0.5).setup(model)
    train = step51.MNIST()
    train.data, train.label = train.data[:1000], train.label[:1000]
    for x, t in step50.DataLoader(train, batch_size=100):
        loss = step47.softmax_cross_entropy(model(x), t)
        model.cleargrads()
        loss.backward()
        optimizer.update()
    test = step51.MNIST(train=False)
    x = np.stack([test[i][0] for i in range(500)])
    from tinygrad_ko.steps.step18 import no_grad

    with no_grad():
        acc = step50.accuracy(model(x), test.label[:500])
    assert float(acc.data) > 0.5  # 찍기는 0.1


def test_step53_round_trip_and_the_books_limits(tmp_path):
    np.random.seed(0)
    model = step45.MLP((4, 3))
    model(np.ones((1, 2), dtype=np.float32))
    step53.save_weights(model, str(tmp_path / "w"))
    assert (tmp_path / "w.npz").exists()  # np.savez가 .npz를 붙입니다
    other = step45.MLP((4, 3))
    step53.load_weights(other, str(tmp_path / "w.npz"))
    np.testing.assert_array_equal(other.l0.W.data, model.l0.W.data)

    with pytest.raises(FileNotFoundError):
        step53.load_weights(other, str(tmp_path / "없음.npz"))
    wider = step45.MLP((8, 3))
    wider(np.ones((1, 2), dtype=np.float32))
    step53.save_weights(wider, str(tmp_path / "wider.npz"))
    step53.load_weights(other, str(tmp_path / "wider.npz"))  # 검사 없이 모양이 다른 배열이 들어감
    assert other.l0.W.data.shape == (2, 8)

    class Bigger(step45.Model):
        def __init__(self):
            super().__init__()
            self.l0 = step45.Linear(4, in_size=2)
            self.l9 = step45.Linear(3, in_size=4)

    target = Bigger()
    before = target.l0.W.data.copy()
    with pytest.raises(KeyError):
        step53.load_weights(target, str(tmp_path / "w.npz"))
    # 집합의 순서에 따라 l0이 먼저 바뀌었을 수도, 그대로일 수도 있습니다(반쯤 바뀐 채 멈춤).
    assert target.l0.W.data.shape == before.shape


def test_step54_dropout_train_and_test_mode():
    np.random.seed(0)
    x = Variable(np.ones(10_000))
    y = step54.dropout(x, 0.3)
    kept = y.data != 0
    assert abs(kept.mean() - 0.7) < 0.02
    np.testing.assert_allclose(y.data[kept], 1 / 0.7, rtol=1e-6)
    with step54.test_mode():
        assert step54.dropout(x) is x


def test_step54_train_mode_is_global_across_threads():
    inside, release = threading.Event(), threading.Event()
    seen = []

    def evaluate():
        with step54.test_mode():
            inside.set()
            release.wait(5)

    thread = threading.Thread(target=evaluate)
    thread.start()
    inside.wait(5)
    seen.append(step54.Config.train)  # 다른 스레드가 시험 모드에 들어간 사이
    release.set()
    thread.join()
    assert seen == [False]  # 최종 엔진은 True(스레드마다 따로)
    assert step54.Config.train is True
    y = sigmoid(Variable(np.zeros(1)))
    assert float(y.data[0]) == 0.5
