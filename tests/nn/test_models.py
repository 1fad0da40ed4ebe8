"""Linear 층, Model, Sequential, MLP: 모양, 처음 값, 첫 호출에서 정하는 입력 크기, 고계 미분."""

import numpy as np
import pytest

import tinygrad_ko as tg
from tinygrad_ko import Parameter, Variable
from tinygrad_ko.functions.activations import relu, sigmoid
from tinygrad_ko.nn.layers import Linear
from tinygrad_ko.nn.models import MLP, Model, Sequential


def test_linear_infers_input_size_on_first_call():
    layer = Linear(3, seed=0)
    assert layer.W.data is None and layer.b.data.shape == (3,)
    x = np.ones((4, 5), dtype=np.float32)
    y = layer(x)
    assert y.shape == (4, 3) and layer.W.data.shape == (5, 3) and layer.in_size == 5
    np.testing.assert_allclose(y.data, x @ layer.W.data + layer.b.data, rtol=1e-6)
    assert repr(layer) == "Linear(in_size=5, out_size=3)"


def test_linear_with_in_size_and_without_bias():
    layer = Linear(2, 4, bias=False, dtype=np.float64, seed=1)
    assert layer.b is None and layer.W.data.dtype == np.float64
    assert [name for name, _ in layer.named_parameters()] == ["W"]
    x = np.arange(8.0).reshape(2, 4)
    np.testing.assert_allclose(layer(x).data, x @ layer.W.data)


def test_linear_initial_scale_and_seed():
    W = Linear(500, 400, seed=0).W.data
    assert abs(W.std() - np.sqrt(1 / 400)) < 0.002 and abs(W.mean()) < 0.002
    np.testing.assert_array_equal(W, Linear(500, 400, seed=0).W.data)
    assert not np.array_equal(W, Linear(500, 400, seed=1).W.data)


def test_linear_gradients_match_the_formulas():
    layer = Linear(3, 2, dtype=np.float64, seed=0)
    x = Variable(np.array([[1.0, 2.0], [3.0, -1.0]]))
    y = layer(x)
    tg.sum(y * y).backward()
    gy = 2 * y.data
    np.testing.assert_allclose(layer.W.grad, x.data.T @ gy)
    np.testing.assert_allclose(layer.b.grad, gy.sum(axis=0))
    np.testing.assert_allclose(x.grad, gy @ layer.W.data.T)


def test_linear_second_order_gradient_of_parameters():
    # L = Σ (x @ W)^2 이면 ∂L/∂W = 2 xᵀ x W, 그 합을 W로 한 번 더 미분하면 2 xᵀ x 1.
    layer = Linear(2, 3, bias=False, dtype=np.float64, seed=0)
    x = np.array([[1.0, 2.0, 0.5]])
    (gW,) = tg.grad(tg.sum(layer(x) ** 2), [layer.W], create_graph=True)
    np.testing.assert_allclose(gW.data, 2 * x.T @ x @ layer.W.data)
    (ggW,) = tg.grad(tg.sum(gW), [layer.W])
    np.testing.assert_allclose(ggW, 2 * x.T @ x @ np.ones((3, 2)))


def test_linear_refuses_bad_sizes_and_mismatched_inputs():
    with pytest.raises(ValueError, match="out_size"):
        Linear(0)
    with pytest.raises(TypeError, match="in_size"):
        Linear(3, in_size=2.5)
    layer = Linear(3, 4)
    with pytest.raises(ValueError, match="@"):
        layer(np.ones((2, 5)))


def test_mlp_shapes_names_and_seed():
    model = MLP((10, 3), seed=0)
    y = model(np.ones((5, 2), dtype=np.float32))
    assert y.shape == (5, 3)
    names = [name for name, _ in model.named_parameters()]
    assert names == ["layers.0.W", "layers.0.b", "layers.1.W", "layers.1.b"]
    other = MLP((10, 3), seed=0)
    other(np.ones((1, 2), dtype=np.float32))
    for a, b in zip(model.params(), other.params(), strict=True):
        np.testing.assert_array_equal(a.data, b.data)


def test_mlp_forward_is_the_composition():
    model = MLP((4, 2), activation=relu, seed=3)
    x = np.random.default_rng(0).normal(size=(6, 3)).astype(np.float32)
    first, second = model.layers
    expected = second(relu(first(x))).data
    np.testing.assert_allclose(model(x).data, expected)


def test_mlp_refuses_a_bare_number():
    with pytest.raises(TypeError, match="튜플"):
        MLP(10)


def test_sequential_accepts_layers_and_functions():
    model = Sequential(Linear(4, seed=0), sigmoid, Linear(2, seed=1))
    y = model(np.ones((3, 5)))
    assert y.shape == (3, 2)
    assert len(model.parameters()) == 4
    with pytest.raises(TypeError, match="층이나 함수"):
        Sequential(Linear(2), 3)


def test_user_model_collects_everything_and_draws_its_graph():
    class TwoLayer(Model):
        def __init__(self):
            self.l1 = Linear(3, seed=0)
            self.l2 = Linear(1, seed=1)
            self.scale = Parameter(np.array(2.0, dtype=np.float32))

        def forward(self, x):
            return self.l2(sigmoid(self.l1(x))) * self.scale

    model = TwoLayer()
    text = model.to_mermaid(np.ones((1, 2), dtype=np.float32))
    assert text.startswith("flowchart") and "Linear" in text and "Sigmoid" in text
    assert len(model.parameters()) == 5
