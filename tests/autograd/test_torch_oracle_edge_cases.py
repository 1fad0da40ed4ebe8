"""경계의 경우에 최종 엔진과 `Value`가 PyTorch와 같게 답하는지 PyTorch를 직접 돌려 확인합니다.

NaN의 ReLU, 정수와 복소수의 거부, 되풀이한 역전파, 0에서의 x ** 0, float32 미분값의 dtype, pickle.
`TINYGRAD_KO_ORACLE=1 python3 dev.py test`로 돌리면 torch가 설치되어 이 테스트가 돕니다. CI는 늘 그렇게
돌립니다. 같은 경우의 PyTorch 없는 테스트는 test_dtype_checks.py, test_gradient_accumulation.py 등에 있습니다.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from oracle import import_torch

import tinygrad_ko as tg
from tinygrad_ko.micrograd.value import Value

torch = import_torch(__name__)


def test_relu_of_nan_matches_pytorch():
    v = Value(math.nan)
    r = v.relu()
    r.backward()
    t = torch.tensor(math.nan, dtype=torch.float64, requires_grad=True)
    out = torch.relu(t)
    out.backward()
    assert math.isnan(r.data) and math.isnan(out.item())
    assert v.grad == t.grad.item()


def test_integer_leaves_are_refused_like_pytorch():
    with pytest.raises(RuntimeError):
        torch.tensor([1, 2], requires_grad=True)
    with pytest.raises(TypeError):
        tg.Variable(np.array([1, 2]))
    # 둘 다 미분하지 않는 정수 상수는 받습니다.
    assert not torch.tensor([1, 2]).requires_grad
    assert not tg.Variable(np.array([1, 2]), requires_grad=False).requires_grad


def test_backward_from_a_complex_output_is_refused_like_pytorch():
    t = torch.tensor(2.0, dtype=torch.float64, requires_grad=True)
    with pytest.raises(RuntimeError):
        (t * torch.tensor(1j)).backward()
    x = tg.Variable(np.array(2.0))
    with pytest.raises(TypeError):
        (x * np.array(1j)).backward()


def torch_three_x_squared():
    x = torch.tensor(2.0, dtype=torch.float64, requires_grad=True)
    t = x * x
    t.retain_grad()
    y = t * 3.0
    y.retain_grad()
    return x, t, y


def test_repeated_backward_with_retained_grads_matches_pytorch():
    x, t, y = torch_three_x_squared()
    y.backward(retain_graph=True)
    y.backward(retain_graph=True)
    ours_x = tg.Variable(np.array(2.0))
    ours_t = ours_x * ours_x
    ours_y = ours_t * 3.0
    ours_y.backward(retain_grad=True, retain_graph=True)
    ours_y.backward(retain_grad=True, retain_graph=True)
    assert ours_x.grad == x.grad.item()
    assert ours_t.grad == t.grad.item() and ours_y.grad == y.grad.item()
    x.grad = None
    t.backward()
    ours_x.cleargrad()
    ours_t.backward()
    assert ours_x.grad == x.grad.item()


def test_zeroth_power_at_zero_matches_pytorch():
    t = torch.tensor(0.0, dtype=torch.float64, requires_grad=True)
    (t**0).backward()
    x = tg.Variable(np.array(0.0))
    (x**0).backward()
    assert x.grad == t.grad.item()


def test_float32_leaf_with_float64_constant_keeps_the_leaf_dtype_like_pytorch():
    data = np.array([1.0, 2.0], dtype=np.float32)
    constant = np.array([2.0, 3.0])
    t = torch.tensor(data, requires_grad=True)
    out = t * torch.tensor(constant)
    assert out.dtype == torch.float64
    out.sum().backward()
    x = tg.Variable(data.copy())
    y = x * constant
    assert y.dtype == np.float64
    y.backward()
    assert str(t.grad.dtype) == "torch.float32" and x.grad.dtype == np.float32
    np.testing.assert_array_equal(x.grad, t.grad.numpy())


def test_pickling_an_intermediate_keeps_only_the_value_like_pytorch():
    import pickle

    t = torch.tensor(2.0, requires_grad=True)
    restored_t = pickle.loads(pickle.dumps(t * t))
    x = tg.Variable(np.array(2.0))
    restored_x = pickle.loads(pickle.dumps(x * x))
    assert restored_t.grad_fn is None and restored_x.creator is None
    assert restored_t.requires_grad == restored_x.requires_grad
    assert restored_t.item() == restored_x.data
