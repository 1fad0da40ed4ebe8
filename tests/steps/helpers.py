"""여러 테스트 파일이 함께 쓰는 작은 도구입니다."""

import numpy as np

from tinygrad_ko.steps.step04 import numerical_diff


def numerical_partials(f, variable_class, *values):
    """입력이 여럿인 f의 편미분을 4단계의 ``numerical_diff``로 하나씩 어림합니다.

    ``f``는 ``variable_class`` 변수들을 받아 변수를 돌려주는 함수입니다. ``numerical_diff``는
    2단계 ``Variable``을 넘겨주므로, 그 값을 ``variable_class``의 0차원 배열로 다시 담습니다.
    """
    partials = []
    for i, value in enumerate(values):

        def only_i(v, i=i):
            args = [variable_class(np.array(x, dtype=float)) for x in values]
            args[i] = variable_class(np.asarray(v.data, dtype=float))
            return f(*args)

        partials.append(numerical_diff(only_i, variable_class(np.array(value, dtype=float))))
    return partials
