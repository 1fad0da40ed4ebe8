"""저장소에 든 학습한 숫자 CNN(42장): 파일이 기록과 같고, 불러온 모델이 기록한 정확도를 냅니다."""

import hashlib

import numpy as np
import pytest

import tinygrad_ko as tg
from tinygrad_ko.data.datasets import load_mnist
from tinygrad_ko.functions.metrics import accuracy
from tinygrad_ko.nn.models import DIGIT_CNN_FILE, DigitCNN

RECORD = DIGIT_CNN_FILE.with_name("digit_cnn.txt")


def _recorded(prefix: str) -> str:
    line = next(line for line in RECORD.read_text("utf-8").splitlines() if line.startswith(prefix))
    return line.split()[-1]


def test_the_shipped_file_is_the_one_the_script_recorded():
    assert hashlib.sha256(DIGIT_CNN_FILE.read_bytes()).hexdigest() == _recorded("digit_cnn.npz")


def test_pretrained_model_reaches_the_recorded_test_accuracy():
    images, labels = load_mnist(train=False)
    with tg.no_grad():
        score = float(
            accuracy(DigitCNN(pretrained=True)(images[:, None] / np.float32(255)), labels)
        )
    assert score == pytest.approx(float(_recorded("시험 세트")), abs=5e-4)
    assert score > 0.9  # 학습하지 않은 모델은 10% 안팎입니다


def test_pretrained_weights_replace_the_random_start():
    fresh, loaded = DigitCNN(seed=0), DigitCNN(seed=0, pretrained=True)
    x = np.zeros((1, 1, 28, 28), np.float32)
    with tg.no_grad():
        assert not np.array_equal(fresh(x).data, loaded(x).data)
