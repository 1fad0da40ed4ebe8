"""텐서 함수에 맞지 않는 모양, 축, 인덱스를 주면 알맞은 예외와, 받은 모양을 밝힌 한국어 메시지로
거부합니다. 거부한 계산은 그래프에 아무것도 남기지 않습니다."""

import re

import numpy as np
import pytest

import tinygrad_ko as tg
from tinygrad_ko import Variable


def x23():
    return Variable(np.arange(6.0).reshape(2, 3))


# (설명, 호출, 예외, 메시지에 있어야 할 조각들)
CASES = [
    ("reshape 원소 수", lambda x: tg.reshape(x, (4,)), ValueError, ["(2, 3)", "(4,)", "원소 6개"]),
    ("reshape -1 두 번", lambda x: x.reshape(-1, -1), ValueError, ["(2, 3)", "(-1, -1)"]),
    ("reshape 실수 모양", lambda x: x.reshape(2.0, 3), TypeError, ["(2.0, 3)"]),
    ("reshape 빈 인수", lambda x: x.reshape(), TypeError, ["reshape"]),
    ("transpose 축 수", lambda x: x.transpose(0, 1, 2), ValueError, ["(0, 1, 2)", "(2, 3)"]),
    ("transpose 겹친 축", lambda x: tg.transpose(x, (0, 0)), ValueError, ["(0, 0)", "(2, 3)"]),
    ("transpose 실수 축", lambda x: tg.transpose(x, (0.5, 1)), TypeError, ["(0.5, 1)"]),
    (
        "sum 범위 밖 축",
        lambda x: tg.sum(x, axis=2),
        ValueError,
        ["axis 2", "(2, 3)", "-2부터 1까지"],
    ),
    ("sum 음수 축 범위 밖", lambda x: x.sum(axis=-3), ValueError, ["axis -3", "(2, 3)"]),
    ("sum 겹친 축", lambda x: tg.sum(x, axis=(0, -2)), ValueError, ["(0, -2)", "두 번"]),
    ("sum 실수 축", lambda x: tg.sum(x, axis=1.0), TypeError, ["1.0"]),
    ("sum keepdims", lambda x: tg.sum(x, keepdims=1), TypeError, ["keepdims", "1"]),
    ("mean 범위 밖 축", lambda x: tg.mean(x, axis=(0, 5)), ValueError, ["(0, 5)", "(2, 3)"]),
    ("max 범위 밖 축", lambda x: tg.max(x, axis=-4), ValueError, ["axis -4", "(2, 3)"]),
    ("max 빈 배열", lambda x: tg.max(Variable(np.ones((0, 3))), axis=0), ValueError, ["(0, 3)"]),
    ("0차원 sum 축", lambda x: tg.sum(Variable(np.array(1.0)), axis=0), ValueError, ["0차원"]),
    ("broadcast_to", lambda x: tg.broadcast_to(x, (4,)), ValueError, ["(2, 3)", "(4,)"]),
    ("broadcast_to 줄이기", lambda x: tg.broadcast_to(x, (3,)), ValueError, ["(2, 3)", "(3,)"]),
    ("sum_to", lambda x: tg.sum_to(x, (4,)), ValueError, ["(2, 3)", "(4,)"]),
    ("sum_to 늘리기", lambda x: tg.sum_to(x, (5, 2, 3)), ValueError, ["(2, 3)", "(5, 2, 3)"]),
    (
        "matmul 안쪽 축",
        lambda x: x @ np.ones((2, 4)),
        ValueError,
        ["(2, 3) @ (2, 4)", "(3)", "(2)"],
    ),
    ("matmul 1차원", lambda x: x @ np.ones(4), ValueError, ["(2, 3) @ (4,)"]),
    ("matmul 0차원", lambda x: tg.matmul(x, np.array(2.0)), ValueError, ["(2, 3)", "()"]),
    (
        "matmul 배치",
        lambda x: tg.matmul(Variable(np.ones((2, 4, 3))), np.ones((5, 3, 1))),
        ValueError,
        ["(2, 4, 3) @ (5, 3, 1)", "(2,)", "(5,)"],
    ),
    ("matmul 리스트", lambda x: x @ [[1.0], [2.0], [3.0]], TypeError, ["list"]),
    (
        "linear 편향",
        lambda x: tg.linear(x, np.ones((3, 4)), np.ones(3)),
        ValueError,
        ["(3,)", "(2, 4)"],
    ),
    ("linear W", lambda x: tg.linear(x, np.ones((2, 4))), ValueError, ["(2, 3) @ (2, 4)"]),
    ("get_item 범위", lambda x: x[2], IndexError, ["(2, 3)", "2"]),
    ("get_item 팬시 범위", lambda x: x[:, [0, 3]], IndexError, ["(2, 3)", "[0, 3]"]),
    ("get_item 실수", lambda x: x[0.5], IndexError, ["(2, 3)", "0.5"]),
    ("get_item 마스크 모양", lambda x: x[np.array([True, False, True])], IndexError, ["(2, 3)"]),
    (
        "mse 모양",
        lambda x: tg.mean_squared_error(x.reshape(6), np.ones((6, 1))),
        ValueError,
        ["(6,)", "(6, 1)"],
    ),
    ("clip 경계 순서", lambda x: tg.clip(x, 1.0, 0.0), ValueError, ["1.0", "0.0"]),
    ("clip 경계 없음", lambda x: tg.clip(x, None, None), ValueError, ["None"]),
    ("clip 경계 타입", lambda x: tg.clip(x, "0", 1.0), TypeError, ["str"]),
]


@pytest.mark.parametrize(("what", "call", "error", "pieces"), CASES, ids=[c[0] for c in CASES])
def test_bad_shapes_and_axes_are_refused_in_korean(what, call, error, pieces):
    x = x23()
    with pytest.raises(error) as info:
        call(x)
    message = str(info.value)
    for piece in pieces:
        assert piece in message, f"{what}: 메시지에 {piece!r}가 없습니다: {message}"
    assert re.search(r"세요[.)]?", message), f"{what}: 할 일을 -세요로 알려야 합니다: {message}"
    assert x.creator is None and x.grad is None


def test_iteration_stops_at_the_end_of_the_first_axis():
    x = x23()
    assert [row.data.tolist() for row in x] == [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]
    with pytest.raises(TypeError):
        list(Variable(np.array(1.0)))  # 0차원은 ndarray처럼 나열할 수 없습니다.


def test_class_call_with_unmatched_matmul_shapes_is_still_a_value_error():
    with pytest.raises(ValueError, match=r"\(2, 3\)"):
        tg.MatMul()(x23(), np.ones((2, 4)))


BROADCAST_PAIRS = [
    ((2, 3), (2, 1)),  # 뒤쪽 축 3과 1: "같거나 1"이지만 1은 목표 쪽에 있어 늘릴 수 없습니다.
    ((2, 3), (3,)),  # 목표의 축이 모자랍니다.
    ((2, 3), (4,)),
    ((3, 1), (2, 3, 4)),
    ((1, 3), (2, 3)),
    ((3,), (2, 3)),
    ((2, 1), (2, 5)),
]


def _advice_allows(x_shape, shape):
    """메시지가 말하는 조건: 목표의 축이 같거나 더 많고, 뒤쪽부터 맞춘 입력의 각 축이 1이거나 목표와 같음."""
    if len(shape) < len(x_shape):
        return False
    return all(a in (1, b) for a, b in zip(reversed(x_shape), reversed(shape), strict=False))


@pytest.mark.parametrize(("x_shape", "shape"), BROADCAST_PAIRS)
def test_broadcast_to_message_states_the_one_way_rule(x_shape, shape):
    """rev47C F1: 옛 조언("크기가 같거나 1인 모양")은 (2, 3) -> (2, 1)도 허락해 틀렸습니다.
    메시지는 broadcast_to가 한쪽으로만 늘린다는 조건을 말하고, 그 조건이 실제 성공 여부와 맞아야 합니다."""
    x = Variable(np.ones(x_shape))
    if _advice_allows(x_shape, shape):
        assert tg.broadcast_to(x, shape).shape == shape
        return
    with pytest.raises(ValueError) as info:
        tg.broadcast_to(x, shape)
    message = str(info.value)
    assert "크기가 같거나 1인 모양으로" not in message
    assert "늘리기만" in message
    assert "축이 입력과 같거나 더 많" in message
    assert "입력의 각 축이 1이거나 목표 모양의 같은 자리 축과 같" in message
