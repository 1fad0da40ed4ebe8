"""0차원 배열 상수(`np.array(2.0)`)와의 계산이 어느 dtype이 되는지: PyTorch의 0차원 텐서와 같습니다.

PyTorch는 0차원 텐서를 차원이 있는 텐서와 같은 종류(실수)이면 dtype을 정하는 데 세지 않습니다:
float32 텐서 * float64 0차원 텐서는 float32입니다. NumPy는 float64로 올립니다. 파이썬 수와 NumPy 스칼라는
이미 그렇게(상대의 dtype으로) 다룹니다.
"""

import itertools
import operator

import numpy as np
import pytest
from oracle import import_torch

from tinygrad_ko import Variable

torch = import_torch(__name__)

OPS = {
    "mul": operator.mul,
    "add": operator.add,
    "sub": operator.sub,
    "truediv": operator.truediv,
    "rmul": lambda a, b: b * a,
    "rsub": lambda a, b: b - a,
    "rtruediv": lambda a, b: b / a,
}
FLOATS = [np.float16, np.float32, np.float64]
CONSTANTS = [np.float16, np.float32, np.float64, np.int64, np.int32, np.bool_]


@pytest.mark.parametrize("op", list(OPS))
@pytest.mark.parametrize(
    ("dtype", "const", "ndim"), list(itertools.product(FLOATS, CONSTANTS, (0, 1)))
)
def test_result_dtype_and_value_match_torch(op, dtype, const, ndim):
    if const is np.bool_ and "sub" in op:
        pytest.skip("PyTorch는 bool 텐서와의 뺄셈을 거부합니다(비교할 답이 없습니다)")
    data = np.array([1.5, -2.0, 4.0][: 3 if ndim else 1], dtype).reshape((3,) if ndim else ())
    c = np.array(3 if const is not np.bool_ else True, dtype=const)
    x = Variable(data.copy())
    y = OPS[op](x, c)
    t = torch.tensor(data, requires_grad=True)
    yt = OPS[op](t, torch.tensor(c))
    assert str(yt.dtype) == f"torch.{y.dtype}", (op, dtype, const, ndim)
    np.testing.assert_allclose(
        y.data, yt.detach().numpy(), rtol=1e-3 if dtype == np.float16 else 1e-6
    )
    y.backward(gradient=np.ones(y.shape, y.dtype))
    yt.backward(torch.ones_like(yt))
    assert x.grad.dtype == dtype
    np.testing.assert_allclose(x.grad, t.grad.numpy(), rtol=1e-3 if dtype == np.float16 else 1e-6)


def test_float32_times_zero_dim_float64_stays_float32():
    x = Variable(np.ones(4, np.float32))
    assert (x * np.array(2.0)).dtype == np.float32  # 고치기 전: float64
    assert (np.array(2.0) * x).dtype == np.float32
    assert (x * np.array([2.0])).dtype == np.float64  # 1차원 배열은 NumPy와 PyTorch 모두 float64
