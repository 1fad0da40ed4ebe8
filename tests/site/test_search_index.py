"""검색 색인 다듬기(scripts/search_index.py): 수식은 읽을 수 있는 글자로, `¶`는 없이, 용어를 소개하는 장이
그 용어의 검색 결과 맨 앞에. 앞의 시험들은 빌드 없이 함수만, 뒤의 시험들은 빌드한 사이트의 색인을 봅니다."""

from __future__ import annotations

import re

import pytest
import search_index
from sitetools import DOCS

# 색인에 남으면 안 되는 것: TeX 구분자와 명령, 단락 기호, 노트북의 $...$ 수식. 코드(<code>, <pre>) 안은 봅니다.
RAW_TEX = re.compile(
    r"\\[()\[\]]|\\(?:frac|partial|sum|cdot|times|mathrm|approx|log|propto|top|varepsilon"
    r"|infty|sqrt|left|right|text)\b|¶|\$[^$\s<]{1,40}\$"
)


@pytest.mark.parametrize(
    ("tex", "text"),
    [
        (r"\frac{dy}{dy}=1", "dy/dy=1"),
        (r"f'(x) \approx \frac{f(x+h) - f(x-h)}{2h}", "f'(x) ≈ (f(x+h) - f(x-h))/2h"),
        (r"\varepsilon^2 = 0", "ε^2 = 0"),
        (r"g_W = x^\top g_y", "g_W = xᵀ g_y"),
        (r"\left(\frac{dy}{db}\right)\qquad\text{(역방향)}", "(dy/db) (역방향)"),
        (r"\sqrt{\mathrm{mean}(x^2)}", "√mean(x^2)"),
    ],
)
def test_tex_becomes_readable_text(tex, text):
    assert search_index.tex_to_text(tex) == text


def test_clean_text_rewrites_formulas_and_drops_pilcrows_but_keeps_code():
    text = r"미분 \(\frac{dy}{dx}\)와 $K \log K$에 비례¶ <code>$x$ \(y\)</code>"
    assert search_index.clean_text(text) == r"미분 dy/dx와 K log K에 비례 <code>$x$ \(y\)</code>"


def test_glossary_terms_are_read_from_the_glossary_page():
    terms = search_index.korean_terms((DOCS / "glossary.md").read_text(encoding="utf-8"))
    assert {"역전파", "이중 역전파", "창조자", "합성곱 신경망", "말단 변수"} <= set(terms)
    assert "한국어" not in terms and not any(set(t) <= {"-"} for t in terms)


def test_the_first_title_in_reading_order_introduces_the_term():
    titles = [
        ("a.html", "1장. 변수"),
        ("b.html", "3장. 역전파 이론"),
        ("c.html", "21장. 이중 역전파와 그 쓰임"),
        ("d.html", "30장. 역전파 다시 보기"),
    ]
    found = search_index.introducing_pages(["역전파", "이중 역전파", "전파", "없는 말"], titles)
    # `전파`는 `역전파` 안에 있지만 낱말의 처음이 아니므로 어느 제목도 소개하지 않습니다.
    assert found == {"b.html": ["역전파"], "c.html": ["이중 역전파"]}


def test_built_index_has_no_raw_tex_or_pilcrow(built_site):
    problems = []
    for document in built_site.search_documents():
        outside_code = re.sub(
            r"<(pre|code)>.*?</\1>", "", document["title"] + " " + document["text"], flags=re.S
        )
        for match in RAW_TEX.finditer(outside_code):
            around = outside_code[max(0, match.start() - 30) : match.end() + 30]
            problems.append(f"{document['location']}: …{around}…")
    assert not problems, "\n".join(problems[:20])


def test_built_index_marks_the_chapter_that_introduces_backpropagation(built_site):
    config = built_site.search_config()
    assert config["fields"]["intro"]["boost"] > config["fields"]["title"]["boost"]
    intro = {
        d["location"]: d["intro"].split() for d in built_site.search_documents() if "intro" in d
    }
    assert "역전파" in intro["part1/03-backprop-theory.html"]
    assert "이중역전파" in intro["part3/21-double-backprop.html"]
    assert [page for page, terms in intro.items() if "역전파" in terms] == [
        "part1/03-backprop-theory.html"
    ]
    assert all("#" not in page for page in intro)  # 페이지의 첫 항목에만
