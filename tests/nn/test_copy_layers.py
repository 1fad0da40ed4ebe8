"""층과 모델의 복사(copy.deepcopy)와 pickle: 매개변수는 복사본에서도 Parameter입니다(PyTorch의 nn.Parameter처럼).

타깃 네트워크나 EMA 사본처럼 모델을 통째로 복사해 따로 학습시키는 코드가 이것에 기댑니다.
"""

import copy
import pickle

import numpy as np
import pytest
from oracle import import_torch

from tinygrad_ko import Parameter, Variable
from tinygrad_ko.nn.layers import Linear
from tinygrad_ko.nn.models import MLP
from tinygrad_ko.optimizers import SGD


def deepcopy(model):
    return copy.deepcopy(model)


def pickled(model):
    return pickle.loads(pickle.dumps(model))


def built_mlp():
    model = MLP((4, 3), dtype=np.float64, seed=0)
    model(np.ones((2, 5)))
    return model


@pytest.mark.parametrize("duplicate", [deepcopy, pickled])
def test_copy_keeps_parameters(duplicate):
    model = built_mlp()
    twin = duplicate(model)
    names = [name for name, _ in model.named_parameters()]
    assert [name for name, _ in twin.named_parameters()] == names and len(names) == 4
    for (_, a), (_, b) in zip(model.named_parameters(), twin.named_parameters(), strict=True):
        assert type(b) is Parameter and b is not a and b.data is not a.data
        np.testing.assert_array_equal(a.data, b.data)


@pytest.mark.parametrize("duplicate", [deepcopy, pickled])
def test_optimizer_on_the_copy_changes_the_copy_only(duplicate):
    model = built_mlp()
    twin = duplicate(model)
    before = [p.data.copy() for p in model.parameters()]
    loss = (twin(np.ones((2, 5))) ** 2).sum()
    loss.backward()
    SGD(twin.parameters(), lr=0.1).step()
    changed = [
        not np.array_equal(p.data, b) for p, b in zip(twin.parameters(), before, strict=True)
    ]
    assert all(changed)
    for p, b in zip(model.parameters(), before, strict=True):
        np.testing.assert_array_equal(p.data, b)  # 원래 모델은 그대로
        assert p.grad is None


@pytest.mark.parametrize("duplicate", [deepcopy, pickled])
def test_save_weights_of_the_copy_writes_every_parameter(duplicate, tmp_path):
    twin = duplicate(built_mlp())
    twin.save_weights(tmp_path / "twin.npz")
    with np.load(tmp_path / "twin.npz") as saved:
        assert sorted(saved.files) == sorted(name for name, _ in twin.named_parameters())
        assert len(saved.files) == 4


def test_copy_of_an_unbuilt_linear_builds_its_own_weights():
    layer = Linear(3, seed=0)
    twin = copy.deepcopy(layer)
    assert type(twin.W) is Parameter and twin.W.data is None
    twin(np.ones((1, 2), dtype=np.float32))
    assert twin.W.data.shape == (2, 3) and layer.W.data is None


def test_copies_of_a_parameter_start_without_gradient_like_torch():
    torch = import_torch(__name__)
    w = Parameter(np.array([1.0, 2.0]), name="w")
    w.grad = np.array([0.5, -0.5])
    tw = torch.nn.Parameter(torch.tensor([1.0, 2.0], dtype=torch.float64))
    tw.grad = torch.tensor([0.5, -0.5], dtype=torch.float64)
    ours, theirs = copy.deepcopy(w), copy.deepcopy(tw)
    assert type(ours) is Parameter and type(theirs) is torch.nn.Parameter
    assert (
        ours.grad is None and theirs.grad is None
    )  # nn.Parameter.__deepcopy__는 grad를 담지 않습니다
    v = Variable(np.array([1.0, 2.0]))
    v.grad = np.array([0.5, -0.5])
    t = torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True)
    t.grad = torch.tensor([0.5, -0.5], dtype=torch.float64)
    np.testing.assert_array_equal(copy.deepcopy(v).grad, copy.deepcopy(t).grad.numpy())
    restored = pickled(w)
    assert type(restored) is Parameter and restored.grad is None and restored.name == "w"
    assert type(pickled(Variable(np.array(1.0)))) is Variable
    assert type(copy.copy(w)) is Parameter
