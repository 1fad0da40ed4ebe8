"""원소가 없는 입력과 축이 없는 입력: 소프트맥스, 교차 엔트로피, Linear가 PyTorch처럼 답하거나 한국어로 거부합니다."""

import numpy as np
import pytest
from oracle import import_torch

from tinygrad_ko import Variable
from tinygrad_ko.functions.softmax import log_softmax, softmax, softmax_cross_entropy
from tinygrad_ko.nn.layers import Linear

torch = import_torch(__name__)
F = torch.nn.functional


@pytest.mark.parametrize(("shape", "axis"), [((2, 0), -1), ((0, 3), 0), ((0,), 0), ((0, 3), -1)])
@pytest.mark.parametrize("name", ["softmax", "log_softmax"])
def test_softmax_over_an_empty_axis_is_empty_like_torch(name, shape, axis):
    ours = {"softmax": softmax, "log_softmax": log_softmax}[name]
    theirs = {"softmax": torch.softmax, "log_softmax": torch.log_softmax}[name]
    x = Variable(np.zeros(shape, np.float32))
    y = ours(
        x, axis=axis
    )  # 고치기 전: NumPy의 "zero-size array to reduction operation maximum ..."
    y.sum().backward()
    t = torch.zeros(shape, requires_grad=True)
    yt = theirs(t, dim=axis)
    yt.sum().backward()
    assert y.shape == tuple(yt.shape) and y.dtype == np.float32
    assert x.grad.shape == tuple(t.grad.shape) == shape


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_cross_entropy_of_an_empty_batch_is_nan_like_torch(dtype):
    x = Variable(np.zeros((0, 3), dtype))
    loss = softmax_cross_entropy(x, np.zeros(0, dtype=np.int64))
    t = torch.zeros((0, 3), dtype=torch.float32 if dtype == np.float32 else torch.float64)
    t.requires_grad_()
    expected = F.cross_entropy(t, torch.zeros(0, dtype=torch.long))
    assert np.isnan(loss.data) and torch.isnan(expected)  # 고치기 전: -0.0
    assert loss.dtype == dtype and str(expected.dtype) == f"torch.{np.dtype(dtype)}"
    loss.backward()
    expected.backward()
    assert x.grad.shape == tuple(t.grad.shape) == (0, 3)


def test_cross_entropy_of_a_nonempty_batch_is_unchanged():
    scores = np.array([[1.0, 2.0, 0.5], [0.0, -1.0, 3.0]])
    loss = softmax_cross_entropy(Variable(scores), np.array([1, 2]))
    expected = F.cross_entropy(torch.from_numpy(scores), torch.tensor([1, 2]))
    np.testing.assert_allclose(loss.data, expected.item(), rtol=1e-15)


@pytest.mark.parametrize("value", [np.array(1.0), 1.0, Variable(np.array(2.0))])
def test_unbuilt_linear_refuses_zero_dim_input_in_korean(value):
    layer = Linear(3)
    with pytest.raises(ValueError, match=r"Linear의 입력은 .*0차원 .*\(1, 1\)로 주세요"):
        layer(value)  # 고치기 전: IndexError "tuple index out of range"
    assert layer.W.data is None and layer.in_size is None
