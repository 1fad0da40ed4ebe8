"""scripts/renumber_highlights.py: 어긋난 밝은 줄 번호를 페이지가 적은 글에서 다시 찾습니다."""

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location(
    "renumber", ROOT / "scripts" / "renumber_highlights.py"
)
renumber = importlib.util.module_from_spec(spec)
spec.loader.exec_module(renumber)

CODE = ["def f(x):", "    y = x + 1", "", "    return y", "    return y"]


def test_a_line_that_still_holds_its_text_keeps_its_number():
    assert renumber._find(CODE, "return y", 4) == 4


def test_a_moved_line_is_found_by_its_text_and_an_ambiguous_one_is_left_to_a_person():
    assert renumber._find(CODE, "y = x + 1", 1) == 2
    assert renumber._find(CODE, "return y", 1) is None  # 두 줄에 있어 고르지 않습니다
    assert renumber._find(CODE, "없는 글", 1) is None


def test_rewrite_changes_the_numbers_and_the_notes_but_not_the_rest(tmp_path):
    page = tmp_path / "page.md"
    page.write_text(
        '앞 글\n\n    <!--hl_lines\n    1: y = x + 1\n    -->\n\n    ```py hl_lines="1"\n'
        '    --8<-- "a.py:f"\n    ```\n',
        encoding="utf-8",
    )
    renumber._rewrite(page, 6, "2", [(2, "y = x + 1")])
    assert page.read_text(encoding="utf-8") == (
        '앞 글\n\n    <!--hl_lines\n    2: y = x + 1\n    -->\n\n    ```py hl_lines="2"\n'
        '    --8<-- "a.py:f"\n    ```\n'
    )


def test_the_pages_need_no_renumbering_now(capsys):
    assert renumber.renumber(write=False) == []
    assert capsys.readouterr().out == ""
