"""RNN, LSTM(PyTorch의 RNNCell, LSTMCell과 같은 값), SinCurve, SeqDataLoader, 잘린 역전파."""

import numpy as np
import pytest
from oracle import import_torch

from tinygrad_ko.data.datasets import ArrayDataset, SinCurve
from tinygrad_ko.data.loaders import SeqDataLoader
from tinygrad_ko.functions.losses import mean_squared_error
from tinygrad_ko.nn.rnn import LSTM, RNN
from tinygrad_ko.optimizers import Adam

torch = import_torch(__name__)


def _inputs(steps, batch, size, seed=0):
    return np.random.default_rng(seed).standard_normal((steps, batch, size))


@pytest.mark.parametrize("dtype,rtol", [(np.float64, 1e-10), (np.float32, 1e-4)])
def test_rnn_matches_torch_rnncell(dtype, rtol):
    xs = _inputs(4, 3, 2).astype(dtype)
    rnn = RNN(5, in_size=2, seed=0, dtype=dtype)  # 책의 코드는 여기서 두 번째 시각에 실패합니다.
    rnn.x2h.b.data[...] = np.linspace(-1, 1, 5)
    cell = torch.nn.RNNCell(2, 5, dtype=torch.float64 if dtype == np.float64 else torch.float32)
    with torch.no_grad():
        cell.weight_ih.copy_(torch.tensor(rnn.x2h.W.data.T))
        cell.weight_hh.copy_(torch.tensor(rnn.h2h.W.data.T))
        cell.bias_ih.copy_(torch.tensor(rnn.x2h.b.data))
        cell.bias_hh.zero_()
    loss, h, tloss = 0, None, 0
    for x in xs:
        y = rnn(x)
        loss = loss + (y * y).sum()
        h = cell(torch.tensor(x), h)
        tloss = tloss + (h * h).sum()
        np.testing.assert_allclose(y.data, h.detach().numpy(), rtol=rtol, atol=rtol)
    loss.backward()
    tloss.backward()
    for ours, theirs in [
        (rnn.x2h.W.grad.T, cell.weight_ih.grad),
        (rnn.h2h.W.grad.T, cell.weight_hh.grad),
        (rnn.x2h.b.grad, cell.bias_ih.grad),
    ]:
        np.testing.assert_allclose(ours, theirs.numpy(), rtol=rtol * 10, atol=rtol * 10)


def _blocks(W, H):
    """쌓은 가중치의 열을 게이트별로: f, i, o, u."""
    return dict(zip("fiou", (W[..., k * H : (k + 1) * H] for k in range(4)), strict=True))


def _to_torch_order(W, H):
    """우리의 열 순서 (f, i, o, u)를 PyTorch의 행 순서 (i, f, g=u, o)로."""
    b = _blocks(W, H)
    return np.concatenate([b["i"], b["f"], b["u"], b["o"]], axis=-1)


def test_lstm_matches_torch_lstmcell():
    H = 6
    xs = _inputs(5, 4, 3)
    lstm = LSTM(H, in_size=3, seed=1, dtype=np.float64)
    lstm.x2h.b.data[...] = np.random.default_rng(2).standard_normal(4 * H)
    cell = torch.nn.LSTMCell(3, H, dtype=torch.float64)
    with torch.no_grad():
        cell.weight_ih.copy_(torch.tensor(_to_torch_order(lstm.x2h.W.data, H).T))
        cell.weight_hh.copy_(torch.tensor(_to_torch_order(lstm.h2h.W.data, H).T))
        cell.bias_ih.copy_(torch.tensor(_to_torch_order(lstm.x2h.b.data, H)))
        cell.bias_hh.zero_()
    loss, state, tloss = 0, None, 0
    for x in xs:
        y = lstm(x)
        loss = loss + (y * y * y).sum()
        state = cell(torch.tensor(x), state)
        tloss = tloss + (state[0] ** 3).sum()
        np.testing.assert_allclose(y.data, state[0].detach().numpy(), rtol=1e-10)
        np.testing.assert_allclose(lstm.c.data, state[1].detach().numpy(), rtol=1e-10)
    loss.backward()
    tloss.backward()
    for ours, theirs in [
        (lstm.x2h.W.grad, cell.weight_ih.grad),
        (lstm.h2h.W.grad, cell.weight_hh.grad),
        (lstm.x2h.b.grad, cell.bias_ih.grad),
    ]:
        np.testing.assert_allclose(_to_torch_order(ours, H).T, theirs.numpy(), rtol=1e-9)


def test_rnn_with_in_size_runs_many_steps_and_reset_state_starts_over():
    rnn = RNN(10, in_size=1, seed=0)
    first = rnn(np.ones((1, 1), np.float32)).data.copy()
    second = rnn(np.ones((1, 1), np.float32))  # 책의 RNN은 여기서 모양 오류
    assert second.shape == (1, 10) and not np.allclose(first, second.data)
    rnn.reset_state()
    np.testing.assert_array_equal(rnn(np.ones((1, 1), np.float32)).data, first)


def test_sin_curve_is_seeded_and_pairs_each_value_with_the_next():
    a, b, c = SinCurve(seed=0), SinCurve(seed=0), SinCurve(seed=1)
    assert len(a) == 999 and a[0][0].shape == (1,)
    np.testing.assert_array_equal(a.data, b.data)
    assert not np.array_equal(a.data, c.data)
    np.testing.assert_array_equal(a.data[1:], a.label[:-1])  # 정답은 다음 시각의 값
    x = np.linspace(0, 2 * np.pi, 1000)
    noise = a.data[:, 0] - np.sin(x[:-1])
    assert np.abs(noise).max() <= 0.05 and np.abs(noise).max() > 0.04
    test = SinCurve(train=False)
    np.testing.assert_allclose(test.data[:, 0], np.cos(x[:-1]))


def test_seq_loader_reads_parallel_streams_in_order():
    data = ArrayDataset(np.arange(10.0)[:, None], np.arange(1.0, 11.0)[:, None])
    loader = SeqDataLoader(data, batch_size=3)
    batches = list(loader)
    assert len(loader) == len(batches) == 3  # 10 // 3 시각; 끝의 하나는 읽지 않습니다.
    starts = [x[:, 0].tolist() for x, _ in batches]
    assert starts == [[0, 3, 6], [1, 4, 7], [2, 5, 8]]
    np.testing.assert_array_equal(batches[0][1][:, 0], [1, 4, 7])
    assert [x[:, 0].tolist() for x, _ in loader] == starts  # 에포크마다 같은 순서(섞지 않음)
    with pytest.raises(ValueError, match="batch_size=11"):
        SeqDataLoader(data, 11)


def _train_truncated(model, loader, epochs, bptt, finish):
    """잘린 역전파의 학습 반복문(책의 60단계를 최종 엔진으로). 에포크마다 (평균 손실, 갱신 수)."""
    optimizer = Adam(model.parameters(), lr=0.01)
    history = []
    for _ in range(epochs):
        model.rnn.reset_state()
        loss, count, updates = 0, 0, 0
        for x, t in loader:
            loss = loss + mean_squared_error(model(x), t)
            count += 1
            if count % bptt == 0 or count == len(loader):
                model.cleargrads()
                finish(loss)
                optimizer.step()
                updates += 1
                loss = 0
        history.append(updates)
    return history


@pytest.mark.parametrize("cut", ["unchain_backward", "detach"])
def test_truncated_bptt_updates_every_window_including_the_last(cut):
    from tinygrad_ko.nn.layers import Layer, Linear

    class Model(Layer):
        def __init__(self):
            self.rnn = LSTM(8, seed=0, dtype=np.float64)
            self.fc = Linear(1, seed=0, dtype=np.float64)

        def forward(self, x):
            return self.fc(self.rnn(x))

    def with_unchain(loss):
        loss.backward(retain_graph=True)  # 그래프를 남겨 두었다가 끊으며 놓아 줍니다.
        loss.unchain_backward()

    def with_detach(loss):
        loss.backward()
        model.rnn.h, model.rnn.c = model.rnn.h.detach(), model.rnn.c.detach()

    model = Model()
    loader = SeqDataLoader(SinCurve(seed=0), batch_size=30)
    finish = with_unchain if cut == "unchain_backward" else with_detach
    assert _train_truncated(model, loader, 2, 10, finish) == [4, 4]  # 33시각: 10, 20, 30, 33


def test_a_state_left_attached_across_windows_is_told_to_detach_it():
    """LSTM의 c를 떼어 내지 않고 다음 창을 역전파하면, 해제된 그래프 메시지가 retain_graph만이 아니라
    상태를 detach()하라고도 알려야 합니다(잘린 역전파에서 retain_graph=True는 앞 창의 그래프를 계속 붙잡는
    틀린 처방입니다)."""
    lstm = LSTM(3, in_size=1, seed=0)
    x = np.ones((1, 1), np.float32)
    (lstm(x).sum() + lstm(x).sum()).backward()
    lstm.h = lstm.h.detach()  # c는 떼어 내지 않습니다.
    with pytest.raises(RuntimeError, match=r"detach\(\)") as info:
        (lstm(x).sum() + lstm(x).sum()).backward()
    # 같은 그래프를 두 번 역전파할 때의 처방도 남습니다.
    assert "retain_graph=True" in str(info.value)


@pytest.mark.parametrize("cls", [RNN, LSTM])
def test_a_batch_size_change_without_reset_state_is_refused(cls):
    """상태가 배치 2인데 배치 1을 넣으면 예전에는 조용히 (2, H)로 브로드캐스트했습니다(배치 4는 NumPy 문장)."""
    layer = cls(5, seed=0)
    layer(np.zeros((2, 3), np.float32))
    for batch in (1, 4):
        with pytest.raises(ValueError, match=rf"\({batch}, 3\).*\(2, 5\).*reset_state\(\)"):
            layer(np.zeros((batch, 3), np.float32))
    layer.reset_state()
    assert layer(np.zeros((1, 3), np.float32)).shape == (1, 5)


@pytest.mark.parametrize("cls", [RNN, LSTM])
def test_one_step_input_is_1d_or_2d_like_torch_cells(cls):
    """PyTorch의 RNNCell, LSTMCell처럼 배치 축 없는 (입력 크기,)는 (은닉 크기,)를 내고, 3차원은 거절합니다.
    예전에는 LSTM이 1차원에서 IndexError, 3차원에서 조용히 틀린 모양 (2, 0, 20)을 냈습니다."""
    torch_cell = {RNN: torch.nn.RNNCell, LSTM: torch.nn.LSTMCell}[cls](3, 5)
    out = torch_cell(torch.zeros(3))
    out = out[0] if isinstance(out, tuple) else out
    layer = cls(5, seed=0)
    assert layer(np.zeros(3, np.float32)).shape == tuple(out.shape)
    assert layer(np.ones(3, np.float32)).shape == tuple(out.shape)  # 두 번째 시각도
    with pytest.raises((RuntimeError, ValueError)):  # RNNCell은 ValueError, LSTMCell은 RuntimeError
        torch_cell(torch.zeros(2, 3, 3))
    with pytest.raises(ValueError, match=r"받은 모양: \(2, 3, 3\)\(3차원\)"):
        cls(5, seed=0)(np.zeros((2, 3, 3), np.float32))


@pytest.mark.parametrize("train", ["False", 0, None])
def test_sin_curve_refuses_a_train_flag_that_is_not_a_bool(train):
    """예전에는 "False"나 0을 그대로 두어 "False"가 학습용(잡음 있는) 곡선을 골랐습니다."""
    with pytest.raises(TypeError, match=rf"train에는 True나 False.*{train!r}"):
        SinCurve(train=train)
    assert SinCurve(train=np.bool_(False)).train is False


def test_seq_loader_names_an_empty_series():
    """예전 문장은 "batch_size를 0 이하로 주세요"였습니다(batch_size는 1 이상이어야 하는데)."""
    with pytest.raises(ValueError, match=r"시계열이 비어 있습니다") as caught:
        SeqDataLoader(ArrayDataset(np.zeros((0, 1))), 1)
    assert "0 이하" not in str(caught.value)
