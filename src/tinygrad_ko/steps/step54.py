"""54단계: 드롭아웃과 시험 모드. ``dropout``, ``Config.train``, ``test_mode()``.

드롭아웃은 학습할 때 원소를 확률 ``dropout_ratio``로 0으로 만들고, 남은 원소를 ``1 − dropout_ratio``로
나눠(inverted dropout) 기댓값을 맞춥니다. 시험할 때는 입력을 그대로 내보냅니다. 지금이 학습인지는
책처럼 ``Config``의 ``train``으로 알리고, ``test_mode()``가 블록 안에서만 그것을 False로 둡니다.
``Config``는 18단계의 클래스이므로, 이 모듈을 가져올 때 거기에 ``train = True``를 더합니다.

한계: ``Config.train``은 18단계의 ``enable_backprop``처럼 전역이라, 한 스레드가 ``test_mode()``에
들어가면 같은 순간 학습 중인 다른 스레드의 드롭아웃도 꺼집니다. 마스크는 전역 ``np.random``으로
만듭니다. ``dropout_ratio = 1``이면 0으로 나눕니다.
"""

import numpy as np

from . import step53 as _previous
from .step18 import Config, using_config
from .step43 import as_variable
from .step53 import *  # noqa: F403

__all__ = [*_previous.__all__, "test_mode", "dropout"]

if not hasattr(Config, "train"):
    Config.train = True  # 책처럼 설정에 학습 모드를 더합니다(18단계의 Config를 고칩니다).


# --8<-- [start:dropout]
def test_mode():
    return using_config("train", False)


def dropout(x, dropout_ratio=0.5):
    x = as_variable(x)
    if Config.train:
        mask = np.random.rand(*x.shape) > dropout_ratio
        scale = np.array(1.0 - dropout_ratio).astype(x.dtype)
        return x * mask / scale
    return x


# --8<-- [end:dropout]


test_mode.__test__ = False  # pytest가 이 이름을 테스트 함수로 모으지 않게 합니다.
