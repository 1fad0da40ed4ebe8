"""`mkdocs serve --dirty`(`python3 dev.py serve`)에서 라이브러리를 고쳤을 때 다시 그릴 페이지를 고릅니다.

--dirty는 원본(.md, .ipynb)이 빌드한 HTML보다 새로운 페이지만 다시 그립니다. 그런데 장 페이지는
`src/`의 코드를 스니펫(`--8<-- "src/..."`)으로 싣고, 실험 노트북 페이지는 라이브러리로 돈 결과를 보여 주므로
원본이 그대로여도 `src/`가 바뀌면 낡습니다. 그런 페이지의 HTML을 지우면 mkdocs가 다시 그립니다(HTML이 없는
페이지는 바뀐 것으로 칩니다).
"""

from __future__ import annotations

import re
from pathlib import Path

SNIPPET = re.compile(r'^\s*--8<--\s+"(src/[^":]+)', re.MULTILINE)


def _mtime(path: Path) -> float:
    return path.stat().st_mtime if path.exists() else 0.0


def stale_pages(root: Path, docs: Path, site: Path) -> list[Path]:
    """`site`에 빌드된 HTML 가운데, 싣는 `src/` 파일(실험 노트북은 `src/`의 아무 파일)이 그 HTML보다 새로운 것."""
    newest_source = max((_mtime(p) for p in (root / "src").rglob("*.py")), default=0.0)
    stale = []
    for page in sorted(docs.rglob("*")):
        if page.suffix not in {".md", ".ipynb"}:
            continue
        built = site / page.relative_to(docs).with_suffix(".html")
        if not built.exists():
            continue
        if page.suffix == ".ipynb":
            changed = newest_source > _mtime(built)
        else:
            sources = SNIPPET.findall(page.read_text(encoding="utf-8"))
            changed = any(_mtime(root / source) > _mtime(built) for source in sources)
        if changed:
            stale.append(built)
    return stale
