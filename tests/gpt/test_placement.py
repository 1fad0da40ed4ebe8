"""RMSNorm 자리 실험의 `unseen_names`: train이 실제로 학습에 쓴 이름을 빼고, 나머지는 모두 남기는지."""

import pytest

from tinygrad_ko.gpt.data import korean_tokenizer
from tinygrad_ko.gpt.placement import unseen_names
from tinygrad_ko.gpt.training import train


class RecordingEngine:
    """학습하지 않고 받은 토큰만 적어 두는 엔진."""

    def __init__(self):
        self.seen = []

    def step(self, ids, lr):
        self.seen.append(tuple(ids))
        return 1.0


@pytest.mark.parametrize(("steps", "seed"), [(3, 0), (7, 5), (12, 1), (14, 3), (30, 2)])
def test_unseen_names_are_exactly_the_names_train_never_steps_on(steps, seed):
    tokenizer = korean_tokenizer()
    names = [
        "가람",
        "나래",
        "다온",
        "라희",
        "마루",
        "바다",
        "사랑",
        "아라",
        "자람",
        "차미",
        "카라",
        "타미",
        "가람",  # 겹치는 이름: 두 자리 가운데 하나만 뽑혀도 학습한 이름입니다
        "나래",
    ]
    engine = RecordingEngine()
    train(engine, names, tokenizer, steps, seed=seed)
    used = {name for name in names if tuple(tokenizer.encode(name)) in engine.seen}
    assert unseen_names(names, steps, seed) == [name for name in names if name not in used]
