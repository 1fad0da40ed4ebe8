"""실험 노트북(docs/notebooks/*.ipynb)을 그린 결과(HTML, 목차, 제목)의 캐시.

`mkdocs build`(그리고 테스트의 엄격 빌드)는 노트북을 늘 새로 실행하고, 그 결과를 여기에 적어 둡니다.
`python3 dev.py serve`는 노트북을 실행하지 않고 여기서 꺼내 씁니다. 글을 고칠 때마다 노트북 열한 개를
다시 돌리면(2코어 기계에서 2분 넘게) 고친 글이 한참 뒤에야 보이기 때문입니다.

캐시 키는 노트북 파일의 내용, 라이브러리 소스(`src/tinygrad_ko/` 아래 모든 파일), 고정된 의존성 버전
(`requirements/constraints.txt`), 파이썬 버전, 노트북을 그리는 설정과 코드(mkdocs-jupyter 설정,
빌드 훅, nbconvert 템플릿)의 해시입니다. 그중 하나라도 바뀌면 옛 결과는 쓰지 않습니다. 실행한 결과가
없을 때 serve는 실행하지 않은 노트북을 그리고 그 위에 그렇다고 알립니다(`UNEXECUTED_NOTE`).

표준 라이브러리만 씁니다. 캐시 폴더는 `.cache/tinygrad_ko-notebooks/`(저장소에 넣지 않음)입니다.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CACHE = ROOT / ".cache" / "tinygrad_ko-notebooks"
# 키에 넣는 mkdocs-jupyter 설정: 출력 HTML을 바꾸는 것들.
RENDER_OPTIONS = (
    "kernel_name",
    "theme",
    "allow_errors",
    "show_input",
    "no_input",
    "no_prompt",
    "remove_tag_config",
    "highlight_extra_classes",
    "include_requirejs",
    "custom_mathjax_url",
    "toc_depth",
)
UNEXECUTED_NOTE = (
    '<div class="admonition note tinygrad-ko-unexecuted">'
    '<p class="admonition-title">실행하지 않은 노트북</p>'
    "<p><code>python3 dev.py serve</code>는 빠르게 띄우려고 노트북을 실행하지 않습니다. "
    "지금의 노트북과 라이브러리로 실행한 결과가 아직 없어 코드만 보입니다. "
    "<code>python3 dev.py build</code>나 <code>python3 dev.py test</code>를 한 번 돌리면 "
    "그 실행 결과가 여기에도 보입니다.</p></div>\n"
)


def _hash_tree(digest, folder: Path) -> None:
    for path in sorted(folder.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts:
            digest.update(path.relative_to(folder).as_posix().encode() + b"\0")
            digest.update(path.read_bytes() + b"\0")


def environment_digest(root: Path = ROOT) -> str:
    """노트북과 상관없이 모든 노트북의 결과에 영향을 주는 것들의 해시(빌드마다 한 번 계산)."""
    digest = hashlib.sha256(sys.version.encode())
    _hash_tree(digest, root / "src" / "tinygrad_ko")
    _hash_tree(digest, root / "scripts" / "nbconvert_templates")
    for path in (
        root / "requirements" / "constraints.txt",
        root / "scripts" / "mkdocs_hooks.py",
        Path(__file__).resolve(),
    ):
        digest.update(path.read_bytes() + b"\0")
    digest.update(os.environ.get("TINYGRAD_KO_NUMPY", "").encode())
    return digest.hexdigest()


def key(notebook: Path, environment: str, options: dict, executed: bool) -> str:
    digest = hashlib.sha256(environment.encode())
    digest.update(notebook.read_bytes())
    digest.update(f"executed={executed}".encode())
    for name in RENDER_OPTIONS:
        digest.update(f"{name}={options.get(name)!r}".encode())
    return digest.hexdigest()[:24]


@dataclass
class Rendered:
    content: str
    toc_tokens: list
    title: str | None


def toc_tokens(toc) -> list:
    """mkdocs의 TableOfContents를 `get_toc`가 다시 읽는 토큰 목록으로."""
    return [
        {"level": a.level, "id": a.id, "name": a.title, "children": toc_tokens(a.children)}
        for a in toc
    ]


def _mode(executed: bool) -> str:
    return "executed" if executed else "plain"


def _path(notebook: Path, executed: bool, cache_key: str, folder: Path) -> Path:
    return folder / f"{notebook.stem}.{_mode(executed)}.{cache_key}.json"


def load(
    notebook: Path, executed: bool, cache_key: str, folder: Path | None = None
) -> Rendered | None:
    path = _path(notebook, executed, cache_key, folder or CACHE)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return Rendered(data["content"], data["toc_tokens"], data["title"])


def store(
    notebook: Path, executed: bool, cache_key: str, rendered: Rendered, folder: Path | None = None
) -> None:
    """결과를 적고, 같은 노트북·같은 방식의 옛 결과는 지웁니다(노트북마다 하나씩만 남김)."""
    folder = folder or CACHE
    folder.mkdir(parents=True, exist_ok=True)
    path = _path(notebook, executed, cache_key, folder)
    partial = path.with_name(f"{path.name}.{os.getpid()}.partial")
    partial.write_text(
        json.dumps(
            {
                "content": rendered.content,
                "toc_tokens": rendered.toc_tokens,
                "title": rendered.title,
            },
            ensure_ascii=False,
        ),
        encoding="utf-8",
    )
    partial.replace(path)  # 동시에 도는 빌드(테스트와 serve)가 반쯤 쓴 파일을 읽지 않게
    for old in folder.glob(f"{notebook.stem}.{_mode(executed)}.*.json"):
        if old != path:
            old.unlink(missing_ok=True)
