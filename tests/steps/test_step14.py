"""14단계: 미분값 누적과 cleargrad, 그리고 다이아몬드 그래프에서의 한계."""

import numpy as np

from tinygrad_ko.steps import step14

from .helpers import numerical_partials


def test_using_a_variable_twice_accumulates():
    x = step14.Variable(np.array(3.0))
    y = step14.add(x, x)
    y.backward()
    assert x.grad == 2.0


def test_using_a_variable_three_times():
    x = step14.Variable(np.array(3.0))
    y = step14.add(step14.add(x, x), x)
    y.backward()
    assert x.grad == 3.0


def test_accumulation_is_not_in_place():
    # Add.backward는 같은 gy 객체를 두 입력에 넘깁니다. 제자리 덧셈이면 y.grad까지 2가 됩니다.
    x = step14.Variable(np.array(3.0))
    y = step14.add(x, x)
    y.backward()
    assert y.grad == 1.0
    assert x.grad is not y.grad


def test_second_computation_without_cleargrad_accumulates():
    x = step14.Variable(np.array(3.0))
    step14.add(x, x).backward()
    step14.add(step14.add(x, x), x).backward()
    assert x.grad == 2.0 + 3.0  # 한계: 앞 계산의 미분값 2가 남아 있습니다.


def test_cleargrad_resets_between_computations():
    x = step14.Variable(np.array(3.0))
    step14.add(x, x).backward()
    x.cleargrad()
    assert x.grad is None
    step14.add(step14.add(x, x), x).backward()
    assert x.grad == 3.0


def diamond(module, x):
    """x → a = x²; a에서 두 갈래 b = a², c = a²; y = b + c = 2x⁴, dy/dx = 8x³."""
    a = module.square(x)
    return module.add(module.square(a), module.square(a))


def test_diamond_graph_gives_the_wrong_grad():
    x = step14.Variable(np.array(2.0))
    y = diamond(step14, x)
    y.backward()
    assert y.data == 32.0
    (correct,) = numerical_partials(lambda v: diamond(step14, v), step14.Variable, 2.0)
    np.testing.assert_allclose(correct, 64.0, rtol=1e-6)
    # 한계: 스택이 c 쪽 Square를 먼저 꺼내 a.grad가 절반(8)일 때 x까지 내려가고(x.grad=32),
    # b 쪽이 끝난 뒤 다 모인 a.grad(16)로 한 번 더 내려갑니다(+64). 그래서 96이 됩니다.
    assert x.grad == 96.0


def reused_square(module, x):
    """a = x²를 두 번 씁니다: y = a + a = 2x², dy/dx = 4x."""
    a = module.square(x)
    return module.add(a, a)


def test_reusing_a_variable_with_a_creator_runs_the_creator_twice():
    # 한계: 창조자가 있는 a를 두 번 쓰면 Add가 입력 자리마다 a의 창조자를 funcs에
    # 넣어, Square가 다 모인 a.grad(2)로 두 번 처리됩니다(x.grad = 12 + 12).
    x = step14.Variable(np.array(3.0))
    y = reused_square(step14, x)
    y.backward()
    assert y.creator.inputs[0].grad == 2.0
    (correct,) = numerical_partials(lambda v: reused_square(step14, v), step14.Variable, 3.0)
    np.testing.assert_allclose(correct, 12.0, rtol=1e-6)
    assert x.grad == 24.0


def recorded_creator_grads(a):
    """a의 창조자의 backward가 받는 미분값을 차례로 모을 리스트를 돌려줍니다."""
    gys = []
    square_backward = a.creator.backward

    def recorded_backward(gy):
        gys.append(float(gy))
        return square_backward(gy)

    a.creator.backward = recorded_backward
    return gys


def test_diamond_ordering_depends_on_add_argument_order():
    # y = a + a², a = x²: dy/dx = 2x + 4x³, x = 2에서 36입니다.
    # 같은 다이아몬드라도 Add 인자의 순서에 따라 순서 문제가 생기기도 하고 안 생기기도 합니다.
    x = step14.Variable(np.array(2.0))
    a = step14.square(x)
    y = step14.add(a, step14.square(a))
    gys = recorded_creator_grads(a)
    y.backward()
    assert gys == [9.0, 9.0]  # 두 번 모두 다 모인 값: 되풀이 처리만
    assert x.grad == 72.0

    x = step14.Variable(np.array(2.0))
    a = step14.square(x)
    y = step14.add(step14.square(a), a)
    gys = recorded_creator_grads(a)
    y.backward()
    assert gys == [1.0, 9.0]  # 첫 처리가 다 모이기 전에 일어납니다.
    assert x.grad == 40.0
