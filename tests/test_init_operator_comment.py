"""`tinygrad_ko/__init__.py`의 주석이 연산자가 붙는 줄을 바르게 가리키는지.

15장이 이 파일의 `engine` 구역을 그대로 보여 주고 "연산자가 언제 `Variable`에 붙는지"를 가르치므로,
주석이 가리키는 줄과 실제로 `functions.operators`가 실행되는 줄이 같아야 합니다.
"""

import subprocess
import sys
from pathlib import Path

import tinygrad_ko

INIT = Path(tinygrad_ko.__file__)

# 새 프로세스에서 import 감사 훅으로 operators를 가져오는 순간 __init__.py가 몇째 줄에 있는지 봅니다.
PROBE = f"""
import sys

lines = []


def hook(event, args):
    if event == "import" and args[0] == "tinygrad_ko.functions.operators":
        frame = sys._getframe()
        while frame is not None:
            if frame.f_code.co_filename == {str(INIT)!r}:
                lines.append(frame.f_lineno)
            frame = frame.f_back


sys.addaudithook(hook)
import tinygrad_ko  # noqa: E402,F401

print(lines[0])
"""


def test_operator_comment_is_on_the_line_that_attaches_operators():
    done = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, check=True)
    attach_line = int(done.stdout.split()[0])
    source = INIT.read_text(encoding="utf-8").splitlines()
    mentions = [number for number, line in enumerate(source, 1) if "연산자" in line]
    assert mentions == [attach_line], (attach_line, mentions)
