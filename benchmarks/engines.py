"""벤치마크가 재는 엔진들과, 엔진마다 다른 사용법을 한 모양으로 맞추는 어댑터.

작업(`workloads.py`)은 어댑터의 메서드(`scalar`, `scale`, `add`, `backward` ...)만 부르므로
엔진이 무엇이든 같은 코드로 잽니다. 엔진 모듈은 `load(key)`를 부를 때에야 가져옵니다.
실행기(`run.py`)는 엔진을 가져오지 않고 `ENGINES`의 설명만 읽습니다.

단계 스냅숏에 없는 연산은 여기서 그 단계의 `Function`을 상속해 정의합니다.

- 7·8단계: 입력이 하나인 함수만 있으므로 상수 곱 `Scale(c)`를 입력 하나짜리 함수로 둡니다.
- 16·18단계: 두 입력 곱셈 `Mul`이 아직 없으므로(책의 20단계에서 생김) 같은 일을 하는 함수를
  그 단계의 `Function`으로 정의하고, 상수는 책의 22단계처럼 0차원 배열의 `Variable`로 감쌉니다.
"""

from __future__ import annotations

import importlib
import importlib.util
from dataclasses import dataclass

import numpy as np

# 작업 이름: 0차원 사슬, 가장 깊은 사슬, 가지(fan-in), 원소별 연산(w가 상수 / w도 미분),
# `y = y * c + d` 사슬, 메모리.
CHAIN, DEPTH, FANIN, MEMORY = "chain", "depth", "fanin", "memory"
ELEMENTWISE, ELEMENTWISE_CONST = "elementwise", "elementwise_const"
AFFINE, AFFINE_MEMORY = "affine_chain", "affine_memory"
# 한국어 microGPT의 학습 스텝 하나(마무리 장): Value판과 텐서판(최종 엔진)만 모델이 있습니다.
GPT = "gpt_step"
SCALAR_WORKLOADS = (
    CHAIN,
    DEPTH,
    FANIN,
    ELEMENTWISE_CONST,
    ELEMENTWISE,
    AFFINE,
    AFFINE_MEMORY,
    MEMORY,
)
# 제4고지의 텐서 작업: 1000x1000 행렬 곱의 사슬, 두 층 신경망의 학습 스텝(43단계의 sin 회귀).
MATMUL, MLP = "matmul", "mlp"
# 51단계: 손글씨 숫자 8,000장으로 MLP(784 -> 100 -> 10, ReLU)를 배치 100으로 한 에포크 학습.
DIGITS = "digits_epoch"
# 제5고지: LeNet 크기의 합성곱 한 번(순전파+역전파), 숫자 CNN 한 에포크, LSTM 잘린 역전파의 한 스텝.
CONV, CNN, LSTM = "conv2d", "cnn_epoch", "lstm_bptt"
TENSOR_WORKLOADS = (MATMUL, MLP, DIGITS, CONV, CNN, LSTM)
# 제6고지: 지연 엔진의 작업(같은 프로세스 안에서 NumPy, 최종 엔진과 번갈아 잽니다; lazy_work.py).
LAZY_CHAIN, LAZY_CHAIN_LARGE, LAZY_BACKWARD, LAZY_COMPILE, LAZY_TRAIN = (
    "lazy_chain",
    "lazy_chain_large",
    "lazy_backward",
    "lazy_compile",
    "lazy_train",
)
LAZY_WORKLOADS = (LAZY_CHAIN, LAZY_CHAIN_LARGE, LAZY_BACKWARD, LAZY_COMPILE, LAZY_TRAIN)
EAGER_WORKLOADS = (*SCALAR_WORKLOADS, *TENSOR_WORKLOADS, GPT)
ALL_WORKLOADS = (*EAGER_WORKLOADS, *LAZY_WORKLOADS)


@dataclass(frozen=True)
class EngineInfo:
    """표에 실을 엔진 하나의 설명. `module`은 설치 여부를 확인할 때 씁니다."""

    key: str
    title: str
    module: str
    workloads: tuple[str, ...]
    has_no_grad: bool
    optional: bool = False  # 설치되어 있을 때만 재는 비교 대상(peer)인지


ENGINES: dict[str, EngineInfo] = {
    info.key: info
    for info in (
        EngineInfo("tinygrad_ko", "최종 엔진", "tinygrad_ko", EAGER_WORKLOADS, True),
        # 제6고지의 지연 엔진: 컴파일러가 있으면 C 백엔드, 없으면 NumPy 백엔드(표에 적습니다).
        EngineInfo("lazy", "지연 엔진(제6고지)", "tinygrad_ko.lazy", LAZY_WORKLOADS, False),
        EngineInfo(
            "step24", "책의 엔진(23~24단계)", "tinygrad_ko.steps.step24", SCALAR_WORKLOADS, True
        ),
        EngineInfo(
            "step18",
            "18단계: 메모리 절약 모드",
            "tinygrad_ko.steps.step18",
            (CHAIN, DEPTH, FANIN, MEMORY),
            True,
        ),
        EngineInfo(
            "step16",
            "15~16단계: 세대 순 정렬",
            "tinygrad_ko.steps.step16",
            (CHAIN, DEPTH, FANIN, MEMORY),
            False,
        ),
        EngineInfo(
            "step08", "8단계: 반복문", "tinygrad_ko.steps.step08", (CHAIN, DEPTH, MEMORY), False
        ),
        EngineInfo(
            "step07", "7단계: 재귀", "tinygrad_ko.steps.step07", (CHAIN, DEPTH, MEMORY), False
        ),
        EngineInfo(
            "value",
            "Value(스칼라 엔진)",
            "tinygrad_ko.micrograd.value",
            (CHAIN, DEPTH, FANIN, GPT),
            False,
        ),
        EngineInfo(
            "micrograd", "micrograd", "micrograd.engine", (CHAIN, DEPTH, FANIN), False, True
        ),
        EngineInfo("dezero", "DeZero(PyPI의 dezero 0.0.13)", "dezero", (MLP, DIGITS), True, True),
        EngineInfo(
            "torch",
            "PyTorch CPU, 스레드 1개",
            "torch",
            SCALAR_WORKLOADS + TENSOR_WORKLOADS,
            True,
            True,
        ),
    )
}


def is_installed(info: EngineInfo) -> bool:
    """엔진의 최상위 패키지를 찾을 수 있는지(가져오지는 않고) 확인합니다."""
    return importlib.util.find_spec(info.module.split(".")[0]) is not None


# --- 공통 부분 ---------------------------------------------------------------------------
class Engine:
    """모든 어댑터의 기본: `y.backward()`로 역전파하고 `x.grad`로 미분값을 읽습니다."""

    @staticmethod
    def backward(y) -> None:
        y.backward()

    @staticmethod
    def grad(x):
        return x.grad


class OperatorMixin:
    """연산자(`*`, `+`, `-`)로 계산하는 작업 메서드. 연산자를 갖춘 엔진이 함께 씁니다."""

    @staticmethod
    def scale(y, c: float):
        return y * c

    @staticmethod
    def add(a, b):
        return a + b

    @staticmethod
    def mul(a, b):
        return a * b

    @staticmethod
    def sub(a, b):
        return a - b

    @staticmethod
    def neg(a):
        return -a


# --- NumPy 기반 엔진 --------------------------------------------------------------------
class ArrayEngine(Engine):
    """ndarray를 담는 `Variable`의 엔진들이 함께 쓰는 부분: 변수 만들기."""

    memory_method = "tracemalloc"

    def __init__(self, module_name: str) -> None:
        self.module = importlib.import_module(module_name)

    def scalar(self, value: float):
        return self.module.Variable(np.array(value))

    def array(self, data: np.ndarray):
        return self.module.Variable(data)

    @staticmethod
    def constant(data: np.ndarray):
        """미분하지 않는 상수: ndarray 그대로 넘깁니다(엔진이 연산에서 상수로 감쌉니다)."""
        return data


class OperatorEngine(OperatorMixin, ArrayEngine):
    """연산자와 `square`/`exp`/`no_grad`를 갖춘 엔진: 최종 엔진과 책의 엔진."""

    def __init__(self, module_name: str) -> None:
        super().__init__(module_name)
        self.square = self.module.square
        self.exp = self.module.exp

    def no_grad(self):
        return self.module.no_grad()

    @staticmethod
    def matmul(a, b):
        return a @ b

    def mlp_train(self, params, x, t, lr: float, steps: int):
        """43단계의 학습 반복: linear -> sigmoid -> linear, 평균 제곱 오차, 경사 하강법."""
        tg = self.module
        ps = [tg.Variable(p.copy()) for p in params]
        W1, b1, W2, b2 = ps
        linear, sigmoid, mse = tg.linear, tg.sigmoid, tg.mean_squared_error
        for _ in range(steps):
            loss = mse(linear(sigmoid(linear(x, W1, b1)), W2, b2), t)
            for p in ps:
                p.cleargrad()
            loss.backward()
            for p in ps:
                p.data -= lr * p.grad
        return [p.data for p in ps], float(loss.data)

    def digits_epoch(self, params, batches, lr: float):
        """51단계의 한 에포크를 이 프레임워크의 관용구로: MLP 모델, SGD 옵티마이저, 교차 엔트로피."""
        from tinygrad_ko.nn.models import MLP

        model = MLP((params[0].shape[1], params[2].shape[1]), self.module.relu)
        return _sgd_epoch(model, params, batches, lr)

    def conv2d_grads(self, x, W, b):
        """합성곱 한 번의 순전파와 역전파(시작 미분값 1). (gx, gW, gb)."""
        tg = self.module
        xs = [tg.Variable(a) for a in (x, W, b)]
        y = tg.conv2d(*xs)
        y.backward(gradient=np.ones(y.shape, dtype=y.dtype))
        return [v.grad for v in xs]

    def cnn_epoch(self, params, batches, lr: float):
        """숫자 CNN의 한 에포크를 이 프레임워크의 관용구로: Conv2d 층, pooling, Linear, SGD."""
        from tinygrad_ko.nn.conv import Conv2d
        from tinygrad_ko.nn.layers import Linear
        from tinygrad_ko.nn.models import Sequential

        tg = self.module

        def pool(x):
            return tg.pooling(tg.relu(x), 2, 2)

        W1, b1, W2, b2, W3, b3 = params
        c1, c2 = (
            Conv2d(W1.shape[0], 5, in_channels=1),
            Conv2d(W2.shape[0], 5, in_channels=W1.shape[0]),
        )
        fc = Linear(W3.shape[1], in_size=W3.shape[0])
        model = Sequential(c1, pool, c2, pool, lambda x: x.reshape(x.shape[0], -1), fc)
        return _sgd_epoch(model, params, batches, lr)

    def lstm_bptt(self, params, windows, lr: float):
        """LSTM 잘린 역전파: 창(30시각)마다 순전파, 역전파, SGD, 그리고 상태를 그래프에서 떼기."""
        from tinygrad_ko.functions.losses import mean_squared_error
        from tinygrad_ko.nn.layers import Linear
        from tinygrad_ko.nn.rnn import LSTM
        from tinygrad_ko.optimizers import SGD

        Wx, Wh, b, Wf, bf = params
        lstm = LSTM(Wh.shape[0], in_size=Wx.shape[0], dtype=Wx.dtype)
        fc = Linear(1, in_size=Wh.shape[0], dtype=Wx.dtype)
        parameters = [lstm.x2h.W, lstm.h2h.W, lstm.x2h.b, fc.W, fc.b]  # params와 같은 순서
        for param, value in zip(parameters, params, strict=True):
            param.data = value.copy()
        optimizer = SGD(parameters, lr=lr)
        for xs, ts in windows:
            loss = 0
            for x, t in zip(xs, ts, strict=True):
                loss = loss + mean_squared_error(fc(lstm(x)), t)
            for p in parameters:
                p.cleargrad()
            loss.backward()
            optimizer.step()
            lstm.h, lstm.c = lstm.h.detach(), lstm.c.detach()
        return [p.data for p in parameters], float(loss.data)

    @staticmethod
    def gpt(config, weights):
        """텐서판 GPT의 학습 엔진(최종 엔진에만 있습니다)."""
        from tinygrad_ko.gpt.tensor_model import TensorEngine, TensorGPT

        return TensorEngine(TensorGPT(config, weights))


class GenerationStepEngine(ArrayEngine):
    """16·18단계: 여러 입력을 받는 `Function`은 있지만 곱셈이 아직 없는 단계."""

    def __init__(self, module_name: str) -> None:
        super().__init__(module_name)
        module = self.module

        class Mul(module.Function):
            """두 입력의 곱. 국소 미분은 서로 상대의 값입니다."""

            def forward(self, x0, x1):
                return x0 * x1

            def backward(self, gy):
                return gy * self.inputs[1].data, gy * self.inputs[0].data

        self._mul = Mul
        self.square = module.square
        self.add = module.add
        if hasattr(module, "no_grad"):  # 18단계부터 있습니다.
            self.no_grad = module.no_grad

    def scale(self, y, c: float):
        return self._mul()(y, self.module.Variable(np.array(c)))


class EarlyStepEngine(ArrayEngine):
    """7·8단계: 입력도 출력도 하나인 함수만 있고, 출력의 미분값을 직접 넣어야 하는 단계."""

    def __init__(self, module_name: str) -> None:
        super().__init__(module_name)
        module = self.module

        class Scale(module.Function):
            """상수 c를 곱하는 입력 하나짜리 함수. 국소 미분은 c입니다."""

            def __init__(self, c):
                self.c = c

            def forward(self, x):
                return x * self.c

            def backward(self, gy):
                return gy * self.c

        self._scale = Scale

    def scale(self, y, c: float):
        return self._scale(c)(y)

    def square(self, x):
        return self.module.Square()(x)

    @staticmethod
    def backward(y) -> None:
        y.grad = np.ones_like(y.data)  # 이 단계들은 시작 미분값을 자동으로 채우지 않습니다.
        y.backward()


# --- 스칼라 엔진 ------------------------------------------------------------------------
class ScalarEngine(OperatorMixin, Engine):
    """파이썬 float 하나를 담는 노드(`Value`)로 된 엔진: 이 프로젝트의 Value와 micrograd."""

    def __init__(self, module_name: str) -> None:
        self.value_class = importlib.import_module(module_name).Value

    def scalar(self, value: float):
        return self.value_class(value)

    @staticmethod
    def gpt(config, weights):
        """Value판 GPT의 학습 엔진(이 프로젝트의 Value에만 있습니다)."""
        from tinygrad_ko.gpt.training import ValueEngine
        from tinygrad_ko.gpt.value_model import ValueGPT

        return ValueEngine(ValueGPT(config, weights))


# --- DeZero(PyPI) ---------------------------------------------------------------------
class DezeroEngine(Engine):
    """책의 저자가 PyPI에 올린 `dezero` 0.0.13. NumPy 1.24에서 없어진 `np.int`를 쓰므로, 가져오기
    전에 이 프로세스에서만 `np.int = int`를 둡니다(패키지 자체는 고치지 않습니다)."""

    def __init__(self) -> None:
        if not hasattr(np, "int"):
            np.int = int
        import dezero
        import dezero.functions

        self.dezero = dezero
        self.F = dezero.functions

    def mlp_train(self, params, x, t, lr: float, steps: int):
        F = self.F
        ps = [self.dezero.Variable(p.copy()) for p in params]
        W1, b1, W2, b2 = ps
        for _ in range(steps):
            loss = F.mean_squared_error(F.linear(F.sigmoid(F.linear(x, W1, b1)), W2, b2), t)
            for p in ps:
                p.cleargrad()
            loss.backward()
            for p in ps:
                p.data -= lr * p.grad.data
        return [p.data for p in ps], float(loss.data)

    def digits_epoch(self, params, batches, lr: float):
        """같은 한 에포크를 DeZero의 관용구로: `dezero.models.MLP`, `optimizers.SGD`, `F.softmax_cross_entropy`."""
        import dezero.models
        import dezero.optimizers

        F = self.F
        model = dezero.models.MLP((params[0].shape[1], params[2].shape[1]), activation=F.relu)
        x0, _ = batches[0]
        model(x0)  # 입력 크기를 정해 W를 만든 뒤 같은 처음 값으로 바꿉니다.
        for layer, (W, b) in zip(model.layers, (params[:2], params[2:]), strict=True):
            layer.W.data = W.copy()
            layer.b.data = b.copy()
        optimizer = dezero.optimizers.SGD(lr).setup(model)
        for x, t in batches:
            loss = F.softmax_cross_entropy(model(x), t)
            model.cleargrads()
            loss.backward()
            optimizer.update()
        arrays = []
        for layer in model.layers:
            arrays += [layer.W.data, layer.b.data]
        return arrays, float(loss.data)


# --- PyTorch --------------------------------------------------------------------------
class TorchEngine(OperatorMixin, Engine):
    """PyTorch CPU, 스레드 하나, float64. tracemalloc이 보지 못하므로 메모리는 RSS로 잽니다."""

    memory_method = "rss"

    def __init__(self) -> None:
        import torch

        torch.set_num_threads(1)
        self.torch = torch
        self.square = torch.square
        self.exp = torch.exp

    def scalar(self, value: float):
        return self.torch.tensor(value, dtype=self.torch.float64, requires_grad=True)

    def array(self, data: np.ndarray):
        return self.torch.from_numpy(data).requires_grad_(True)

    def constant(self, data: np.ndarray):
        return self.torch.from_numpy(data)

    def backward(self, y) -> None:
        if y.dim() == 0:
            y.backward()
        else:  # 배열 출력은 NumPy 엔진들처럼 1로 채운 미분값에서 시작합니다.
            y.backward(self.torch.ones_like(y))

    @staticmethod
    def grad(x):
        return x.grad.numpy()

    def no_grad(self):
        return self.torch.no_grad()

    @staticmethod
    def matmul(a, b):
        return a @ b

    def mlp_train(self, params, x, t, lr: float, steps: int):
        """같은 학습 반복. `torch.addmm(b, x, W)`는 `F.linear`가 안에서 쓰는 x @ W + b 한 노드입니다."""
        torch = self.torch
        ps = [torch.tensor(p, requires_grad=True) for p in params]
        W1, b1, W2, b2 = ps
        xt, tt = torch.from_numpy(x), torch.from_numpy(t)
        mse = torch.nn.functional.mse_loss
        for _ in range(steps):
            loss = mse(torch.addmm(b2, torch.sigmoid(torch.addmm(b1, xt, W1)), W2), tt)
            for p in ps:
                p.grad = None
            loss.backward()
            with torch.no_grad():
                for p in ps:
                    p -= lr * p.grad
        return [p.detach().numpy() for p in ps], float(loss)

    def digits_epoch(self, params, batches, lr: float):
        """같은 한 에포크를 PyTorch의 관용구로: `nn.Sequential`, `optim.SGD`, `F.cross_entropy`."""
        torch = self.torch
        nn = torch.nn
        W1, b1, W2, b2 = params
        model = nn.Sequential(nn.Linear(*W1.shape), nn.ReLU(), nn.Linear(*W2.shape))
        with torch.no_grad():  # PyTorch의 가중치는 (출력, 입력) 모양입니다.
            for layer, W, b in ((model[0], W1, b1), (model[2], W2, b2)):
                layer.weight.copy_(torch.from_numpy(W.T))
                layer.bias.copy_(torch.from_numpy(b))
        optimizer = torch.optim.SGD(model.parameters(), lr=lr)
        cross_entropy = torch.nn.functional.cross_entropy
        for x, t in batches:
            loss = cross_entropy(model(torch.from_numpy(x)), torch.from_numpy(t))
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        arrays = []
        for layer in (model[0], model[2]):
            arrays += [layer.weight.detach().numpy().T, layer.bias.detach().numpy()]
        return arrays, loss.item()

    def conv2d_grads(self, x, W, b):
        torch = self.torch
        xs = [torch.from_numpy(a).requires_grad_(True) for a in (x, W, b)]
        y = torch.nn.functional.conv2d(*xs)
        y.backward(torch.ones_like(y))
        return [v.grad.numpy() for v in xs]

    def cnn_epoch(self, params, batches, lr: float):
        """같은 한 에포크를 PyTorch의 관용구로: `nn.Sequential`, `optim.SGD`, `F.cross_entropy`."""
        torch = self.torch
        nn = torch.nn
        W1, b1, W2, b2, W3, b3 = params
        model = nn.Sequential(
            nn.Conv2d(1, W1.shape[0], 5), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(W1.shape[0], W2.shape[0], 5), nn.ReLU(), nn.MaxPool2d(2),
            nn.Flatten(), nn.Linear(*W3.shape),
        ).to(torch.float64 if W1.dtype == np.float64 else torch.float32)  # fmt: skip
        with torch.no_grad():
            for layer, W, b in ((model[0], W1, b1), (model[3], W2, b2), (model[7], W3.T, b3)):
                layer.weight.copy_(torch.from_numpy(np.ascontiguousarray(W)))
                layer.bias.copy_(torch.from_numpy(b))
        optimizer = torch.optim.SGD(model.parameters(), lr=lr)
        for x, t in batches:
            loss = nn.functional.cross_entropy(model(torch.from_numpy(x)), torch.from_numpy(t))
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        arrays = []
        for layer in (model[0], model[3]):
            arrays += [layer.weight.detach().numpy(), layer.bias.detach().numpy()]
        arrays += [model[7].weight.detach().numpy().T, model[7].bias.detach().numpy()]
        return arrays, loss.item()

    def lstm_bptt(self, params, windows, lr: float):
        """같은 잘린 역전파를 `nn.LSTMCell`로. 쌓은 가중치의 게이트 순서를 (f, i, o, u)에서 PyTorch의
        (i, f, g, o)로 바꿔 옮기고, 편향은 b_ih 하나(b_hh = 0)에 둡니다."""
        torch = self.torch
        Wx, Wh, b, Wf, bf = params
        H = Wh.shape[0]
        dtype = torch.float64 if Wx.dtype == np.float64 else torch.float32
        order = [1, 0, 3, 2]  # PyTorch의 i, f, g, o가 우리의 몇 번째 블록(f=0, i=1, o=2, u=3)인지

        def to_torch(a):
            return np.concatenate([a[..., k * H : (k + 1) * H] for k in order], axis=-1)

        def from_torch(a):
            blocks = [a[..., k * H : (k + 1) * H] for k in range(4)]
            return np.concatenate([blocks[order.index(k)] for k in range(4)], axis=-1)

        cell = torch.nn.LSTMCell(Wx.shape[0], H, dtype=dtype)
        fc = torch.nn.Linear(H, 1, dtype=dtype)
        with torch.no_grad():
            cell.weight_ih.copy_(torch.from_numpy(to_torch(Wx).T.copy()))
            cell.weight_hh.copy_(torch.from_numpy(to_torch(Wh).T.copy()))
            cell.bias_ih.copy_(torch.from_numpy(to_torch(b)))
            cell.bias_hh.zero_()
            fc.weight.copy_(torch.from_numpy(Wf.T.copy()))
            fc.bias.copy_(torch.from_numpy(bf))
        parameters = [cell.weight_ih, cell.weight_hh, cell.bias_ih, fc.weight, fc.bias]
        optimizer = torch.optim.SGD(parameters, lr=lr)
        mse, state = torch.nn.functional.mse_loss, None
        for xs, ts in windows:
            loss = 0
            for x, t in zip(xs, ts, strict=True):
                state = cell(torch.from_numpy(x), state)
                loss = loss + mse(fc(state[0]), torch.from_numpy(t))
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            state = (state[0].detach(), state[1].detach())
        arrays = [
            from_torch(cell.weight_ih.detach().numpy().T),
            from_torch(cell.weight_hh.detach().numpy().T),
        ]
        arrays += [from_torch(cell.bias_ih.detach().numpy()), fc.weight.detach().numpy().T]
        return [*arrays, fc.bias.detach().numpy()], loss.item()


def load(key: str):
    """엔진 이름으로 어댑터를 만듭니다(이때 엔진 모듈을 가져옵니다)."""
    if key not in ENGINES:
        names = ", ".join(ENGINES)
        raise ValueError(f"알 수 없는 엔진 이름: {key!r}. 다음 중 하나를 주세요: {names}")
    module = ENGINES[key].module
    if key in ("tinygrad_ko", "step24"):
        return OperatorEngine(module)
    if key in ("step16", "step18"):
        return GenerationStepEngine(module)
    if key in ("step07", "step08"):
        return EarlyStepEngine(module)
    if key in ("value", "micrograd"):
        return ScalarEngine(module)
    if key == "dezero":
        return DezeroEngine()
    if key == "lazy":
        return None  # 지연 엔진의 작업은 어댑터 없이 tinygrad_ko.lazy를 직접 씁니다(lazy_work.py)
    return TorchEngine()


def _sgd_epoch(model, params, batches, lr: float):
    """tinygrad_ko 모델을 주어진 처음 매개변수에서 SGD와 교차 엔트로피로 한 에포크 학습합니다."""
    from tinygrad_ko.functions.softmax import softmax_cross_entropy
    from tinygrad_ko.optimizers import SGD

    for param, value in zip(model.params(), params, strict=True):
        param.data = value.copy()
    optimizer = SGD(model.parameters(), lr=lr)
    for x, t in batches:
        loss = softmax_cross_entropy(model(x), t)
        model.cleargrads()
        loss.backward()
        optimizer.step()
    return [p.data for p in model.params()], float(loss.data)
