"""합성곱 층 Conv2d와 VGG16의 구조."""

import numpy as np
import pytest
from oracle import import_torch

import tinygrad_ko as tg
from tinygrad_ko.nn.conv import Conv2d
from tinygrad_ko.nn.models import VGG16

torch = import_torch(__name__)


def test_conv2d_layer_infers_in_channels_and_matches_pytorch():
    layer = Conv2d(4, (3, 2), stride=(2, 1), pad=1, seed=0, dtype=np.float64)
    assert layer.W.data is None and layer.b.data.shape == (4,)
    x = np.random.default_rng(0).standard_normal((2, 3, 7, 6))
    y = layer(x)
    assert layer.in_channels == 3 and layer.W.data.shape == (4, 3, 3, 2)
    assert layer.W.data.dtype == np.float64
    layer.b.data[...] = np.arange(4.0)
    y = layer(x)
    y.backward(gradient=np.ones(y.shape))
    conv = torch.nn.Conv2d(3, 4, (3, 2), stride=(2, 1), padding=1, dtype=torch.float64)
    with torch.no_grad():
        conv.weight.copy_(torch.tensor(layer.W.data))
        conv.bias.copy_(torch.tensor(layer.b.data))
    ty = conv(torch.tensor(x))
    ty.sum().backward()
    np.testing.assert_allclose(y.data, ty.detach().numpy(), rtol=1e-10)
    np.testing.assert_allclose(layer.W.grad, conv.weight.grad.numpy(), rtol=1e-10)
    np.testing.assert_allclose(layer.b.grad, conv.bias.grad.numpy(), rtol=1e-10)


def test_conv2d_layer_options():
    a = Conv2d(8, 5, in_channels=2, seed=1)
    b = Conv2d(8, 5, in_channels=2, seed=1)
    np.testing.assert_array_equal(a.W.data, b.W.data)  # 같은 시드, 같은 처음 값
    assert a.W.data.dtype == np.float32 and a.W.data.shape == (8, 2, 5, 5)
    # 표준편차 √(1/(C·KH·KW)) = √(1/50)
    assert abs(a.W.data.std() - np.sqrt(1 / 50)) < 0.03
    nobias = Conv2d(3, 3, bias=False)
    assert nobias.b is None and len(nobias(np.zeros((1, 2, 4, 4), np.float32)).shape) == 4
    assert len(nobias.parameters()) == 1
    with pytest.raises(ValueError, match="out_channels"):
        Conv2d(0, 3)
    with pytest.raises(TypeError, match="kernel_size"):
        Conv2d(3, "3")
    with pytest.raises(ValueError, match=r"4차원.*\(2, 5\)"):
        Conv2d(3, 3)(np.zeros((2, 5), np.float32))


def test_vgg16_is_lazy_and_counts_its_conv_parameters_on_a_small_input():
    model = VGG16(seed=0)
    assert all(
        p.data is None for p in model.parameters() if p.name == "W"
    )  # 만들기만 하면 가볍습니다
    with tg.test_mode(), tg.no_grad():
        y = model(np.zeros((1, 3, 32, 32), np.float32))  # 풀링 다섯 번: 32 → 1
    assert y.shape == (1, 1000)
    conv = sum(p.size for block in model.convs for layer in block for p in layer.parameters())
    assert conv == 14_714_688  # 3×3 합성곱 13개의 (C·9 + 1)·OC를 더한 것
    assert model.fc6.W.data.shape == (512, 4096)


@pytest.mark.slow
def test_vgg16_has_138_357_544_parameters_and_1000_scores_for_a_224_image():
    model = VGG16(seed=0)
    x = VGG16.preprocess(np.full((224, 224, 3), 128, np.uint8))
    assert x.shape == (3, 224, 224) and x.dtype == np.float32
    np.testing.assert_allclose(x[:, 0, 0], 128 - np.array([103.939, 116.779, 123.68]), rtol=1e-6)
    with tg.test_mode(), tg.no_grad():
        y = model(x[np.newaxis])
    assert y.shape == (1, 1000)
    assert sum(p.size for p in model.parameters()) == 138_357_544
