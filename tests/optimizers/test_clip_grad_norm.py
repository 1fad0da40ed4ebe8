"""clip_grad_norm_: 노름이 max_norm보다 클 때만 제자리에서 줄이기, 돌려주는 노름, 잘못된 인수."""

import math

import numpy as np
import pytest

from tinygrad_ko import Parameter, Variable
from tinygrad_ko.nn.layers import Linear
from tinygrad_ko.optimizers import SGD, clip_grad_norm_


def param(grad, dtype=np.float64):
    p = Parameter(np.zeros(np.shape(grad), dtype=dtype))
    p.grad = np.array(grad, dtype=dtype)
    return p


def test_clips_in_place_to_max_norm_and_returns_the_norm_before():
    p = param([3.0, 4.0])  # 노름 5
    grad = p.grad
    total = clip_grad_norm_([p], max_norm=1.0)
    assert total == 5.0
    assert p.grad is grad  # 같은 배열을 제자리에서 고쳤습니다.
    np.testing.assert_allclose(p.grad, [3.0 / (5.0 + 1e-6), 4.0 / (5.0 + 1e-6)], rtol=1e-15)
    assert math.isclose(float(np.linalg.norm(p.grad)), 1.0, rel_tol=1e-6)


def test_small_norms_are_left_alone():
    p = param([0.3, 0.4])  # 노름 0.5
    before = p.grad.copy()
    assert math.isclose(clip_grad_norm_([p], max_norm=1.0), 0.5)
    np.testing.assert_array_equal(p.grad, before)


def test_the_norm_is_over_all_parameters_together():
    a, b = param([3.0]), param([[4.0]])
    assert clip_grad_norm_([a, b], max_norm=2.5) == 5.0
    np.testing.assert_allclose([a.grad[0], b.grad[0, 0]], [1.5, 2.0], rtol=1e-6)  # 방향은 그대로


def test_other_norm_types():
    p = param([3.0, -4.0])
    assert clip_grad_norm_([p], max_norm=100.0, norm_type=float("inf")) == 4.0
    assert clip_grad_norm_([p], max_norm=100.0, norm_type=1) == 7.0
    assert math.isclose(clip_grad_norm_([p], max_norm=100.0, norm_type=3), (27 + 64) ** (1 / 3))


def test_parameters_without_grad_are_skipped_and_no_grads_give_zero():
    empty = Parameter(np.ones(2))
    assert clip_grad_norm_([empty], max_norm=1.0) == 0.0
    p = param([6.0, 8.0])
    assert clip_grad_norm_([empty, p], max_norm=5.0) == 10.0
    assert empty.grad is None


def test_accepts_one_parameter_a_generator_and_a_model():
    p = param([3.0, 4.0])
    assert clip_grad_norm_(p, max_norm=10.0) == 5.0
    assert clip_grad_norm_((q for q in [p]), max_norm=10.0) == 5.0
    layer = Linear(2, in_size=3, seed=0)
    assert layer(np.ones((1, 3))).shape == (1, 2)
    for q in layer.parameters():
        q.grad = np.full(q.shape, 2.0)
    expected = 2.0 * math.sqrt(sum(q.data.size for q in layer.parameters()))
    assert math.isclose(clip_grad_norm_(layer, max_norm=1.0), expected)
    assert math.isclose(
        math.sqrt(sum(float(np.sum(q.grad**2)) for q in layer.parameters())), 1.0, rel_tol=1e-6
    )


def test_a_parameter_listed_twice_is_counted_and_scaled_once():
    p = param([3.0, 4.0])
    assert clip_grad_norm_([p, p], max_norm=1.0) == 5.0
    assert math.isclose(float(np.linalg.norm(p.grad)), 1.0, rel_tol=1e-6)


def test_float32_grads_stay_float32():
    p = param([30.0, 40.0], dtype=np.float32)
    clip_grad_norm_([p], max_norm=1.0)
    assert p.grad.dtype == np.float32
    np.testing.assert_allclose(p.grad, [0.6, 0.8], rtol=1e-6)


def test_graph_gradients_are_scaled_and_marked_modified():
    p = Parameter(np.zeros(2))
    p.grad = Variable(np.array([3.0, 4.0]))  # create_graph=True로 구한 미분값
    grad, version = p.grad, p.grad.version
    clip_grad_norm_([p], max_norm=1.0)
    assert p.grad is grad and grad.version == version + 1
    assert math.isclose(float(np.linalg.norm(grad.data)), 1.0, rel_tol=1e-6)


def test_read_only_and_scalar_grads_are_replaced():
    p = Parameter(np.zeros((2, 2)))
    p.grad = np.broadcast_to(np.array([3.0, 4.0]), (2, 2))  # 읽기 전용 뷰
    q = Parameter(np.array(0.0))
    q.grad = np.float64(10.0)  # NumPy 스칼라
    total = clip_grad_norm_([p, q], max_norm=1.0)
    assert math.isclose(total, math.sqrt(9 + 16 + 9 + 16 + 100))
    assert math.isclose(math.sqrt(float(np.sum(p.grad**2)) + float(q.grad) ** 2), 1.0, rel_tol=1e-6)


def test_nonfinite_norms():
    p = param([np.nan, 1.0])
    with pytest.raises(RuntimeError, match="inf나 NaN"):
        clip_grad_norm_([p], max_norm=1.0, error_if_nonfinite=True)
    assert math.isnan(clip_grad_norm_([p], max_norm=1.0))  # PyTorch처럼 그대로 곱해 NaN이 됩니다.
    assert np.isnan(p.grad).all()


def test_clipping_keeps_a_step_from_exploding():
    # 미분값이 아주 큰 한 스텝: 자르면 매개변수가 max_norm·lr보다 멀리 가지 않습니다.
    p = Parameter(np.zeros(3))
    p.grad = np.array([1e8, -2e8, 2e8])
    clip_grad_norm_([p], max_norm=1.0)
    SGD([p], lr=0.1).step()
    assert float(np.linalg.norm(p.data)) <= 0.1 + 1e-12


@pytest.mark.parametrize("bad", ["1.0", None, True, [1.0], 1 + 2j])
def test_max_norm_of_the_wrong_type(bad):
    with pytest.raises(TypeError, match=r"max_norm에는 실수를.*받은 값"):
        clip_grad_norm_([param([1.0])], max_norm=bad)


@pytest.mark.parametrize("bad", [-1.0, -1e-9, float("nan")])
def test_negative_or_nan_max_norm(bad):
    with pytest.raises(ValueError, match=r"max_norm은 0 이상.*받은 값"):
        clip_grad_norm_([param([1.0])], max_norm=bad)


@pytest.mark.parametrize("bad", [0, -2.0, float("nan")])
def test_bad_norm_type(bad):
    with pytest.raises(ValueError, match=r"norm_type은 0보다 큰.*받은 값"):
        clip_grad_norm_([param([1.0])], max_norm=1.0, norm_type=bad)
    with pytest.raises(TypeError, match="norm_type에는 실수를"):
        clip_grad_norm_([param([1.0])], max_norm=1.0, norm_type="inf")


@pytest.mark.parametrize("bad", [3, "abc", {"W": Parameter(np.ones(1))}, [np.ones(1)]])
def test_bad_parameters(bad):
    with pytest.raises(TypeError, match="받은 값"):
        clip_grad_norm_(bad, max_norm=1.0)


def test_error_if_nonfinite_must_be_a_bool():
    with pytest.raises(TypeError, match="error_if_nonfinite"):
        clip_grad_norm_([param([1.0])], max_norm=1.0, error_if_nonfinite="yes")


def test_zero_max_norm_zeroes_the_grads_and_inf_leaves_them():
    p = param([3.0, 4.0])
    clip_grad_norm_([p], max_norm=float("inf"))
    np.testing.assert_array_equal(p.grad, [3.0, 4.0])
    clip_grad_norm_([p], max_norm=0.0)
    np.testing.assert_array_equal(p.grad, [0.0, 0.0])
