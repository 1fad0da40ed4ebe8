"""합성곱이 역전파를 위해 붙잡는 것(PyTorch 없이 도는 테스트)."""

import numpy as np
import pytest

import tinygrad_ko as tg
from tinygrad_ko import Variable


@pytest.mark.parametrize("frozen", ["requires_grad=False", "ndarray"])
def test_conv2d_drops_the_column_matrix_when_W_needs_no_gradient(frozen):
    """W의 미분이 필요 없으면(고정한 필터) gW에만 쓰는 펼친 창 행렬을 붙잡지 않습니다(conv2d_simple과 같음)."""
    rng = np.random.default_rng(0)
    x, W = rng.standard_normal((2, 3, 9, 8)), rng.standard_normal((4, 3, 3, 2))
    weight = Variable(W, requires_grad=False) if frozen == "requires_grad=False" else W
    y = tg.conv2d(Variable(x), weight, None, (2, 1), (1, 0))
    assert y.creator.col is None
    y = tg.conv2d(Variable(x), Variable(W), None, (2, 1), (1, 0))
    assert y.creator.col is not None  # gW에 다시 씁니다


def test_conv2d_simple_treats_an_ndarray_filter_as_a_constant_like_conv2d():
    """고치기 전: conv2d_simple은 ndarray W를 미분이 필요한 변수로 감싸, 읽을 수 없는 W의 미분값을 계산하고
    펼친 창 행렬을 붙잡았습니다(conv2d와 PyTorch는 보통의 텐서를 상수로 봅니다)."""
    rng = np.random.default_rng(0)
    x, W = rng.standard_normal((1, 2, 6, 6)), rng.standard_normal((3, 2, 3, 3))
    assert tg.conv2d(x, W).requires_grad is False
    assert tg.conv2d_simple(x, W).requires_grad is False
    y = tg.conv2d_simple(Variable(x), W)
    y.backward()
    assert y.requires_grad is True
    assert np.allclose(y.data, tg.conv2d(x, W).data, rtol=1e-12, atol=1e-12)
