"""소프트맥스, log_softmax, 교차 엔트로피, 정확도: 값, 안정성(±1000), 미분(수치 미분, 고계 미분)."""

import numpy as np
import pytest

import tinygrad_ko as tg
from tinygrad_ko import Variable
from tinygrad_ko.functions.metrics import accuracy
from tinygrad_ko.functions.softmax import log_softmax, softmax, softmax_cross_entropy

RNG = np.random.default_rng(0)
X = RNG.normal(size=(4, 5))
T = np.array([0, 3, 4, 1])


def numeric(fn, a, eps=1e-5):
    """fn(배열) -> 수 의 중앙 차분 기울기."""
    grad = np.zeros_like(a)
    for i in np.ndindex(a.shape):
        up, down = a.copy(), a.copy()
        up[i] += eps
        down[i] -= eps
        grad[i] = (float(fn(up)) - float(fn(down))) / (2 * eps)
    return grad


def reference_log_softmax(x, axis):
    shifted = x - x.max(axis=axis, keepdims=True)
    return shifted - np.log(np.exp(shifted).sum(axis=axis, keepdims=True))


@pytest.mark.parametrize("axis", [0, 1, -1])
def test_softmax_values_sum_to_one_along_the_axis(axis):
    p = softmax(Variable(X), axis=axis).data
    np.testing.assert_allclose(p.sum(axis=axis), 1.0)
    np.testing.assert_allclose(np.log(p), reference_log_softmax(X, axis))
    np.testing.assert_allclose(log_softmax(Variable(X), axis=axis).data, np.log(p))


def test_softmax_of_a_vector_and_of_a_3d_array():
    np.testing.assert_allclose(softmax(np.array([0.0, np.log(3.0)])).data, [0.25, 0.75])
    cube = RNG.normal(size=(2, 3, 4))
    np.testing.assert_allclose(softmax(cube, axis=1).data.sum(axis=1), 1.0)


def test_huge_logits_are_stable():
    x = Variable(np.array([[1000.0, -1000.0, 0.0], [-1000.0, 1000.0, 1000.0]]))
    p = softmax(x)
    assert np.isfinite(p.data).all()
    np.testing.assert_allclose(p.data, [[1.0, 0.0, 0.0], [0.0, 0.5, 0.5]])
    log_p = log_softmax(x)
    np.testing.assert_allclose(log_p.data[0], [0.0, -2000.0, -1000.0])
    loss = softmax_cross_entropy(x, np.array([1, 0]))
    np.testing.assert_allclose(loss.data, (2000.0 + 2000.0 + np.log(2.0)) / 2)
    loss.backward()
    assert np.isfinite(x.grad).all()
    np.testing.assert_allclose(x.grad, [[0.5, -0.5, 0.0], [-0.5, 0.25, 0.25]])


def test_naive_formula_overflows_where_the_library_does_not():
    x = np.array([1000.0, -1000.0])
    with np.errstate(over="ignore", invalid="ignore"):
        naive = np.exp(x) / np.exp(x).sum()
    assert np.isnan(naive).any()
    assert np.isfinite(softmax(x).data).all()


def test_cross_entropy_value():
    loss = softmax_cross_entropy(Variable(X), T)
    expected = -reference_log_softmax(X, 1)[np.arange(4), T].mean()
    np.testing.assert_allclose(loss.data, expected)
    assert loss.shape == ()


@pytest.mark.parametrize(
    "f",
    [
        lambda x: tg.sum(softmax(x, axis=1) * np.arange(5.0)),
        lambda x: tg.sum(softmax(x, axis=0) ** 2),
        lambda x: tg.sum(log_softmax(x, axis=1) * np.arange(20.0).reshape(4, 5)),
        lambda x: softmax_cross_entropy(x, T),
    ],
    ids=["softmax-1", "softmax-0", "log_softmax", "cross-entropy"],
)
def test_gradients_match_numerical_differentiation(f):
    x = Variable(X.copy())
    f(x).backward()
    expected = numeric(lambda a: f(Variable(a)).data, X.copy())
    np.testing.assert_allclose(x.grad, expected, rtol=1e-5, atol=1e-8)


@pytest.mark.parametrize(
    "f",
    [
        lambda x: tg.sum(softmax(x, axis=1) * np.arange(5.0)),
        lambda x: tg.sum(log_softmax(x, axis=1) * np.arange(20.0).reshape(4, 5)),
        lambda x: softmax_cross_entropy(x, T),
    ],
    ids=["softmax", "log_softmax", "cross-entropy"],
)
def test_second_order_gradients_match_numerical_differentiation(f):
    # g(x) = Σ ∂f/∂x · v 를 create_graph로 구하고, 그 미분(헤세 행렬과 v의 곱)을 수치 미분과 비교합니다.
    v = RNG.normal(size=X.shape)

    def directional(a):
        x = Variable(a)
        (gx,) = tg.grad(f(x), [x], create_graph=True)
        return tg.sum(gx * v)

    x = Variable(X.copy())
    (gx,) = tg.grad(f(x), [x], create_graph=True)
    (hv,) = tg.grad(tg.sum(gx * v), [x])
    expected = numeric(lambda a: directional(a).data, X.copy())
    np.testing.assert_allclose(hv, expected, rtol=1e-4, atol=1e-7)


def test_cross_entropy_accepts_float32_and_variable_labels():
    x = Variable(X.astype(np.float32))
    loss = softmax_cross_entropy(x, Variable(T, requires_grad=False))
    loss.backward()
    assert loss.dtype == np.float32 and x.grad.dtype == np.float32


@pytest.mark.parametrize(
    "x, t, message",
    [
        (np.ones(3), np.array([0]), "2차원"),
        (np.ones((2, 3)), np.array([0.0, 1.0]), "정수 배열"),
        (np.ones((2, 3)), np.array([[1, 0, 0], [0, 1, 0]]), "argmax"),
        (np.ones((2, 3)), np.array([0, 3]), "0 이상 2 이하"),
        (np.ones((2, 3)), np.array([-1, 0]), "0 이상 2 이하"),
    ],
)
def test_cross_entropy_refuses_bad_labels(x, t, message):
    with pytest.raises(ValueError, match=message):
        softmax_cross_entropy(Variable(x), t)


def test_softmax_refuses_bad_axis():
    with pytest.raises(ValueError, match="axis"):
        softmax(np.ones((2, 3)), axis=2)


def test_accuracy():
    y = np.array([[0.1, 0.9], [0.8, 0.2], [0.3, 0.7], [0.6, 0.4]])
    assert accuracy(y, np.array([1, 0, 0, 0])) == 0.75
    assert accuracy(Variable(y), Variable(np.array([1, 0, 1, 0]), requires_grad=False)) == 1.0
    with pytest.raises(ValueError, match="모양"):
        accuracy(y, np.array([1, 0]))
    with pytest.raises(ValueError, match="하나도"):
        accuracy(np.zeros((0, 2)), np.zeros(0, dtype=int))


def test_changing_the_labels_after_forward_does_not_change_the_gradient():
    scores = np.random.default_rng(0).normal(size=(4, 3))
    t = np.array([0, 2, 1, 1])
    x = Variable(scores.copy())
    loss = softmax_cross_entropy(x, t)
    t[:] = 0  # 순전파 뒤에 정답 배열을 고칩니다(다음 배치를 같은 배열에 읽어 들이는 코드처럼).
    loss.backward()
    expected = Variable(scores.copy())
    softmax_cross_entropy(expected, np.array([0, 2, 1, 1])).backward()
    np.testing.assert_array_equal(x.grad, expected.grad)
    labels = Variable(np.array([0, 2, 1, 1]), requires_grad=False)
    y = Variable(scores.copy())
    loss = softmax_cross_entropy(y, labels)
    labels.data[:] = 2
    loss.backward()
    np.testing.assert_array_equal(y.grad, expected.grad)
