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


@pytest.mark.parametrize("op", list(OPS))
@pytest.mark.parametrize(
    ("dtype", "scalar_dtype"),
    [(np.float32, np.float64), (np.float64, np.float32), (np.float16, np.float64)],
)
def test_zero_dim_variable_follows_torch_dtype_and_keeps_its_own_grad_dtype(
    op, dtype, scalar_dtype
):
    """0차원 *변수*도 0차원 상수와 같은 규칙: 결과는 차원 있는 쪽의 dtype, 미분값은 각자의 dtype."""
    data = np.array([1.5, -2.0, 4.0], dtype)
    x = Variable(data.copy())
    s = Variable(np.array(3.0, scalar_dtype))
    y = OPS[op](x, s)
    t = torch.tensor(data, requires_grad=True)
    ts = torch.tensor(np.array(3.0, scalar_dtype), requires_grad=True)
    yt = OPS[op](t, ts)
    assert str(yt.dtype) == f"torch.{y.dtype}", (op, dtype, scalar_dtype)  # 고치기 전: float64
    rtol = 1e-3 if np.float16 in (dtype, scalar_dtype) else 1e-6
    np.testing.assert_allclose(y.data, yt.detach().numpy(), rtol=rtol)
    y.backward(gradient=np.ones(y.shape, y.dtype))
    yt.backward(torch.ones_like(yt))
    assert x.grad.dtype == dtype and s.grad.dtype == scalar_dtype
    np.testing.assert_allclose(x.grad, t.grad.numpy(), rtol=rtol)
    np.testing.assert_allclose(s.grad, ts.grad.numpy(), rtol=rtol)


def test_zero_dim_variable_cast_is_recorded_for_higher_order_grads():
    """create_graph에서도 0차원 변수의 2계 미분이 PyTorch와 같습니다: d²(sum(x * s²))/ds² = 2·sum(x)."""
    x = Variable(np.array([1.0, 2.0, 4.0], np.float32))
    s = Variable(np.array(3.0))
    y = (x * s * s).sum()
    y.backward(create_graph=True)
    gs = s.grad
    s.cleargrad()
    gs.backward()
    t = torch.tensor([1.0, 2.0, 4.0], requires_grad=True)
    ts = torch.tensor(3.0, dtype=torch.float64, requires_grad=True)
    (gts,) = torch.autograd.grad((t * ts * ts).sum(), ts, create_graph=True)
    gts.backward()
    assert s.grad.dtype == np.float64 and y.dtype == np.float32
    np.testing.assert_allclose(s.grad.data, ts.grad.numpy(), rtol=1e-6)


def test_two_zero_dim_variables_promote_as_numpy_and_torch_do():
    """둘 다 0차원이면 보통의 승격: float32 0차원 * float64 0차원 = float64(PyTorch도 같습니다)."""
    y = Variable(np.array(2.0, np.float32)) * Variable(np.array(3.0))
    yt = torch.tensor(2.0) * torch.tensor(3.0, dtype=torch.float64)
    assert str(yt.dtype) == f"torch.{y.dtype}" == "torch.float64"
