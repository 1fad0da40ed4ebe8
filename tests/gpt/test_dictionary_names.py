"""scripts/dictionary_names.py: MeCab 이진 사전의 자질 읽기와, 성명에서 한국어 이름을 고르는 규칙.

실제 사전(80 MB)은 받지 않고, 같은 형식의 작은 사전을 만들어 읽습니다.
"""

import struct
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT / "scripts") not in sys.path:
    sys.path.insert(0, str(ROOT / "scripts"))

import dictionary_names  # noqa: E402 - 바로 위에서 scripts/를 경로에 넣은 뒤에

FEATURES = [
    "NNP,인명,F,김민수,*,*,*,*",
    "NNG,*,T,사람,*,*,*,*",
    "NNP,지명,T,서울,*,*,*,*",
    "NNP,인명,F,가네코노부오,Preanalysis,NNP,NNP,가네코/NNP/인명+노부오/NNP/인명",
]


def fake_dictionary(features, charset=b"UTF-8", double_array=b"\1" * 8, tokens=b"\2" * 16):
    """MeCab 사전과 같은 배치(머리 72바이트, 더블 어레이, 토큰 표, NUL로 나뉜 자질)의 바이트열."""
    feature_block = b"".join(f.encode("utf-8") + b"\0" for f in features)
    body = double_array + tokens + feature_block
    size = 72 + len(body)
    header = struct.pack(
        "<10I32s",
        size ^ 0xEF718F77,
        102,
        0,
        len(features),
        1,
        1,
        len(double_array),
        len(tokens),
        len(feature_block),
        0,
        charset,
    )
    return header + body


def test_features_reads_only_the_feature_block():
    # 더블 어레이와 토큰 표의 바이트는 자질로 섞여 들어오지 않습니다.
    assert dictionary_names.features(fake_dictionary(FEATURES)) == FEATURES


def test_person_names_keeps_only_person_entries():
    assert dictionary_names.person_names(FEATURES) == {"김민수", "가네코노부오"}


def test_a_given_name_needs_enough_different_surnames():
    full = "김민수 이민수 박민수 최민수 정민수 김서연 이서연 김서연".split()
    assert dictionary_names.given_names(full, min_surnames=5) == ["민수"]
    # 같은 성이 두 번 나와도 한 번으로 셉니다: 서연은 성 2개(김, 이)와 함께 나왔습니다.
    assert dictionary_names.given_names(full, min_surnames=2) == ["민수", "서연"]


def test_only_three_hangul_syllables_with_a_common_surname_count():
    full = "마이스 나이스 하이스 라이스 다이스 김이스 김민 김민수호 Kim민수".split()
    # 흔한 성 20개가 아닌 마·나·하·라·다로 시작한 외국 이름은 세지 않고, 세 글자 한글이 아닌 것도 뺍니다.
    assert dictionary_names.given_names(full, min_surnames=1) == ["이스"]
    assert dictionary_names.given_names(full, min_surnames=2) == []


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"\0" * 10, "너무 짧습니다"),
        (fake_dictionary(FEATURES)[:-3], "파일 크기"),
        (fake_dictionary(FEATURES, charset=b"EUC-KR"), "UTF-8"),
    ],
)
def test_features_refuses_what_is_not_a_utf8_mecab_dictionary(data, message):
    with pytest.raises(ValueError, match=message):
        dictionary_names.features(data)
