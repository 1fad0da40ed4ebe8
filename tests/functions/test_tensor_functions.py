"""텐서 함수(모양, 축, 행렬 곱, 인덱싱, 활성화, 손실): 순전파 값, 수치 미분과 비교한 1계·2계 미분,
붙잡는 것(keep), dtype, Variable의 메서드와 연산자. PyTorch 없이 돕니다(PyTorch 비교는
test_tensor_oracle.py)."""

import weakref

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import tinygrad_ko as tg
from tinygrad_ko import Variable

from .tensor_cases import CASES, TG, seeds

RNG = np.random.default_rng(0)


def near_kink(name: str, datas: list[np.ndarray]) -> bool:
    """수치 미분이 꺾인 점을 건너는 사례: ReLU의 0, clip의 경계, 최댓값 후보끼리의 작은 차이."""
    x = datas[0]
    if name == "relu":
        return bool(np.any(np.abs(x) < 1e-3))
    if name == "clip":
        return bool(np.any(np.abs(x + 1.0) < 1e-3) or np.any(np.abs(x - 1.5) < 1e-3))
    if name in ("max", "min"):
        values = np.sort(x.ravel())
        return bool(np.any(np.diff(values) < 1e-3))
    return False


def random_loss(calc, seed):
    """f(x)에 무작위 가중치를 곱해 더한 스칼라 손실(모든 원소의 미분값이 서로 다르게)."""
    cache = {}

    def loss(*xs):
        y = calc(TG, *xs)
        if "G" not in cache:
            cache["G"] = np.random.default_rng(seed).standard_normal(y.shape)
        return tg.sum(tg.tanh(y) * cache["G"])

    return loss


@pytest.mark.slow
@pytest.mark.parametrize("name", list(CASES))
# max·min은 값이 겹치는 배열이 흔해 near_kink가 많이 걸러 냅니다(의도한 것). 걸러 낸 비율의 검사만 끕니다.
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(data=st.data())
def test_first_derivatives_match_numerical_grad(name, data):
    label, datas, calc = data.draw(CASES[name])
    assume(not near_kink(name, datas))
    loss = random_loss(calc, data.draw(seeds))
    xs = [Variable(d.copy()) for d in datas]
    loss(*xs).backward()
    expected = tg.numerical_grad(loss, *datas)
    for x, e in zip(xs, expected, strict=True):
        np.testing.assert_allclose(x.grad, e, rtol=1e-5, atol=1e-7, err_msg=label)


@pytest.mark.slow
@pytest.mark.parametrize("name", list(CASES))
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(data=st.data())
def test_hessian_vector_products_match_differences_of_gradients(name, data):
    """(∇f(x + εv) - ∇f(x - εv)) / 2ε ≈ H v: create_graph로 구한 2계 미분을 1계 미분의 차분과 비교."""
    label, datas, calc = data.draw(CASES[name])
    assume(not near_kink(name, datas))
    seed = data.draw(seeds)
    loss = random_loss(calc, seed)
    vs = [np.random.default_rng(seed + 1 + i).standard_normal(d.shape) for i, d in enumerate(datas)]

    xs = [Variable(d.copy()) for d in datas]
    gs = tg.grad(loss(*xs), xs, create_graph=True)
    m = tg.sum(gs[0] * vs[0])
    for g, v in zip(gs[1:], vs[1:], strict=True):
        m = m + tg.sum(g * v)
    hv = tg.grad(m, xs, allow_unused=True)

    eps = 1e-5

    def grads_at(sign):
        moved = [Variable(np.asarray(d + sign * eps * v)) for d, v in zip(datas, vs, strict=True)]
        return tg.grad(loss(*moved), moved)

    upper, lower = grads_at(1.0), grads_at(-1.0)
    for i, (got, u, lo) in enumerate(zip(hv, upper, lower, strict=True)):
        got = np.zeros_like(datas[i]) if got is None else got
        np.testing.assert_allclose(got, (u - lo) / (2 * eps), rtol=1e-4, atol=1e-6, err_msg=label)


def test_every_tensor_function_has_random_cases():
    exported = {"reshape", "transpose", "sum", "mean", "max", "min", "broadcast_to", "sum_to"}
    exported |= {"matmul", "get_item", "linear", "sigmoid", "relu", "clip", "mean_squared_error"}
    assert exported <= set(CASES)
    assert all(callable(getattr(tg, name)) for name in exported)


# --- 순전파 값 ----------------------------------------------------------------------------
def test_forward_values_match_numpy():
    a = RNG.standard_normal((2, 3, 4))
    x = Variable(a)
    np.testing.assert_array_equal(tg.reshape(x, (4, -1)).data, a.reshape(4, -1))
    np.testing.assert_array_equal(tg.transpose(x, (2, 0, 1)).data, a.transpose(2, 0, 1))
    np.testing.assert_array_equal(x.T.data, a.T)
    np.testing.assert_allclose(
        tg.sum(x, axis=(0, -1), keepdims=True).data, a.sum((0, 2), keepdims=True)
    )
    np.testing.assert_allclose(tg.mean(x, axis=1).data, a.mean(1))
    np.testing.assert_array_equal(tg.max(x, axis=-1).data, a.max(-1))
    np.testing.assert_array_equal(tg.min(x).data, a.min())
    np.testing.assert_array_equal(
        tg.broadcast_to(Variable(a[0]), (5, 3, 4)).data, np.broadcast_to(a[0], (5, 3, 4))
    )
    np.testing.assert_allclose(tg.sum_to(x, (3, 1)).data, a.sum(axis=(0, 2)).reshape(3, 1))
    np.testing.assert_array_equal(x[1, ::2, [0, 0, 3]].data, a[1, ::2, [0, 0, 3]])
    np.testing.assert_allclose(tg.sigmoid(x).data, 1 / (1 + np.exp(-a)))
    np.testing.assert_array_equal(tg.relu(x).data, np.maximum(a, 0))
    np.testing.assert_array_equal(tg.clip(x, -0.5, 0.5).data, np.clip(a, -0.5, 0.5))
    np.testing.assert_allclose(tg.mean_squared_error(x, np.zeros_like(a)).data, np.mean(a**2))


def test_sigmoid_does_not_overflow_for_large_negative_inputs():
    with np.errstate(over="raise"):
        y = tg.sigmoid(Variable(np.array([-1000.0, 0.0, 1000.0])))
    np.testing.assert_array_equal(y.data, [0.0, 0.5, 1.0])


@pytest.mark.parametrize(
    ("a_shape", "b_shape"),
    [((2, 3), (3, 4)), ((3,), (3, 4)), ((2, 3), (3,)), ((3,), (3,)), ((5, 2, 3), (3, 4)),
     ((2, 3), (5, 3, 4)), ((4, 1, 2, 3), (5, 3, 2)), ((3,), (5, 3, 2)), ((5, 2, 3), (3,))],
)  # fmt: skip
def test_matmul_follows_numpy_rules_and_gradients_have_input_shapes(a_shape, b_shape):
    a, b = RNG.standard_normal(a_shape), RNG.standard_normal(b_shape)
    x, w = Variable(a), Variable(b)
    y = x @ w
    np.testing.assert_allclose(y.data, a @ b)
    y.backward()
    assert x.grad.shape == a_shape and w.grad.shape == b_shape
    assert tg.gradient_check(tg.matmul, a, b)


def test_elementwise_ops_broadcast_both_ways_and_reduce_gradients():
    """(3, 1, 4)와 (2, 4): 두 입력 모두 늘어나고, 미분값은 각 입력의 모양으로 더해져 돌아옵니다."""
    a, b = RNG.standard_normal((3, 1, 4)), RNG.standard_normal((2, 4))
    for op in (tg.add, tg.sub, tg.mul, tg.div):
        x0, x1 = Variable(a), Variable(b)
        y = op(x0, x1)
        assert y.shape == (3, 2, 4)
        y.backward()
        assert x0.grad.shape == (3, 1, 4) and x1.grad.shape == (2, 4)
        assert tg.gradient_check(op, a, b)
    x0, x1 = Variable(a), Variable(b)
    (x0 + x1).backward()
    np.testing.assert_array_equal(x0.grad, np.full((3, 1, 4), 2.0))  # 두 번 복사되었으니 2
    np.testing.assert_array_equal(x1.grad, np.full((2, 4), 3.0))  # 세 번 복사되었으니 3


def test_repeated_fancy_indices_accumulate():
    x = Variable(np.arange(4.0))
    y = x[np.array([0, 0, 3, 0])]
    y.backward()
    np.testing.assert_array_equal(x.grad, [3.0, 0.0, 0.0, 1.0])
    x.cleargrad()
    tg.sum(x[[1, 1]] * np.array([2.0, 5.0])).backward()
    np.testing.assert_array_equal(x.grad, [0.0, 7.0, 0.0, 0.0])


def test_bool_mask_and_variable_index():
    a = np.arange(6.0).reshape(2, 3)
    x = Variable(a)
    mask = a > 2
    tg.sum(x[mask] ** 2).backward()
    np.testing.assert_array_equal(x.grad, np.where(mask, 2 * a, 0.0))
    x.cleargrad()
    index = Variable(np.array([1, 1]), requires_grad=False)  # 정수 Variable은 미분하지 않는 상수로
    x[index].backward()  # 인덱스로 준 Variable은 그 데이터로 씁니다.
    np.testing.assert_array_equal(x.grad, [[0.0, 0.0, 0.0], [2.0, 2.0, 2.0]])


def test_max_and_min_split_the_gradient_among_ties_like_amax():
    x = Variable(np.array([[1.0, 3.0, 3.0], [2.0, 2.0, 0.0]]))
    tg.max(x, axis=1).backward()
    np.testing.assert_array_equal(x.grad, [[0.0, 0.5, 0.5], [0.5, 0.5, 0.0]])
    x.cleargrad()
    tg.min(x).backward()
    np.testing.assert_array_equal(x.grad, [[0.0, 0.0, 0.0], [0.0, 0.0, 1.0]])
    x.cleargrad()
    tg.max(x).backward()  # 모든 원소 가운데 최댓값 3이 두 개
    np.testing.assert_array_equal(x.grad, [[0.0, 0.5, 0.5], [0.0, 0.0, 0.0]])


def test_max_with_nan_gives_the_gradient_to_the_nan():
    x = Variable(np.array([1.0, np.nan, 2.0]))
    y = tg.max(x)
    assert np.isnan(y.data)
    y.backward()
    np.testing.assert_array_equal(x.grad, [0.0, 1.0, 0.0])


def test_relu_and_clip_gradients_at_the_boundaries():
    x = Variable(np.array([-1.0, 0.0, 0.5, 1.0, 2.0]))
    tg.relu(x).backward()
    np.testing.assert_array_equal(x.grad, [0.0, 0.0, 1.0, 1.0, 1.0])  # 0에서는 0(PyTorch와 같음)
    x.cleargrad()
    tg.clip(x, 0.0, 1.0).backward()
    np.testing.assert_array_equal(x.grad, [0.0, 1.0, 1.0, 1.0, 0.0])  # 경계는 포함(clamp와 같음)
    x.cleargrad()
    tg.clip(x, None, 0.5).backward()
    np.testing.assert_array_equal(x.grad, [1.0, 1.0, 1.0, 0.0, 0.0])


def test_sum_and_mean_with_negative_and_tuple_axes():
    a = RNG.standard_normal((2, 3, 4))
    for axis in (None, 0, -1, (0, 2), (-1, -3), ()):
        for keepdims in (False, True):
            x = Variable(a)
            y = tg.sum(x, axis=axis, keepdims=keepdims)
            np.testing.assert_allclose(y.data, a.sum(axis=axis, keepdims=keepdims))
            y.backward()
            np.testing.assert_array_equal(x.grad, np.ones_like(a))
            x.cleargrad()
            tg.mean(x, axis=axis, keepdims=keepdims).backward()
            count = a.size // np.asarray(a.sum(axis=axis, keepdims=True)).size
            np.testing.assert_allclose(x.grad, np.full_like(a, 1.0 / count))


# --- 2계 미분 ------------------------------------------------------------------------------
def test_second_derivative_of_sigmoid():
    a = np.linspace(-3, 3, 7)
    x = Variable(a)
    (gx,) = tg.grad(tg.sum(tg.sigmoid(x)), x, create_graph=True)
    s = 1 / (1 + np.exp(-a))
    np.testing.assert_allclose(gx.data, s * (1 - s))
    gx.backward()
    np.testing.assert_allclose(x.grad, s * (1 - s) * (1 - 2 * s))


def test_hessian_of_a_quadratic_form_through_matmul():
    """f(x) = xᵀ A x의 헤세 행렬은 A + Aᵀ. 행렬 곱, 전치, 합의 역전파가 모두 그래프가 됩니다."""
    A = RNG.standard_normal((3, 3))
    x = Variable(RNG.standard_normal(3))
    (g,) = tg.grad(x @ (A @ x), x, create_graph=True)
    np.testing.assert_allclose(g.data, (A + A.T) @ x.data)
    rows = [tg.grad(g[i], x, retain_graph=True)[0] for i in range(3)]
    np.testing.assert_allclose(np.stack(rows), A + A.T)


# --- 붙잡는 것(keep) -----------------------------------------------------------------------
def intermediate():
    """말단 변수 뒤의 중간 변수 하나와 그 약한 참조."""
    h = Variable(RNG.standard_normal((3, 4))) * 2.0
    return h, weakref.ref(h)


@pytest.mark.parametrize(
    "func",
    [
        lambda h: tg.reshape(h, (4, 3)),
        lambda h: h.T,
        lambda h: tg.sum(h, axis=0),
        lambda h: tg.mean(h),
        lambda h: tg.broadcast_to(h, (2, 3, 4)),
        lambda h: tg.sum_to(h, (1, 4)),
        lambda h: h[:, [0, 0]],
        lambda h: tg.sigmoid(h),
        lambda h: tg.relu(h),
        lambda h: h @ np.ones((4, 2)),  # 상수 W: x의 미분에 필요한 W만 붙잡습니다.
        lambda h: tg.linear(h, np.ones((4, 2)), np.zeros(2)),
    ],
    ids=["reshape", "T", "sum", "mean", "broadcast_to", "sum_to", "get_item", "sigmoid",
         "relu", "matmul", "linear"],
)  # fmt: skip
def test_functions_that_do_not_need_their_input_let_it_go(func, gc_disabled):
    h, ref = intermediate()
    y = func(h)
    del h
    assert ref() is None  # 함수가 입력을 붙잡지 않았으니 바로 풀립니다(GC 없이).
    y.backward()


def test_matmul_keeps_only_what_each_gradient_needs():
    def kept(f):
        return tuple(stamp is not None for stamp in f.stamps)

    x, w = Variable(np.ones((2, 3))), Variable(np.ones((3, 4)))
    assert kept((x @ w).creator) == (True, True)
    assert kept((x @ w.data).creator) == (False, True)  # W는 상수: x의 미분에 W만 필요
    assert kept((x.data @ w).creator) == (True, False)  # x는 상수: W의 미분에 x만 필요
    assert kept(tg.linear(x, w.data, np.zeros(4)).creator) == (False, True, False)


# --- dtype, 뷰, 메서드 ------------------------------------------------------------------------
@pytest.mark.parametrize(
    "func",
    [
        lambda x: tg.sum(x, axis=0),
        lambda x: tg.mean(x),
        lambda x: tg.max(x, axis=1),
        lambda x: x @ x.T,
        lambda x: x[[0, 0]],
        lambda x: tg.sigmoid(x),
        lambda x: tg.relu(x),
        lambda x: tg.clip(x, 0.1, 0.5),
        lambda x: tg.mean_squared_error(x, np.zeros((2, 3), dtype=np.float32)),
        lambda x: tg.linear(x, np.ones((3, 2), dtype=np.float32), np.ones(2, dtype=np.float32)),
    ],
)
def test_float32_stays_float32(func):
    x = Variable(RNG.uniform(0, 1, (2, 3)).astype(np.float32))
    y = func(x)
    assert y.dtype == np.float32
    y.backward()
    assert x.grad.dtype == np.float32


def test_leaf_gradients_are_writable_arrays_not_views():
    x = Variable(np.ones((2, 3)))
    tg.sum(x).backward()  # 역전파는 broadcast_to의 읽기 전용 뷰를 돌려줍니다.
    assert x.grad.flags.writeable and x.grad.base is None
    a, b = Variable(np.ones(6)), Variable(np.ones(6))
    (a.reshape(2, 3) + b.reshape(2, 3)).backward()
    assert not np.shares_memory(a.grad, b.grad)
    a.grad += 1.0  # 한 변수의 미분값을 고쳐도 다른 변수는 그대로입니다.
    np.testing.assert_array_equal(b.grad, np.ones(6))


def test_variable_methods_accept_tuples_and_varargs():
    x = Variable(np.arange(24.0).reshape(2, 3, 4))
    assert x.reshape(6, 4).shape == x.reshape((6, 4)).shape == x.reshape([6, 4]).shape == (6, 4)
    assert x.reshape(-1).shape == (24,)
    assert x.transpose().shape == x.T.shape == (4, 3, 2)
    assert x.transpose(1, 0, 2).shape == x.transpose((1, 0, 2)).shape == (3, 2, 4)
    assert x.sum().shape == () and x.sum(axis=-1, keepdims=True).shape == (2, 3, 1)
    assert x.mean(0).shape == (3, 4) and x.max(1).shape == (2, 4) and x.min().shape == ()
    assert x.reshape(2, 3, 4) is x  # 모양이 같으면 그대로
    rows = list(x)
    assert len(rows) == 2 and all(isinstance(r, Variable) for r in rows)
    np.testing.assert_array_equal(rows[1].data, x.data[1])


def test_matmul_operator_on_both_sides():
    a, b = RNG.standard_normal((2, 3)), RNG.standard_normal((3, 4))
    w = Variable(b)
    y = a @ w  # ndarray가 왼쪽이어도 Variable의 연산자가 불립니다.
    assert isinstance(y, Variable)
    np.testing.assert_allclose(y.data, a @ b)
    y.backward()
    np.testing.assert_allclose(w.grad, a.T @ np.ones((2, 4)))
    x = Variable(a)
    z = x @ b
    z.backward()
    np.testing.assert_allclose(x.grad, np.ones((2, 4)) @ b.T)


def test_reshape_and_transpose_return_views_without_copying():
    x = Variable(np.arange(6.0))
    y = x.reshape(2, 3).T
    assert np.shares_memory(y.data, x.data)


def test_outputs_of_constants_do_not_record_a_graph():
    y = tg.sum(np.ones((2, 3)), axis=0)
    assert isinstance(y, Variable) and y.creator is None and not y.requires_grad


def test_graph_is_released_after_backward():
    x = Variable(np.ones((2, 3)))
    y = tg.sum(tg.sigmoid(x @ np.ones((3, 2))))
    y.backward()
    with pytest.raises(RuntimeError, match="retain_graph=True"):
        y.backward()
