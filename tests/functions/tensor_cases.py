"""텐서 함수 테스트가 함께 쓰는 무작위 사례(hypothesis)와, 같은 계산을 두 엔진으로 하는 어댑터.

사례 하나는 (이름, 입력 배열들, 계산)입니다. 계산은 `calc(lib, *xs)` 모양의 함수라서, lib에
`TG`(tinygrad_ko)를 주면 tinygrad_ko로, `torch_ops(torch)`를 주면 PyTorch로 같은 계산을 합니다.
수치 미분과 비교하는 test_tensor_functions.py와 PyTorch와 비교하는 test_tensor_oracle.py가 씁니다.
"""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
from hypothesis import assume
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import tinygrad_ko as tg

# --- 두 엔진의 같은 연산 -------------------------------------------------------------------
TG = SimpleNamespace(
    reshape=tg.reshape,
    transpose=tg.transpose,
    sum=tg.sum,
    mean=tg.mean,
    max=tg.max,
    min=tg.min,
    broadcast_to=tg.broadcast_to,
    sum_to=tg.sum_to,
    matmul=tg.matmul,
    get_item=tg.get_item,
    linear=tg.linear,
    sigmoid=tg.sigmoid,
    relu=tg.relu,
    clip=tg.clip,
    mse=tg.mean_squared_error,
    tanh=tg.tanh,
    add=tg.add,
    sub=tg.sub,
    mul=tg.mul,
    div=tg.div,
    exp=tg.exp,
)


def torch_ops(torch):
    """TG와 같은 이름, 같은 인수로 PyTorch의 연산을 부르는 어댑터."""

    def dims(x, axis):
        return tuple(range(x.dim())) if axis is None else axis

    def index(i):
        if isinstance(i, np.ndarray):
            return torch.from_numpy(i)
        if isinstance(i, tuple):
            return tuple(index(part) for part in i)
        return i

    return SimpleNamespace(
        reshape=lambda x, shape: x.reshape(shape),
        transpose=lambda x, axes=None: x.permute(
            tuple(reversed(range(x.dim()))) if axes is None else axes
        ),
        sum=lambda x, axis=None, keepdims=False: x.sum(dim=dims(x, axis), keepdim=keepdims),
        mean=lambda x, axis=None, keepdims=False: x.mean(dim=dims(x, axis), keepdim=keepdims),
        max=lambda x, axis=None, keepdims=False: torch.amax(x, dim=dims(x, axis), keepdim=keepdims),
        min=lambda x, axis=None, keepdims=False: torch.amin(x, dim=dims(x, axis), keepdim=keepdims),
        broadcast_to=lambda x, shape: torch.broadcast_to(x, shape),
        sum_to=lambda x, shape: x.sum_to_size(shape) if shape else x.sum(),
        matmul=torch.matmul,
        get_item=lambda x, i: x[index(i)],
        linear=lambda x, W, b=None: x @ W if b is None else x @ W + b,
        sigmoid=torch.sigmoid,
        relu=torch.relu,
        clip=lambda x, lo, hi: torch.clamp(x, lo, hi),
        mse=torch.nn.functional.mse_loss,
        tanh=torch.tanh,
        add=torch.add,
        sub=torch.sub,
        mul=torch.mul,
        div=torch.div,
        exp=torch.exp,
    )


# --- 무작위 사례 --------------------------------------------------------------------------
shapes = hnp.array_shapes(min_dims=0, max_dims=4, min_side=1, max_side=4)
nonempty_shapes = hnp.array_shapes(min_dims=1, max_dims=4, min_side=1, max_side=4)
seeds = st.integers(0, 2**32 - 1)


def uniform(seed: int, *shapes_: tuple[int, ...], low: float = -2.0, high: float = 2.0) -> list:
    rng = np.random.default_rng(seed)
    return [rng.uniform(low, high, shape) for shape in shapes_]


@st.composite
def axes_for(draw, ndim: int):
    """None, 정수 하나(음수 포함), 또는 비지 않은 축 튜플(음수 포함)."""
    if ndim == 0:
        return None
    return draw(
        st.one_of(
            st.none(),
            st.integers(-ndim, ndim - 1),
            hnp.valid_tuple_axes(ndim, min_size=1),
        )
    )


@st.composite
def reshape_cases(draw):
    shape = draw(shapes)
    size = int(np.prod(shape))
    options = [(size,), (-1,), tuple(reversed(shape)), (1, *shape, 1)]
    if len(shape) >= 2:
        options += [(shape[0], -1), (-1, shape[-1]), (*shape[:-2], shape[-2] * shape[-1])]
    target = draw(st.sampled_from(options))
    (x,) = uniform(draw(seeds), shape)
    return f"reshape{shape}->{target}", [x], lambda lib, x: lib.reshape(x, target)


@st.composite
def transpose_cases(draw):
    shape = draw(shapes)
    axes = draw(st.one_of(st.none(), st.permutations(range(len(shape))).map(tuple)))
    if axes is not None and draw(st.booleans()):  # 음수 축도 섞습니다.
        axes = tuple(a - len(shape) for a in axes)
    (x,) = uniform(draw(seeds), shape)
    return f"transpose{shape},{axes}", [x], lambda lib, x: lib.transpose(x, axes)


@st.composite
def reduction_cases(draw, name: str, ties: bool = False):
    shape = draw(nonempty_shapes if name in ("max", "min") else shapes)
    axis = draw(axes_for(len(shape)))
    keepdims = draw(st.booleans())
    seed = draw(seeds)
    if ties:  # 작은 정수만 쓰면 같은 최댓값이 자주 생깁니다.
        x = np.random.default_rng(seed).integers(-2, 3, shape).astype(np.float64)
    else:
        (x,) = uniform(seed, shape)
    return (
        f"{name}{shape},axis={axis},keepdims={keepdims}",
        [x],
        lambda lib, x: getattr(lib, name)(x, axis, keepdims),
    )


@st.composite
def broadcast_to_cases(draw):
    shapes_ = draw(hnp.mutually_broadcastable_shapes(num_shapes=1, min_dims=0, max_dims=4))
    (shape,), target = shapes_.input_shapes, shapes_.result_shape
    target = draw(st.lists(st.integers(1, 3), max_size=2).map(tuple)) + target
    (x,) = uniform(draw(seeds), shape)
    return f"broadcast_to{shape}->{target}", [x], lambda lib, x: lib.broadcast_to(x, target)


@st.composite
def sum_to_cases(draw):
    shape = draw(shapes)
    lead = draw(st.integers(0, len(shape)))
    target = tuple(n if draw(st.booleans()) else 1 for n in shape[lead:])
    (x,) = uniform(draw(seeds), shape)
    return f"sum_to{shape}->{target}", [x], lambda lib, x: lib.sum_to(x, target)


@st.composite
def matmul_cases(draw):
    """np.matmul의 서명 (n?,k),(k,m?)를 따르는 모양: 1차원 피연산자와 배치 브로드캐스트 포함."""
    shapes_ = draw(
        hnp.mutually_broadcastable_shapes(signature=np.matmul.signature, max_dims=2, max_side=4)
    )
    a_shape, b_shape = shapes_.input_shapes
    a, b = uniform(draw(seeds), a_shape, b_shape)
    return f"matmul{a_shape}@{b_shape}", [a, b], lambda lib, a, b: lib.matmul(a, b)


def _no_negative_steps(index) -> bool:
    parts = index if isinstance(index, tuple) else (index,)
    return all(not isinstance(p, slice) or p.step is None or p.step > 0 for p in parts)


@st.composite
def get_item_cases(draw):
    """기본 인덱싱(슬라이스, 정수, None, ...), 겹치는 정수 배열, bool 배열, 섞인 인덱스."""
    shape = draw(nonempty_shapes)
    kind = draw(st.sampled_from(["basic", "fancy", "fancy_axis", "mask"]))
    if kind == "basic":
        index = draw(hnp.basic_indices(shape, allow_newaxis=True, allow_ellipsis=True))
        assume(_no_negative_steps(index))  # PyTorch는 음수 스텝 슬라이스가 없습니다.
    elif kind == "fancy":
        index = draw(
            hnp.integer_array_indices(
                shape, result_shape=hnp.array_shapes(min_dims=1, max_dims=2, max_side=5)
            )
        )
    elif kind == "fancy_axis":  # 한 축에만 정수 배열, 나머지는 슬라이스. 같은 번호가 자주 겹칩니다.
        axis = draw(st.integers(0, len(shape) - 1))
        picks = draw(st.lists(st.integers(-shape[axis], shape[axis] - 1), min_size=1, max_size=6))
        index = (slice(None),) * axis + (np.array(picks),)
    else:
        index = draw(hnp.arrays(np.bool_, shape[: draw(st.integers(1, len(shape)))]))
    (x,) = uniform(draw(seeds), shape)
    return f"get_item{shape}[{index!r}]", [x], lambda lib, x: lib.get_item(x, index)


@st.composite
def linear_cases(draw):
    n, d, h = draw(st.integers(1, 5)), draw(st.integers(1, 4)), draw(st.integers(1, 4))
    with_bias = draw(st.booleans())
    seed = draw(seeds)
    if with_bias:
        x, W, b = uniform(seed, (n, d), (d, h), (h,))
        return f"linear({n},{d})@({d},{h})+b", [x, W, b], lambda lib, x, W, b: lib.linear(x, W, b)
    x, W = uniform(seed, (n, d), (d, h))
    return f"linear({n},{d})@({d},{h})", [x, W], lambda lib, x, W: lib.linear(x, W)


@st.composite
def unary_cases(draw, name: str):
    shape = draw(shapes)
    (x,) = uniform(draw(seeds), shape, low=-3.0, high=3.0)
    if name == "clip":
        return f"clip{shape}", [x], lambda lib, x: lib.clip(x, -1.0, 1.5)
    return f"{name}{shape}", [x], lambda lib, x: getattr(lib, name)(x)


@st.composite
def mse_cases(draw):
    shape = draw(shapes)
    a, b = uniform(draw(seeds), shape, shape)
    return f"mse{shape}", [a, b], lambda lib, a, b: lib.mse(a, b)


@st.composite
def broadcasting_binary_cases(draw):
    """서로 브로드캐스트되는 두 모양의 원소별 이항 연산. 나눗셈의 분모는 exp로 늘 양수입니다."""
    shapes_ = draw(hnp.mutually_broadcastable_shapes(num_shapes=2, min_dims=0, max_dims=4))
    a_shape, b_shape = shapes_.input_shapes
    op = draw(st.sampled_from(["add", "sub", "mul", "div"]))
    a, b = uniform(draw(seeds), a_shape, b_shape)
    if op == "div":
        return f"div{a_shape},{b_shape}", [a, b], lambda lib, a, b: lib.div(a, lib.exp(b))
    return f"{op}{a_shape},{b_shape}", [a, b], lambda lib, a, b: getattr(lib, op)(a, b)


# 이름 -> 사례 전략. 모든 텐서 함수가 여기 있어야 합니다(test_tensor_functions.py가 확인합니다).
CASES = {
    "reshape": reshape_cases(),
    "transpose": transpose_cases(),
    "sum": reduction_cases("sum"),
    "mean": reduction_cases("mean"),
    "max": reduction_cases("max", ties=True),
    "min": reduction_cases("min", ties=True),
    "broadcast_to": broadcast_to_cases(),
    "sum_to": sum_to_cases(),
    "matmul": matmul_cases(),
    "get_item": get_item_cases(),
    "linear": linear_cases(),
    "sigmoid": unary_cases("sigmoid"),
    "relu": unary_cases("relu"),
    "clip": unary_cases("clip"),
    "mean_squared_error": mse_cases(),
    "broadcasting_binary": broadcasting_binary_cases(),
}
