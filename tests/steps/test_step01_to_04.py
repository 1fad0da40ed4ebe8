"""1~4단계: 상자, 함수, 합성 함수, 수치 미분."""

import numpy as np
import pytest

from tinygrad_ko.steps import step01, step02, step03, step04


def test_step01_variable_keeps_the_same_object():
    data = np.array([1.0, 2.0])
    x = step01.Variable(data)
    assert x.data is data
    x.data = np.array(5.0)  # 상자의 내용물은 바꿔 넣을 수 있습니다.
    assert x.data == 5.0


def test_step01_variable_checks_nothing():
    # 9단계 전까지는 무엇이든 담깁니다(한계).
    assert step01.Variable(1.5).data == 1.5
    assert step01.Variable("문자열").data == "문자열"


def test_step02_function_base_forward_is_abstract():
    with pytest.raises(NotImplementedError, match="Function.forward"):
        step02.Function()(step01.Variable(np.array(1.0)))


def test_step02_subclass_without_forward_names_itself():
    class Forgot(step02.Function):
        pass

    with pytest.raises(NotImplementedError, match="Forgot.forward"):
        Forgot()(step01.Variable(np.array(1.0)))


@pytest.mark.parametrize("value", [np.array(10.0), np.array([-1.5, 0.0, 3.0])])
def test_step02_square_returns_a_new_variable(value):
    x = step01.Variable(value)
    y = step02.Square()(x)
    assert type(y) is step01.Variable
    assert y is not x
    np.testing.assert_array_equal(y.data, value * value)


def test_step03_reuses_step02_code():
    # 3단계는 2단계의 클래스를 다시 쓰지 않고 가져옵니다.
    assert step03.Variable is step01.Variable
    assert step03.Function is step02.Function
    assert step03.Square is step02.Square
    assert issubclass(step03.Exp, step02.Function)


@pytest.mark.parametrize("value", [-1.0, 0.0, 0.5, 2.0])
def test_step03_composition(value):
    x = step03.Variable(np.array(value))
    y = step03.Square()(step03.Exp()(step03.Square()(x)))
    np.testing.assert_allclose(y.data, np.exp(value**2) ** 2)


def _composite(x):
    return step03.Square()(step03.Exp()(step03.Square()(x)))


@pytest.mark.parametrize("value", [-1.0, 0.0, 0.5, 1.2])
def test_step04_numerical_diff_of_composite(value):
    # d/dx e^(2x²) = 4x e^(2x²)
    analytic = 4 * value * np.exp(2 * value**2)
    approx = step04.numerical_diff(_composite, step04.Variable(np.array(value)))
    np.testing.assert_allclose(approx, analytic, rtol=1e-6, atol=1e-8)


def test_step04_numerical_diff_of_square():
    approx = step04.numerical_diff(step02.Square(), step01.Variable(np.array(2.0)))
    np.testing.assert_allclose(approx, 4.0, rtol=1e-10)


@pytest.mark.parametrize("value", [0.5, 1.0, 2.0, 3.0])
def test_step04_central_difference_beats_forward_difference(value):
    def cube(v):
        return step01.Variable(v.data**3)

    x = step01.Variable(np.array(value))
    exact = 3 * value**2
    central_error = abs(step04.numerical_diff(cube, x) - exact)
    forward_error = abs(step04.forward_diff(cube, x) - exact)
    assert central_error < forward_error
    # 전진 차분의 오차는 대략 eps·f''/2 = 1e-4·3x 입니다.
    np.testing.assert_allclose(forward_error, 1e-4 * 3 * value, rtol=1e-2)


def test_step04_eps_argument_is_used():
    def cube(v):
        return step01.Variable(v.data**3)

    x = step01.Variable(np.array(1.0))
    # 중앙 차분의 오차는 eps² 에 비례하므로 eps를 키우면 오차도 커집니다(x³에서는 정확히 eps²).
    np.testing.assert_allclose(step04.numerical_diff(cube, x, eps=0.1) - 3.0, 0.01, rtol=1e-9)
