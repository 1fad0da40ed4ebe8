"""부록 「자동 미분 한눈에」의 전진 모드 자동 미분: 이원수(dual number) `Dual`.

이원수 a + b·ε 은 ε² = 0 인 수입니다. f(a + ε) = f(a) + f'(a)·ε 이므로, 값 a와 함께 미분값 b를
나르며 계산하면 순전파 한 번으로 입력 하나에 대한 미분값이 나옵니다. 그래프도 역전파도 없습니다.
`+ - *`, `exp()`, `tanh()`는 `tinygrad_ko.micrograd.value.Value`와 같게 두어, 이 연산만 쓰는 함수는 두 방식으로
미분해 볼 수 있습니다. 나눗셈(`/`)과 거듭제곱(`**`)은 없습니다.
"""

import math

__all__ = ["Dual", "derivative"]


# --8<-- [start:dual]
class Dual:
    """값(value)과, 그 값이 입력에 따라 변하는 비율(tangent)을 함께 나르는 수입니다."""

    __slots__ = ("value", "tangent")
    made = 0  # 지금까지 만든 Dual의 수(부록에서 두 모드의 일의 양을 셉니다)

    def __init__(self, value, tangent=0.0):
        self.value, self.tangent = value, tangent
        Dual.made += 1

    def __add__(self, other):
        other = other if isinstance(other, Dual) else Dual(other)
        return Dual(self.value + other.value, self.tangent + other.tangent)

    def __mul__(self, other):  # (a + bε)(c + dε) = ac + (ad + bc)ε
        other = other if isinstance(other, Dual) else Dual(other)
        return Dual(
            self.value * other.value, self.value * other.tangent + self.tangent * other.value
        )

    def __neg__(self):
        return Dual(-self.value, -self.tangent)

    def __sub__(self, other):
        return self + (-other)

    def __rsub__(self, other):  # 2 - x
        return (-self) + other

    def exp(self):  # (e^a)' = e^a
        e = math.exp(self.value)
        return Dual(e, e * self.tangent)

    def tanh(self):  # (tanh a)' = 1 - tanh² a
        t = math.tanh(self.value)
        return Dual(t, (1.0 - t * t) * self.tangent)

    __radd__, __rmul__ = __add__, __mul__


def derivative(f, x):
    """f'(x): 입력에 tangent 1을 실어 한 번 계산하고, 출력의 tangent를 읽습니다."""
    return f(Dual(x, 1.0)).tangent


# --8<-- [end:dual]
