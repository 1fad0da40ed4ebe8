"""한국어 형태소 분석 사전(mecab-ko-dic)의 인명 항목에서 성을 뺀 이름을 골라냅니다.

mecab-ko-dic은 한국어 글(말뭉치)에 나온 낱말을 품사와 함께 모은 형태소 분석용 사전이고, 사람 이름은
`NNP,인명,…` 자질을 달고 들어 있습니다. 그 가운데에는 '김민수' 같은 한국 사람의 성명도, '가네코겐' 같은
외국 사람의 이름을 한글로 적은 것도 있습니다. 여기서는 다음 규칙으로 한국어 이름(성을 뺀 이름)만 남깁니다.

1. 완성형 한글 세 글자이고 첫 글자가 흔한 성 20개(`COMMON_SURNAMES`) 가운데 하나인 항목을
   성 한 글자 + 이름 두 글자로 나눕니다.
2. 그 이름이 서로 다른 성 `MIN_SURNAMES`개 이상과 함께 나온 것만 남깁니다. 여러 사람이 쓰는 이름이라는
   증거이고, '박스터', '오스터', '이스터'의 '스터'처럼 성과 같은 글자로 시작하는 외국 이름에서 떨어져
   나온 조각을 걸러 냅니다.

사전 파일(`sys.dic`)은 MeCab의 이진 형식입니다. 머리(72바이트) 뒤에 더블 어레이, 토큰 표, 자질 문자열이
이어지고, 자질 문자열은 NUL(0) 바이트로 나뉩니다. 이 모듈은 자질 부분만 읽습니다(MeCab 없이).
"""

from __future__ import annotations

import re
import struct
from collections import defaultdict
from collections.abc import Iterable

# 통계청 2015년 인구주택총조사의 성씨별 인구 순위 1~20위(이 20개 성이 인구의 약 80%).
COMMON_SURNAMES = tuple("김이박최정강조윤장임한오서신권황안송전홍")
MIN_SURNAMES = 5
PERSON = "인명"

# MeCab dictionary.cpp의 머리: 매직(파일 크기와 XOR), 버전, 종류, 어휘 수, 왼쪽/오른쪽 문맥 수,
# 더블 어레이·토큰·자질의 바이트 수, 빈 칸 하나(모두 부호 없는 32비트, 리틀 엔디언), 문자 집합 32바이트.
_HEADER = struct.Struct("<10I32s")
_MAGIC = 0xEF718F77
_FULL_NAME = re.compile("[가-힣]{3}")


def features(dictionary: bytes) -> list[str]:
    """MeCab 이진 사전(`sys.dic`)의 자질 문자열 전부. 형식이 다르면 ValueError."""
    if len(dictionary) < _HEADER.size:
        raise ValueError(
            f"MeCab 사전으로 읽기에 너무 짧습니다({len(dictionary)}바이트). "
            "mecab-ko-dic의 sys.dic 파일을 넘기세요."
        )
    magic, version, _, _, _, _, dsize, tsize, fsize, _, charset = _HEADER.unpack_from(dictionary)
    if magic ^ _MAGIC != len(dictionary):
        raise ValueError(
            f"MeCab 사전의 머리가 파일 크기({len(dictionary)}바이트)와 맞지 않습니다. "
            "잘렸거나 다른 형식의 파일입니다. mecab-ko-dic의 sys.dic 파일을 넘기세요."
        )
    encoding = charset.rstrip(b"\0").decode("ascii").lower()
    if encoding not in ("utf-8", "utf8"):
        raise ValueError(
            f"문자 집합이 {encoding!r}인 사전입니다. UTF-8로 만든 mecab-ko-dic을 넘기세요."
        )
    start = _HEADER.size + dsize + tsize
    block = dictionary[start : start + fsize]
    return [f.decode("utf-8") for f in block.split(b"\0") if f]


def person_names(feature_strings: Iterable[str]) -> set[str]:
    """`NNP,인명,종성,읽기,…` 자질에서 읽기(한글로 적은 이름)를 모읍니다."""
    names = set()
    for feature in feature_strings:
        columns = feature.split(",")
        if len(columns) > 3 and columns[0] == "NNP" and columns[1] == PERSON:
            names.add(columns[3])
    return names


def given_names(
    full_names: Iterable[str],
    surnames: Iterable[str] = COMMON_SURNAMES,
    min_surnames: int = MIN_SURNAMES,
) -> list[str]:
    """성명(성 한 글자 + 이름 두 글자)에서, 서로 다른 성 min_surnames개 이상과 함께 나온 이름을 정렬해서."""
    surnames = set(surnames)
    seen_with: dict[str, set[str]] = defaultdict(set)
    for name in full_names:
        if _FULL_NAME.fullmatch(name) and name[0] in surnames:
            seen_with[name[1:]].add(name[0])
    return sorted(given for given, family in seen_with.items() if len(family) >= min_surnames)
