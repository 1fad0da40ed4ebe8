"""페이지의 ```` ```output ```` 울타리(글과 그림이 섞인 블록 출력)를 그 블록을 실행한 출력으로 다시 씁니다.

    PYTHONPATH=src python3 scripts/update_outputs.py docs/part4/33-spiral.md [...]

그림(SVG)이 든 출력은 수십 KB라 손으로 옮겨 적을 수 없으므로 이 스크립트가 적습니다. 블록은
pytest-codeblocks와 같은 방법(같은 추출, 같은 `cont` 이어 붙이기, 새 이름공간)으로 실행합니다. 고친
뒤에는 `pytest --codeblocks 페이지`가 같은 출력을 확인하고, git diff로 무엇이 바뀌었는지 봅니다.
다른 울타리(```` ```text ```` 등)는 건드리지 않습니다.
"""

from __future__ import annotations

import contextlib
import io
import sys
from pathlib import Path

from korean_cli import KoreanArgumentParser  # 같은 폴더: 한국어 도움말과 오류
from pytest_codeblocks import extract_from_file

FENCE = "```output"


def run(code: str) -> str:
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        exec(code, {"__MODULE__": "__main__"})
    return buffer.getvalue()


def update(page: Path) -> int:
    lines = page.read_text(encoding="utf-8").split("\n")
    changed = 0
    for block in extract_from_file(page):
        if block.syntax != "python" or block.expected_output is None:
            continue
        start = next(
            (i for i in range(block.lineno, len(lines)) if lines[i].strip() == FENCE), None
        )
        if start is None:
            continue
        end = next(i for i in range(start + 1, len(lines)) if lines[i].strip() == "```")
        if "\n".join(lines[start + 1 : end]) + "\n" != block.expected_output:
            continue  # 이 블록의 출력 울타리가 아닙니다(다른 블록의 것)
        output = run(block.code).rstrip("\n").split("\n")
        if output != lines[start + 1 : end]:
            lines[start + 1 : end] = output
            changed += 1
    page.write_text("\n".join(lines), encoding="utf-8")
    return changed


def main() -> None:
    parser = KoreanArgumentParser(
        prog="python3 scripts/update_outputs.py", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("pages", nargs="+", type=Path, help="고칠 페이지(.md)")
    for page in parser.parse_args().pages:
        print(f"{page}: 출력 울타리 {update(page)}개를 고쳤습니다.", file=sys.stderr)


if __name__ == "__main__":
    main()
