"""이름 목록 읽기와 토크나이저: 빈 줄, 드문 자모, 어휘 밖의 글자, 문법 마스크, 들어 있는 파일의 해시."""

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from tinygrad_ko.gpt.data import (
    LEAD,
    TAIL,
    VOWEL,
    english_tokenizer,
    korean_tokenizer,
    load_names,
    read_names,
)
from tinygrad_ko.gpt.hangul import is_hangul_name

ROOT = Path(__file__).resolve().parents[2]


def test_shipped_files_match_their_manifest():
    """SOURCES.md에 적힌 sha256과 들어 있는 이름 파일이 같습니다(네트워크를 쓰지 않는 --check)."""
    completed = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "gpt_names.py"), "--check"],
        capture_output=True,
        text=True,
    )
    assert completed.returncode == 0, completed.stdout + completed.stderr


def test_korean_names():
    names, tokenizer = load_names("ko")
    assert len(names) == 5478 and len(set(names)) == len(names)
    assert all(is_hangul_name(n) for n in names)
    assert tokenizer.vocab_size == 68
    assert max(len(tokenizer.encode(n)) for n in names) <= 16 + 1  # 문맥 16에 다 들어갑니다


def test_english_names():
    names, tokenizer = load_names("en")
    assert len(names) == 32257 and names[:3] == ["emma", "olivia", "ava"]
    assert tokenizer.vocab_size == 27
    assert all(set(n) <= set("abcdefghijklmnopqrstuvwxyz") for n in names)


def test_load_names_refuses_unknown_dataset():
    with pytest.raises(ValueError, match="'ko'나 'en'"):
        load_names("jp")


def test_encode_decode_korean():
    tokenizer = korean_tokenizer()
    ids = tokenizer.encode("민준")
    assert ids[0] == ids[-1] == tokenizer.bos and len(ids) == 8
    assert tokenizer.decode(ids) == "민준"
    assert [tokenizer.label(t) for t in ids] == ["BOS", "ㅁ", "ㅣ", "ㄴ", "ㅈ", "ㅜ", "ㄴ", "BOS"]


@pytest.mark.parametrize("name", ["똠방", "뷁", "앉은", "쀍쀍쀍"])
def test_rare_jamo_names_encode(name):
    tokenizer = korean_tokenizer()
    assert tokenizer.decode(tokenizer.encode(name)) == name


def test_encode_refuses_what_it_cannot_tokenize():
    with pytest.raises(ValueError, match="빈 이름"):
        korean_tokenizer().encode("")
    with pytest.raises(ValueError, match="완성형 한글"):
        korean_tokenizer().encode("Minjun")
    with pytest.raises(ValueError, match="어휘에 없는 글자 'A'"):
        english_tokenizer().encode("Anna")


def test_read_names_skips_blank_lines_and_strips(tmp_path):
    path = tmp_path / "names.txt"
    path.write_text("\n  민준 \r\n\n서연\n\t\n똠\n", encoding="utf-8")
    assert read_names(path, korean_tokenizer()) == ["민준", "서연", "똠"]


def test_read_names_reports_the_bad_line(tmp_path):
    path = tmp_path / "names.txt"
    path.write_text("민준\n\n서ㅇ\n", encoding="utf-8")
    with pytest.raises(ValueError, match="3번째 줄"):
        read_names(path, korean_tokenizer())


def test_read_names_refuses_an_empty_file(tmp_path):
    path = tmp_path / "names.txt"
    path.write_text("\n \n", encoding="utf-8")
    with pytest.raises(ValueError, match="하나도 없습니다"):
        read_names(path, english_tokenizer())


def test_grammar_masks():
    tokenizer = korean_tokenizer()
    bos = tokenizer.bos
    kinds = {t: tokenizer.state_after([bos, t]) for t in range(1, tokenizer.vocab_size)}
    start = tokenizer.allowed([bos])
    assert not start[bos] and all(start[t] == (k == LEAD) for t, k in kinds.items())
    after_lead = tokenizer.allowed(tokenizer.encode("미")[:2])
    assert not after_lead[bos] and all(after_lead[t] == (k == VOWEL) for t, k in kinds.items())
    after_vowel = tokenizer.allowed(tokenizer.encode("미")[:3])
    assert after_vowel[bos] and all(after_vowel[t] == (k != VOWEL) for t, k in kinds.items())
    after_tail = tokenizer.allowed(tokenizer.encode("민")[:4])
    assert after_tail[bos] and all(after_tail[t] == (k == LEAD) for t, k in kinds.items())
    assert TAIL in kinds.values()
    with pytest.raises(ValueError):
        after_tail[0] = False  # 공유하는 마스크는 읽기 전용입니다


def test_english_grammar_only_forbids_an_empty_name():
    tokenizer = english_tokenizer()
    assert not tokenizer.allowed([0])[0] and tokenizer.allowed([0])[1:].all()
    assert np.all(tokenizer.allowed([0, 5]))
