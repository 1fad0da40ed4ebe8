"""`dev.py serve`(mkdocs serve --dirty)에서 src/ 를 고치면 그 코드를 싣는 페이지와 실험 노트북 페이지가 다시
그려집니다(scripts/dirty_serve.py가 그 HTML을 지웁니다)."""

from __future__ import annotations

import os

import dirty_serve


def _tree(tmp_path):
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "engine.py").write_text("x = 1\n")
    docs, site = tmp_path / "docs", tmp_path / "site"
    (docs / "notebooks").mkdir(parents=True)
    (site / "notebooks").mkdir(parents=True)
    (docs / "shows-code.md").write_text('# 장\n\n```py\n--8<-- "src/engine.py:part"\n```\n')
    (docs / "prose.md").write_text("# 글만\n\n`--8<--`로 싣는다고 적기만 합니다.\n")
    (docs / "notebooks" / "run.ipynb").write_text("{}")
    for name in ("shows-code.html", "prose.html", "notebooks/run.html"):
        (site / name).write_text("<html></html>")
    return docs, site


def _age(path, seconds):
    stat = path.stat()
    os.utime(path, (stat.st_atime, stat.st_mtime - seconds))


def test_pages_built_before_a_source_change_are_redrawn(tmp_path):
    docs, site = _tree(tmp_path)
    for built in site.rglob("*.html"):
        _age(built, 60)  # 빌드한 뒤에 src/engine.py 를 고쳤습니다
    assert dirty_serve.stale_pages(tmp_path, docs, site) == [
        site / "notebooks" / "run.html",
        site / "shows-code.html",
    ]


def test_nothing_is_redrawn_when_the_sources_are_older(tmp_path):
    docs, site = _tree(tmp_path)
    _age(tmp_path / "src" / "engine.py", 60)
    assert dirty_serve.stale_pages(tmp_path, docs, site) == []
