"""load_weights가 불러온 배열의 dtype: 매개변수의 dtype으로 바꿉니다(PyTorch의 load_state_dict처럼).

아직 만들지 않은 매개변수(입력 크기를 첫 호출에서 정하는 Linear의 W)는 층의 dtype을 따릅니다. 예전에는
파일의 dtype을 그대로 받아, 정수 파일이면 requires_grad=True인 정수 매개변수가 생기고 미분값이 0으로
잘렸습니다.
"""

import numpy as np
import pytest
from oracle import import_torch

from tinygrad_ko import Parameter
from tinygrad_ko.nn.layers import Layer, Linear
from tinygrad_ko.nn.models import MLP


def write(path, **arrays):
    np.savez(path, **arrays)
    return path


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16])
def test_unbuilt_linear_takes_its_own_dtype_from_an_integer_file(tmp_path, dtype):
    path = write(tmp_path / "w.npz", W=np.arange(6).reshape(2, 3), b=np.zeros(3, dtype=np.int64))
    layer = Linear(3, dtype=dtype)
    layer.load_weights(path)
    assert layer.W.data.dtype == dtype and layer.b.data.dtype == dtype  # 고치기 전: W는 int64
    np.testing.assert_array_equal(layer.W.data, np.arange(6).reshape(2, 3))
    y = layer(np.ones((1, 2), dtype=dtype))
    (y * y).sum().backward()
    assert layer.W.grad.dtype == dtype and layer.W.grad.any()


def test_unbuilt_linear_matches_torch_lazy_linear(tmp_path):
    torch = import_torch(__name__)
    weight = np.arange(6).reshape(3, 2)  # torch는 (출력, 입력), 이 엔진은 (입력, 출력)
    lazy = torch.nn.LazyLinear(3)
    lazy.load_state_dict(
        {"weight": torch.from_numpy(weight), "bias": torch.zeros(3, dtype=torch.int64)}
    )
    layer = Linear(3)
    layer.load_weights(write(tmp_path / "w.npz", W=weight.T, b=np.zeros(3, dtype=np.int64)))
    assert str(lazy.weight.dtype) == "torch.float32" and layer.W.data.dtype == np.float32
    np.testing.assert_array_equal(layer.W.data, lazy.weight.detach().numpy().T)


def test_float64_file_into_a_float32_model_keeps_float32(tmp_path):
    model = MLP((4, 2), seed=0)
    model(np.ones((1, 3), dtype=np.float32))
    saved = {name: p.data.astype(np.float64) for name, p in model.named_parameters()}
    fresh = MLP((4, 2), seed=1)  # 아직 만들지 않은 모델
    fresh.load_weights(write(tmp_path / "m.npz", **saved))
    for name, p in fresh.named_parameters():
        assert p.data.dtype == np.float32, name
        np.testing.assert_array_equal(p.data, saved[name].astype(np.float32))


class Free(Layer):
    """dtype을 정하지 않은 층: 값이 없는 매개변수는 파일의 실수 dtype을 따릅니다."""

    def __init__(self):
        self.w = Parameter(None)


def test_layer_without_dtype_refuses_an_integer_file_and_keeps_float_files(tmp_path):
    layer = Free()
    with pytest.raises(TypeError, match=r"w은\(는\) dtype int64.*실수"):
        layer.load_weights(write(tmp_path / "i.npz", w=np.arange(3)))
    assert layer.w.data is None
    layer.load_weights(write(tmp_path / "f.npz", w=np.arange(3, dtype=np.float16)))
    assert layer.w.data.dtype == np.float16


@pytest.mark.parametrize(
    "bad", [np.array(["a", "b", "c"]), np.array([1 + 2j, 0, 0]), np.array([1, 2, 3], "M8[D]")]
)
def test_non_numeric_arrays_are_refused_and_nothing_changes(tmp_path, bad):
    layer = Linear(3, 1, dtype=np.float64, seed=0)
    before = layer.W.data.copy(), layer.b.data.copy()
    path = write(tmp_path / "bad.npz", W=np.ones((1, 3)), b=bad)
    with pytest.raises(TypeError, match="불러올 수 없습니다"):
        layer.load_weights(path)
    np.testing.assert_array_equal(layer.W.data, before[0])
    np.testing.assert_array_equal(layer.b.data, before[1])


def test_lists_of_layers_find_their_owner(tmp_path):
    class Stack(Layer):
        def __init__(self):
            self.layers = [Linear(2, dtype=np.float64), Linear(1, dtype=np.float16)]

    model = Stack()
    path = write(
        tmp_path / "s.npz",
        **{
            "layers.0.W": np.ones((3, 2), np.int32),
            "layers.0.b": np.zeros(2, np.int32),
            "layers.1.W": np.ones((2, 1), np.int32),
            "layers.1.b": np.zeros(1, np.int32),
        },
    )
    model.load_weights(path)
    assert model.layers[0].W.data.dtype == np.float64 and model.layers[1].W.data.dtype == np.float16
