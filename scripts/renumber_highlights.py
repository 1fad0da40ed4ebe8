"""소스가 움직여 어긋난 밝은 줄 번호를, 페이지가 적어 둔 글에서 다시 찾아 고칩니다.

페이지는 ``hl_lines`` 펜스 위의 ``<!--hl_lines`` 주석에 밝힐 줄마다 그 줄의 글을 적습니다
(``tests/site/test_snippets.py``가 확인합니다). 코드에 줄이 더해지거나 빠지면 번호만 어긋나고 글은
그대로이므로, 넣은 코드에서 그 글이 있는 줄을 찾아 번호를 고칩니다. 글이 있는 줄이 없거나 둘 이상이면
고치지 않고 알립니다(사람이 보고 정할 일입니다). 범위(``4-12``)는 양 끝의 글로 찾습니다. 원래
줄에 글이 그대로 있으면 그 줄을 둡니다.

    python scripts/renumber_highlights.py            # 고칠 것만 보여 줍니다
    python scripts/renumber_highlights.py --write    # 페이지를 고칩니다
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "site"))

import test_snippets as snippets  # noqa: E402 - 넣기와 구역을 읽는 규칙을 시험과 함께 씁니다


def _find(lines: list[str], text: str, near: int) -> int | None:
    """글이 든 줄 번호(1부터). 빈 글이나 원래 줄에 아직 글이 있으면 그 번호, 여러 줄이면 None."""
    if not text or (near <= len(lines) and text in lines[near - 1]):
        return near
    found = [number for number, line in enumerate(lines, 1) if text in line]
    return found[0] if len(found) == 1 else None


def renumber(write: bool) -> list[str]:
    problems, changes = [], {}
    for inc, spec, notes, lines in snippets.highlights():
        if notes is None:
            problems.append(f"{inc.where}: <!--hl_lines 주석이 없습니다")
            continue
        text_of = dict(notes)
        new_tokens, new_notes = [], []
        for token in spec.split():
            first, _, last = token.partition("-")
            ends = [int(first), int(last or first)]
            moved = [_find(lines, text_of[n], n) for n in ends]
            if None in moved:
                problems.append(f"{inc.where}: {token}번 줄의 글을 한 곳에서 찾지 못했습니다")
                break
            a, b = moved
            new_tokens.append(f"{a}-{b}" if last else str(a))
            old = range(ends[0], ends[1] + 1)
            for offset, number in enumerate(range(a, b + 1)):
                text = text_of.get(old[offset]) if offset < len(old) else None
                new_notes.append((number, lines[number - 1].strip() if text is None else text))
        else:
            if new_tokens != spec.split():
                changes[(inc.page, inc.line)] = (spec, " ".join(new_tokens), new_notes)
    for (page, line), (old, new, notes) in sorted(changes.items()):
        print(f"{page}:{line}: hl_lines {old!r} → {new!r}")
        if write:
            _rewrite(ROOT / page, line - 2, new, notes)
    return problems


def _rewrite(page: Path, fence: int, numbers: str, notes: list[tuple[int, str]]) -> None:
    lines = page.read_text(encoding="utf-8").split("\n")
    end = fence - 1
    while not lines[end].strip():
        end -= 1
    start = end - 1
    while lines[start].strip() != "<!--hl_lines":
        start -= 1
    indent = lines[start][: len(lines[start]) - len(lines[start].lstrip())]
    body = [f"{indent}{number}: {text}".rstrip() for number, text in notes]
    lines[fence] = snippets.HL_LINES.sub(f'hl_lines="{numbers}"', lines[fence])
    lines[start + 1 : end] = body
    page.write_text("\n".join(lines), encoding="utf-8")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="페이지를 고칩니다")
    problems = renumber(parser.parse_args().write)
    for problem in problems:
        print(problem, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
