"""옵티마이저: 손으로 계산한 한 스텝, 상태, 잘못된 인수, 모델을 넘기는 경우."""

import math

import numpy as np
import pytest

from tinygrad_ko import Parameter, Variable
from tinygrad_ko.nn.layers import Layer
from tinygrad_ko.optimizers import SGD, AdaGrad, Adam, MomentumSGD, Optimizer


def param(value, grad):
    p = Parameter(np.array(value, dtype=np.float64))
    p.grad = np.array(grad, dtype=np.float64)
    return p


def test_sgd_one_step():
    p = param([1.0, 2.0], [0.5, -1.0])
    SGD([p], lr=0.1).step()
    np.testing.assert_allclose(p.data, [0.95, 2.1])


def test_momentum_matches_the_books_formula():
    # 책: v <- a*v - lr*g, p <- p + v. 학습률이 그대로면 PyTorch의 식과 같은 값입니다.
    grads = [np.array([1.0, -2.0]), np.array([0.5, 0.5]), np.array([-1.0, 3.0])]
    p = param([0.0, 0.0], grads[0])
    optimizer = MomentumSGD([p], lr=0.1, momentum=0.9)
    book_p, v = np.zeros(2), np.zeros(2)
    for g in grads:
        p.grad = g
        optimizer.step()
        v = 0.9 * v - 0.1 * g
        book_p = book_p + v
        np.testing.assert_allclose(p.data, book_p)


def test_adagrad_two_steps():
    p = param([1.0], [2.0])
    optimizer = AdaGrad([p], lr=0.5, eps=0.0)
    optimizer.step()  # h = 4, p = 1 - 0.5*2/2
    np.testing.assert_allclose(p.data, [0.5])
    p.grad = np.array([1.0])
    optimizer.step()  # h = 5
    np.testing.assert_allclose(p.data, [0.5 - 0.5 / math.sqrt(5)])


def test_adam_first_step_moves_by_lr():
    # 첫 스텝은 편향 보정 덕분에 미분값의 부호 방향으로 lr만큼(eps 무시) 움직입니다.
    p = param([1.0, -1.0], [3.0, -0.001])
    Adam([p], lr=0.01, eps=0.0).step()
    np.testing.assert_allclose(p.data, [0.99, -0.99])


def test_parameters_without_grad_are_skipped_and_state_is_per_parameter():
    a, b = param([1.0], [1.0]), Parameter(np.array([5.0]))
    optimizer = Adam([a, b], lr=0.1)
    optimizer.step()
    assert b.data[0] == 5.0 and b not in optimizer.state
    assert optimizer.state[a]["step"] == 1


def test_duplicates_are_updated_once():
    p = param([1.0], [1.0])
    SGD([p, p], lr=0.5).step()
    np.testing.assert_allclose(p.data, [0.5])


def test_zero_grad():
    a, b = param([1.0], [1.0]), param([2.0], [2.0])
    SGD([a, b]).zero_grad()
    assert a.grad is None and b.grad is None


def test_model_parameters_are_gathered_at_every_step():
    class Late(Layer):
        def __init__(self):
            self.W = Parameter(None)

    model = Late()
    optimizer = SGD(model, lr=1.0)
    model.W.data = np.array([3.0])  # 첫 호출에서 모양이 정해지는 층처럼
    model.W.grad = np.array([1.0])
    optimizer.step()
    np.testing.assert_allclose(model.W.data, [2.0])


def test_weight_decay_adds_to_the_gradient():
    p = param([2.0], [0.0])
    SGD([p], lr=0.1, weight_decay=0.5).step()
    np.testing.assert_allclose(p.data, [2.0 - 0.1 * 0.5 * 2.0])


def test_float32_parameters_stay_float32():
    p = Parameter(np.ones(3, dtype=np.float32))
    p.grad = np.ones(3, dtype=np.float64)
    for optimizer in (SGD([p]), MomentumSGD([p]), AdaGrad([p]), Adam([p])):
        optimizer.step()
        optimizer.step()
    assert p.data.dtype == np.float32


def test_graph_gradients_are_used_by_value():
    p = param([1.0], [0.0])
    p.grad = Variable(np.array([2.0]))  # create_graph=True의 미분값
    SGD([p], lr=0.5).step()
    np.testing.assert_allclose(p.data, [0.0])


@pytest.mark.parametrize(
    "make, message",
    [
        (lambda p: SGD(p, lr=0), "0보다"),
        (lambda p: SGD(p, lr=-1), "0보다"),
        (lambda p: SGD(p, momentum=-0.1), "0 이상"),
        (lambda p: Adam(p, betas=(0.9, 1.0)), "1보다 작은"),
        (lambda p: SGD(p, nesterov=True), "nesterov"),
    ],
)
def test_bad_hyper_parameters(make, message):
    with pytest.raises(ValueError, match=message):
        make([param([1.0], [1.0])])


@pytest.mark.parametrize(
    "params", [Parameter(np.ones(1)), {"W": Parameter(np.ones(1))}, [np.ones(1)], 3]
)
def test_bad_parameter_lists(params):
    with pytest.raises(TypeError, match="매개변수|Variable"):
        SGD(params)


def test_bad_types_for_numbers():
    with pytest.raises(TypeError, match="실수"):
        SGD([param([1.0], [1.0])], lr="0.1")
    with pytest.raises(TypeError, match="betas"):
        Adam([param([1.0], [1.0])], betas=0.9)


def test_base_class_needs_update_one():
    with pytest.raises(NotImplementedError, match="update_one"):
        Optimizer([param([1.0], [1.0])], lr=0.1).step()
