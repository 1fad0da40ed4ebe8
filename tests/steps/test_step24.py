"""23~24단계: 책의 엔진으로 시험용 함수를 미분합니다."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tinygrad_ko.steps import step22, step24

from .helpers import numerical_partials


def test_step24_is_the_step22_engine():
    for name in ("Variable", "Function", "Config", "no_grad", "using_config", "Pow"):
        assert getattr(step24, name) is getattr(step22, name)


def _grads(func, a, b):
    x, y = step24.Variable(np.array(a)), step24.Variable(np.array(b))
    z = func(x, y)
    z.backward()
    return z.data, x.grad, y.grad


def test_sphere_at_one_one():
    z, gx, gy = _grads(step24.sphere, 1.0, 1.0)
    assert (z, gx, gy) == (2.0, 2.0, 2.0)  # z = x² + y², ∂z/∂x = 2x, ∂z/∂y = 2y


def test_matyas_at_one_one():
    z, gx, gy = _grads(step24.matyas, 1.0, 1.0)
    np.testing.assert_allclose(z, 0.26 * 2 - 0.48)
    # ∂z/∂x = 0.52x - 0.48y, ∂z/∂y = 0.52y - 0.48x
    np.testing.assert_allclose([gx, gy], [0.04, 0.04])


def test_goldstein_at_one_one():
    z, gx, gy = _grads(step24.goldstein, 1.0, 1.0)
    assert z == 1876.0
    assert (gx, gy) == (-5376.0, 8064.0)


def test_goldstein_minimum():
    z, gx, gy = _grads(step24.goldstein, 0.0, -1.0)
    assert z == 3.0
    np.testing.assert_allclose([gx, gy], [0.0, 0.0], atol=1e-9)


@pytest.mark.parametrize("func", [step24.sphere, step24.matyas, step24.goldstein])
@settings(max_examples=20, deadline=None)
@given(
    a=st.floats(min_value=-1.5, max_value=1.5, allow_nan=False),
    b=st.floats(min_value=-1.5, max_value=1.5, allow_nan=False),
)
def test_grads_match_numerical_diff(func, a, b):
    z, gx, gy = _grads(func, a, b)
    expected = numerical_partials(func, step24.Variable, a, b)
    scale = max(1.0, abs(float(z)))  # Goldstein-Price는 값이 커서 오차도 값에 비례해 잽니다.
    # 중앙 차분의 절단 오차는 h^2 f'''/6 정도라, 기울기가 0에 가까운 곳(최솟값 근처)에서도 남습니다.
    np.testing.assert_allclose([gx, gy], expected, rtol=1e-5, atol=1e-5 * scale)
