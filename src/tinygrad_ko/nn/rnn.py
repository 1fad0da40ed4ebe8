"""순환 신경망(59~60단계): `RNN`(tanh)과 `LSTM`. 층이 은닉 상태를 기억하고 `reset_state()`로 지웁니다.

한 번 부를 때 한 시각(time step)을 계산합니다: x는 (배치, 입력 크기), 출력 h는 (배치, 은닉 크기).
상태를 이어 가므로 시각이 지날수록 계산 그래프가 길어집니다. 잘린 역전파(truncated BPTT)에서는
몇 시각마다 역전파한 뒤 그래프를 끊습니다: `backward(retain_graph=True)` 뒤의 `loss.unchain_backward()`(DeZero)나, `backward()` 뒤에 은닉 상태를 `h.detach()`로(PyTorch) 바꿉니다.
`detach()`로 끊을 때 `LSTM`은 상태가 둘이라 `h`와 `c`를 모두 떼어 냅니다(44장의 연습 문제 2).

가중치의 배치는 책과 같습니다: 입력 쪽 `Linear`는 편향이 있고, 은닉 상태 쪽 `Linear`는 편향이
없습니다. PyTorch의 `nn.RNNCell`, `nn.LSTMCell`과 같은 값을 냅니다(PyTorch는 편향이 두 벌이라
b_ih + b_hh가 여기의 편향 하나입니다. LSTM의 게이트 순서는 PyTorch가 i, f, g(=u), o입니다).
"""

from __future__ import annotations

import numpy as np

from .._checks import check_count
from ..autograd.variable import Variable
from ..functions.activations import sigmoid
from ..functions.elementwise import tanh
from .layers import Layer, Linear

__all__ = ["LSTM", "RNN"]


def _check_step(layer: Layer, x) -> None:
    """한 시각의 입력 x를 확인합니다: (배치, 입력 크기)나 (입력 크기,)이고(PyTorch의 RNNCell처럼), 상태가
    있으면 그 배치 크기와 같아야 합니다. 다르면 브로드캐스트가 조용히 틀린 값을 내거나 모양 오류가 납니다."""
    shape = np.shape(x.data if isinstance(x, Variable) else x)
    name = type(layer).__name__
    if len(shape) not in (1, 2):
        raise ValueError(
            f"{name}의 한 시각 입력은 (배치, 입력 크기)나 (입력 크기,) 모양이어야 합니다. 받은 모양: "
            f"{shape}({len(shape)}차원). 시계열 (시각, 배치, 입력 크기)는 시각마다 x[t]로 나눠 넣어 주세요."
        )
    if layer.h is not None and layer.h.shape[:-1] != shape[:-1]:
        raise ValueError(
            f"{name}의 입력 모양 {shape}이(가) 기억한 은닉 상태의 모양 {layer.h.shape}과(와) 배치가 "
            f"다릅니다. 배치 크기가 다른 새 시계열을 넣기 전에 reset_state()를 불러 주세요."
        )


# --8<-- [start:rnn]
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
        H = check_count("hidden_size", hidden_size)
        rng = np.random.default_rng(seed)
        self.x2h = Linear(H, in_size=in_size, dtype=dtype, seed=rng)
        self.h2h = Linear(H, in_size=H, bias=False, dtype=dtype, seed=rng)
        self.h = None

    def reset_state(self) -> None:
        """은닉 상태를 지웁니다. 새 시계열을 처음부터 넣기 전에 부릅니다."""
        self.h = None

    def forward(self, x):
        _check_step(self, x)
        if self.h is None:
            h_new = tanh(self.x2h(x))
        else:
            h_new = tanh(self.x2h(x) + self.h2h(self.h))
        self.h = h_new
        return h_new


# --8<-- [end:rnn]


# --8<-- [start:lstm]
class LSTM(Layer):
    """LSTM: 게이트 f(잊기), i(입력), o(출력)와 새 기억 후보 u로 셀 상태 c와 은닉 상태 h를 고칩니다.

    f, i, o = sigmoid(x·W_x + b + h·W_h), u = tanh(x·W_xu + b_u + h·W_hu),
    c_new = f·c + i·u, h_new = o·tanh(c_new). 처음 시각에는 h와 c가 0인 것과 같습니다.

    식과 편향의 자리(입력 쪽에만)는 책과 같습니다. 책은 게이트 셋과 u마다 `Linear`를 둘씩 두지만(8개), 여기서는
    그 넷의 가중치를 열 방향으로 쌓아 입력 쪽 `x2h`와 은닉 상태 쪽 `h2h` 두 개로 계산합니다(열의 순서
    f, i, o, u). 두 번째 시각부터 시각마다 함수 노드가 21개에서 15개로, 행렬 곱이 8번에서 2번으로 줄어듭니다
    (44장에서 셉니다). PyTorch의 LSTMCell도 쌓은 가중치를 씁니다. 순서는 i, f, g, o입니다.
    """

    def __init__(
        self,
        hidden_size: int,
        in_size: int | None = None,
        *,
        dtype: object = np.float32,
        seed: int | np.random.Generator | None = None,
    ) -> None:
        self.hidden_size = H = check_count("hidden_size", hidden_size)
        rng = np.random.default_rng(seed)
        self.x2h = Linear(4 * H, in_size=in_size, dtype=dtype, seed=rng)
        self.h2h = Linear(4 * H, in_size=H, bias=False, dtype=dtype, seed=rng)
        self.reset_state()

    def reset_state(self) -> None:
        """은닉 상태 h와 셀 상태 c를 지웁니다."""
        self.h = None
        self.c = None

    def forward(self, x):
        _check_step(self, x)
        H = self.hidden_size
        z = self.x2h(x) if self.h is None else self.x2h(x) + self.h2h(self.h)
        gates = sigmoid(z[..., : 3 * H])  # f, i, o를 한 번에(... : 배치 축이 없는 1차원 입력도)
        f, i, o = gates[..., :H], gates[..., H : 2 * H], gates[..., 2 * H :]
        u = tanh(z[..., 3 * H :])
        c_new = i * u if self.c is None else f * self.c + i * u
        h_new = o * tanh(c_new)
        self.h, self.c = h_new, c_new
        return h_new


# --8<-- [end:lstm]
