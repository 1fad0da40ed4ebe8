"""수치 미분과 기울기 확인(gradient check): 역전파가 맞는지 검증하는 도구입니다.

수치 미분은 f를 호출한 쪽의 모드(역전파 활성/비활성) 그대로 계산합니다. 그래서 f가 안에서 미분을
구하는 함수여도 됩니다. 예를 들어 1계 미분을 돌려주는 함수
``lambda x: tg.grad(f(x), x, create_graph=True)[0]``에 ``gradient_check``를 쓰면 2계 미분을
확인합니다. 그래프를 만드는 비용이 아까우면 ``with no_grad():`` 안에서 부르세요.
"""

from __future__ import annotations

from collections.abc import Callable
from numbers import Number

import numpy as np

from .variable import Variable, as_array, as_variable


def numerical_diff(f: Callable, x: Variable, eps: float = 1e-4) -> np.ndarray:
    """중앙 차분으로 f의 미분을 근사합니다: (f(x + eps) - f(x - eps)) / (2 * eps).

    x의 모든 원소를 한꺼번에 움직이므로, 원소별 함수(square, exp 같은)에만 맞습니다.
    입력 원소마다 따로 움직이는 일반적인 방법은 `numerical_grad`입니다.
    """
    data = _float_data(x)
    y0 = f(Variable(as_array(data - eps)))
    y1 = f(Variable(as_array(data + eps)))
    return (y1.data - y0.data) / (2 * eps)


def numerical_grad(f: Callable, *inputs: Variable, eps: float = 1e-4) -> list[np.ndarray]:
    """sum(f(*inputs))를 각 입력의 각 원소에 대해 중앙 차분으로 미분합니다.

    입력 원소 하나마다 순전파를 두 번 하므로, 원소가 n개면 순전파가 2n번 필요합니다.
    """
    datas = [_float_data(x) for x in inputs]

    def total() -> float:
        return float(np.sum(f(*[Variable(d) for d in datas]).data))

    grads = []
    for data in datas:
        grad = np.zeros_like(data)
        flat, gflat = data.reshape(-1), grad.reshape(-1)
        for i in range(flat.size):
            original = flat[i]
            flat[i] = original + eps
            upper = total()
            flat[i] = original - eps
            lower = total()
            flat[i] = original
            gflat[i] = (upper - lower) / (2 * eps)
        grads.append(grad)
    return grads


def gradient_check(
    f: Callable, *inputs: Variable, rtol: float = 1e-4, atol: float = 1e-5, eps: float = 1e-4
) -> bool:
    """역전파로 구한 미분값과 수치 미분이 `np.allclose(rtol, atol)`로 가까우면 True를 돌려줍니다.

    f가 쓰지 않은 입력은 역전파가 미분값을 주지 않으므로(grad가 None) 0으로 봅니다. 그 입력의
    수치 미분도 0이어야 True입니다.
    """
    variables = [Variable(_float_data(x)) for x in inputs]
    y = f(*variables)
    y.backward()
    expected = numerical_grad(f, *variables, eps=eps)
    return all(
        np.allclose(_grad_data(v), g, rtol=rtol, atol=atol)
        for v, g in zip(variables, expected, strict=True)
    )


def _grad_data(v: Variable) -> np.ndarray:
    """v.grad의 배열. f 안에서 create_graph=True로 역전파했으면 .grad가 Variable이므로 그 데이터를 봅니다."""
    if v.grad is None:
        return np.zeros_like(v.data)
    return v.grad.data if isinstance(v.grad, Variable) else v.grad


def _float_data(x: object) -> np.ndarray:
    """입력의 데이터를 float64 배열로. 정수 배열이나 파이썬 정수도 받습니다(미분은 실수로 합니다)."""
    data = x.data if isinstance(x, Variable) else x
    if isinstance(data, np.ndarray) and data.dtype.kind in "biuf":
        return data.astype(np.float64)
    if isinstance(data, Number | np.generic) and not isinstance(data, complex | np.complexfloating):
        return np.asarray(data, dtype=np.float64)
    as_variable(x if data is None else data)  # 알맞은 한국어 메시지로 거부합니다.
    raise TypeError(
        f"미분을 확인할 입력은 실수 배열이어야 합니다. 받은 값: {type(data).__name__}. "
        f"np.array(..., dtype=float)로 바꿔서 넘겨 주세요."
    )
