"""Parameter와 Layer: 매개변수 모으기, 미분값 지우기, 엔진이 Parameter를 Variable처럼 다루는지."""

import numpy as np
import pytest

import tinygrad_ko as tg
from tinygrad_ko import Parameter, Variable
from tinygrad_ko.functions import sin
from tinygrad_ko.nn.layers import Layer


class Pair(Layer):
    def __init__(self):
        self.W = Parameter(np.ones((2, 2)), name="W")
        self.x = Variable(np.zeros(2))  # 매개변수가 아닌 변수는 모으지 않습니다.
        self.extra = [Parameter(np.zeros(3)), "문자열", (Parameter(np.ones(1)),)]


class Outer(Layer):
    def __init__(self):
        self.first = Pair()
        self.same = self.first  # 같은 층을 두 번 두어도 한 번만 셉니다.
        self.c = Parameter(np.array(2.0))


def test_parameter_is_a_variable_with_its_own_repr():
    p = Parameter(np.array([1.0, 2.0]))
    assert isinstance(p, Variable)
    assert repr(p) == "parameter([1. 2.])"
    assert tg.as_variable(p) is p


def test_parameters_are_collected_recursively_in_attribute_order():
    names = [name for name, _ in Outer().named_parameters()]
    assert names == ["first.W", "first.extra.0", "first.extra.2.0", "c"]
    model = Outer()
    assert model.parameters() == list(model.params())
    assert all(isinstance(p, Parameter) for p in model.params())


def test_shared_parameter_counts_once():
    class Tied(Layer):
        def __init__(self):
            self.a = Parameter(np.ones(2))
            self.b = self.a

    assert [name for name, _ in Tied().named_parameters()] == ["a"]


def test_cycle_of_layers_is_refused():
    a, b = Pair(), Pair()
    a.other, b.other = b, a
    with pytest.raises(ValueError, match="고리"):
        a.parameters()


def test_cleargrads_clears_every_parameter():
    model = Outer()
    for p in model.params():
        p.grad = np.ones_like(p.data)
    model.cleargrads()
    assert all(p.grad is None for p in model.params())


def test_forward_must_be_written():
    with pytest.raises(NotImplementedError, match="forward"):
        Layer()(Variable(np.ones(1)))


def test_call_runs_forward():
    class Double(Layer):
        def forward(self, x):
            return x * 2.0

    assert Double()(Variable(np.array(3.0))).data == 6.0


def test_parameter_gradients_first_and_second_order():
    p = Parameter(np.array([0.5, 1.0]))
    y = p * p * 3.0 + p
    y.backward()
    np.testing.assert_allclose(p.grad, 6 * p.data + 1)
    p.cleargrad()
    y = sin(p)
    y.backward(create_graph=True)
    g = p.grad
    assert isinstance(g, Variable)
    p.cleargrad()
    g.backward()
    np.testing.assert_allclose(p.grad, -np.sin(p.data))


def test_parameter_with_constant_on_either_side():
    p = Parameter(np.array(2.0))
    y = 3.0 * p - p / 4.0
    y.backward()
    assert p.grad == pytest.approx(3.0 - 0.25)


def test_parameter_without_grad_records_no_graph():
    p = Parameter(np.array(2.0), requires_grad=False)
    y = p * 3.0
    assert y.creator is None and not y.requires_grad


def test_broadcast_parameter_gets_a_gradient_of_its_own_shape_in_both_modes():
    b = Parameter(np.array([1.0, 2.0]))
    x = Variable(np.ones((3, 2)))
    y = x * x + b  # b는 (2,)에서 (3, 2)로 늘어납니다
    tg.sum(y * y).backward(create_graph=True)
    assert b.grad.shape == (2,)
    np.testing.assert_allclose(b.grad.data, (2 * (1.0 + b.data)) * 3)
    gb = b.grad
    b.cleargrad()
    tg.sum(gb).backward()
    np.testing.assert_allclose(b.grad, [6.0, 6.0])  # d/db Σ 2(1 + b)·3 = 6


def test_parameter_after_an_intermediate_keeps_generation_order():
    p = Parameter(np.array(3.0))
    x = Variable(np.array(2.0))
    h = x * x  # 세대 1
    y = h * p + h  # p는 세대 0, h는 세대 1
    y.backward()
    assert y.creator.generation == 2
    assert p.grad == 4.0 and x.grad == 2 * 2.0 * (3.0 + 1.0)


def test_functions_of_parameters_leave_no_reference_cycles(gc_disabled):
    import gc

    p = Parameter(np.ones(3))
    for _ in range(50):
        y = tg.sum(p * 2.0 + p)
        y.backward(create_graph=True)
        p.cleargrad()
        y = tg.sum(p * p)
        y.backward()
        p.cleargrad()
    del y
    assert gc.collect() == 0


def test_released_graph_with_parameters_still_says_released():
    p = Parameter(np.array(2.0))
    y = p * p
    y.backward()
    with pytest.raises(RuntimeError, match="해제"):
        y.backward()
