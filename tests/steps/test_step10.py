"""10단계: 스냅숏에 들어 있는 unittest 테스트를 돌려 봅니다.

``step10``의 TestCase 클래스를 이 파일로 직접 가져오지 않습니다. 가져오면 pytest가
그 클래스를 한 번 더 모아서 돌리기 때문입니다. 모듈만 가져와 ``run_tests()``로 돌립니다.
"""

import io
import unittest

from tinygrad_ko.steps import step09, step10

TEST_NAMES = {"test_forward", "test_backward", "test_gradient_check"}


def _failed_names(result):
    return {test._testMethodName for test, _ in result.failures + result.errors}


def test_listing_passes_against_step09():
    result = step10.run_tests()
    assert result.testsRun == len(TEST_NAMES)
    assert result.wasSuccessful()


def test_listing_catches_a_wrong_backward(monkeypatch):
    def wrong_backward(self, gy):
        return 3 * self.input.data * gy

    monkeypatch.setattr(step09.Square, "backward", wrong_backward)
    result = step10.run_tests()
    assert _failed_names(result) == {"test_backward", "test_gradient_check"}


def test_listing_catches_a_wrong_forward(monkeypatch):
    monkeypatch.setattr(step09.Square, "forward", lambda self, x: x**3)
    result = step10.run_tests()
    assert "test_forward" in _failed_names(result)


def test_run_tests_writes_progress_to_the_given_stream():
    stream = io.StringIO()
    step10.run_tests(stream=stream)
    text = stream.getvalue()
    for name in TEST_NAMES:
        assert name in text


def test_this_module_holds_no_testcase_classes():
    # pytest가 step10의 테스트를 두 번 돌리지 않는다는 것을 확인합니다.
    classes = [v for v in globals().values() if isinstance(v, type)]
    assert not [c for c in classes if issubclass(c, unittest.TestCase)]
