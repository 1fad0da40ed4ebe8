"""한 이름씩 학습하는 반복문과 진행 막대. 엔진(Value판, 텐서판)에 상관없이 같은 반복문을 씁니다.

엔진은 `step(ids, lr) -> float`(한 이름으로 한 번 학습하고 손실을 돌려줌) 하나만 있으면 됩니다.
학습률은 `lr`에서 시작해 마지막 스텝에서 0에 닿도록 스텝마다 똑같이 줄입니다(선형 감소).
"""

from __future__ import annotations

import math
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Protocol, TextIO

import numpy as np

from tinygrad_ko._checks import check_count, check_positive

from .data import Tokenizer

__all__ = ["Progress", "StepEngine", "ValueEngine", "linear_lr", "name_order", "train"]


class StepEngine(Protocol):
    def step(self, ids: Sequence[int], lr: float) -> float: ...


class ValueEngine:
    """Value판 모델의 한 스텝: 기울기 지우기, 손실, 역전파, Adam."""

    def __init__(self, model, betas=(0.85, 0.99), eps=1e-8):
        from .value_model import ValueAdam

        self.model = model
        self.optimizer = ValueAdam(model.parameters(), betas=betas, eps=eps)

    # --8<-- [start:value-step]
    def step(self, ids: Sequence[int], lr: float) -> float:
        self.model.zero_grad()
        loss = self.model.loss(ids)
        loss.backward()
        self.optimizer.lr = lr
        self.optimizer.step()
        return loss.data
        # --8<-- [end:value-step]


def linear_lr(lr: float, step: int, steps: int) -> float:
    """스텝 0에서 lr, 스텝 steps에서 0이 되도록 선형으로 줄인 학습률."""
    return lr * (1.0 - step / steps)


class Progress:
    """`step 120/1000 [#####-----] loss 2.3456  8.1 steps/s` 꼴의 진행 막대.

    터미널이면 한 줄을 고쳐 쓰고, 파일이나 파이프면 `every` 스텝마다 한 줄씩 씁니다.
    """

    def __init__(self, steps: int, stream: TextIO | None = None, every: int = 100, width: int = 20):
        self.steps, self.every, self.width = steps, every, width
        self.stream = sys.stderr if stream is None else stream
        self.live = getattr(self.stream, "isatty", lambda: False)()
        self.started = time.perf_counter()
        self.done = 0

    def rate(self) -> float:
        """지금까지의 평균 스텝/초."""
        return self.done / max(time.perf_counter() - self.started, 1e-9)

    def line(self, step: int, loss: float) -> str:
        done = round(self.width * step / self.steps)
        rate = self.rate()
        bar = "#" * done + "-" * (self.width - done)
        return f"step {step:>{len(str(self.steps))}}/{self.steps} [{bar}] loss {loss:.4f}  {rate:.1f} steps/s"

    def __call__(self, step: int, loss: float) -> None:
        self.done = step
        last = step == self.steps
        if self.live:
            self.stream.write("\r" + self.line(step, loss) + ("\n" if last else ""))
            self.stream.flush()
        elif last or step % self.every == 0:
            self.stream.write(self.line(step, loss) + "\n")


# --8<-- [start:train]
def name_order(count: int, steps: int, seed: int | None) -> Iterator[int]:
    """`train`이 스텝마다 고르는 이름의 번호: 섞은 순서대로 하나씩, 한 바퀴를 다 돌면 다시 섞습니다."""
    rng = np.random.default_rng(seed)
    order = rng.permutation(count)
    for step in range(steps):
        if step and step % count == 0:
            order = rng.permutation(count)
        yield order[step % count]


def train(
    engine: StepEngine,
    names: Sequence[str],
    tokenizer: Tokenizer,
    steps: int,
    *,
    lr: float = 0.01,
    seed: int | None = 0,
    progress: Callable[[int, float], None] | None = None,
) -> list[float]:
    """이름을 섞어 한 스텝에 하나씩 `steps`번 학습하고, 스텝마다의 손실을 돌려줍니다."""
    steps = check_count("steps", steps)
    lr = check_positive("lr", lr)  # 음수나 nan 학습률은 가중치를 조용히 망칩니다
    losses = []
    for step, index in enumerate(name_order(len(names), steps, seed)):
        ids = tokenizer.encode(names[index])
        losses.append(engine.step(ids, linear_lr(lr, step, steps)))
        if not math.isfinite(
            losses[-1]
        ):  # 발산했습니다: 망가진 가중치로 더 학습하거나 저장하지 않게
            raise diverged(step + 1, losses[-1], lr)
        if progress is not None:
            progress(step + 1, losses[-1])
    return losses


# --8<-- [end:train]


def diverged(step: int, loss: float, lr: float) -> FloatingPointError:
    return FloatingPointError(
        f"{step}번째 스텝의 손실이 {loss}입니다. 학습이 발산해 가중치가 망가졌으므로 여기서 멈추고 저장하지 "
        f"않습니다(예전 체크포인트는 그대로입니다). 처음 학습률 lr={lr:g}을(를) 줄여(명령줄에서는 --lr) "
        f"다시 학습하세요. 기본값은 0.01입니다."
    )
