"""C 백엔드의 코드 생성: 커널 하나를 반복문 하나(융합)로 쓴 C 함수의 소스로 만듭니다.

칸마다 모든 문장을 차례로 계산하고 결과만 씁니다. 중간값은 레지스터에 머물고 메모리에는 가지 않으므로,
원소별 연산 20개가 배열을 한 번만 읽고 한 번만 씁니다.

결과가 NumPy와 원소마다 같도록 지키는 약속:

- 연산은 IEEE의 같은 연산입니다(+ - * /, 부호 바꾸기). 컴파일러가 곱셈과 덧셈을 한 명령(FMA)으로 합치지
  않게 `-ffp-contract=off`로 컴파일하고, `-ffast-math`는 쓰지 않습니다.
- relu는 `(x <= 0 ? 0 : x)`: NumPy의 `np.maximum(x, 0)`처럼 NaN은 그대로, -0.0은 +0.0이 됩니다.
  `fmax()`를 쓰면 gcc가 벡터화하지 않습니다(이 기계에서 20배쯤 느렸습니다).
- 수는 C99의 16진 부동소수점(`0x1.99999ap-4f`)으로 적어 비트 하나 다르지 않게 옮깁니다. 정수인 수는 `2.0f`처럼.
  float32 커널의 수에는 늘 `f`를 붙입니다(붙이지 않으면 double이 되어 그 식 전체를 double로 계산합니다).
- NaN의 비트(부호, 나머지 비트, signaling NaN을 조용한 NaN으로 바꾸는지)는 약속하지 않습니다. 예를 들어 IEEE 754는 산술 연산이 낸 NaN의 부호를 정하지 않으므로, gcc는 `(-x) * c`를
  `x * (-c)`로, `(-x) + c`를 `c - x`로 바꿉니다. 사칙연산, 부호, relu가 낸 NaN이 아닌 값(부호 있는 0 포함)은
  같습니다. 커널 안의 수를 비트로 가르는 스케줄러(`graph.bits`)가 이 약속의 한 몫입니다.
- exp와 log는 이 약속 밖입니다. C 라이브러리(libm)의 `exp`, `expf`, `log`, `logf`를 부르므로 NumPy의
  `np.exp`, `np.log`와 마지막 자리가 다를 수 있습니다(56장의 "지연 엔진이 약속하는 값" 상자: 상대 오차만
  약속합니다).
- 소스에 들어가는 것은 이 모듈이 만든 글자뿐입니다: dtype 이름은 표에서, 모양과 보폭은 정수로, 수는 위의 방법으로.

합(sum)은 칸마다 차례로 더합니다. 마지막 축을 더할 때는 float32도 double 부분합 8개에 모아 더하고, 마지막 축을
남길 때는 출력 칸(그 dtype)에 바로 더합니다(`_reduce_loops`). NumPy는 짝지어 더하기(pairwise)를
하므로 합은 NumPy와 다를 수 있습니다(54장).
"""

from __future__ import annotations

import math
import re

import numpy as np

from .scheduler import Kernel
from .view import contiguous_strides, merge_axes

CTYPES = {
    np.dtype(np.float32): "float",
    np.dtype(np.float64): "double",
    np.dtype(np.bool_): "unsigned char",
}
# --8<-- [start:c-ops]
# 원소별 연산 -> C 식. {0}, {1}, {2}는 입력, {f}는 float32이면 "f"(expf, logf), {zero}는 그 dtype의 0.
C_OPS = {
    "neg": "-{0}",
    "exp": "exp{f}({0})",
    "log": "log{f}({0})",
    "relu": "({0} <= {zero} ? {zero} : {0})",
    "not": "!{0}",
    "add": "{0} + {1}",
    "sub": "{0} - {1}",
    "mul": "{0} * {1}",
    "div": "{0} / {1}",
    "cmple": "{0} <= {1}",
    "where": "{0} ? {1} : {2}",
}
# --8<-- [end:c-ops]


def number(value: float, dtype: np.dtype) -> str:
    """수를 C 소스에 적습니다. 정수이면 10진수로, 아니면 16진 부동소수점으로(비트가 같게)."""
    suffix = "f" if dtype == np.float32 else ""
    if math.isnan(value):
        return "NAN"
    if math.copysign(1.0, value) < 0:  # 음수는 괄호로 싸서 `x - (-2.0f)`처럼 씁니다(-0.0도).
        return f"(-{number(-value, dtype)})"
    if math.isinf(value):
        return "INFINITY"
    if value == int(value) and value < 2**24:
        return f"{int(value)}.0{suffix}"
    mantissa, exponent = float(value).hex().split("p")
    mantissa = re.sub(r"\.?0+$", "", mantissa)
    return f"{mantissa}p{exponent}{suffix}"


def _index(offset: int, strides: tuple[int, ...], loop_vars: list[str]) -> str:
    terms = [str(offset)] if offset else []
    for var, stride in zip(loop_vars, strides, strict=True):
        if stride == 1:
            terms.append(var)
        elif stride:
            terms.append(f"{var}*{stride}")
    return " + ".join(terms) or "0"


def _loops(shape: tuple[int, ...], names: list[str], indent: str) -> tuple[list[str], str]:
    lines = []
    for name, n in zip(names, shape, strict=True):
        lines.append(f"{indent}for (ptrdiff_t {name} = 0; {name} < {n}; {name}++) {{")
        indent += "  "
    return lines, indent


def _body(
    kernel: Kernel, index_of_load: list[str], indent: str
) -> tuple[list[str], list[str], str]:
    """한 칸을 계산하는 문장들. 수는 식 안에 바로 적고, 나머지는 지역 변수 v0, v1, ...에 둡니다.

    칸과 상관없는 읽기(보폭이 모두 0인 뷰, 예: 0차원 버퍼)는 반복문 앞으로 뺍니다. 반복문 안에 두면 gcc가
    그 반복문을 벡터화하지 못했습니다. 돌려주는 값: (반복문 앞의 문장, 반복문 안의 문장, 결과 변수).
    참/거짓은 int로 둡니다(float와 같은 32비트라 벡터화가 쉽습니다).
    """
    names, lines, hoisted = {}, [], []
    for i, (op, args, dtype, arg) in enumerate(kernel.stmts):
        if op == "const":
            names[i] = number(arg, dtype)
            continue
        local = "int" if dtype == np.bool_ else CTYPES[dtype]
        name = names[i] = f"v{len(lines) + len(hoisted)}"
        if op == "load" and not any(ch.isalpha() for ch in index_of_load[arg]):
            hoisted.append(f"  const {local} {name} = in{arg}[{index_of_load[arg]}];")
            continue
        if op == "load":
            expr = f"in{arg}[{index_of_load[arg]}]"
        else:
            src_dtype = kernel.stmts[args[-1]][2]
            expr = C_OPS[op].format(
                *(names[a] for a in args),
                f="f" if src_dtype == np.float32 else "",
                zero=number(0.0, src_dtype),
            )
        lines.append(f"{indent}{local} {name} = {expr};")
    return hoisted, lines, names[len(kernel.stmts) - 1]


def render(kernel: Kernel) -> str:
    out_type = CTYPES[kernel.output.dtype]
    params = [f"{out_type} *restrict out"] + [
        f"const {CTYPES[load.base.dtype]} *restrict in{j}" for j, load in enumerate(kernel.loads)
    ]
    lines = ["#include <math.h>", "#include <stddef.h>", "", f"void kernel({', '.join(params)}) {{"]
    load_strides = [load.view.strides for load in kernel.loads]
    offsets = [load.view.offset for load in kernel.loads]
    if kernel.axes is None:
        shape, (out_s, *in_s) = merge_axes(
            kernel.shape, [contiguous_strides(kernel.shape), *load_strides]
        )
        names = [f"i{d}" for d in range(len(shape))]
        loop_lines, indent = _loops(shape, names, "  ")
        index = [_index(o, s, names) for o, s in zip(offsets, in_s, strict=True)]
        hoisted, body, result = _body(kernel, index, indent)
        lines += (
            hoisted + loop_lines + body + [f"{indent}out[{_index(0, out_s, names)}] = {result};"]
        )
        lines += ["  " * k + "}" for k in range(len(shape), 0, -1)]
    else:
        lines += _reduce_loops(kernel, load_strides, offsets)
    lines.append("}")
    return "\n".join(lines) + "\n"


LANES = 8  # 줄이는 축의 칸을 나눠 더하는 부분합의 수(벡터 하나의 칸 수쯤)


def _reduce_loops(kernel: Kernel, load_strides: list, offsets: list) -> list[str]:
    """줄이기 커널. 마지막 축을 남기는지 더하는지에 따라 두 가지로 돕니다(둘 다 벡터화됩니다).

    - 마지막 축을 남길 때(예: axis=0): 메모리 순서대로 돌며 출력 칸에 바로 더합니다. 칸마다 더하는 순서는
      줄이는 축을 따라 차례대로이고, 안쪽 반복은 서로 다른 칸이라 벡터화됩니다.
    - 마지막 축을 더할 때(예: axis=1, 모두): 남는 칸마다 부분합 8개(double)에 번갈아 더하고 마지막에
      짝지어 더합니다. 더하는 순서를 바꾸는 것은 생성한 코드가 정한 것이지 컴파일러가 아닙니다(-ffast-math
      없이도 벡터화됩니다). float32도 double로 모읍니다.
    """
    axes = kernel.axes
    ndim = len(kernel.shape)
    out_shape = tuple(1 if d in axes else n for d, n in enumerate(kernel.shape))
    out_full = contiguous_strides(out_shape)  # 더하는 축의 크기가 1이라 보폭이 0입니다.
    out_type = CTYPES[kernel.output.dtype]
    if ndim and ndim - 1 not in axes:
        shape, (out_s, *in_s) = merge_axes(kernel.shape, [out_full, *load_strides])
        names = [f"i{d}" for d in range(len(shape))]
        index = [_index(o, st, names) for o, st in zip(offsets, in_s, strict=True)]
        hoisted, body, result = _body(kernel, index, "  " * (len(shape) + 1))
        lines = hoisted + [f"  for (ptrdiff_t o = 0; o < {math.prod(out_shape)}; o++) out[o] = 0;"]
        loop_lines, indent = _loops(shape, names, "  ")
        lines += loop_lines + body + [f"{indent}out[{_index(0, out_s, names)}] += {result};"]
        return lines + ["  " * k + "}" for k in range(len(shape), 0, -1)]

    def part(dims: list[int]) -> tuple:
        pick = tuple(kernel.shape[d] for d in dims)
        return merge_axes(pick, [tuple(s[d] for d in dims) for s in [out_full, *load_strides]])

    kept = [d for d in range(ndim) if d not in axes]
    outer_shape, (out_s, *outer_in) = part(kept)
    inner_shape, (_, *inner_in) = part(list(axes))
    outer_names = [f"i{d}" for d in range(len(outer_shape))]
    inner_names = [f"r{d}" for d in range(len(inner_shape))]
    index = [
        _index(o, so + si, outer_names + inner_names)
        for o, so, si in zip(offsets, outer_in, inner_in, strict=True)
    ]
    lines, indent = _loops(outer_shape, outer_names, "  ")
    lines.append(f"{indent}double acc[{LANES}] = {{0}};")
    head_lines, head_indent = _loops(inner_shape[:-1], inner_names[:-1], indent)
    lines += head_lines
    if inner_shape:
        n, last = inner_shape[-1], inner_names[-1]
        full = n // LANES * LANES
        depth = len(outer_shape) + len(inner_shape) + 2
        hoisted, body, result = _body(kernel, index, "  " * depth)
        if full:  # 부분합 8개에 번갈아 더하는 본 반복
            lines += [
                f"{head_indent}for (ptrdiff_t block = 0; block < {full}; block += {LANES}) {{",
                f"{head_indent}  for (ptrdiff_t lane = 0; lane < {LANES}; lane++) {{",
                f"{head_indent}    const ptrdiff_t {last} = block + lane;",
                *body,
                f"{head_indent}    acc[lane] += {result};",
                f"{head_indent}  }}",
                f"{head_indent}}}",
            ]
        if full < n:  # 남은 칸은 첫 부분합에
            lines += [f"{head_indent}for (ptrdiff_t {last} = {full}; {last} < {n}; {last}++) {{"]
            lines += [line[2:] for line in body] + [
                f"{head_indent}  acc[0] += {result};",
                f"{head_indent}}}",
            ]
    else:  # 더하는 칸이 하나(줄이는 축의 크기가 1): 그 값 자신
        hoisted, body, result = _body(kernel, index, head_indent)
        lines += body + [f"{head_indent}acc[0] += {result};"]
    lines += [indent + "  " * k + "}" for k in range(len(inner_shape) - 2, -1, -1)]
    total = "((acc[0] + acc[1]) + (acc[2] + acc[3])) + ((acc[4] + acc[5]) + (acc[6] + acc[7]))"
    lines.append(f"{indent}out[{_index(0, out_s, outer_names)}] = ({out_type})({total});")
    lines += ["  " * k + "}" for k in range(len(outer_shape), 0, -1)]
    return hoisted + lines
