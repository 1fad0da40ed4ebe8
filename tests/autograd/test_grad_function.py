"""`grad()`가 PyTorch의 `torch.autograd.grad`와 같은 답을 내는지(이슈 22의 3~5). 답은 손으로 구한 미분값입니다."""

import numpy as np

import tinygrad_ko as tg


def test_an_output_given_as_an_input_counts_its_seed_once():
    x = tg.Variable(np.array(3.0))
    h = x * x
    dh, dx = tg.grad(h, [h, x])  # dh/dh = 1, dh/dx = 2x = 6 (예전: 2와 6)
    assert (float(dh), float(dx)) == (1.0, 6.0)
    h = x * x
    (total,) = tg.grad([h * 2, h], h)  # 2 + 1 (예전: 4)
    assert float(total) == 3.0


def test_the_same_input_twice_gets_the_gradient_in_both_places():
    x = tg.Variable(np.array(3.0))
    a, b = tg.grad(x * x, [x, x])  # 예전: "쓰이지 않았습니다"
    assert (float(a), float(b)) == (6.0, 6.0)
    assert isinstance(a, np.ndarray) and a is not b


def test_a_differentiable_grad_output_keeps_its_graph():
    """야코비안-벡터 곱의 이중 vjp: J^T u를 u로 다시 미분하면 J v(v = 1)입니다. y = x^3이면 3x^2."""
    x = tg.Variable(np.array([1.0, 2.0]))
    u = tg.Variable(np.ones(2))
    (gx,) = tg.grad(x**3, x, grad_outputs=u, create_graph=True)
    (jv,) = tg.grad(gx, u, grad_outputs=np.ones(2))  # 예전: u가 쓰이지 않았다는 오류
    np.testing.assert_array_equal(jv, [3.0, 12.0])


def test_grad_with_respect_to_an_intermediate_stops_there():
    x = tg.Variable(np.array(2.0))
    h = tg.exp(x)
    (dh,) = tg.grad(h * h, h)
    assert float(dh) == 2 * float(h.data)
    (h * 3).backward()  # 위의 grad가 h의 창조자(Exp)를 놓아 주지 않았으므로 됩니다(예전: 해제 오류)
    assert float(x.grad) == 3 * np.exp(2.0)
