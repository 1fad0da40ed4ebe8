"""6단계: 손으로 하는 역전파."""

import numpy as np
import pytest

from tinygrad_ko.steps import step04, step06


def test_new_variable_has_no_grad():
    assert step06.Variable(np.array(1.0)).grad is None


def test_function_remembers_its_input():
    x = step06.Variable(np.array(3.0))
    f = step06.Square()
    f(x)
    assert f.input is x


def test_base_backward_is_abstract():
    class OnlyForward(step06.Function):
        def forward(self, x):
            return x

    f = OnlyForward()
    f(step06.Variable(np.array(1.0)))
    with pytest.raises(NotImplementedError, match="OnlyForward.backward"):
        f.backward(np.array(1.0))


@pytest.mark.parametrize("value", [-0.7, 0.0, 0.5, 1.1])
def test_manual_backprop_matches_numerical_diff(value):
    A, B, C = step06.Square(), step06.Exp(), step06.Square()
    x = step06.Variable(np.array(value))
    a = A(x)
    b = B(a)
    y = C(b)

    # 출력 쪽에서 입력 쪽으로, 사람이 순서대로 부릅니다.
    y.grad = np.array(1.0)
    b.grad = C.backward(y.grad)
    a.grad = B.backward(b.grad)
    x.grad = A.backward(a.grad)

    expected = step04.numerical_diff(lambda v: C(B(A(v))), x)
    np.testing.assert_allclose(x.grad, expected, rtol=1e-6, atol=1e-8)


def test_backward_uses_remembered_input_not_latest_call():
    f = step06.Square()
    f(step06.Variable(np.array(3.0)))
    np.testing.assert_allclose(f.backward(np.array(1.0)), 6.0)
    f(step06.Variable(np.array(5.0)))  # 같은 함수를 다시 부르면 기억한 입력이 바뀝니다.
    np.testing.assert_allclose(f.backward(np.array(1.0)), 10.0)
