"""38~43단계 스냅숏: 모양 함수, 합계, 브로드캐스트, 행렬 곱, 평균 제곱 오차, linear와 sigmoid.

같은 계산을 최종 엔진(tinygrad_ko)으로도 해서 값과 미분값이 같은지 보고, 각 단계의 알려진 한계
(축을 고를 수 없는 transpose, 2차원만 되는 행렬 곱, 모양을 보지 않는 평균 제곱 오차)를 확인합니다.
"""

import numpy as np
import pytest

import tinygrad_ko as tg
from tinygrad_ko.steps import step36, step40, step41, step42, step43

RNG = np.random.default_rng(0)


def grads(module, func, *datas):
    xs = [module.Variable(d.copy()) for d in datas]
    y = func(*xs)
    y.backward()
    return y.data, [x.grad.data if isinstance(x.grad, module.Variable) else x.grad for x in xs]


CASES = [
    ("reshape", lambda m: lambda x: m.reshape(x, (3, 2)) * np.arange(6.0).reshape(3, 2), [(2, 3)]),
    ("T", lambda m: lambda x: x.T * np.arange(6.0).reshape(3, 2), [(2, 3)]),
    ("sum_axis", lambda m: lambda x: m.sum(x, axis=1) * np.array([1.0, -2.0]), [(2, 3)]),
    ("sum_keepdims", lambda m: lambda x: m.sum(x, axis=(0, 2), keepdims=True) * 3.0, [(2, 3, 4)]),
    ("sum_negative", lambda m: lambda x: m.sum(x, axis=-1) * np.arange(6.0).reshape(2, 3), [(2, 3, 4)]),
    ("sum_all", lambda m: lambda x: m.sum(x), [(2, 3)]),
    ("broadcast_to", lambda m: lambda x: m.broadcast_to(x, (2, 3)) * np.arange(6.0).reshape(2, 3), [(3,)]),
    ("sum_to", lambda m: lambda x: m.sum_to(x, (1, 3)) * np.array([[1.0, 2.0, 3.0]]), [(2, 3)]),
    ("add_broadcast", lambda m: lambda a, b: (a + b) * np.arange(24.0).reshape(3, 2, 4), [(3, 1, 4), (2, 4)]),
    ("mul_broadcast", lambda m: lambda a, b: a * b, [(2, 3), (3,)]),
    ("sub_broadcast", lambda m: lambda a, b: (a - b) * np.arange(6.0).reshape(2, 3), [(2, 1), (3,)]),
    ("div_broadcast", lambda m: lambda a, b: a / (b * b + 1.0), [(2, 3), (1, 3)]),
]  # fmt: skip


@pytest.mark.parametrize(("name", "build", "shapes"), CASES, ids=[c[0] for c in CASES])
def test_step40_matches_the_final_engine(name, build, shapes):
    datas = [RNG.uniform(0.5, 2.0, s) for s in shapes]
    y_book, g_book = grads(step40, build(step40), *datas)
    y_final, g_final = grads(tg, build(tg), *datas)
    np.testing.assert_allclose(y_book, y_final, rtol=1e-12)
    for a, b, s in zip(g_book, g_final, shapes, strict=True):
        assert a.shape == s
        np.testing.assert_allclose(a, b, rtol=1e-12)


def test_step40_variable_methods_and_transpose_limit():
    x = step40.Variable(np.arange(6.0))
    assert x.reshape(2, 3).shape == x.reshape((2, 3)).shape == (2, 3)
    assert x.reshape(2, 3).T.shape == (3, 2) and x.reshape(2, 3).transpose().shape == (3, 2)
    assert x.sum().shape == () and x.reshape(2, 3).sum(axis=0).shape == (3,)
    with pytest.raises(TypeError):  # 38단계의 transpose는 축을 받지 않습니다.
        x.reshape(1, 2, 3).transpose(1, 0, 2)


def test_step40_second_derivative_through_sum_and_broadcast():
    x = step40.Variable(np.array([1.0, 2.0, 3.0]))
    y = step40.sum(x**3)
    y.backward(create_graph=True)
    gx = x.grad
    np.testing.assert_allclose(gx.data, 3 * x.data**2)
    x.cleargrad()
    step40.sum(gx).backward()
    np.testing.assert_allclose(x.grad.data, 6 * x.data)


def test_step40_redefines_the_engine_and_keeps_step36_unchanged():
    assert step40.Variable is not step36.Variable
    assert not hasattr(step36.Variable, "reshape")  # 앞 단계의 Variable을 고치지 않았습니다.
    y = step40.Variable(np.ones((2, 3))) + step40.Variable(np.ones(3))
    assert isinstance(y, step40.Variable) and hasattr(y, "sum")


def test_step41_matmul_gradients_and_its_2d_limit():
    a, b = RNG.standard_normal((4, 3)), RNG.standard_normal((3, 2))
    x, W = step41.Variable(a), step41.Variable(b)
    y = step41.matmul(x, W)
    y.backward()
    np.testing.assert_allclose(x.grad.data, np.ones((4, 2)) @ b.T)
    np.testing.assert_allclose(W.grad.data, a.T @ np.ones((4, 2)))
    assert step41.MatMul is not None and not hasattr(step41.Variable, "__matmul__")
    # 책의 순전파는 x.dot(W)입니다. 3차원이면 배치 행렬 곱이 아니라 np.dot의 규칙으로 모든 쌍을 곱합니다.
    # (예전 스냅숏은 np.matmul을 써서 책과 달리 (5, 4, 2)를 냈습니다.)
    a3, b3 = RNG.standard_normal((5, 4, 3)), RNG.standard_normal((5, 3, 2))
    xb, Wb = step41.Variable(a3), step41.Variable(b3)
    yb = step41.matmul(xb, Wb)
    assert yb.shape == (5, 4, 5, 2)
    np.testing.assert_allclose(yb.data, np.einsum("aij,bjk->aibk", a3, b3))
    # 역전파: 미분값 (5, 4, 5, 2)와 W.T (2, 3, 5)의 dot은 모양이 맞지 않습니다.
    with pytest.raises(ValueError, match="not aligned"):
        yb.backward()


def regression(module, steps):
    rng = np.random.default_rng(0)
    x = rng.uniform(0.0, 1.0, (100, 1))
    y = 5.0 + 2.0 * x + rng.uniform(0.0, 1.0, (100, 1))
    W, b = module.Variable(np.zeros((1, 1))), module.Variable(np.zeros(1))
    for _ in range(steps):
        loss = module.mean_squared_error(module.matmul(x, W) + b, y)
        W.cleargrad()
        b.cleargrad()
        loss.backward()
        for p in (W, b):
            p.data -= 0.1 * (p.grad.data if isinstance(p.grad, module.Variable) else p.grad)
    return W.data, b.data, float(loss.data)


def test_step42_linear_regression_matches_the_final_engine():
    W, b, loss = regression(step42, 100)
    W_final, b_final, loss_final = regression(tg, 100)
    np.testing.assert_allclose(W, W_final, rtol=1e-12)
    np.testing.assert_allclose(b, b_final, rtol=1e-12)
    assert loss == pytest.approx(loss_final, rel=1e-12) and loss < 0.1


def test_step42_mse_divides_by_the_first_axis_and_does_not_check_shapes():
    x0 = step42.Variable(np.array([[1.0, 2.0], [3.0, 4.0]]))
    x1 = np.zeros((2, 2))
    assert float(step42.mean_squared_error(x0, x1).data) == 30.0 / 2  # 원소 수(4)가 아니라 2
    wrong = step42.mean_squared_error(step42.Variable(np.zeros((3, 1))), np.ones(3))
    assert float(wrong.data) == 3.0  # (3, 1) - (3,) = (3, 3): 9개의 합을 3으로 나눔


@pytest.mark.parametrize("simple", [False, True], ids=["class", "simple"])
def test_step43_two_layer_network_matches_the_final_engine(simple):
    rng = np.random.default_rng(0)
    x = rng.uniform(0.0, 1.0, (100, 1))
    y = np.sin(2 * np.pi * x) + rng.uniform(0.0, 1.0, (100, 1))
    start = [0.01 * rng.standard_normal((1, 10)), np.zeros(10), 0.01 * rng.standard_normal((10, 1))]
    start.append(np.zeros(1))
    linear = step43.linear_simple if simple else step43.linear
    sigmoid = step43.sigmoid_simple if simple else step43.sigmoid
    book = [step43.Variable(p.copy()) for p in start]
    final = [tg.Variable(p.copy()) for p in start]
    for _ in range(50):
        for params, lin, sig, mse in (
            (book, linear, sigmoid, step43.mean_squared_error),
            (final, tg.linear, tg.sigmoid, tg.mean_squared_error),
        ):
            W1, b1, W2, b2 = params
            loss = mse(lin(sig(lin(x, W1, b1)), W2, b2), y)
            for p in params:
                p.cleargrad()
            loss.backward()
            for p in params:
                p.data -= 0.2 * (p.grad.data if hasattr(p.grad, "creator") else p.grad)
    for a, b in zip(book, final, strict=True):
        np.testing.assert_allclose(a.data, b.data, rtol=1e-10)


def test_step43_linear_simple_drops_the_product_data():
    x = step43.Variable(np.ones((2, 3)))
    W, b = step43.Variable(np.ones((3, 4))), step43.Variable(np.zeros(4))
    y = step43.linear_simple(x, W, b)
    product = y.creator.inputs[0]
    assert product.data is None  # x @ W의 데이터는 지웠습니다.
    y.backward()
    np.testing.assert_array_equal(W.grad.data, np.full((3, 4), 2.0))
    assert step43.linear(x, W).shape == (2, 4)  # b가 없으면 x @ W


def test_step43_linear_forward_is_the_books_dot():
    # 책의 Linear도 순전파가 x.dot(W)입니다. 41단계의 matmul과 같은 한계를 가집니다.
    # (예전 스냅숏은 Linear만 np.matmul을 써서, 3차원 순전파가 책과도 linear_simple과도 달랐습니다.)
    a3, b3 = RNG.standard_normal((5, 4, 3)), RNG.standard_normal((5, 3, 2))
    c = RNG.standard_normal(2)
    y = step43.linear(step43.Variable(a3), step43.Variable(b3), step43.Variable(c))
    assert y.shape == (5, 4, 5, 2)
    np.testing.assert_allclose(y.data, np.einsum("aij,bjk->aibk", a3, b3) + c)
    simple = step43.linear_simple(step43.Variable(a3), step43.Variable(b3), step43.Variable(c))
    np.testing.assert_allclose(simple.data, y.data)


def test_step43_sigmoid_forward_is_the_books_tanh_form():
    # 책의 dezero/functions.py의 Sigmoid.forward는 tanh(x * 0.5) * 0.5 + 0.5입니다(1 / (1 + exp(-x))는 주석).
    x = np.array([-1000.0, -3.0, -0.5, 0.0, 0.25, 2.0, 1000.0])
    with np.errstate(over="raise"):  # tanh 식은 넘치지 않습니다.
        y = step43.sigmoid(step43.Variable(x)).data
    np.testing.assert_array_equal(y, np.tanh(x * 0.5) * 0.5 + 0.5)
