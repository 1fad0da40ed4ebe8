"""11~13단계: 여러 입력과 출력, 가변 길이 인수, 여러 입력의 역전파."""

import numpy as np
import pytest

from tinygrad_ko.steps import step09, step11, step12, step13

from .helpers import numerical_partials


def test_step11_and_12_reuse_the_step09_variable():
    assert step11.Variable is step09.Variable
    assert step12.Variable is step09.Variable


def test_step11_function_takes_and_returns_lists():
    x0, x1 = step11.Variable(np.array(2.0)), step11.Variable(np.array(3.0))
    f = step11.Add()
    inputs = [x0, x1]
    ys = f(inputs)
    assert isinstance(ys, list) and len(ys) == 1
    assert ys[0].data == 5.0 and isinstance(ys[0].data, np.ndarray)
    assert ys[0].creator is f and f.inputs is inputs and f.outputs == ys


@pytest.mark.parametrize("module", [step11, step12])
def test_step11_and_12_cannot_backpropagate(module):
    x0, x1 = module.Variable(np.array(2.0)), module.Variable(np.array(3.0))
    if module is step11:
        y = module.Add()([x0, x1])[0]
    else:
        y = module.add(x0, x1)
    # 한계: 9단계의 backward는 f.input을 찾지만, 이 Function에는 inputs만 있습니다.
    with pytest.raises(AttributeError, match="input"):
        y.backward()


def test_step12_single_output_is_returned_unwrapped():
    y = step12.add(step12.Variable(np.array(2.0)), step12.Variable(np.array(3.0)))
    assert isinstance(y, step12.Variable)
    assert y.data == 5.0


def test_step12_several_outputs_come_back_as_a_list():
    class PlusMinus(step12.Function):
        def forward(self, x):
            return x, -x

    ys = PlusMinus()(step12.Variable(np.array(4.0)))
    assert isinstance(ys, list) and [y.data for y in ys] == [4.0, -4.0]


@pytest.mark.parametrize(("a", "b"), [(2.0, 3.0), (-1.5, 0.25)])
def test_step13_two_input_backward(a, b):
    def f(x, y):
        return step13.add(step13.square(x), step13.square(y))

    x, y = step13.Variable(np.array(a)), step13.Variable(np.array(b))
    z = f(x, y)
    z.backward()
    assert z.data == a * a + b * b
    np.testing.assert_allclose([x.grad, y.grad], numerical_partials(f, step13.Variable, a, b))


def test_step13_using_a_variable_twice_gives_the_wrong_grad():
    x = step13.Variable(np.array(3.0))
    y = step13.add(x, x)
    y.backward()
    (correct,) = numerical_partials(lambda v: step13.add(v, v), step13.Variable, 3.0)
    np.testing.assert_allclose(correct, 2.0)
    # 한계: 두 번째 미분값이 첫 번째 것을 덮어써서 2가 아니라 1이 됩니다.
    assert x.grad == 1.0
