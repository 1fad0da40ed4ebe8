"""한글 이름을 자모로 나누고(NFD), 자모를 다시 음절로 모읍니다(NFC).

유니코드는 완성형 음절 '민'을 첫소리 ᄆ, 가운뎃소리 ᅵ, 끝소리 ᆫ 세 글자(조합형 자모)로 나누는
방법(NFD)과, 그 세 글자를 다시 '민' 한 글자로 모으는 방법(NFC)을 정해 두었습니다. 첫소리 ㅇ(ᄋ)과
끝소리 ㅇ(ᆼ)은 서로 다른 글자이므로, 나눈 자모만 보고도 어디서 음절이 끝나는지 알 수 있습니다.

음절로 모을 수 없는 자모 순서(가운뎃소리 없이 끝난 첫소리, 첫소리 없는 가운뎃소리 따위)도 오류를
내지 않습니다. 그런 자모는 화면에 홀로 설 수 있는 호환용 자모(ㄱ, ㅏ …)로 바꾸어 따로 보여 줍니다.
"""

from __future__ import annotations

import unicodedata

__all__ = [
    "LEADS",
    "VOWELS",
    "TAILS",
    "JAMO",
    "compose",
    "decompose",
    "is_hangul_name",
    "jamo_label",
]

LEADS = tuple(chr(c) for c in range(0x1100, 0x1113))  # 첫소리 19개: ᄀ ᄁ ᄂ … ᄒ
VOWELS = tuple(chr(c) for c in range(0x1161, 0x1176))  # 가운뎃소리 21개: ᅡ ᅢ … ᅵ
TAILS = tuple(chr(c) for c in range(0x11A8, 0x11C3))  # 끝소리 27개: ᆨ ᆩ … ᇂ
JAMO = LEADS + VOWELS + TAILS  # 현대 한글 음절 11,172개를 모두 쓰는 데 필요한 67개
_FIRST_SYLLABLE, _LAST_SYLLABLE = "가", "힣"


def _compatibility_letter(jamo: str) -> str:
    """조합형 자모를 같은 이름의 호환용 자모로(예: 'HANGUL JONGSEONG NIEUN' -> 'ㄴ')."""
    name = unicodedata.name(jamo)
    for part in ("CHOSEONG", "JUNGSEONG", "JONGSEONG"):
        name = name.replace(part, "LETTER")
    return unicodedata.lookup(name)


_LETTER = {j: _compatibility_letter(j) for j in JAMO}


def is_hangul_name(text: str) -> bool:
    """비어 있지 않고 모든 글자가 완성형 한글 음절(가~힣)이면 True."""
    return bool(text) and all(_FIRST_SYLLABLE <= ch <= _LAST_SYLLABLE for ch in text)


def decompose(name: str) -> str:
    """완성형 한글 이름을 조합형 자모 문자열로 나눕니다(NFD). 예: '민준' -> '민준'.

    한글 음절이 아닌 글자가 있으면 무엇을 받았는지 알리는 ValueError를 냅니다.
    """
    if not isinstance(name, str):
        raise TypeError(f"이름은 문자열로 넘기세요. 받은 것: {type(name).__name__} {name!r}")
    for position, ch in enumerate(name):
        if not _FIRST_SYLLABLE <= ch <= _LAST_SYLLABLE:
            raise ValueError(
                f"이름 {name!r}의 {position + 1}번째 글자 {ch!r}(U+{ord(ch):04X})는 완성형 한글 "
                "음절(가~힣)이 아닙니다. 한글 음절로만 된 이름을 넘기세요."
            )
    return unicodedata.normalize("NFD", name)


# --8<-- [start:compose]
def compose(jamo: str) -> str:
    """조합형 자모를 음절로 모읍니다(NFC). 음절이 되지 못한 자모는 호환용 자모로 따로 보여 줍니다.

    예: '민준' -> '민준', '미ᄌ' -> '미ㅈ'(가운뎃소리 없이 끝난 첫소리).
    자모가 아닌 글자는 그대로 둡니다.
    """
    composed = unicodedata.normalize("NFC", jamo)
    return "".join(_LETTER.get(ch, ch) for ch in composed)


# --8<-- [end:compose]


def jamo_label(jamo: str) -> str:
    """그림의 눈금처럼 자모 하나를 홀로 보여 줄 때 쓰는 글자(호환용 자모). 자모가 아니면 그대로."""
    return _LETTER.get(jamo, jamo)
