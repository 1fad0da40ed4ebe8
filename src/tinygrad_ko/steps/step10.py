"""10단계: 단위 테스트(unit test)를 씁니다.

엔진은 9단계 그대로입니다. 이 모듈에는 9단계의 ``square``를 검사하는 ``unittest`` 테스트가
들어 있습니다. 순전파 값, 역전파 값, 그리고 역전파 결과를 수치 미분(4단계)과 비교하는
기울기 확인(gradient check)입니다.

이 파일은 ``tests/``가 아니라 ``src/`` 안에 있으므로 pytest가 저절로 모으지 않습니다.
페이지에서는 ``run_tests()``로 돌리고, 돌아온 결과를 출력합니다::

    from tinygrad_ko.steps import step10
    result = step10.run_tests()
    print(result.testsRun, result.wasSuccessful())
"""

import io
import unittest

import numpy as np

from . import step09 as _previous
from .step04 import numerical_diff
from .step09 import *  # noqa: F403
from .step09 import Variable, square

__all__ = [*_previous.__all__, "numerical_diff", "SquareTest", "run_tests"]


# --8<-- [start:square_test]
class SquareTest(unittest.TestCase):
    """9단계 ``square``의 순전파, 역전파, 기울기 확인을 검사합니다."""

    def test_forward(self):
        x = Variable(np.array(2.0))
        y = square(x)
        expected = np.array(4.0)
        self.assertEqual(y.data, expected)

    def test_backward(self):
        x = Variable(np.array(3.0))
        y = square(x)
        y.backward()
        expected = np.array(6.0)
        self.assertEqual(x.grad, expected)

    def test_gradient_check(self):
        rng = np.random.default_rng(0)  # 시드를 고정해 매번 같은 입력으로 검사합니다.
        # random(1)은 원소 하나짜리 ndarray입니다. random()은 float라 Variable이 거절합니다.
        x = Variable(rng.random(1))
        y = square(x)
        y.backward()
        num_grad = numerical_diff(square, x)
        self.assertTrue(np.allclose(x.grad, num_grad))


# --8<-- [end:square_test]


# --8<-- [start:run_tests]
def run_tests(stream=None):
    """이 모듈의 테스트를 돌리고 ``unittest.TestResult``를 돌려줍니다.

    진행 표시는 ``stream``에 씁니다(기본값: 버리는 메모리 버퍼). 걸린 시간처럼
    매번 바뀌는 글자가 섞이므로, 페이지에서는 결과 객체의 값만 출력하는 편이 좋습니다.
    """
    suite = unittest.defaultTestLoader.loadTestsFromTestCase(SquareTest)
    runner = unittest.TextTestRunner(stream=stream or io.StringIO(), verbosity=2)
    return runner.run(suite)


# --8<-- [end:run_tests]
