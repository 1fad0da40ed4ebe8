"""NumPy 백엔드의 코드 생성: 커널 하나를 NumPy 함수를 차례로 부르는 파이썬 함수의 소스로 씁니다.

컴파일러가 없어도 늘 돕니다. 원소별 함수마다 배열을 한 번 훑으므로 융합의 이득(한 번만 훑기)은 없지만,
메모리 계획으로 중간값을 출력 버퍼와 임시 버퍼 몇 개에 돌려 씁니다(`out=`). 계산은 즉시 실행하는
NumPy와 같은 함수, 같은 순서이므로 결과도 원소마다 같습니다.

생성한 함수는 `kernel(out, in0, in1, ...)`이고, `in0`...은 부르는 쪽이 커널의 반복 모양으로 만든 뷰입니다.
"""

from __future__ import annotations

import numpy as np

from .graph import bits
from .memory import assign_slots
from .scheduler import Kernel

# 원소별 연산 -> NumPy 함수. relu는 최종 엔진의 ReLU.forward와 같은 np.maximum(x, 0)입니다.
UFUNCS = {
    "neg": "np.negative",
    "exp": "np.exp",
    "log": "np.log",
    "relu": "np.maximum",
    "not": "np.logical_not",
    "add": "np.add",
    "sub": "np.subtract",
    "mul": "np.multiply",
    "div": "np.divide",
    "cmple": "np.less_equal",
}
DTYPE_NAMES = {np.dtype(np.float32): "np.float32", np.dtype(np.float64): "np.float64"}


def number(value: float, dtype: np.dtype) -> str:
    """수를 소스에 적는 방법. repr는 같은 float로 정확히 되돌아옵니다(파이썬이 보장). inf와 NaN은 이름으로.

    NaN은 `np.nan`과 비트가 다르면(부호나 payload) 그 비트를 그대로 적습니다. 수의 비트를 바꾸지 않습니다.
    """
    if value != value:
        pattern = bits(value)
        text = "np.nan" if pattern == bits(np.nan) else f"np.uint64({pattern:#x}).view(np.float64)"
    elif value in (float("inf"), float("-inf")):
        text = "np.inf" if value > 0 else "-np.inf"
    else:
        text = repr(float(value))
    return f"{DTYPE_NAMES[dtype]}({text})"


def render(kernel: Kernel) -> str:
    n = len(kernel.stmts)
    names = {}
    for i, (op, _, dtype, arg) in enumerate(kernel.stmts):
        if op == "load":
            names[i] = f"in{arg}"
        elif op == "const":
            names[i] = number(arg, dtype)
    # --8<-- [start:out-kind]
    # 중간값의 버퍼 계획. 원소별 커널이면 출력 버퍼를 0번으로 주어, dtype이 출력과 같은 중간값에도 씁니다.
    # where는 새 배열을 만듭니다(종류 None).
    out_kind = None if kernel.axes is not None else (kernel.stmts[-1][2], kernel.shape)
    steps = [
        (i, args, None if op == "where" else (dtype, kernel.shape))
        for i, (op, args, dtype, _) in enumerate(kernel.stmts)
        if op not in ("load", "const")
    ]
    slots, kinds = assign_slots(steps, in_place=True, given=out_kind)
    # --8<-- [end:out-kind]
    first_temp = 1 if out_kind is not None else 0
    lines = [f"def kernel(out, {', '.join(f'in{j}' for j in range(len(kernel.loads)))}):"]
    lines[0] = lines[0].replace(", )", ")")
    for slot in range(first_temp, len(kinds)):
        dtype, shape = kinds[slot]
        lines.append(f"    t{slot} = np.empty({shape}, np.{dtype.name})")
    for i, (op, args, _, _) in enumerate(kernel.stmts):
        if op in ("load", "const"):
            continue
        last = i == n - 1 and kernel.axes is None
        slot = slots[i]
        target = "out" if last or (slot == 0 and out_kind is not None) else f"t{slot}"
        operands = [names[a] for a in args]
        if op == "relu":
            operands.append("0")
        if op == "where":
            call = f"np.where({', '.join(operands)})"
            lines.append(f"    np.copyto(out, {call})" if last else f"    v{i} = {call}")
            names[i] = "out" if last else f"v{i}"
            continue
        lines.append(f"    {UFUNCS[op]}({', '.join(operands)}, out={target})")
        names[i] = target
    result = names[n - 1]
    if kernel.axes is not None:
        lines.append(f"    np.sum({result}, axis={kernel.axes}, keepdims=True, out=out)")
    elif kernel.stmts[-1][0] in ("load", "const"):
        lines.append(f"    np.copyto(out, {result})")
    return "\n".join(lines) + "\n"
