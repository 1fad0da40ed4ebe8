"""자모 나누기(NFD)와 모으기(NFC): 드문 자모, 음절이 되지 못한 자모, 한글이 아닌 글자."""

import unicodedata

import pytest

from tinygrad_ko.gpt.hangul import (
    JAMO,
    LEADS,
    TAILS,
    VOWELS,
    compose,
    decompose,
    is_hangul_name,
    jamo_label,
)


def test_inventory_is_the_modern_jamo():
    assert (len(LEADS), len(VOWELS), len(TAILS), len(JAMO)) == (19, 21, 27, 67)
    # 현대 한글 음절 11,172개를 나누면 정확히 이 67개가 나옵니다.
    used = {j for code in range(0xAC00, 0xD7A4) for j in decompose(chr(code))}
    assert used == set(JAMO)


def test_decompose_and_compose_round_trip_every_syllable():
    syllables = "".join(chr(c) for c in range(0xAC00, 0xD7A4))
    jamo = decompose(syllables)
    # 받침 없는 음절 19×21개는 자모 둘, 받침 있는 음절 19×21×27개는 자모 셋입니다.
    assert len(jamo) == 19 * 21 * 2 + 19 * 21 * 27 * 3
    assert sum(len(decompose(ch)) for ch in "가각") == 5
    assert compose(jamo) == syllables


@pytest.mark.parametrize("name", ["똠", "쀍", "뷁", "괜찮", "읊", "앉", "닭", "쌰"])
def test_rare_jamo_round_trip(name):
    assert compose(decompose(name)) == name
    assert all(ch in JAMO for ch in decompose(name))


def test_lead_and_tail_of_the_same_letter_are_different_tokens():
    (lead, vowel, tail) = decompose("응")
    assert lead != tail and jamo_label(lead) == jamo_label(tail) == "ㅇ"
    assert jamo_label(vowel) == "ㅡ"


@pytest.mark.parametrize(
    ("jamo", "shown"),
    [
        ("\u1106\u1175\u110c", "미ㅈ"),  # 가운뎃소리 없이 끝난 첫소리
        ("\u1175\u1106\u1175", "ㅣ미"),  # 첫소리 없는 가운뎃소리
        ("\u1100\u1161\u11ab\u11ab", "간ㄴ"),  # 끝소리 두 개
        ("\u11a8", "ㄱ"),  # 끝소리 하나뿐
        ("\u1100\u1161\u1161", "가ㅏ"),  # 가운뎃소리 두 개
        ("", ""),  # 빈 나열
    ],
)
def test_invalid_sequences_are_shown_as_separate_jamo(jamo, shown):
    assert compose(jamo) == shown
    assert not any(0x1100 <= ord(ch) <= 0x11FF for ch in compose(jamo))


def test_decompose_refuses_non_hangul_with_position():
    with pytest.raises(ValueError, match="2번째 글자 'a'"):
        decompose("민a")
    with pytest.raises(ValueError, match=r"U\+3131"):
        decompose("ㄱ")  # 호환용 자모는 음절이 아닙니다
    with pytest.raises(TypeError, match="문자열"):
        decompose(3)


def test_is_hangul_name():
    assert is_hangul_name("민준") and is_hangul_name("똠")
    assert not is_hangul_name("") and not is_hangul_name("미ㅈ") and not is_hangul_name("민 준")
    assert not is_hangul_name(unicodedata.normalize("NFD", "민"))
