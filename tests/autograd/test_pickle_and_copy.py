"""pickle과 복사: 변수는 값만 담겨 저장되고(PyTorch와 같음), 그래프에 든 함수와 중간 변수의 deepcopy는 거부합니다."""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest
from korean_messages import korean_instruction

import tinygrad_ko as tg
from tinygrad_ko import Variable


def test_pickling_keeps_values_like_pytorch():
    x = Variable(np.array(2.0), name="x")
    y = tg.square(x)
    x.grad = np.array(1.0)
    restored = pickle.loads(pickle.dumps(y))  # 고치기 전: cannot pickle 'weakref.ReferenceType'
    assert restored.data == 4.0 and restored.creator is None and restored.requires_grad
    leaf = pickle.loads(pickle.dumps(x))
    assert leaf.name == "x" and leaf.grad is None  # PyTorch도 pickle에 grad를 담지 않습니다
    deep = x
    for _ in range(5000):
        deep = deep * 1.0
    assert pickle.loads(pickle.dumps(deep)).data == 2.0  # 고치기 전: RecursionError
    constant = pickle.loads(pickle.dumps(Variable(np.array([1, 2]), requires_grad=False)))
    assert not constant.requires_grad


def test_pickling_a_function_of_a_graph_is_refused_in_korean():
    y = tg.square(Variable(np.array(2.0)))
    with pytest.raises(TypeError, match="pickle") as info:
        pickle.dumps(y.creator)
    korean_instruction(info.value)
    assert pickle.loads(pickle.dumps(tg.Pow(3))).c == 3  # 그래프 밖의 함수는 됩니다


def test_deepcopy_of_an_intermediate_is_refused_and_leaves_copy_fine():
    x = Variable(np.array([2.0]), name="x")
    x.grad = np.array([5.0])
    y = tg.square(x)
    with pytest.raises(RuntimeError, match="deepcopy") as info:
        copy.deepcopy(y)  # 고치기 전: 복사본의 역전파가 'NoneType' ... 오류
    korean_instruction(info.value)
    twin = copy.deepcopy(x)
    assert twin is not x and twin.data is not x.data and twin.grad is not x.grad
    assert (twin.name, twin.data[0], twin.grad[0]) == ("x", 2.0, 5.0)  # PyTorch처럼 grad도 복사
    shallow = copy.copy(y)  # PyTorch처럼 값만 담은 말단 변수
    assert shallow.creator is None and shallow.data[0] == 4.0
