"""순환 신경망(59~60단계): `RNN`(tanh)과 `LSTM`. 층이 은닉 상태를 기억하고 `reset_state()`로 지웁니다.

한 번 부를 때 한 시각(time step)을 계산합니다: x는 (배치, 입력 크기), 출력 h는 (배치, 은닉 크기).
상태를 이어 가므로 시각이 지날수록 계산 그래프가 길어집니다. 잘린 역전파(truncated BPTT)에서는
몇 시각마다 역전파한 뒤 `loss.unchain_backward()`(DeZero)나 `h.detach()`(PyTorch)로 그래프를 끊습니다.

가중치의 배치는 책과 같습니다: 입력 쪽 `Linear`는 편향이 있고, 은닉 상태 쪽 `Linear`는 편향이
없습니다. PyTorch의 `nn.RNNCell`, `nn.LSTMCell`과 같은 값을 냅니다(PyTorch는 편향이 두 벌이라
b_ih + b_hh가 여기의 편향 하나입니다. LSTM의 게이트 순서는 PyTorch가 i, f, g(=u), o입니다).
"""

from __future__ import annotations

import numpy as np

from .activations import sigmoid
from .functions import tanh
from .layers import Layer, Linear, _check_size

__all__ = ["LSTM", "RNN"]


class RNN(Layer):
    """엘만(Elman) RNN: h_new = tanh(x·W_x + b + h·W_h). 처음 시각(h가 없을 때)은 tanh(x·W_x + b).

    h2h의 입력은 은닉 상태이므로 크기가 늘 `hidden_size`입니다(책의 코드는 `in_size`로 만들어,
    `RNN(10, in_size=1)`이 두 번째 시각에서 모양 오류를 냅니다).
    """

    def __init__(
        self,
        hidden_size: int,
        in_size: int | None = None,
        *,
        dtype: object = np.float32,
        seed: int | np.random.Generator | None = None,
    ) -> None:
        H = _check_size("hidden_size", hidden_size)
        rng = np.random.default_rng(seed)
        self.x2h = Linear(H, in_size=in_size, dtype=dtype, seed=rng)
        self.h2h = Linear(H, in_size=H, bias=False, dtype=dtype, seed=rng)
        self.h = None

    def reset_state(self) -> None:
        """은닉 상태를 지웁니다. 새 시계열을 처음부터 넣기 전에 부릅니다."""
        self.h = None

    def forward(self, x):
        if self.h is None:
            h_new = tanh(self.x2h(x))
        else:
            h_new = tanh(self.x2h(x) + self.h2h(self.h))
        self.h = h_new
        return h_new


class LSTM(Layer):
    """LSTM: 게이트 f(잊기), i(입력), o(출력)와 새 기억 후보 u로 기억 셀 c와 은닉 상태 h를 고칩니다.

    f, i, o = sigmoid(x·W_x + b + h·W_h), u = tanh(x·W_xu + b_u + h·W_hu),
    c_new = f·c + i·u, h_new = o·tanh(c_new). 처음 시각에는 h와 c가 0인 것과 같습니다.
    """

    def __init__(
        self,
        hidden_size: int,
        in_size: int | None = None,
        *,
        dtype: object = np.float32,
        seed: int | np.random.Generator | None = None,
    ) -> None:
        H = _check_size("hidden_size", hidden_size)
        rng = np.random.default_rng(seed)

        def x2():
            return Linear(H, in_size=in_size, dtype=dtype, seed=rng)

        def h2():
            return Linear(H, in_size=H, bias=False, dtype=dtype, seed=rng)

        self.x2f, self.x2i, self.x2o, self.x2u = x2(), x2(), x2(), x2()
        self.h2f, self.h2i, self.h2o, self.h2u = h2(), h2(), h2(), h2()
        self.reset_state()

    def reset_state(self) -> None:
        """은닉 상태 h와 기억 셀 c를 지웁니다."""
        self.h = None
        self.c = None

    def forward(self, x):
        if self.h is None:
            f = sigmoid(self.x2f(x))
            i = sigmoid(self.x2i(x))
            o = sigmoid(self.x2o(x))
            u = tanh(self.x2u(x))
        else:
            f = sigmoid(self.x2f(x) + self.h2f(self.h))
            i = sigmoid(self.x2i(x) + self.h2i(self.h))
            o = sigmoid(self.x2o(x) + self.h2o(self.h))
            u = tanh(self.x2u(x) + self.h2u(self.h))
        c_new = i * u if self.c is None else f * self.c + i * u
        h_new = o * tanh(c_new)
        self.h, self.c = h_new, c_new
        return h_new
