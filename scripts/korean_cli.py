"""scripts/*.py와 dev.py의 명령줄: 라이브러리의 한국어 argparse를 함께 씁니다.

`src/tinygrad_ko/gpt/arguments.py`는 표준 라이브러리만 쓰므로, 패키지를 설치하지 않은(NumPy가 없는)
파이썬에서도 그 파일을 경로로 읽어 씁니다. 도움말, 사용법, 오류 문장이 한 곳에서 만들어집니다.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

ARGUMENTS = Path(__file__).resolve().parent.parent / "src" / "tinygrad_ko" / "gpt" / "arguments.py"
_NAME = "tinygrad_ko_arguments"


def _load():
    if _NAME not in sys.modules:
        spec = importlib.util.spec_from_file_location(_NAME, ARGUMENTS)
        module = importlib.util.module_from_spec(spec)
        sys.modules[_NAME] = module
        spec.loader.exec_module(module)
    return sys.modules[_NAME]


KoreanArgumentParser = _load().KoreanArgumentParser
