"""원소가 없는 배열의 max/min: 줄이는 축이 비었을 때만 거부하고, 다른 축이 비었으면 빈 결과(PyTorch의 amax/amin)."""

import numpy as np
import pytest
from oracle import import_torch

import tinygrad_ko as tg
from tinygrad_ko import Variable

torch = import_torch(__name__)


@pytest.mark.parametrize("name", ["max", "min"])
@pytest.mark.parametrize(
    ("shape", "axis", "keepdims"),
    [((0, 3), 1, False), ((0, 3), 1, True), ((2, 0, 3), (0, 2), False), ((0, 3), (), False)],
)
def test_reducing_a_nonempty_axis_of_an_empty_array_gives_an_empty_result(
    name, shape, axis, keepdims
):
    x = Variable(np.zeros(shape))
    y = getattr(tg, name)(x, axis=axis, keepdims=keepdims)  # 고치기 전: ValueError
    y.sum().backward()
    t = torch.zeros(shape, dtype=torch.float64, requires_grad=True)
    # axis=()는 NumPy처럼 아무 축도 줄이지 않습니다(PyTorch의 dim=()은 모든 축이라 모양만 비교할 상대로 t * 1).
    yt = getattr(t, "a" + name)(dim=axis, keepdim=keepdims) if axis != () else t * 1
    yt.sum().backward()
    assert y.shape == tuple(yt.shape)
    assert x.grad.shape == tuple(t.grad.shape) == shape


@pytest.mark.parametrize("name", ["max", "min"])
@pytest.mark.parametrize(
    ("shape", "axis"), [((0, 3), 0), ((0, 3), None), ((0, 3), (0, 1)), ((0,), -1)]
)
def test_reducing_an_empty_axis_is_refused_like_torch(name, shape, axis):
    with pytest.raises(ValueError, match=r"원소가 없는 축.*axis를 주세요"):
        getattr(tg, name)(Variable(np.zeros(shape)), axis=axis)
    t = torch.zeros(shape)
    with pytest.raises((IndexError, RuntimeError)):
        getattr(t, "a" + name)() if axis is None else getattr(t, "a" + name)(dim=axis)
