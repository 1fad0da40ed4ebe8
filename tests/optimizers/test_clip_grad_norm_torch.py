"""clip_grad_norm_을 torch.nn.utils.clip_grad_norm_과 비교합니다: 같은 미분값, 같은 인수.

PyTorch는 선택 의존성입니다(`TINYGRAD_KO_ORACLE=1 python3 dev.py test`가 설치합니다).
"""

import math

import numpy as np
import pytest
from oracle import import_torch

from tinygrad_ko import Parameter
from tinygrad_ko.optimizers import clip_grad_norm_

torch = import_torch(__name__)


@pytest.mark.parametrize("norm_type", [2.0, 1.0, 3.0, float("inf")])
@pytest.mark.parametrize("max_norm", [0.0, 0.5, 3.0, 1e6])
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_matches_torch(norm_type, max_norm, dtype):
    rng = np.random.default_rng(0)
    shapes = [(3, 4), (4,), ()]
    if norm_type != float("inf"):  # 빈 미분값: PyTorch는 inf-노름에서만 거부합니다(여기서는 0).
        shapes.append((0,))
    grads = [rng.normal(size=s).astype(dtype) for s in shapes]
    ours = [Parameter(np.zeros(g.shape, dtype=dtype)) for g in grads]
    theirs = [torch.zeros(g.shape, dtype=getattr(torch, dtype), requires_grad=True) for g in grads]
    for p, t, g in zip(ours, theirs, grads, strict=True):
        p.grad, t.grad = g.copy(), torch.tensor(g.copy())
    total = clip_grad_norm_(ours, max_norm, norm_type=norm_type)
    reference = torch.nn.utils.clip_grad_norm_(theirs, max_norm, norm_type=norm_type)
    tolerance = dict(rtol=1e-12, atol=1e-15) if dtype == "float64" else dict(rtol=2e-6, atol=1e-7)
    np.testing.assert_allclose(total, reference.item(), **tolerance)
    for p, t in zip(ours, theirs, strict=True):
        assert p.grad.dtype == np.dtype(dtype)
        np.testing.assert_allclose(p.grad, t.grad.numpy(), **tolerance)


def test_nonfinite_like_torch():
    for flag in (True, False):
        p = Parameter(np.zeros(2))
        t = torch.zeros(2, dtype=torch.float64, requires_grad=True)
        p.grad, t.grad = np.array([np.inf, 1.0]), torch.tensor([np.inf, 1.0], dtype=torch.float64)
        if flag:
            with pytest.raises(RuntimeError):
                torch.nn.utils.clip_grad_norm_([t], 1.0, error_if_nonfinite=True)
            with pytest.raises(RuntimeError):
                clip_grad_norm_([p], 1.0, error_if_nonfinite=True)
        else:
            total = clip_grad_norm_([p], 1.0)
            reference = torch.nn.utils.clip_grad_norm_([t], 1.0)
            assert math.isinf(total) and math.isinf(reference.item())
            np.testing.assert_array_equal(p.grad, t.grad.numpy())  # inf·0 = NaN, 1·0 = 0
