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
