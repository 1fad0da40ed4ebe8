"""최종 엔진의 함수마다 순전파 값과, 수치 미분과 비교한 역전파 미분값을 확인합니다."""

import numpy as np
import pytest

import tinygrad_ko as tg
from tinygrad_ko import Variable

RNG = np.random.default_rng(0)

# (이름, 엔진 함수, 같은 계산을 하는 NumPy 식, 입력 개수, 양수 입력만 허용하는지)
CASES = [
    ("square", tg.square, lambda x: x**2, 1),
    ("exp", tg.exp, np.exp, 1),
    ("neg", tg.neg, np.negative, 1),
    ("sin", tg.sin, np.sin, 1),
    ("cos", tg.cos, np.cos, 1),
    ("tanh", tg.tanh, np.tanh, 1),
    ("log", tg.log, np.log, 1),
    ("pow3", lambda x: tg.pow(x, 3), lambda x: x**3, 1),
    ("pow_half", lambda x: tg.pow(x, 0.5), np.sqrt, 1),
    ("add", tg.add, np.add, 2),
    ("sub", tg.sub, np.subtract, 2),
    ("mul", tg.mul, np.multiply, 2),
    ("div", tg.div, np.divide, 2),
]


def positive(shape):
    return RNG.uniform(0.5, 2.0, size=shape)


@pytest.mark.parametrize(("name", "func", "reference", "arity"), CASES, ids=[c[0] for c in CASES])
@pytest.mark.parametrize("shape", [(), (3,), (2, 3)])
def test_forward_matches_numpy(name, func, reference, arity, shape):
    datas = [positive(shape) for _ in range(arity)]
    y = func(*[Variable(d) for d in datas])
    assert isinstance(y, Variable)
    assert isinstance(y.data, np.ndarray)
    np.testing.assert_allclose(y.data, reference(*datas))


@pytest.mark.parametrize(("name", "func", "reference", "arity"), CASES, ids=[c[0] for c in CASES])
@pytest.mark.parametrize("shape", [(), (4,), (2, 3)])
def test_backward_matches_numerical_grad(name, func, reference, arity, shape):
    datas = [positive(shape) for _ in range(arity)]
    assert tg.gradient_check(func, *datas)


@pytest.mark.parametrize("func", [tg.add, tg.sub, tg.mul, tg.div])
def test_broadcasting_grad_has_input_shape(func):
    a = Variable(positive((2, 3)))
    b = Variable(positive((3,)))
    c = Variable(positive((2, 1)))
    y = func(func(a, b), c)
    y.backward()
    assert a.grad.shape == (2, 3)
    assert b.grad.shape == (3,)
    assert c.grad.shape == (2, 1)
    assert tg.gradient_check(lambda a, b, c: func(func(a, b), c), a.data, b.data, c.data)


def test_sum_to_reduces_leading_and_size_one_axes():
    from tinygrad_ko.functions import sum_to

    g = np.arange(24.0).reshape(2, 3, 4)
    np.testing.assert_array_equal(sum_to(g, (3, 1)), g.sum(axis=(0, 2)).reshape(3, 1))
    np.testing.assert_array_equal(sum_to(g, ()), np.array(g.sum()))
    # 고치기 전: numpy.float64(rev48G, 25장의 'ndarray를 주면 ndarray를 돌려줍니다')
    assert type(sum_to(g, ())) is np.ndarray
    assert sum_to(g, (2, 3, 4)) is g


def test_numerical_diff_is_central_difference():
    x = Variable(np.array(0.5))
    expected = (np.exp(0.5 + 1e-4) - np.exp(0.5 - 1e-4)) / 2e-4
    assert tg.numerical_diff(tg.exp, x) == pytest.approx(expected, rel=1e-12)


def test_composition_from_the_book():
    x = Variable(np.array(0.5))
    y = tg.square(tg.exp(tg.square(x)))
    y.backward()
    assert float(x.grad) == pytest.approx(3.297442541400256, rel=1e-12)
    assert float(x.grad) == pytest.approx(
        float(tg.numerical_diff(lambda v: tg.square(tg.exp(tg.square(v))), x)), rel=1e-6
    )


def test_gradient_check_detects_a_wrong_backward():
    class WrongSquare(tg.Function):
        def forward(self, x):
            return x**2

        def backward(self, gy):
            return 3 * self.inputs[0].data * gy  # 틀린 국소 미분

    assert not tg.gradient_check(lambda x: WrongSquare()(x), np.array([1.0, 2.0]))
