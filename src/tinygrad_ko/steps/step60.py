"""60단계: LSTM과 데이터 로더. ``LSTM`` 층, 시계열용 ``SeqDataLoader``, 미니배치로 학습하는 ``train``.

``LSTM``은 게이트 f, i, o와 새 기억 후보 u를 ``Linear`` 8개(입력 쪽 4개는 편향 있음, 은닉 상태 쪽
4개는 편향 없음)로 계산하고 c_new = f·c + i·u, h_new = o·tanh(c_new)로 고칩니다. ``SeqDataLoader``는
섞지 않고, 시계열을 ``batch_size``개의 흐름으로 나눠 시각마다 흐름마다 한 샘플씩 내줍니다(b번 흐름은
b·(n // batch_size)번째부터). 그림은 59단계의 ``predict_cos``로 그립니다.

한계(책과 같음): ``train``의 ``count == seqlen``은 batch_size가 1일 때만 참이 됩니다. count는 배치 수
(ceil(n / batch_size), 999쌍을 30개씩이면 34)까지만 세는데 seqlen은 쌍의 수(999)라, 흐름 30개에서는
에포크마다 마지막 4번의 반복(31~34번째)은 역전파되지 않고 매개변수도 고쳐지지 않습니다.
``SeqDataLoader``는 ceil(n / batch_size)번 읽어, n이 batch_size로 나누어떨어지지 않으면 마지막 시각에
앞 흐름들은 다음 흐름의 첫 샘플을, 마지막 흐름은 남는 첫 샘플을 읽습니다. 그 밖에는 59단계와 같습니다.
"""

import numpy as np

from . import step59 as _previous
from .step42 import mean_squared_error
from .step43 import sigmoid, tanh
from .step45 import Layer, Linear, Model
from .step50 import DataLoader
from .step59 import *  # noqa: F403

__all__ = [*_previous.__all__, "LSTM", "SeqDataLoader", "BetterRNN"]


class LSTM(Layer):
    def __init__(self, hidden_size, in_size=None):
        super().__init__()

        H, I = hidden_size, in_size  # noqa: E741 - 책의 이름입니다.
        self.x2f = Linear(H, in_size=I)
        self.x2i = Linear(H, in_size=I)
        self.x2o = Linear(H, in_size=I)
        self.x2u = Linear(H, in_size=I)
        self.h2f = Linear(H, in_size=H, nobias=True)
        self.h2i = Linear(H, in_size=H, nobias=True)
        self.h2o = Linear(H, in_size=H, nobias=True)
        self.h2u = Linear(H, in_size=H, nobias=True)
        self.reset_state()

    def reset_state(self):
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

        if self.c is None:
            c_new = i * u
        else:
            c_new = (f * self.c) + (i * u)

        h_new = o * tanh(c_new)

        self.h, self.c = h_new, c_new
        return h_new


# --8<-- [start:seq-loader]
class SeqDataLoader(DataLoader):
    def __init__(self, dataset, batch_size):
        super().__init__(dataset=dataset, batch_size=batch_size, shuffle=False)

    def __next__(self):
        if self.iteration >= self.max_iter:
            self.reset()
            raise StopIteration

        jump = self.data_size // self.batch_size
        batch_index = [(i * jump + self.iteration) % self.data_size for i in range(self.batch_size)]
        batch = [self.dataset[i] for i in batch_index]
        x = np.array([example[0] for example in batch])
        t = np.array([example[1] for example in batch])

        self.iteration += 1
        return x, t
        # --8<-- [end:seq-loader]


class BetterRNN(Model):
    def __init__(self, hidden_size, out_size):
        super().__init__()
        self.rnn = LSTM(hidden_size)
        self.fc = Linear(out_size)

    def reset_state(self):
        self.rnn.reset_state()

    def __call__(self, x):
        y = self.rnn(x)
        y = self.fc(y)
        return y


# --8<-- [start:train]
def train(model, optimizer, dataloader, seqlen, max_epoch=100, bptt_length=30):
    """책의 학습 반복문(seqlen = len(train_set)). 에포크마다의 평균 손실을 돌려줍니다."""
    history = []
    for _epoch in range(max_epoch):
        model.reset_state()
        loss, count = 0, 0

        for x, t in dataloader:
            y = model(x)
            loss += mean_squared_error(y, t)
            count += 1

            if count % bptt_length == 0 or count == seqlen:  # 뒤 조건은 batch_size=1일 때만 참
                model.cleargrads()
                loss.backward()
                loss.unchain_backward()
                optimizer.update()
        avg_loss = float(loss.data) / count
        history.append(avg_loss)
    return history


# --8<-- [end:train]
