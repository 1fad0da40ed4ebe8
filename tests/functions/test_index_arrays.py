"""인덱싱 `X[idx]`는 인덱스 배열을 복사해 둡니다: 순전파 뒤에 idx를 고쳐도 미분값은 순전파의 자리로 갑니다.

PyTorch도 NumPy 배열 인덱스를 텐서로 복사해 받으므로, 나중에 배열을 고쳐도 역전파가 바뀌지 않습니다.
"""

import numpy as np
import pytest
from oracle import import_torch

import tinygrad_ko as tg
from tinygrad_ko import Variable

torch = import_torch(__name__)


def gradient_after_changing(index_of, change):
    """index_of()로 만든 인덱스로 꺼내 순전파하고, change(index)로 인덱스를 고친 뒤 역전파합니다."""
    x = Variable(np.arange(12.0).reshape(4, 3))
    index = index_of()
    y = x[index]
    change(index)
    (y * y).sum().backward()
    return x.grad


def torch_gradient(index):
    t = torch.arange(12.0, dtype=torch.float64).reshape(4, 3).requires_grad_()
    (t[index] ** 2).sum().backward()
    return t.grad.numpy()


def bump(index):
    index[0] = 3


CASES = {
    "int_array": (lambda: np.array([0, 0, 2]), bump),
    "list": (lambda: [0, 0, 2], bump),
    "tuple_of_arrays": (lambda: (np.array([0, 2]), np.array([1, 1])), lambda i: bump(i[0])),
    "bool_mask": (lambda: np.array([True, False, True, False]), lambda i: i.fill(True)),
}


@pytest.mark.parametrize("name", list(CASES))
def test_changing_the_index_after_forward_does_not_change_the_gradient(name):
    index_of, change = CASES[name]
    got = gradient_after_changing(index_of, change)
    original = index_of()
    np.testing.assert_array_equal(got, torch_gradient(original))
    np.testing.assert_array_equal(got, gradient_after_changing(index_of, lambda i: None))


def test_index_held_by_a_variable_is_copied_too():
    x = Variable(np.arange(5.0))
    idx = Variable(np.array([1, 1, 4]), requires_grad=False)
    y = x[idx]
    idx.data[0] = 0
    y.sum().backward()
    np.testing.assert_array_equal(x.grad, [0.0, 2.0, 0.0, 0.0, 1.0])


def test_second_order_uses_the_original_index():
    x = Variable(np.arange(4.0))
    idx = np.array([0, 3, 3])
    (g,) = tg.grad((x[idx] ** 3).sum(), x, create_graph=True)
    idx[:] = 1
    g.sum().backward()
    t = torch.arange(4.0, dtype=torch.float64, requires_grad=True)
    (gt,) = torch.autograd.grad((t[[0, 3, 3]] ** 3).sum(), t, create_graph=True)
    gt.sum().backward()
    np.testing.assert_array_equal(g.data, gt.detach().numpy())
    np.testing.assert_array_equal(x.grad, t.grad.numpy())
