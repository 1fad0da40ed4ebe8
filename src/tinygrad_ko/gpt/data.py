"""이름 목록을 읽고, 이름을 토큰 번호의 나열로 바꾸는 토크나이저.

토큰(token)은 모델이 한 번에 읽고 내는 기호 하나입니다. 한국어 이름은 자모 하나가, 영어 이름은
로마자 하나가 토큰이고, 여기에 이름의 시작과 끝을 알리는 특별한 토큰 BOS 하나를 더한 것이
어휘(vocabulary)입니다. 이름 '민준'은 [BOS, ᄆ, ᅵ, ᆫ, ᄌ, ᅮ, ᆫ, BOS]가 됩니다.

한국어 어휘는 데이터에 나온 자모만이 아니라 현대 한글 자모 67개를 모두 담습니다. 그래서 학습
데이터에 없던 드문 자모(ᄈ, ᆩ, ᆬ …)가 든 이름도 토큰으로 바꿀 수 있습니다.

샘플링할 때 쓰는 문법(`allowed`)도 여기 있습니다. 한국어는 첫소리 다음에는 가운뎃소리만,
가운뎃소리 다음에는 끝소리나 다음 첫소리나 끝(BOS)이 올 수 있으므로, 이 규칙만 지키면 만들어진
자모는 언제나 완성된 음절로 모입니다.
"""

from __future__ import annotations

import numbers
import string
from collections.abc import Iterable
from dataclasses import dataclass, field
from importlib.resources import files
from pathlib import Path

import numpy as np

from .hangul import JAMO, LEADS, VOWELS, compose, decompose

__all__ = [
    "DATASETS",
    "Tokenizer",
    "check_token_ids",
    "english_tokenizer",
    "korean_tokenizer",
    "load_names",
    "read_names",
]

DATASETS = {"ko": "names_ko.txt", "en": "names_en.txt"}

# 문법의 상태: 이름의 시작, 첫소리 뒤, 가운뎃소리 뒤, 끝소리 뒤(영어는 시작과 글자 뒤만 씁니다).
START, LEAD, VOWEL, TAIL, LETTER = "start", "lead", "vowel", "tail", "letter"


@dataclass(frozen=True)
class Tokenizer:
    """기호(자모나 로마자)의 목록과 BOS 하나로 된 어휘. BOS의 번호는 0, 기호는 1부터입니다."""

    language: str  # "ko" 또는 "en"
    symbols: tuple[str, ...]
    _index: dict[str, int] = field(init=False, repr=False, compare=False)
    _kind: dict[int, str] = field(init=False, repr=False, compare=False)
    _masks: dict[str, np.ndarray] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_index", {s: i + 1 for i, s in enumerate(self.symbols)})
        object.__setattr__(
            self, "_kind", {i: _kind(self.language, s) for s, i in self._index.items()}
        )
        object.__setattr__(self, "_masks", _grammar_masks(self.vocab_size, self.bos, self._kind))

    bos = 0

    @property
    def vocab_size(self) -> int:
        return len(self.symbols) + 1

    def split(self, name: str) -> str:
        """이름을 기호의 문자열로: 한국어는 자모로 나누고(NFD), 영어는 그대로 둡니다."""
        return decompose(name) if self.language == "ko" else name

    def encode(self, name: str) -> list[int]:
        """이름 -> [BOS, 기호…, BOS]. 어휘에 없는 기호가 있으면 ValueError."""
        if not isinstance(name, str):
            raise TypeError(
                f"이름은 문자열이어야 합니다. 받은 값: {name!r}({type(name).__name__}). "
                "'민준'처럼 글자로 된 이름을 넘기세요."
            )
        ids = [self.bos]
        for symbol in self.split(name):
            if symbol not in self._index:
                raise ValueError(
                    f"이름 {name!r}에 어휘에 없는 글자 {symbol!r}가 있습니다. "
                    f"{_describe_alphabet(self)} 로 된 이름을 넘기세요."
                )
            ids.append(self._index[symbol])
        if len(ids) == 1:
            raise ValueError(
                "빈 이름은 토큰으로 바꿀 수 없습니다. 글자가 하나 이상인 이름을 넘기세요."
            )
        return ids + [self.bos]

    def decode(self, ids: list[int]) -> str:
        """토큰 번호 -> 화면에 보일 이름. BOS는 건너뛰고, 한국어는 음절로 모읍니다(NFC)."""
        ids = check_token_ids(ids, self.vocab_size, least=0)
        text = "".join(self.symbols[i - 1] for i in ids if i != self.bos)
        return compose(text) if self.language == "ko" else text

    def label(self, token: int) -> str:
        """그림의 눈금에 쓸 토큰 하나의 글자: BOS는 'BOS', 자모는 홀로 선 모양(ㄱ, ㅏ …)."""
        (token,) = check_token_ids([token], self.vocab_size)
        if token == self.bos:
            return "BOS"
        return compose(self.symbols[token - 1])

    # --- 샘플링의 문법 ------------------------------------------------------------------
    def state_after(self, ids: list[int]) -> str:
        """[BOS, …] 다음의 문법 상태."""
        state = START
        for token in check_token_ids(ids, self.vocab_size, least=0):
            if token != self.bos:
                state = self._kind[token]
        return state

    def allowed(self, ids: list[int]) -> np.ndarray:
        """[BOS, 기호…] 다음에 올 수 있는 토큰들(bool 배열, 길이 vocab_size)."""
        return self._masks[self.state_after(ids)]


def check_token_ids(ids: Iterable[int], vocab_size: int, *, least: int = 1) -> list[int]:
    """토큰 번호들을 확인해 파이썬 정수의 리스트로 돌려줍니다. 번호는 0 이상 vocab_size 미만의 정수입니다.

    음수는 NumPy 인덱싱에서 뒤에서부터 세는 번호가 되고 실수는 잘려, 틀린 토큰을 조용히 읽게 됩니다.
    """
    if isinstance(ids, str | bytes) or not isinstance(ids, Iterable):
        raise TypeError(
            f"토큰 번호의 목록을 넘기세요. 받은 값: {ids!r}({type(ids).__name__}). 예: [0, 3, 5]"
        )
    ids = list(ids)
    if len(ids) < least:
        raise ValueError("토큰이 하나도 없습니다. [BOS, …] 처럼 토큰 번호를 하나 이상 넘기세요.")
    for token in ids:
        if isinstance(token, bool) or not isinstance(token, numbers.Integral):
            raise TypeError(
                f"토큰 번호는 정수여야 합니다. 받은 값: {token!r}({type(token).__name__}). "
                "토크나이저의 encode가 만든 번호를 넘기세요."
            )
        if not 0 <= token < vocab_size:
            raise ValueError(
                f"토큰 번호 {token!r}가 어휘 크기({vocab_size}) 밖에 있습니다. "
                "같은 토크나이저로 만든 번호(0 이상, 어휘 크기 미만)를 넘기세요."
            )
    return [int(token) for token in ids]


def _describe_alphabet(tokenizer: Tokenizer) -> str:
    return "완성형 한글 음절" if tokenizer.language == "ko" else "로마자 소문자(a~z)"


def _kind(language: str, symbol: str) -> str:
    if language == "en":
        return LETTER
    return LEAD if symbol in LEADS else VOWEL if symbol in VOWELS else TAIL


# 상태마다 다음에 올 수 있는 것. "end"는 BOS(이름의 끝)입니다.
_NEXT = {
    START: {LEAD, LETTER},
    LEAD: {VOWEL},
    VOWEL: {TAIL, LEAD, "end"},
    TAIL: {LEAD, "end"},
    LETTER: {LETTER, "end"},
}


def _grammar_masks(vocab_size: int, bos: int, kind: dict[int, str]) -> dict[str, np.ndarray]:
    masks = {}
    for state, following in _NEXT.items():
        mask = np.zeros(vocab_size, dtype=bool)
        mask[bos] = "end" in following
        for token, k in kind.items():
            mask[token] = k in following
        mask.flags.writeable = False
        masks[state] = mask
    return masks


def korean_tokenizer() -> Tokenizer:
    """현대 한글 자모 67개(첫소리 19, 가운뎃소리 21, 끝소리 27)와 BOS: 어휘 68개."""
    return Tokenizer("ko", JAMO)


def english_tokenizer() -> Tokenizer:
    """로마자 소문자 26개와 BOS: 어휘 27개(makemore와 같은 크기)."""
    return Tokenizer("en", tuple(string.ascii_lowercase))


TOKENIZERS = {"ko": korean_tokenizer, "en": english_tokenizer}


def read_names(path: str | Path, tokenizer: Tokenizer) -> list[str]:
    """한 줄에 이름 하나인 UTF-8 파일을 읽습니다. 앞뒤 공백을 지우고 빈 줄은 건너뜁니다.

    이름마다 토크나이저로 바꿔 보아, 바꿀 수 없는 이름이 있으면 몇째 줄인지 알리는 ValueError를 냅니다.
    """
    names = []
    text = Path(path).read_text(encoding="utf-8")
    for number, line in enumerate(text.splitlines(), start=1):
        name = line.strip()
        if not name:
            continue
        try:
            tokenizer.encode(name)
        except ValueError as error:
            raise ValueError(f"{path}의 {number}번째 줄: {error}") from None
        names.append(name)
    if not names:
        raise ValueError(
            f"{path}에 이름이 하나도 없습니다. 한 줄에 이름 하나씩 적은 파일을 넘기세요."
        )
    return names


def load_names(data: str = "ko") -> tuple[list[str], Tokenizer]:
    """패키지에 들어 있는 이름 목록과 그 토크나이저: data는 "ko"(한국어) 또는 "en"(영어)."""
    if data not in DATASETS:
        raise ValueError(
            f"data는 'ko'나 'en'이어야 합니다. 받은 값: {data!r}. 둘 중 하나를 넘기세요."
        )
    tokenizer = TOKENIZERS[data]()
    path = files("tinygrad_ko.gpt").joinpath("data", DATASETS[data])
    return read_names(Path(str(path)), tokenizer), tokenizer
