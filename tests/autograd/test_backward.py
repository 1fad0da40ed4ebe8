"""역전파 순서, 누적, DeZero가 무너지는 자리, 잘못된 미분값."""

import numpy as np
import pytest

import tinygrad_ko as tg
from tinygrad_ko import Function, Variable


def test_diamond_graph_gets_the_right_gradient():
    # x -> a -> (b, c) -> y : a의 미분값은 b와 c에서 모두 모인 뒤에 전해져야 합니다.
    x = Variable(np.array(2.0))
    a = tg.square(x)
    y = tg.add(tg.square(a), tg.square(a))
    y.backward()
    assert float(y.data) == 32.0
    assert float(x.grad) == 64.0  # d/dx 2x^4 = 8x^3


def test_functions_run_in_generation_order():
    calls = []

    class Recording(tg.Square):
        def backward(self, gy):
            calls.append(self.generation)
            return super().backward(gy)

    x = Variable(np.array(1.5))
    a = Recording()(x)
    b = Recording()(a)
    c = Recording()(b)
    y = tg.add(tg.add(c, Recording()(a)), Recording()(b))
    y.backward()
    assert calls == sorted(calls, reverse=True)
    assert tg.gradient_check(
        lambda x: tg.square(tg.square(tg.square(x))) + tg.square(tg.square(x)) + tg.square(x) ** 2,
        np.array(1.5),
    )


def test_wide_graph_sums_every_branch():
    x = Variable(np.array(1.0))
    terms = [x * float(i) for i in range(1, 2001)]
    y = terms[0]
    for t in terms[1:]:
        y = y + t
    y.backward()
    assert float(x.grad) == sum(range(1, 2001))


def test_same_variable_twice_accumulates():
    x = Variable(np.array(3.0))
    y = tg.add(x, x)
    y.backward()
    assert float(x.grad) == 2.0


def test_second_backward_accumulates_until_cleargrad():
    x = Variable(np.array(3.0))
    tg.square(x).backward()
    tg.square(x).backward()
    assert float(x.grad) == 12.0
    x.cleargrad()
    tg.square(x).backward()
    assert float(x.grad) == 6.0


def test_backward_on_a_leaf_does_not_crash():
    x = Variable(np.array([1.0, 2.0]))
    x.backward()
    np.testing.assert_array_equal(x.grad, [1.0, 1.0])


def test_seed_is_ones_like_output():
    x = Variable(np.ones((2, 3)))
    y = x * 2.0
    y.backward(retain_grad=True)
    np.testing.assert_array_equal(y.grad, np.ones((2, 3)))


def test_retain_grad_false_keeps_only_leaf_grads():
    x0, x1 = Variable(np.array(1.0)), Variable(np.array(1.0))
    t = tg.add(x0, x1)
    y = tg.add(x0, t)
    y.backward()
    assert y.grad is None and t.grad is None
    assert (float(x0.grad), float(x1.grad)) == (2.0, 1.0)


def test_retain_grad_true_keeps_intermediate_grads():
    x = Variable(np.array(2.0))
    a = tg.square(x)
    y = tg.exp(a)
    y.backward(retain_grad=True)
    assert float(y.grad) == 1.0
    assert float(a.grad) == pytest.approx(np.exp(4.0))


class SinCos(Function):
    """출력이 둘인 함수(테스트용)."""

    def forward(self, x):
        return np.sin(x), np.cos(x)

    def backward(self, gs, gc):
        x = self.inputs[0].data
        return gs * np.cos(x) - gc * np.sin(x)


def test_multi_output_with_dead_unused_output():
    x = Variable(np.array(0.3))
    s, c = SinCos()(x)
    del c  # 쓰지 않은 출력이 사라집니다: DeZero는 여기서 죽은 약한 참조 때문에 멈춥니다.
    y = s * 2.0
    y.backward()
    assert float(x.grad) == pytest.approx(2 * np.cos(0.3))


def test_multi_output_with_unused_output_without_grad():
    x = Variable(np.array(0.3))
    s, c = SinCos()(x)
    y = tg.square(c)
    y.backward()
    assert float(x.grad) == pytest.approx(-2 * np.cos(0.3) * np.sin(0.3))
    assert c.grad is None and s.grad is None


def test_function_instance_called_twice_keeps_both_graphs():
    f = tg.Square()
    x1, x2 = Variable(np.array(2.0)), Variable(np.array(5.0))
    y1 = f(x1)
    y2 = f(x2)
    assert y1.creator is f
    assert y2.creator is not f and isinstance(y2.creator, tg.Square)
    y1.backward()
    y2.backward()
    assert (float(x1.grad), float(x2.grad)) == (4.0, 10.0)


def test_grads_are_never_shared_between_variables():
    a, b = Variable(np.array([1.0, 2.0])), Variable(np.array([3.0, 4.0]))
    y = a + b
    y.backward()
    assert a.grad is not b.grad
    a.grad += 100  # 제자리 수정이 다른 변수로 번지면 안 됩니다.
    np.testing.assert_array_equal(b.grad, [1.0, 1.0])


def test_user_seed_array_is_not_aliased():
    a, b = Variable(np.array([1.0, 2.0])), Variable(np.array([3.0, 4.0]))
    y = a + b
    seed = np.array([1.0, 1.0])
    y.grad = seed
    y.backward(retain_grad=True)
    for grad in (a.grad, b.grad, y.grad):
        assert grad is not seed
        assert not np.shares_memory(grad, seed)
    seed[:] = 7.0
    np.testing.assert_array_equal(a.grad, [1.0, 1.0])


def test_retained_intermediate_grad_is_not_aliased():
    a, b = Variable(np.array([1.0])), Variable(np.array([2.0]))
    t = a + b
    y = t + 0.0
    y.backward(retain_grad=True)
    assert len({id(v.grad) for v in (a, b, t, y)}) == 4


def test_wrong_seed_shape_is_refused():
    # 시작값은 backward(gradient=)로 줍니다(y.grad에 넣어 둔 값은 시작값으로 쓰지 않습니다).
    x = Variable(np.ones(3))
    y = x * 2.0
    with pytest.raises(ValueError, match=r"모양 \(4,\)"):
        y.backward(gradient=np.ones(4))
    assert x.grad is None


def test_wrong_backward_shape_leaves_graph_untouched():
    class BadAdd(Function):
        def forward(self, x0, x1):
            return x0 + x1

        def backward(self, gy):
            return gy, np.ones(5)  # 두 번째 입력의 모양과 다릅니다.

    a, b = Variable(np.ones(2)), Variable(np.ones(2))
    y = BadAdd()(a, b)
    with pytest.raises(ValueError, match="BadAdd.backward") as info:
        y.backward()
    assert "(5,)" in str(info.value) and "(2,)" in str(info.value)
    assert a.grad is None and b.grad is None  # 첫 번째 입력도 바뀌지 않았습니다.


def test_wrong_number_of_grads_is_refused():
    class OneGrad(Function):
        def forward(self, x0, x1):
            return x0 * x1

        def backward(self, gy):
            return gy

    with pytest.raises(ValueError, match="1개를 돌려주었지만 입력은 2개"):
        OneGrad()(Variable(np.ones(2)), Variable(np.ones(2))).backward()


def test_failed_forward_records_nothing():
    a, b = Variable(np.ones(2)), Variable(np.ones(3))
    with pytest.raises(ValueError):
        tg.add(a, b)
    assert a.grad is None and a.creator is None


@pytest.mark.slow
def test_long_chain_backpropagates_without_recursion():
    x = Variable(np.array(1.0))
    y = x
    for _ in range(200_000):
        y = y * 1.0
    y.backward()
    assert float(x.grad) == 1.0
    del y  # 긴 그래프를 지워도 인터프리터가 멈추지 않아야 합니다.


def test_second_backward_on_a_released_graph_explains_retain_graph():
    x = Variable(np.array(2.0))
    y = tg.exp(tg.square(x))
    y.backward()
    with pytest.raises(RuntimeError, match=r"retain_graph=True"):
        y.backward()


def test_retain_graph_allows_a_second_backward():
    x = Variable(np.array(2.0))
    y = tg.square(tg.square(x))
    y.backward(retain_graph=True)
    y.backward()
    assert float(x.grad) == 2 * 32.0  # d/dx x^4 = 4x^3 = 32, 두 번 누적


def test_backward_releases_intermediates_while_output_is_alive():
    import weakref

    x = Variable(np.ones(1000))
    a = tg.square(x)
    b = tg.exp(a)
    y = tg.sin(b)
    refs = [weakref.ref(a), weakref.ref(b)]
    del a, b
    assert refs[0]() is None  # Exp의 역전파에는 입력 a가 필요 없어 바로 풀렸습니다.
    assert refs[1]() is not None  # Sin의 역전파에는 입력 b가 필요합니다.
    y.backward()
    assert all(r() is None for r in refs)  # y는 살아 있지만 중간 변수는 풀렸습니다.
    np.testing.assert_allclose(x.grad, np.cos(np.exp(1.0)) * np.exp(1.0) * 2.0)
