"""55~60단계 스냅숏: 책의 값과 모양, 그리고 책의 결함(스냅숏은 책처럼 실패하고 최종 엔진은 맞음)."""

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest
from oracle import import_torch

import tinygrad_ko as tg
from tinygrad_ko.data import datasets
from tinygrad_ko.nn import rnn
from tinygrad_ko.steps import step46, step55, step57, step58, step59, step60
from tinygrad_ko.steps.step43 import Variable

torch = import_torch(__name__)


def test_step55_output_size_prints_4_4():
    H, W, KH, KW, SH, SW, PH, PW = 4, 4, 3, 3, 1, 1, 1, 1
    assert (step55.get_conv_outsize(H, KH, SH, PH), step55.get_conv_outsize(W, KW, SW, PW)) == (
        4,
        4,
    )
    assert step55.get_conv_outsize(3, 5, 1, 0) == -1  # 검사하지 않음(최종 엔진은 ValueError)


def test_step57_prints_the_books_shapes():
    np.random.seed(0)
    assert step57.im2col(np.random.rand(1, 3, 7, 7), kernel_size=5, stride=1, pad=0).shape == (
        9,
        75,
    )
    assert step57.im2col(np.random.rand(10, 3, 7, 7), (5, 5), (1, 1), (0, 0)).shape == (90, 75)
    x = Variable(np.random.randn(1, 5, 15, 15))
    y = step57.conv2d_simple(x, np.random.randn(8, 5, 3, 3), b=None, stride=1, pad=1)
    y.backward()
    assert y.shape == (1, 8, 15, 15) and x.grad.shape == (1, 5, 15, 15)


@pytest.mark.parametrize("fn", ["conv2d", "conv2d_simple"])
def test_step57_convolution_matches_pytorch_and_the_final_engine(fn):
    rng = np.random.default_rng(0)
    x, W, b = (
        rng.standard_normal((2, 3, 7, 6)),
        rng.standard_normal((4, 3, 3, 2)),
        rng.standard_normal(4),
    )
    vs = [Variable(a.copy()) for a in (x, W, b)]
    y = getattr(step57, fn)(*vs, stride=(2, 1), pad=(1, 0))
    y.backward()
    ts = [torch.tensor(a, requires_grad=True) for a in (x, W, b)]
    ty = torch.nn.functional.conv2d(*ts, stride=(2, 1), padding=(1, 0))
    ty.sum().backward()
    np.testing.assert_allclose(y.data, ty.detach().numpy(), rtol=1e-10)
    for v, t in zip(vs, ts, strict=True):
        np.testing.assert_allclose(v.grad.data, t.grad.numpy(), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(tg.conv2d(x, W, b, (2, 1), (1, 0)).data, y.data, rtol=1e-12)


def test_step57_conv2d_second_order_through_deconv_and_gradw():
    rng = np.random.default_rng(1)
    x, W = rng.standard_normal((1, 2, 5, 5)), rng.standard_normal((3, 2, 3, 3))
    xv, Wv = Variable(x.copy()), Variable(W.copy())
    y = step57.conv2d(xv, Wv, stride=2, pad=1)
    (y * y).sum().backward(create_graph=True)
    gx = xv.grad
    xv.cleargrad()
    Wv.cleargrad()
    (gx * gx).sum().backward()
    xt, Wt = (torch.tensor(a, requires_grad=True) for a in (x, W))
    yt = torch.nn.functional.conv2d(xt, Wt, stride=2, padding=1)
    (gxt,) = torch.autograd.grad((yt * yt).sum(), [xt], create_graph=True)
    (gxt * gxt).sum().backward()
    np.testing.assert_allclose(Wv.grad.data, Wt.grad.numpy(), rtol=1e-10)


def test_step57_max_pooling_pads_with_zero_unlike_pytorch():
    x = -np.ones((1, 1, 2, 2))
    np.testing.assert_array_equal(step57.pooling(x, 2, 2, 1).data, np.zeros((1, 1, 2, 2)))
    np.testing.assert_array_equal(tg.pooling(x, 2, 2, 1).data, -np.ones((1, 1, 2, 2)))


def test_step57_average_pooling_backward_fails_on_a_rectangular_kernel():
    x = np.random.default_rng(2).standard_normal((1, 2, 6, 5))
    square = Variable(x.copy())
    step57.average_pooling(square, 2, 2).backward()  # 정사각형 커널은 됩니다
    covered = np.zeros(x.shape)
    covered[:, :, :6, :4] = 0.25  # 2×2 창 여섯 개가 덮는 자리(마지막 열은 창 밖)
    np.testing.assert_allclose(square.grad.data, covered)
    y = step57.average_pooling(Variable(x.copy()), (3, 2), 1)
    with pytest.raises(IndexError):
        y.backward()  # KW, KH를 거꾸로 풀어 gcol의 축이 바뀝니다
    v = tg.Variable(x.copy())
    tg.average_pooling(v, (3, 2), 1).sum().backward()
    t = torch.tensor(x, requires_grad=True)
    torch.nn.functional.avg_pool2d(t, (3, 2), 1).sum().backward()
    np.testing.assert_allclose(v.grad, t.grad.numpy(), rtol=1e-12)


def test_step58_conv2d_layer_and_vgg16_without_pretrained_weights():
    np.random.seed(0)
    layer = step58.Conv2d(4, kernel_size=3, pad=1)
    y = layer(np.random.rand(2, 3, 5, 5).astype(np.float32))
    assert y.shape == (2, 4, 5, 5) and layer.W.data.shape == (4, 3, 3, 3)
    with pytest.raises(RuntimeError, match="553 MB"):
        step58.VGG16(pretrained=True)
    image = np.zeros((224, 224, 3), np.uint8)
    image[..., 0] = 200  # 빨강 → BGR에서는 마지막 채널
    x = step58.VGG16.preprocess(image)
    assert x.shape == (3, 224, 224)
    np.testing.assert_allclose(x[:, 0, 0], [-103.939, -116.779, 200 - 123.68], rtol=1e-6)


def test_step59_rnn_with_in_size_fails_on_the_second_step_like_the_book():
    layer = step59.RNN(10, in_size=1)
    layer(np.ones((1, 1)))
    with pytest.raises(ValueError):
        layer(np.ones((1, 1)))  # h2h가 (1, 10) 가중치를 기다립니다
    final = rnn.RNN(10, in_size=1)
    final(np.ones((1, 1), np.float32))
    assert final(np.ones((1, 1), np.float32)).shape == (1, 10)


def test_step59_sin_curve_noise_follows_the_global_random_state():
    np.random.seed(0)
    a = step59.SinCurve(train=True)
    b = step59.SinCurve(train=True)
    assert not np.array_equal(a.data, b.data)  # 시드를 정하지 않으면 실행마다 다름
    np.random.seed(0)
    np.testing.assert_array_equal(step59.SinCurve(train=True).data, a.data)
    np.testing.assert_array_equal(datasets.SinCurve(seed=3).data, datasets.SinCurve(seed=3).data)


def test_step59_unchain_backward_cuts_every_variable_before_loss():
    x = Variable(np.array(1.0))
    h = (x * 2.0) * 3.0
    loss = h * h
    loss.unchain_backward()
    assert h.creator is None and loss.creator is not None


def test_step60_alone_trains_because_it_builds_on_step59():
    # 60단계의 train은 59단계가 Variable에 더한 unchain_backward를 부릅니다. 60단계 모듈만 가져와도
    # 돌아야 하므로 새 인터프리터에서 확인합니다(이 테스트 파일은 59단계를 이미 가져왔습니다).
    script = textwrap.dedent(
        """
        import numpy as np
        from tinygrad_ko.steps import step46, step60

        class Waves:
            x = np.sin(np.linspace(0, 6, 40)).reshape(-1, 1)
            def __len__(self):
                return 39
            def __getitem__(self, i):
                return self.x[i], self.x[i + 1]

        np.random.seed(0)
        model = step60.BetterRNN(4, 1)
        loader = step60.SeqDataLoader(Waves(), batch_size=3)
        step60.train(model, step46.Adam().setup(model), loader, seqlen=39, max_epoch=1, bptt_length=5)
        print("trained")
        """
    )
    src = Path(tg.__file__).resolve().parents[1]
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(src), os.environ.get("PYTHONPATH", "")]),
    }
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, env=env
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.strip() == "trained"


def test_step59_trains_then_the_plot_code_fails_on_numpy_2():
    np.random.seed(0)
    train_set = step59.SinCurve(train=True)
    model = step59.SimpleRNN(10, 1)
    history = step59.train(model, step46.Adam().setup(model), train_set, max_epoch=2)
    assert len(history) == 2 and history[1] < history[0]
    with pytest.raises(TypeError, match="0-dimensional"):
        step59.predict_cos(model)  # float(y.data)의 y.data가 (1, 1)


class CountingAdam(step46.Adam):
    def __init__(self):
        super().__init__()
        self.updates = 0

    def update(self):
        self.updates += 1
        super().update()


def test_step60_never_backpropagates_the_last_iterations_of_an_epoch():
    np.random.seed(0)
    train_set = step59.SinCurve(train=True)
    loader = step60.SeqDataLoader(train_set, batch_size=30)
    assert loader.max_iter == 34  # ceil(999 / 30)
    model = step60.BetterRNN(8, 1)
    optimizer = CountingAdam().setup(model)
    step60.train(model, optimizer, loader, len(train_set), max_epoch=1)
    assert optimizer.updates == 1  # 30번째에서 한 번; 31~34번째 반복은 버려집니다(고치면 2번)


def test_step60_book_condition_is_true_only_with_one_stream():
    # count는 ceil(n / batch_size)까지만 가므로 count == seqlen(= n)은 batch_size=1일 때만 참입니다.
    class Zeros(step59.SinCurve):
        def prepare(self):
            self.data = np.zeros((35, 1))
            self.label = np.zeros((35, 1))

    np.random.seed(0)
    updates = []
    for batch_size in (1, 2, 3):
        model = step60.BetterRNN(4, 1)
        optimizer = CountingAdam().setup(model)
        step60.train(model, optimizer, step60.SeqDataLoader(Zeros(), batch_size), 35, max_epoch=1)
        updates.append(optimizer.updates)
    # 30번째와 35번째에 갱신 / 한 에포크가 18, 12시각이라 한 번도 갱신하지 않음
    assert updates == [2, 0, 0]


def test_step60_seq_loader_reads_the_next_streams_first_sample_at_the_end():
    class Numbers(step59.SinCurve):
        def prepare(self):
            self.data = np.arange(10)
            self.label = np.arange(10)

    batches = [x.tolist() for x, _ in step60.SeqDataLoader(Numbers(), 3)]
    assert batches == [[0, 3, 6], [1, 4, 7], [2, 5, 8], [3, 6, 9]]  # 마지막 시각이 겹침


def test_step60_lstm_matches_the_final_lstm_with_the_same_weights():
    np.random.seed(0)
    book = step60.LSTM(4, in_size=2)
    final = rnn.LSTM(4, in_size=2, dtype=np.float64)
    # 책의 게이트별 Linear 8개를 최종 엔진의 쌓은 가중치 두 개(열 순서 f, i, o, u)로 옮깁니다.
    for side, target in (("x", final.x2h), ("h", final.h2h)):
        blocks = [getattr(book, f"{side}2{g}").W.data for g in "fiou"]
        target.W.data = np.concatenate(blocks, axis=1).astype(np.float64)
    xs = np.random.default_rng(3).standard_normal((3, 5, 2))
    for x in xs:
        np.testing.assert_allclose(book(x).data, final(x).data, rtol=1e-10)
