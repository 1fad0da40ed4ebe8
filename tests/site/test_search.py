"""한국어 검색: 질의어가 들어 있는 페이지는 모두 검색 결과에 나와야 합니다.

기대하는 페이지는 빌드된 사이트의 검색 색인(search_index.json)에 담긴 본문에서 직접 구합니다.
질의어가 낱말의 처음에 나오는 페이지(앞이 공백, 문장 부호, 괄호 등)를 모두 찾아야 합니다.
한국어의 조사는 낱말 뒤에 붙으므로(`역전파를`, `weakref로`) 이것이 독자가 기대하는 검색입니다.
실제 검색은 브라우저에서 Material의 검색창(lunr)으로 합니다.
"""

from __future__ import annotations

import html
import re

import pytest
from sitetools import new_context, open_page, page_path, search

pytestmark = pytest.mark.browser

# 뒤의 셋은 이 사이트가 쓰지 않는 다른 이름입니다. 용어집의 "다른 이름" 열 덕분에 용어집이 나와야 합니다.
QUERIES = [
    "역전파",
    "창조자",
    "메모리",
    "세대",
    "backpropagation",
    "weakref",
    "오차역전파",
    "그래디언트",
    "리프",
]


def pages_containing(documents: list[dict], term: str) -> set[str]:
    """검색 색인의 문서(페이지와 그 절)에서 질의어가 낱말 처음에 나오는 페이지들."""
    pattern = re.compile(r"(?<![0-9A-Za-z가-힣])" + re.escape(term), re.IGNORECASE)
    pages = set()
    for document in documents:
        text = html.unescape(re.sub(r"<[^>]+>", " ", document["title"] + " " + document["text"]))
        if pattern.search(text):
            pages.add(document["location"].split("#", 1)[0] or "index.html")
    return pages


@pytest.fixture(scope="module")
def search_page(browser, site_url):
    context = new_context(browser)
    page = context.new_page()
    yield page
    context.close()


@pytest.mark.parametrize("query", QUERIES)
def test_search_finds_every_page_that_uses_the_term(built_site, site_url, search_page, query):
    expected = pages_containing(built_site.search_documents(), query)
    assert "glossary.html" in expected, "용어집에는 모든 질의어가 있어야 이 테스트가 뜻이 있습니다"
    open_page(search_page, site_url + "index.html")  # 검색창을 새로 엽니다
    found = search(search_page, query, site_url)
    missing = sorted(expected - found)
    assert not missing, (
        f"'{query}'가 들어 있지만 검색되지 않은 페이지: {missing} (찾은 것: {found})"
    )


def test_search_does_not_match_everything(built_site, site_url, search_page):
    """아무 페이지나 다 돌려주는 검색이면 위 테스트가 뜻이 없으므로, 없는 낱말은 결과가 없어야 합니다."""
    open_page(search_page, site_url + "index.html")
    assert search(search_page, "존재하지않는낱말", site_url) == set()


# 용어와 그것을 소개하는 장(읽는 순서에서 제목에 그 용어가 처음 나오는 장; scripts/search_index.py).
# 역전파는 3장이 소개하고, 21장(이중 역전파)과 부록도 제목에 그 말을 품습니다.
INTRODUCED_IN = {
    "역전파": "part1/03-backprop-theory.html",
    "창조자": "part1/04-creator-links.html",
    "세대": "part2/11-generations.html",
}


@pytest.mark.parametrize(("query", "chapter"), INTRODUCED_IN.items())
def test_the_chapter_that_introduces_a_term_comes_first(site_url, search_page, query, chapter):
    open_page(search_page, site_url + "index.html")
    found = search(search_page, query, site_url)
    assert len(found) > 3, found  # 다른 페이지도 나오는 검색이어야 순서에 뜻이 있습니다
    first = search_page.eval_on_selector(
        "li.md-search-result__item a.md-search-result__link", "el => el.href"
    )
    assert page_path(first, site_url) == chapter
