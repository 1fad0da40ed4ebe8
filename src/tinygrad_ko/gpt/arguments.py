"""한국어로 답하는 명령줄 해석기(argparse). 도움말, 사용법, 오류가 모두 한국어입니다.

`python3 -m tinygrad_ko.gpt`와 저장소의 `dev.py`, `scripts/*.py`가 함께 씁니다. `dev.py`는 가상 환경을
만들기 전에 돌기 때문에 이 모듈은 표준 라이브러리만 쓰고, 패키지를 import하지 않고 파일 경로로도
읽을 수 있게 씁니다(`importlib.util.spec_from_file_location`).

argparse는 자기 문장(영어)으로 오류를 만든 뒤 `error(message)`를 부릅니다. 그 문장의 틀은 파이썬
3.11~3.13에서 같으므로, `error`가 틀을 알아보고 한국어로 바꿉니다. 모르는 틀이면 원문을 붙여 알립니다.
"""

from __future__ import annotations

import argparse
import math
import re
import sys
import unicodedata
from typing import NoReturn

__all__ = [
    "KoreanArgumentParser",
    "finite_float",
    "integer",
    "translate",
]

# argparse의 영어 오류 틀 -> 한국어. 위에서부터 처음 맞는 것을 씁니다.
_MESSAGES = [
    (r"unrecognized arguments: (?P<args>.*)", "알 수 없는 인수입니다: {args}"),
    (r"the following arguments are required: (?P<args>.*)", "다음 인수가 필요합니다: {args}"),
    (r"one of the arguments (?P<args>.*) is required", "다음 중 하나가 필요합니다: {args}"),
    (
        r"ambiguous option: (?P<option>\S+) could match (?P<matches>.*)",
        "{option}은(는) 여러 옵션의 앞부분입니다({matches}). 옵션 이름을 끝까지 쓰세요.",
    ),
    (r"unexpected option string: (?P<option>.*)", "뜻밖의 옵션입니다: {option}"),
    (
        r"argument (?P<name>.+?): invalid choice: (?P<value>.+?) \(choose from (?P<choices>.*)\)",
        "{name}에 {value}은(는) 고를 수 없습니다. 고를 수 있는 것: {choices}",
    ),
    (
        r"argument (?P<name>.+?): invalid (?P<type>\S+) value: (?P<value>.*)",
        "{name}의 값 {value}을(를) {type}(으)로 읽을 수 없습니다.",
    ),
    (r"argument (?P<name>.+?): expected one argument", "{name} 뒤에 값이 하나 있어야 합니다."),
    (
        r"argument (?P<name>.+?): expected at most one argument",
        "{name} 뒤에는 값이 많아야 하나입니다.",
    ),
    (
        r"argument (?P<name>.+?): expected at least one argument",
        "{name} 뒤에 값이 하나 이상 있어야 합니다.",
    ),
    (
        r"argument (?P<name>.+?): ignored explicit argument (?P<value>.*)",
        "{name}은(는) 값을 받지 않습니다(받은 값: {value}).",
    ),
    (
        r"argument (?P<name>.+?): not allowed with argument (?P<other>.*)",
        "{name}은(는) {other}와(과) 함께 쓸 수 없습니다.",
    ),
    (r"argument (?P<name>.+?): (?P<message>.*)", "{name}: {message}"),
]


def translate(message: str) -> str:
    """argparse의 영어 오류 문장을 한국어로. 모르는 문장이면 원문을 붙여 돌려줍니다."""
    for pattern, korean in _MESSAGES:
        match = re.fullmatch(pattern, message, flags=re.DOTALL)
        if match:
            return korean.format(**match.groupdict())
    return f"명령줄을 읽지 못했습니다({message})."


class KoreanHelpFormatter(argparse.HelpFormatter):
    """'usage:' 대신 '사용법:'. 한글 자리표시(`--n 개수`)는 두 칸 폭이므로 도움말 열을 그만큼 당깁니다."""

    def add_usage(self, usage, actions, groups, prefix=None):
        super().add_usage(usage, actions, groups, "사용법: " if prefix is None else prefix)

    def _format_action(self, action):
        text = super()._format_action(action)
        invocation = self._format_action_invocation(action)
        wide = sum(unicodedata.east_asian_width(c) in "WF" for c in invocation)
        head, found, rest = text.partition(invocation)
        help_text = rest.lstrip(" ")
        padding = len(rest) - len(help_text)
        if wide and found and help_text and not help_text.startswith("\n") and padding - wide >= 2:
            text = head + invocation + " " * (padding - wide) + help_text
        return text


class KoreanArgumentParser(argparse.ArgumentParser):
    """도움말, 사용법, 오류를 한국어로 내는 ArgumentParser. 오류이면 사용법과 함께 종료 코드 2로 끝납니다."""

    def __init__(self, *args, add_help: bool = True, **kwargs):
        kwargs.setdefault("formatter_class", KoreanHelpFormatter)
        super().__init__(*args, add_help=False, **kwargs)
        self._positionals.title = "위치 인수"
        self._optionals.title = "옵션"
        if add_help:
            self.add_argument("-h", "--help", action="help", help="이 도움말을 보여 주고 끝냅니다.")

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: 오류: {translate(message)}\n")

    def add_subparsers(self, **kwargs):
        kwargs.setdefault("title", "명령")
        kwargs.setdefault("metavar", "명령")  # 오류 문장에 dest(영어 이름) 대신 나옵니다
        return super().add_subparsers(**kwargs)


def integer(minimum: int):
    """minimum 이상의 정수만 받는 type 변환기(오류는 한국어)."""

    def convert(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"정수가 아닙니다: {text!r}. {minimum} 이상의 정수를 주세요."
            ) from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"{minimum} 이상이어야 합니다. 받은 값: {value}")
        return value

    convert.__name__ = "정수"
    return convert


def finite_float(*, positive: bool = True):
    """유한한 실수(positive이면 0보다 큰 수)만 받는 type 변환기. nan, inf는 거절합니다."""

    def convert(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"수가 아닙니다: {text!r}. 0.01처럼 주세요.") from None
        if not math.isfinite(value):
            raise argparse.ArgumentTypeError(
                f"유한한 수여야 합니다. 받은 값: {text}. 0.01처럼 주세요."
            )
        if positive and not value > 0:
            raise argparse.ArgumentTypeError(f"0보다 커야 합니다. 받은 값: {text}")
        return value

    convert.__name__ = "수"
    return convert
