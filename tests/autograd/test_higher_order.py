"""고계 미분(create_graph)의 성질: 수치 미분과의 비교, 두 모드의 같음, 책의 수, 메모리, retain_graph.

PyTorch와 직접 비교하는 테스트는 test_torch_oracle_higher.py에 있습니다. 여기의 retain_graph 테스트는
같은 코드를 PyTorch 2.13에서 돌린 결과(주석)와 같은 약속을 확인합니다.
"""

import gc
import weakref

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tinygrad_ko as tg
from tinygrad_ko import Variable

from .random_graphs import build, operations, programs

OPS = operations(tg)
VALUES = st.lists(st.floats(-2, 2), min_size=3, max_size=3)


def _inputs(values):
    return [np.array([v, v / 2 + 0.1]) for v in values]


def _functions(v):
    """v에서 거슬러 닿는 함수 노드(최종 엔진: 붙잡은 입력과 (창조자, 출력 번호)를 따라갑니다)."""
    found, stack = [], [v.creator]
    while stack:
        f = stack.pop()
        if f is None or any(f is g for g in found):
            continue
        found.append(f)
        for edge in f.edges or ():
            if type(edge) is Variable:
                stack.append(edge.creator)
            elif type(edge) is tuple:
                stack.append(edge[0])
    return found


# --- 수치 미분과 비교 -------------------------------------------------------------------


def test_gradient_check_of_the_first_derivative_checks_the_second():
    def first_derivative(x):
        (gx,) = tg.grad(x**4 - 2 * x**2, x, create_graph=True)
        return gx

    assert tg.gradient_check(first_derivative, np.array([2.0, 0.5, -1.3]))

    def wrong_first_derivative(x):  # 2계 미분이 틀리게(상수를 곱한 것처럼) 보이는 함수
        (gx,) = tg.grad(x**4 - 2 * x**2, x, create_graph=True)
        return gx + Variable(gx.data * 0.01, requires_grad=False) * x

    assert not tg.gradient_check(wrong_first_derivative, np.array([2.0, 0.5, -1.3]))


def test_gradient_check_compares_a_grad_that_f_left_as_a_variable():
    """f 안에서 backward(create_graph=True)를 부르면 입력의 .grad에 Variable이 쌓입니다. 고치기 전에는
    np.allclose가 그 Variable을 받아 영어 TypeError(bad operand type for abs())로 멈췄습니다(21장 연습 3)."""
    points = np.array([-1.0, 0.0, 0.5, 2.0])

    def penalty_with_first_order_left_in(w):  # w.grad에 1계 미분이 남아 더해지므로 틀려야 합니다
        x = Variable(points.copy())
        tg.tanh(w * x).backward(create_graph=True)
        return tg.sum(x.grad * x.grad)

    assert not tg.gradient_check(penalty_with_first_order_left_in, np.array(0.8))

    def penalty(w):
        x = Variable(points.copy())
        (gx,) = tg.grad(tg.tanh(w * x), x, create_graph=True)
        return tg.sum(gx * gx)

    assert tg.gradient_check(penalty, np.array(0.8))


@settings(max_examples=40, deadline=None)
@given(program=programs, values=VALUES, direction=VALUES)
def test_second_derivatives_of_random_graphs_match_numerical_diff(program, values, direction):
    """헤세 행렬과 벡터의 곱 Hv를 1계 미분 함수 ⟨∇f(x), v⟩의 수치 미분과 비교합니다."""
    datas = _inputs(values)
    vs = _inputs(direction)

    def directional_first_derivative(*xs):
        grads = tg.grad(build(program, xs, OPS), list(xs), create_graph=True, allow_unused=True)
        total = Variable(np.array(0.0), requires_grad=False)
        for g, v in zip(grads, vs, strict=True):
            if g is not None:
                total = total + g * v
        return total

    xs = [Variable(d.copy()) for d in datas]
    hv = tg.grad(directional_first_derivative(*xs), xs, allow_unused=True)
    expected = tg.numerical_grad(directional_first_derivative, *datas)
    for got, want in zip(hv, expected, strict=True):
        got = np.zeros_like(want) if got is None else got
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)


# --- 두 모드, 두 길 -------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(program=programs, values=VALUES)
def test_create_graph_gives_bitwise_the_same_first_derivatives(program, values):
    """create_graph=True(Variable로 계산)와 보통의 역전파(ndarray로 계산)는 같은 식을 씁니다."""
    datas = _inputs(values)
    plain = [Variable(d.copy()) for d in datas]
    build(program, plain, OPS).backward()
    graph = [Variable(d.copy()) for d in datas]
    build(program, graph, OPS).backward(create_graph=True)
    for a, b in zip(plain, graph, strict=True):
        assert (a.grad is None) == (b.grad is None)
        if a.grad is not None:
            assert type(a.grad) is np.ndarray and isinstance(b.grad, Variable)
            np.testing.assert_array_equal(a.grad, b.grad.data)


@settings(max_examples=40, deadline=None)
@given(program=programs, values=VALUES, u=VALUES, v=VALUES)
def test_hessian_is_symmetric(program, values, u, v):
    """⟨u, Hv⟩ = ⟨v, Hu⟩: 미분하는 순서를 바꿔도 2계 미분은 같습니다."""
    xs = [Variable(d) for d in _inputs(values)]
    us, vs = _inputs(u), _inputs(v)
    grads = tg.grad(build(program, xs, OPS), xs, create_graph=True, allow_unused=True)
    pairs = [(g, i) for i, g in enumerate(grads) if g is not None and g.creator is not None]
    if not pairs:
        return  # 1계 미분이 모두 상수(1차식)면 2계 미분은 0입니다.
    outputs = [g for g, _ in pairs]
    hv = tg.grad(outputs, xs, [vs[i] for _, i in pairs], retain_graph=True, allow_unused=True)
    hu = tg.grad(outputs, xs, [us[i] for _, i in pairs], allow_unused=True)
    u_hv = sum(float(np.sum(a * b)) for a, b in zip(us, hv, strict=True) if b is not None)
    v_hu = sum(float(np.sum(a * b)) for a, b in zip(vs, hu, strict=True) if b is not None)
    assert u_hv == pytest.approx(v_hu, rel=1e-9, abs=1e-9)


def test_backward_twice_and_grad_give_the_same_second_derivative():
    x1 = Variable(np.array([0.3, -1.2]))
    y = tg.tanh(x1) * tg.exp(x1) / (x1 * x1 + 1.0)
    y.backward(create_graph=True)
    gx = x1.grad
    x1.cleargrad()
    gx.backward()
    x2 = Variable(np.array([0.3, -1.2]))
    (g,) = tg.grad(tg.tanh(x2) * tg.exp(x2) / (x2 * x2 + 1.0), x2, create_graph=True)
    (gg,) = tg.grad(g, x2)
    np.testing.assert_array_equal(x1.grad, gg)


# --- 책의 수 ----------------------------------------------------------------------------


def test_newton_reaches_one_in_seven_steps_with_the_final_engine():
    x = Variable(np.array(2.0))
    path = [2.0]
    for _ in range(9):
        (gx,) = tg.grad(x**4 - 2 * x**2, x, create_graph=True)
        (gx2,) = tg.grad(gx, x)
        x.data = x.data - gx.data / gx2
        path.append(float(x.data))
    assert path[1:3] == [1.4545454545454546, 1.1510467893775467]
    assert path.index(1.0) == 7


def test_double_backprop_without_cleargrad_accumulates_like_pytorch():
    """책이 경고하는 실수. PyTorch도 x.grad에 남은 1계 미분 4를 더해 104를 줍니다."""
    x = Variable(np.array(2.0))
    y = x**2
    y.backward(create_graph=True)
    z = x.grad**3 + y
    z.backward()  # 회귀 테스트: 전에는 x.grad가 Variable을 품은 object 배열이 되었습니다.
    assert isinstance(x.grad, Variable) and float(x.grad.data) == 104.0


def test_ordinary_backward_after_create_graph_adds_to_the_variable_gradient():
    x = Variable(np.array(2.0))
    y = x**3
    y.backward(create_graph=True)  # retain_graph의 기본값이 True가 됩니다.
    y.backward()
    assert float(x.grad.data) == 24.0  # 12 + 12, PyTorch: 24.0


@pytest.mark.parametrize(
    ("mode", "expected"),
    [("grad", [4, 7, 19, 49, 127, 337]), ("backward", [4, 7, 19, 49, 127, 337])],
)
def test_graph_size_of_tanh_derivatives(mode, expected):
    """20장의 표: 책의 엔진(35단계)은 [4, 9, 21, 51, 129, 339]. 필요 없는 미분을 빼 둘씩 적습니다."""
    sizes = []
    for n in range(1, 7):
        x = Variable(np.array(1.0))
        y = tg.tanh(x)
        if mode == "grad":
            for _ in range(n):
                (y,) = tg.grad(y, x, create_graph=True)
            sizes.append(len(_functions(y)))
        else:
            y.backward(create_graph=True)
            for _ in range(n - 1):
                gx = x.grad
                x.cleargrad()
                gx.backward(create_graph=True)
            sizes.append(len(_functions(x.grad)))
    assert sizes == expected


# --- 메모리 -----------------------------------------------------------------------------


def test_graph_of_grad_with_create_graph_is_freed_when_released(gc_disabled):
    x = Variable(np.ones(1000))
    y = tg.tanh(x) * tg.sin(x)
    (gx,) = tg.grad(y, x, create_graph=True)
    (ggx,) = tg.grad(gx, x, create_graph=True)
    refs = [weakref.ref(f) for f in _functions(ggx)]
    assert len(refs) > 10
    del y, gx, ggx
    assert all(r() is None for r in refs)  # GC 없이, 참조 카운트만으로
    assert x.grad is None


def test_backward_with_create_graph_makes_a_cycle_until_grad_is_cleared(gc_disabled):
    """x.grad의 그래프가 x를 붙잡고 x가 x.grad를 붙잡는 순환 참조(PyTorch도 같아 경고합니다).

    cleargrad()(또는 tg.grad)를 쓰면 참조 카운트만으로 풀립니다.
    """
    x = Variable(np.ones(1000))
    y = tg.tanh(x) * tg.sin(x)
    y.backward(create_graph=True)
    refs = [weakref.ref(f) for f in _functions(x.grad)]
    del y
    assert any(r() is not None for r in refs)  # x.grad가 그래프를 붙잡고 있습니다.
    x.cleargrad()
    assert all(r() is None for r in refs)

    x = Variable(np.ones(1000))
    tg.exp(x).backward(create_graph=True)
    refs = [weakref.ref(f) for f in _functions(x.grad)] + [weakref.ref(x)]
    del x
    assert all(r() is not None for r in refs)  # 순환 참조: 참조 카운트로는 풀리지 않습니다.
    gc.collect()
    assert all(r() is None for r in refs)  # 순환 참조 수거기는 치웁니다.


def test_first_order_graph_is_released_after_create_graph_when_retain_graph_is_false(gc_disabled):
    x = Variable(np.ones(10))
    y = x**3 + tg.sin(x)
    forward = [weakref.ref(f) for f in _functions(y)]
    (gx,) = tg.grad(y, x, create_graph=True, retain_graph=False)
    assert all(f() is None or f().edges is None for f in forward)  # 원래 그래프는 놓아 주었고
    (ggx,) = tg.grad(gx, x)  # 미분값의 그래프는 말단 x만 붙잡으므로 2계 미분이 됩니다.
    np.testing.assert_allclose(ggx, 6 - np.sin(1))


def test_second_order_through_a_released_intermediate_is_refused_like_pytorch():
    """미분값의 그래프가 원래 그래프의 중간 변수(여기서는 sin x)를 지나면, 원래 그래프가 필요합니다.
    PyTorch도 같은 코드에서 RuntimeError(Trying to backward through the graph a second time)입니다."""
    x = Variable(np.ones(10))
    (gx,) = tg.grad(tg.sin(x) ** 3, x, create_graph=True, retain_graph=False)
    with pytest.raises(RuntimeError, match="Sin의 그래프는.*retain_graph=True"):
        tg.grad(gx, x)


def test_released_graph_message_after_grad_does_not_send_the_user_to_backward():
    """tg.grad(retain_graph=False)만 쓴 사용자에게 "첫 번째 호출을 backward(retain_graph=True)로" 하라거나
    잘린 역전파의 h, c(43장)를 말하면 고칠 곳을 잘못 알려 줍니다. 두 호출 방식을 모두 이름으로 댑니다."""
    x = Variable(np.array(1.0))
    (gx,) = tg.grad(tg.sin(x) ** 3, x, create_graph=True, retain_graph=False)
    with pytest.raises(RuntimeError) as info:
        tg.grad(gx, x)
    message = str(info.value)
    assert "backward(retain_graph=True)" not in message  # 고치기 전: 이 처방뿐이었습니다.
    assert "h, c" not in message
    assert (
        "backward()" in message
        and "tinygrad_ko.grad()" in message
        and "retain_graph=True" in message
    )


# --- retain_graph: PyTorch와 같은 약속 --------------------------------------------------


def test_create_graph_retains_the_graph_by_default():
    x = Variable(np.array(2.0))
    y = x**3
    (g1,) = tg.grad(y, x, create_graph=True)
    (g2,) = tg.grad(y, x)  # PyTorch: 됩니다(retain_graph의 기본값 = create_graph).
    assert float(g1.data) == float(g2) == 12.0
    with pytest.raises(RuntimeError, match="retain_graph=True"):
        tg.grad(y, x)  # 바로 앞의 호출이 놓아 주었습니다(PyTorch도 RuntimeError).


def test_second_order_graph_is_released_by_its_own_backward():
    x = Variable(np.array(2.0))
    (g,) = tg.grad(x**3, x, create_graph=True)
    g.backward()
    with pytest.raises(RuntimeError, match="Mul의 그래프는"):
        g.backward()  # PyTorch: RuntimeError(Trying to backward through the graph a second time)
    (g,) = tg.grad(x**3, x, create_graph=True)
    x.cleargrad()
    g.backward(retain_graph=True)
    g.backward()
    assert float(x.grad) == 24.0


@pytest.mark.parametrize("func", [tg.exp, tg.tanh])
def test_functions_that_use_their_output_need_the_first_graph_for_second_order(func):
    """Exp와 Tanh의 미분값은 순전파의 출력(그 창조자가 원래 그래프)을 씁니다. PyTorch도 같아서,
    원래 그래프를 놓아 주면(retain_graph=False) 2계 미분이 RuntimeError입니다."""
    x = Variable(np.array(1.0))
    (g,) = tg.grad(func(x), x, create_graph=True, retain_graph=False)
    with pytest.raises(RuntimeError, match="retain_graph=True"):
        g.backward()
    x = Variable(np.array(1.0))
    (g,) = tg.grad(func(x), x, create_graph=True)  # 기본값(retain_graph=True)이면 됩니다.
    g.backward()
    assert np.isfinite(float(x.grad))


def test_grad_does_not_touch_grad_even_with_create_graph():
    x = Variable(np.array(2.0))
    x.grad = np.array(5.0)
    (gx,) = tg.grad(x**2, x, create_graph=True)
    assert float(x.grad) == 5.0 and float(gx.data) == 4.0
