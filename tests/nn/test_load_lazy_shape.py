"""아직 입력을 받지 않은 층(W가 None)에 불러올 때도, 층이 정해 둔 크기(out_size 등)와 맞는지 봅니다.

rev37H 지적 4: bias=False인 Linear(4)에 출력 8개짜리 파일을 불러오면 오류 없이 들어가, 층이 out_size=4라고
말하면서 8개를 내놓았습니다.
"""

import numpy as np
import pytest

from tinygrad_ko.nn.conv import Conv2d
from tinygrad_ko.nn.layers import Linear
from tinygrad_ko.nn.models import Model


class Net(Model):
    def __init__(self, layer):
        self.l0 = layer

    def forward(self, x):
        return self.l0(x)


def saved_file(tmp_path, W):
    path = tmp_path / "w.npz"
    np.savez(path, **{"l0.W": W})
    return path


def test_linear_without_bias_refuses_other_out_size(tmp_path):
    source = Net(Linear(8, bias=False, seed=0))
    source(np.zeros((1, 2)))
    path = tmp_path / "nb.npz"
    source.save_weights(path)
    model = Net(Linear(4, bias=False, seed=0))
    with pytest.raises(ValueError, match="다른 구조") as error:
        model.load_weights(path)
    message = str(error.value)
    assert "l0.W" in message and "(2, 8)" in message and "4)" in message
    assert model.l0.W.data is None  # 바꾸지 않았습니다


@pytest.mark.parametrize("shape", [(8,), (2, 4, 1)], ids=["1d", "3d"])
def test_linear_refuses_other_ndim(tmp_path, shape):
    model = Net(Linear(4, bias=False))
    with pytest.raises(ValueError, match="다른 구조"):
        model.load_weights(saved_file(tmp_path, np.ones(shape, dtype=np.float32)))
    assert model.l0.W.data is None


def test_linear_with_given_in_size_is_already_checked(tmp_path):
    model = Net(Linear(4, in_size=3, bias=False))
    with pytest.raises(ValueError, match=r"모델 \(3, 4\), 파일 \(2, 4\)"):
        model.load_weights(saved_file(tmp_path, np.ones((2, 4), dtype=np.float32)))


def test_linear_takes_any_input_size(tmp_path):
    model = Net(Linear(4, bias=False))
    model.load_weights(saved_file(tmp_path, np.ones((5, 4))))
    assert model.l0.W.data.shape == (5, 4)
    assert model(np.zeros((1, 5))).shape == (1, 4)


def test_conv_without_bias_refuses_other_filters(tmp_path):
    model = Net(Conv2d(4, 3, bias=False))
    with pytest.raises(ValueError, match="다른 구조") as error:
        model.load_weights(saved_file(tmp_path, np.ones((8, 1, 3, 3), dtype=np.float32)))
    assert "(8, 1, 3, 3)" in str(error.value)
    assert model.l0.W.data is None
    model.load_weights(saved_file(tmp_path, np.ones((4, 2, 3, 3), dtype=np.float32)))
    assert model.l0.W.data.shape == (4, 2, 3, 3)


def test_loading_into_an_unseen_layer_sets_its_input_size(tmp_path):
    """불러온 W의 모양이 입력 크기를 정하므로, 층이 말하는 in_size·in_channels도 그 값입니다(고치기 전: None)."""
    source = Net(Linear(4, seed=0))
    source(np.zeros((1, 3)))
    source.save_weights(tmp_path / "l.npz")
    model = Net(Linear(4, seed=0))
    model.load_weights(tmp_path / "l.npz")
    assert model.l0.in_size == 3 and repr(model.l0) == "Linear(in_size=3, out_size=4)"

    source = Net(Conv2d(2, 3, seed=0))
    source(np.zeros((1, 5, 4, 4)))
    source.save_weights(tmp_path / "c.npz")
    model = Net(Conv2d(2, 3, seed=0))
    model.load_weights(tmp_path / "c.npz")
    assert model.l0.in_channels == 5 and repr(model.l0).startswith("Conv2d(in_channels=5,")
