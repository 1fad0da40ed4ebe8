"""실험 노트북 캐시(scripts/notebook_cache.py)와 그것을 쓰는 빌드 훅을 빌드 없이 시험합니다.

- 키는 노트북 내용, 라이브러리 소스, 실행 여부가 바뀌면 바뀌고, 같으면 같습니다.
- `mkdocs build`는 늘 실행하고 결과를 적습니다. `mkdocs serve`는 실행하지 않고 적힌 결과를 쓰며,
  없으면 실행하지 않은 노트북 위에 그렇다고 알립니다.
"""

from __future__ import annotations

import shutil
import types

import mkdocs_hooks
import notebook_cache
import pytest
from mkdocs.structure.toc import get_toc
from sitetools import DOCS, ROOT

NOTEBOOK = DOCS / "notebooks" / "numerical-diff-error.ipynb"
OPTIONS = {"kernel_name": "python3", "allow_errors": False}
TOC = [{"level": 1, "id": "제목", "name": "제목", "children": []}]


def fake_root(tmp_path):
    """environment_digest 가 읽는 파일만 담은 저장소 사본."""
    shutil.copytree(ROOT / "src" / "tinygrad_ko", tmp_path / "src" / "tinygrad_ko")
    shutil.copytree(
        ROOT / "scripts" / "nbconvert_templates", tmp_path / "scripts" / "nbconvert_templates"
    )
    shutil.copy(ROOT / "scripts" / "mkdocs_hooks.py", tmp_path / "scripts")
    (tmp_path / "requirements").mkdir()
    shutil.copy(ROOT / "requirements" / "constraints.txt", tmp_path / "requirements")
    return tmp_path


def test_key_follows_the_notebook_the_library_and_the_execution(tmp_path):
    root = fake_root(tmp_path / "repo")
    before = notebook_cache.environment_digest(root)
    assert notebook_cache.environment_digest(root) == before
    with open(root / "src" / "tinygrad_ko" / "utils.py", "a", encoding="utf-8") as file:
        file.write("\n# 바뀜\n")
    after = notebook_cache.environment_digest(root)
    assert after != before

    notebook = tmp_path / "n.ipynb"
    shutil.copy(NOTEBOOK, notebook)
    key = notebook_cache.key(notebook, before, OPTIONS, executed=True)
    assert key == notebook_cache.key(notebook, before, OPTIONS, executed=True)
    assert key != notebook_cache.key(notebook, after, OPTIONS, executed=True)
    assert key != notebook_cache.key(notebook, before, OPTIONS, executed=False)
    assert key != notebook_cache.key(notebook, before, {**OPTIONS, "allow_errors": True}, True)
    notebook.write_text(notebook.read_text(encoding="utf-8") + " ", encoding="utf-8")
    assert key != notebook_cache.key(notebook, before, OPTIONS, executed=True)


def test_store_keeps_one_result_per_notebook_and_mode(tmp_path):
    first = notebook_cache.Rendered("<p>하나</p>", TOC, "제목")
    notebook_cache.store(NOTEBOOK, True, "k1", first, tmp_path)
    notebook_cache.store(NOTEBOOK, False, "p1", first, tmp_path)
    assert notebook_cache.load(NOTEBOOK, True, "k1", tmp_path) == first
    second = notebook_cache.Rendered("<p>둘</p>", TOC, "제목")
    notebook_cache.store(NOTEBOOK, True, "k2", second, tmp_path)
    assert notebook_cache.load(NOTEBOOK, True, "k1", tmp_path) is None
    assert notebook_cache.load(NOTEBOOK, True, "k2", tmp_path) == second
    assert notebook_cache.load(NOTEBOOK, False, "p1", tmp_path) == first
    assert sorted(p.name.split(".")[1] for p in tmp_path.iterdir()) == ["executed", "plain"]


def test_toc_tokens_round_trip():
    tokens = [
        {
            "level": 1,
            "id": "a",
            "name": "가",
            "children": [{"level": 2, "id": "b", "name": "나", "children": []}],
        },
    ]
    assert notebook_cache.toc_tokens(get_toc(tokens)) == tokens


class FakePage:
    def __init__(self, rendered_html: str, calls: list):
        self.file = types.SimpleNamespace(src_uri="notebooks/x.ipynb", abs_src_path=str(NOTEBOOK))
        self.content = None
        self.toc = get_toc([])
        self.title = None

        def render(config, files):  # mkdocs-jupyter 가 바꿔 끼운 render 를 흉내 냅니다
            calls.append("render")
            self.content = rendered_html
            self.toc = get_toc(TOC)
            self.title = "제목"

        self.render = render


@pytest.fixture
def hook(tmp_path, monkeypatch):
    monkeypatch.setattr(notebook_cache, "CACHE", tmp_path)
    monkeypatch.setitem(mkdocs_hooks._RUN, "environment", "환경")
    plugin = types.SimpleNamespace(config={"execute": True})
    config = types.SimpleNamespace(plugins={"mkdocs-jupyter": plugin})
    return config


def render(config, html: str, serving: bool, monkeypatch) -> tuple[FakePage, list]:
    monkeypatch.setitem(mkdocs_hooks._RUN, "serving", serving)
    calls: list = []
    page = mkdocs_hooks.on_pre_page(FakePage(html, calls), config, files=None)
    page.render(config, None)
    return page, calls


def test_serve_shows_code_with_a_note_until_a_build_has_run_it(hook, monkeypatch):
    page, calls = render(hook, "<p>코드만</p>", True, monkeypatch)
    assert calls == ["render"]
    assert page.content == notebook_cache.UNEXECUTED_NOTE + "<p>코드만</p>"
    assert page.title == "제목" and notebook_cache.toc_tokens(page.toc) == TOC
    page, calls = render(hook, "<p>다시 그리면 안 됨</p>", True, monkeypatch)
    assert calls == [] and page.content.endswith("<p>코드만</p>")  # 실행하지 않은 결과도 캐시에서

    page, calls = render(hook, "<p>실행 결과</p>", False, monkeypatch)  # build: 늘 실행
    assert calls == ["render"] and page.content == "<p>실행 결과</p>"
    page, calls = render(hook, "<p>또 실행</p>", False, monkeypatch)
    assert calls == ["render"] and page.content == "<p>또 실행</p>"

    page, calls = render(hook, "<p>쓰이면 안 됨</p>", True, monkeypatch)  # serve: build의 결과
    assert calls == [] and page.content == "<p>또 실행</p>"
    assert notebook_cache.toc_tokens(page.toc) == TOC


def test_serve_does_not_use_a_result_made_from_another_library(hook, monkeypatch):
    render(hook, "<p>옛 라이브러리의 결과</p>", False, monkeypatch)
    monkeypatch.setitem(mkdocs_hooks._RUN, "environment", "라이브러리가 바뀐 환경")
    page, calls = render(hook, "<p>코드만</p>", True, monkeypatch)
    assert calls == ["render"] and page.content.startswith(notebook_cache.UNEXECUTED_NOTE)


def test_a_build_with_execution_turned_off_is_not_stored_as_executed(hook, monkeypatch):
    hook.plugins["mkdocs-jupyter"].config["execute"] = False
    render(hook, "<p>실행하지 않음</p>", False, monkeypatch)
    hook.plugins["mkdocs-jupyter"].config["execute"] = True
    page, calls = render(hook, "<p>코드만</p>", True, monkeypatch)
    assert calls == ["render"] and page.content.startswith(notebook_cache.UNEXECUTED_NOTE)
