"""옵티마이저를 torch.optim과 스텝마다 비교합니다: 같은 매개변수, 같은 미분값, 같은 하이퍼파라미터.

PyTorch는 선택 의존성입니다(`TINYGRAD_KO_ORACLE=1 python3 dev.py test`가 설치합니다).
"""

import numpy as np
import pytest
from oracle import import_torch

from tinygrad_ko import Parameter
from tinygrad_ko.optimizers import SGD, AdaGrad, Adam, MomentumSGD

torch = import_torch(__name__)

STEPS = 25

# (이름, 우리 옵티마이저를 만드는 함수, PyTorch 옵티마이저를 만드는 함수)
CASES = [
    ("SGD 기본값", lambda p: SGD(p), lambda p: torch.optim.SGD(p)),
    ("SGD lr", lambda p: SGD(p, lr=0.1), lambda p: torch.optim.SGD(p, lr=0.1)),
    (
        "SGD 모멘텀, 감쇠, weight_decay",
        lambda p: SGD(p, lr=0.05, momentum=0.8, dampening=0.1, weight_decay=0.01),
        lambda p: torch.optim.SGD(p, lr=0.05, momentum=0.8, dampening=0.1, weight_decay=0.01),
    ),
    (
        "SGD 네스테로프",
        lambda p: SGD(p, lr=0.05, momentum=0.9, nesterov=True),
        lambda p: torch.optim.SGD(p, lr=0.05, momentum=0.9, nesterov=True),
    ),
    (
        "MomentumSGD 기본값",
        lambda p: MomentumSGD(p),
        lambda p: torch.optim.SGD(p, lr=0.001, momentum=0.9),
    ),
    ("AdaGrad 기본값", lambda p: AdaGrad(p), lambda p: torch.optim.Adagrad(p)),
    (
        "AdaGrad 모든 인수",
        lambda p: AdaGrad(
            p, lr=0.1, lr_decay=0.01, weight_decay=0.1, initial_accumulator_value=0.5, eps=1e-6
        ),
        lambda p: torch.optim.Adagrad(
            p, lr=0.1, lr_decay=0.01, weight_decay=0.1, initial_accumulator_value=0.5, eps=1e-6
        ),
    ),
    ("Adam 기본값", lambda p: Adam(p), lambda p: torch.optim.Adam(p)),
    (
        "Adam 모든 인수",
        lambda p: Adam(p, lr=0.02, betas=(0.8, 0.95), eps=1e-6, weight_decay=0.05),
        lambda p: torch.optim.Adam(p, lr=0.02, betas=(0.8, 0.95), eps=1e-6, weight_decay=0.05),
    ),
]


@pytest.mark.parametrize("name, ours, theirs", CASES, ids=[c[0] for c in CASES])
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_optimizer_matches_torch_step_by_step(name, ours, theirs, dtype):
    rng = np.random.default_rng(0)
    shapes = [(3, 4), (4,), ()]
    starts = [rng.normal(size=s).astype(dtype) for s in shapes]
    params = [Parameter(s.copy()) for s in starts]
    tensors = [torch.tensor(s.copy(), requires_grad=True) for s in starts]
    optimizer, reference = ours(params), theirs(tensors)
    tolerance = dict(rtol=1e-12, atol=1e-14) if dtype == "float64" else dict(rtol=2e-5, atol=1e-6)
    for step in range(STEPS):
        for p, t in zip(params, tensors, strict=True):
            # 미분값이 스텝마다 크기와 부호를 바꾸도록(작은 값도 섞어서) 만듭니다.
            grad = (rng.normal(size=p.shape) * 10.0 ** rng.integers(-4, 2)).astype(dtype)
            p.grad = grad
            t.grad = torch.tensor(grad.copy())
        optimizer.step()
        reference.step()
        for p, t in zip(params, tensors, strict=True):
            assert p.data.dtype == np.dtype(dtype)
            np.testing.assert_allclose(
                p.data, t.detach().numpy(), **tolerance, err_msg=f"{name}, {step + 1}번째 스텝"
            )


def test_parameters_without_grad_are_skipped_like_torch():
    p = Parameter(np.ones(2))
    t = torch.ones(2, requires_grad=True)
    Adam([p]).step()
    torch.optim.Adam([t]).step()
    np.testing.assert_array_equal(p.data, t.detach().numpy())
