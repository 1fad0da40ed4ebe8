"""`tinygrad_ko.micrograd`는 NumPy 없이 돕니다: NumPy를 가져올 수 없는 인터프리터에서도 학습 스텝이 됩니다.

새 파이썬 프로세스에서 `sys.modules["numpy"] = None`으로 NumPy를 막고(그러면 `import numpy`가
ImportError) micrograd를 가져와 작은 MLP를 두 스텝 학습합니다. 엔진(`tinygrad_ko.Variable` 등)은 NumPy가
필요하다고 알립니다.
"""

from __future__ import annotations

import functools
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import tinygrad_ko

SRC = Path(tinygrad_ko.__file__).resolve().parents[1]

# 두 곳(NumPy를 막은 프로세스, 이 프로세스)에서 똑같이 돌리는 학습: losses와 model을 남깁니다.
TRAINING = textwrap.dedent(
    """
    from tinygrad_ko.micrograd.nn import MLP, hinge_loss, sgd_step

    X = [[0.5, 1.0], [-1.0, 0.25], [1.5, -0.5], [-0.5, -1.5]]
    y = [1.0, -1.0, 1.0, -1.0]
    model = MLP(2, [4, 1], seed=0)
    losses = []
    for _ in range(2):
        loss = hinge_loss([model(x) for x in X], y)
        losses.append(loss.data)
        model.zero_grad()
        loss.backward()
        sgd_step(model.parameters(), 0.05)
    """
)

WITHOUT_NUMPY = (
    textwrap.dedent(
        """
    import json
    import sys

    sys.modules["numpy"] = None  # 이제 import numpy는 ImportError입니다
    try:
        import numpy
    except ImportError:
        pass
    else:
        raise SystemExit("NumPy를 막지 못했습니다")
    """
    )
    + TRAINING
    + textwrap.dedent(
        """
    import tinygrad_ko
    from tinygrad_ko.micrograd import Value

    try:
        tinygrad_ko.Variable
    except AttributeError as error:
        engine_error = str(error)
    print(json.dumps({
        "losses": losses,
        "grads": [p.grad for p in model.parameters()],
        "is_value": isinstance(model(X[0]), Value),
        "loaded": sorted(m for m in sys.modules if m.startswith("tinygrad_ko")),
        "numpy_blocked": sys.modules["numpy"] is None,
        "engine_error": engine_error,
    }))
    """
    )
)


@functools.cache
def run_without_numpy() -> dict:
    path = os.pathsep.join([str(SRC), os.environ.get("PYTHONPATH", "")])
    result = subprocess.run(
        [sys.executable, "-c", WITHOUT_NUMPY],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": path},
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_micrograd_trains_where_numpy_cannot_be_imported():
    report = run_without_numpy()
    assert report["numpy_blocked"] and report["is_value"]
    assert any(g != 0.0 for g in report["grads"])  # 역전파가 매개변수까지 닿았습니다
    assert report["losses"][1] < report["losses"][0]  # 한 스텝 뒤 손실이 줄었습니다
    # 엔진(autograd, functions)은 가져오지 않았습니다.
    assert report["loaded"] == [
        "tinygrad_ko",
        "tinygrad_ko._checks",
        "tinygrad_ko._describe",
        "tinygrad_ko.micrograd",
        "tinygrad_ko.micrograd.nn",
        "tinygrad_ko.micrograd.value",
    ]


def test_the_engine_says_it_needs_numpy_where_numpy_cannot_be_imported():
    message = run_without_numpy()["engine_error"]
    assert "tinygrad_ko.Variable" in message and "NumPy가 필요" in message
    assert "pip install numpy" in message and "tinygrad_ko.micrograd" in message


def test_training_gives_the_same_numbers_with_and_without_numpy():
    here: dict = {}
    exec(TRAINING, here)  # NumPy가 있는 이 프로세스에서 같은 학습
    report = run_without_numpy()
    assert report["losses"] == here["losses"]
    assert report["grads"] == [p.grad for p in here["model"].parameters()]
