"""59단계: RNN과 잘린 역전파. ``RNN`` 층, ``SinCurve``, ``Variable.unchain``/``unchain_backward``.

``RNN``은 은닉 상태 h를 기억하며 h_new = tanh(x2h(x) + h2h(h))를 계산합니다(처음에는 tanh(x2h(x))).
시계열을 한 시각씩 넣으면 그래프가 계속 길어지므로, ``bptt_length``(30) 시각마다 역전파하고
``loss.unchain_backward()``로 loss보다 앞의 변수들을 창조자에서 떼어 냅니다(``unchain``: creator를
None으로). 이 모듈을 가져올 때 40단계의 ``Variable``에 두 메서드를 더합니다. ``SinCurve``는 sin 곡선
1,000점에 ±0.05 잡음을 더한 시계열이고(시험용은 cos), ``train``과 ``predict_cos``는 책의 학습과 그림
코드입니다(그림 대신 값을 돌려줍니다).

한계(책과 같음): ``RNN``의 ``h2h``를 ``in_size``로 만들어, ``RNN(10, in_size=1)``처럼 입력 크기를 주면
두 번째 시각에서 행렬 곱의 모양이 맞지 않습니다(DeZero 이슈 #32). ``SinCurve``의 잡음은 전역
``np.random``이라 시드를 정하지 않으면 실행마다 다릅니다. ``predict_cos``의 ``float(y.data)``는 (1, 1)
배열이라 NumPy 2에서 ``TypeError``가 납니다(NumPy 1.25부터 경고였습니다).
"""

import numpy as np

from . import step58 as _previous
from .step18 import no_grad
from .step40 import Variable
from .step42 import mean_squared_error
from .step43 import tanh
from .step45 import Layer, Linear, Model
from .step49 import Dataset
from .step58 import *  # noqa: F403

__all__ = [
    *_previous.__all__,
    "unchain",
    "unchain_backward",
    "RNN",
    "SinCurve",
    "SimpleRNN",
    "train",
    "predict_cos",
]


# --8<-- [start:unchain]
def unchain(self):
    self.creator = None


def unchain_backward(self):
    if self.creator is not None:
        funcs = [self.creator]
        while funcs:
            f = funcs.pop()
            for x in f.inputs:
                if x.creator is not None:
                    funcs.append(x.creator)
                    x.unchain()


# --8<-- [end:unchain]


Variable.unchain = unchain  # 40단계의 Variable에 메서드로 더합니다.
Variable.unchain_backward = unchain_backward


# --8<-- [start:rnn]
class RNN(Layer):
    def __init__(self, hidden_size, in_size=None):
        super().__init__()
        self.x2h = Linear(hidden_size, in_size=in_size)
        self.h2h = Linear(hidden_size, in_size=in_size, nobias=True)  # 책의 결함: in_size
        self.h = None

    def reset_state(self):
        self.h = None

    def forward(self, x):
        if self.h is None:
            h_new = tanh(self.x2h(x))
        else:
            h_new = tanh(self.x2h(x) + self.h2h(self.h))
        self.h = h_new
        return h_new


# --8<-- [end:rnn]


class SinCurve(Dataset):
    def prepare(self):
        num_data = 1000
        dtype = np.float64

        x = np.linspace(0, 2 * np.pi, num_data)
        noise_range = (-0.05, 0.05)
        noise = np.random.uniform(noise_range[0], noise_range[1], size=x.shape)
        if self.train:
            y = np.sin(x) + noise
        else:
            y = np.cos(x)
        y = y.astype(dtype)
        self.data = y[:-1][:, np.newaxis]
        self.label = y[1:][:, np.newaxis]


class SimpleRNN(Model):
    def __init__(self, hidden_size, out_size):
        super().__init__()
        self.rnn = RNN(hidden_size)
        self.fc = Linear(out_size)

    def reset_state(self):
        self.rnn.reset_state()

    def __call__(self, x):
        h = self.rnn(x)
        y = self.fc(h)
        return y


# --8<-- [start:train]
def train(model, optimizer, train_set, max_epoch=100, bptt_length=30):
    """책의 학습 반복문. 에포크마다의 평균 손실을 돌려줍니다(책은 출력합니다)."""
    seqlen = len(train_set)
    history = []
    for _epoch in range(max_epoch):
        model.reset_state()
        loss, count = 0, 0

        for x, t in train_set:
            x = x.reshape(1, 1)
            y = model(x)
            loss += mean_squared_error(y, t)
            count += 1

            if count % bptt_length == 0 or count == seqlen:
                model.cleargrads()
                loss.backward()
                loss.unchain_backward()
                optimizer.update()

        avg_loss = float(loss.data) / count
        history.append(avg_loss)
    return history


# --8<-- [end:train]


def predict_cos(model):
    """cos 곡선을 한 시각씩 넣어 다음 값을 예측합니다(책의 그림 코드, 그리는 대신 값을 돌려줌)."""
    xs = np.cos(np.linspace(0, 4 * np.pi, 1000))
    model.reset_state()
    pred_list = []

    with no_grad():
        for x in xs:
            x = np.array(x).reshape(1, 1)
            y = model(x)
            pred_list.append(float(y.data))
    return xs, pred_list
