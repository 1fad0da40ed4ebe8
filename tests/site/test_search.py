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
from sitetools import new_context, open_page, page_path, search, watch

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
    """검색할 탭 하나. 첫 페이지를 한 번만 열어, Material이 검색 색인을 한 번만 만들게 합니다
    (`search`가 검색창을 비우고 새로 검색합니다)."""
    context = new_context(browser)
    page = context.new_page()
    open_page(page, site_url + "index.html")
    yield page
    context.close()


@pytest.mark.parametrize("query", QUERIES)
def test_search_finds_every_page_that_uses_the_term(built_site, site_url, search_page, query):
    expected = pages_containing(built_site.search_documents(), query)
    assert "glossary.html" in expected, "용어집에는 모든 질의어가 있어야 이 테스트가 뜻이 있습니다"
    found = search(search_page, query, site_url)
    missing = sorted(expected - found)
    assert not missing, (
        f"'{query}'가 들어 있지만 검색되지 않은 페이지: {missing} (찾은 것: {found})"
    )


def test_search_does_not_match_everything(built_site, site_url, search_page):
    """아무 페이지나 다 돌려주는 검색이면 위 테스트가 뜻이 없으므로, 없는 낱말은 결과가 없어야 합니다."""
    assert search(search_page, "존재하지않는낱말", site_url) == set()


# 용어와 그것을 소개하는 장(읽는 순서에서 제목에 그 용어가 처음 나오는 장; scripts/search_index.py).
# 역전파는 3장이 소개하고, 21장(이중 역전파)과 부록도 제목에 그 말을 품습니다.
INTRODUCED_IN = {
    "역전파": "part1/03-backprop-theory.html",
    "창조자": "part1/04-creator-links.html",
    "세대": "part2/11-generations.html",
}


def test_search_matches_the_start_of_a_word(built_site, site_url, search_page):
    """처음 페이지의 말 "낱말을 앞부분으로 찾습니다('전파'로는 '역전파'가 나오지 않습니다)"를 지킵니다.
    '전파'는 '역전파'·'순전파' 안에만 있는 페이지를 돌려주지 않습니다."""
    documents = built_site.search_documents()
    only_inside = pages_containing(documents, "역전파") - pages_containing(documents, "전파")
    assert len(only_inside) > 10, (
        only_inside
    )  # '역전파'는 있고 '전파'로 시작하는 낱말은 없는 페이지
    found = search(search_page, "전파", site_url)
    assert found <= pages_containing(documents, "전파"), found - pages_containing(documents, "전파")
    assert not found & only_inside, found & only_inside


@pytest.mark.parametrize(("query", "chapter"), INTRODUCED_IN.items())
def test_the_chapter_that_introduces_a_term_comes_first(site_url, search_page, query, chapter):
    found = search(search_page, query, site_url)
    assert len(found) > 3, found  # 다른 페이지도 나오는 검색이어야 순서에 뜻이 있습니다
    first = search_page.eval_on_selector(
        "li.md-search-result__item a.md-search-result__link", "el => el.href"
    )
    assert page_path(first, site_url) == chapter


def test_search_works_from_a_page_inside_a_folder(browser, site_url):
    """장 페이지(폴더 안, 색인 주소가 ../search/ 인 곳)에서도 색인을 받아 검색합니다. 다른 검색 테스트는
    모두 맨 위의 index.html 에서 하고, 모든 페이지를 여는 검사는 색인을 받지 않으므로 여기서 봅니다."""
    context = new_context(browser)
    try:
        page = context.new_page()
        visit = watch(page)
        statuses = []
        page.on(
            "response",
            lambda r: statuses.append(r.status) if r.url.endswith("/search_index.json") else None,
        )
        open_page(page, site_url + "part1/03-backprop-theory.html")
        found = search(page, "역전파", site_url)
    finally:
        context.close()
    assert statuses == [200]
    assert "part1/03-backprop-theory.html" in found, found
    assert not visit.console_errors, visit.console_errors


def test_pages_opened_without_the_search_index_do_not_request_it(browser, site_url):
    """모든 페이지를 여는 검사가 쓰는 `search_index=False`는 검색 색인 요청만 없앱니다: 같은 페이지에서
    요청이 하나에서 0개가 되고, 콘솔 오류도 수식과 그림도 그대로입니다."""
    seen = {}
    for flag in (True, False):
        context = new_context(browser, search_index=flag)
        try:
            page = context.new_page()
            visit = watch(page)
            requests = []
            page.on("request", lambda r, requests=requests: requests.append(r.url))
            open_page(page, site_url + "part1/03-backprop-theory.html")
            drawn = page.evaluate("() => document.querySelectorAll('mjx-container').length")
            seen[flag] = (
                sum(url.endswith("/search_index.json") for url in requests),
                drawn,
                visit.console_errors,
            )
        finally:
            context.close()
    assert seen[True][0] == 1 and seen[False][0] == 0, seen
    assert seen[True][1] == seen[False][1] > 0, seen
    assert seen[True][2] == seen[False][2] == [], seen
