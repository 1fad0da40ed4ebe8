"""`step()`은 전부 아니면 전무입니다: 고칠 수 없는 매개변수가 하나라도 있으면 아무것도 바꾸지 않고 한국어로 알립니다.

고치기 전에는 읽기 전용 배열의 매개변수에서 NumPy의 영어 오류가 났고, 그때는 이미 앞의 매개변수가 고쳐졌고
그 매개변수의 m, v와 스텝 수도 늘어 있었습니다.
"""

from __future__ import annotations

import copy

import numpy as np
import pytest
from korean_messages import korean_instruction

from tinygrad_ko import Parameter
from tinygrad_ko.optimizers import SGD, AdaGrad, Adam, MomentumSGD

OPTIMIZERS = [SGD, MomentumSGD, AdaGrad, Adam]


def _params():
    params = [Parameter(np.full(3, float(i + 1)), name=f"p{i}") for i in range(3)]
    for p in params:
        p.grad = np.full(3, 0.5)
    return params


def _snapshot(optimizer, params):
    return (
        [(copy.deepcopy(p.data), p.version, copy.deepcopy(p.grad)) for p in params],
        copy.deepcopy({id(k): v for k, v in optimizer.state.items()}),
    )


def _same(a, b):
    (params_a, state_a), (params_b, state_b) = a, b
    for (d1, v1, g1), (d2, v2, g2) in zip(params_a, params_b, strict=True):
        assert v1 == v2
        np.testing.assert_array_equal(d1, d2)
        assert type(g1) is type(g2)
        np.testing.assert_array_equal(g1, g2)
    assert state_a.keys() == state_b.keys()
    for key in state_a:
        assert state_a[key].keys() == state_b[key].keys()
        for name in state_a[key]:
            np.testing.assert_array_equal(state_a[key][name], state_b[key][name])


def _read_only(params):
    params[1].data.flags.writeable = False


def _wrong_grad_shape(params):
    params[1].grad = np.full(1, 0.5)  # 고치기 전: (3,)으로 브로드캐스트해 조용히 고쳤습니다


def _wider_grad(params):
    params[1].grad = np.full((2, 3), 0.5)


def _complex_grad(params):
    params[1].grad = np.full(3, 0.5 + 1j)


def _text_grad(params):
    params[1].grad = "0.5"


def _no_data(params):
    params[1].data = None


def _reshaped_after_a_step(params):
    params[1].data = np.ones((3, 1))
    params[1].grad = np.ones((3, 1))


BREAKS = {
    "read-only data": (_read_only, ValueError, "읽기 전용"),
    "grad of shape (1,)": (_wrong_grad_shape, ValueError, "모양"),
    "grad of shape (2, 3)": (_wider_grad, ValueError, "모양"),
    "complex grad": (_complex_grad, TypeError, "complex128"),
    "text grad": (_text_grad, TypeError, "str"),
    "data None": (_no_data, ValueError, "data가 None"),
}


@pytest.mark.parametrize("make", OPTIMIZERS)
@pytest.mark.parametrize("break_it", BREAKS)
def test_a_bad_parameter_changes_nothing(make, break_it):
    params = _params()
    optimizer = make(params, lr=0.1)
    optimizer.step()  # 상태(m, v, 스텝 수)가 있는 채로 시작합니다
    for p in params:
        p.grad = np.full(3, 0.5)
    damage, error, words = BREAKS[break_it]
    damage(params)
    before = _snapshot(optimizer, params)
    with pytest.raises(error, match=words) as info:
        optimizer.step()
    assert "p1" in korean_instruction(info.value)  # 어느 매개변수인지 말합니다
    _same(before, _snapshot(optimizer, params))


@pytest.mark.parametrize("make", [MomentumSGD, AdaGrad, Adam])
def test_a_parameter_whose_shape_changed_under_the_optimizer_is_refused(make):
    params = _params()
    optimizer = make(params, lr=0.1)
    optimizer.step()
    for p in params:
        p.grad = np.full(3, 0.5)
    _reshaped_after_a_step(params)
    before = _snapshot(optimizer, params)
    with pytest.raises(ValueError, match="새로 만드") as info:
        optimizer.step()
    assert "p1" in korean_instruction(info.value)
    _same(before, _snapshot(optimizer, params))


def test_after_fixing_the_cause_the_step_goes_through():
    params = _params()
    optimizer = Adam(params, lr=0.1)
    _read_only(params)
    with pytest.raises(ValueError):
        optimizer.step()
    assert optimizer.state == {}
    params[1].data = params[1].data.copy()  # 쓸 수 있는 배열로
    optimizer.step()
    assert [optimizer.state[p]["step"] for p in params] == [1, 1, 1]
