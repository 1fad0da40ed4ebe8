"""스냅숏 모듈의 짜임새: 가져오기 규칙, 내보내는 이름(``__all__``), 독스트링, 목차 표.

페이지가 넣는 코드 구역(``--8<--``)은 ``tests/site/test_snippets.py``가, 뒤 단계가 다시 정의한
클래스와 함수는 ``test_redefinitions.py``가 확인합니다.
"""

import ast
import importlib
import inspect
import re
import types
from pathlib import Path

import pytest

import tinygrad_ko.steps

from .helpers import own_names, table_names

STEPS_DIR = Path(tinygrad_ko.steps.__file__).parent

# os: 51단계가 저장소의 숫자 파일 경로를, 53단계가 저장에 실패한 파일을 지울 때 씁니다(책과 같음).
STDLIB_ALLOWED = {"contextlib", "io", "math", "os", "unittest", "weakref"}


def _module_files():
    return sorted(STEPS_DIR.glob("step*.py"))


def _load(path):
    return importlib.import_module(f"tinygrad_ko.steps.{path.stem}")


def _defined_here(path):
    """모듈이 스스로 정의하는 공개 이름(가져온 이름과 ``__all__``, ``_``로 시작하는 이름은 빼고)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {name for name in own_names(tree) if not name.startswith("_")}


def _passed_on(earlier, later):
    """뒤 단계가 다시 정의하지 않고 앞 단계에서 그대로 넘겨받아 내보내는 이름."""
    both = set(_load(earlier).__all__) & set(_load(later).__all__)
    return both - _defined_here(later)


# 모듈 파일 이름은 두 자리라 정렬 순서가 단계 순서입니다. (앞 단계, 뒤 단계)의 짝.
PAIRS = list(zip(_module_files(), _module_files()[1:], strict=False))
DROPPED = table_names(tinygrad_ko.steps.__doc__, "-")


def _imports(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield 0, alias.name
        elif isinstance(node, ast.ImportFrom) and node.module is None:
            for alias in node.names:  # from . import step41 as _previous
                yield node.level, alias.name
        elif isinstance(node, ast.ImportFrom):
            yield node.level, node.module


@pytest.mark.parametrize("path", _module_files(), ids=lambda p: p.stem)
def test_snapshots_depend_only_on_numpy_and_earlier_snapshots(path):
    own_number = int(path.stem[len("step") :])
    for level, name in _imports(path):
        if level == 0:
            assert name == "numpy" or name in STDLIB_ALLOWED, f"{path.name}: import {name}"
        else:
            assert level == 1 and re.fullmatch(r"step\d\d", name), f"{path.name}: from . {name}"
            assert int(name[len("step") :]) < own_number


@pytest.mark.parametrize("path", _module_files(), ids=lambda p: p.stem)
def test_module_has_a_korean_docstring_and_imports(path):
    module = importlib.import_module(f"tinygrad_ko.steps.{path.stem}")
    assert module.__doc__ and re.search(r"[가-힣]", module.__doc__)
    number = str(int(path.stem[len("step") :]))
    assert number in module.__doc__.splitlines()[0]  # 첫 줄에 몇 단계인지 적습니다.


def test_package_table_lists_every_module():
    table = tinygrad_ko.steps.__doc__
    for path in _module_files():
        assert re.search(rf"^{path.stem}\s+\d", table, re.MULTILINE), path.stem


def test_package_does_not_import_the_final_engine():
    source = (STEPS_DIR / "__init__.py").read_text(encoding="utf-8")
    assert not [node for node in ast.walk(ast.parse(source)) if isinstance(node, ast.ImportFrom)]


@pytest.mark.parametrize("module", ["step16", "step17", "step18", "step22"])
def test_sorting_backward_keeps_the_books_sort(module):
    # 넓은 그래프에서의 정렬 비용을 뒤 장에서 재므로 책의 정렬을 그대로 둡니다.
    # 22단계처럼 backward를 앞 단계에서 물려받은 Variable도 그 backward를 봅니다.
    source = inspect.getsource(
        importlib.import_module(f"tinygrad_ko.steps.{module}").Variable.backward
    )
    add_func = source[source.index("def add_func") : source.index("add_func(self.creator)")]
    assert "funcs.sort(key=lambda x: x.generation)" in add_func


@pytest.mark.parametrize("path", _module_files(), ids=lambda p: p.stem)
def test_all_names_every_public_definition_and_only_importable_names(path):
    module = _load(path)
    offered = module.__all__  # 모든 스냅숏이 내보내는 이름을 적습니다(없으면 AttributeError).
    assert len(offered) == len(set(offered)), f"{path.stem}.__all__에 같은 이름이 두 번 있습니다."
    for name in offered:
        assert hasattr(module, name), f"{path.stem}.__all__의 {name!r}을 가져올 수 없습니다."
        assert not isinstance(getattr(module, name), types.ModuleType), f"{path.stem}: {name}"
    forgotten = _defined_here(path) - set(offered)
    assert not forgotten, f"{path.stem}이 정의했지만 __all__에 없는 이름: {sorted(forgotten)}"


@pytest.mark.parametrize("earlier, later", PAIRS, ids=lambda p: p.stem)
def test_each_step_offers_what_the_step_before_offered_except_its_dash_line(earlier, later):
    # 앞 단계가 내보낸 이름은 뒤 단계도 내보냅니다. 빼는 것은 목차 표의 - 줄에 적은 이름뿐입니다.
    missing = set(_load(earlier).__all__) - set(_load(later).__all__)
    listed = set(DROPPED[later.stem])
    assert missing <= listed, (
        f"{later.stem}이 {earlier.stem}의 이름 {sorted(missing - listed)}을 내보내지 않습니다. "
        f"from .{earlier.stem} import *로 다시 내보내거나, 일부러 뺐다면 steps/__init__.py 표의 "
        "- 줄에 적으세요."
    )
    assert listed <= missing, (
        f"표의 {later.stem} - 줄에 있는 {sorted(listed - missing)}: {earlier.stem}이 내보내지 않거나 "
        f"{later.stem}도 내보내는 이름입니다. 줄에서 지우세요."
    )


@pytest.mark.parametrize("earlier, later", PAIRS, ids=lambda p: p.stem)
def test_names_a_step_does_not_define_are_the_step_befores_objects(earlier, later):
    # 다시 내보낸 이름이 몰래 다른 단계의 것으로 바뀌지 않도록: 고치지 않은 이름은 앞 단계의 그 객체입니다.
    before, after = _load(earlier), _load(later)
    passed_on = _passed_on(earlier, later)
    different = [name for name in passed_on if getattr(after, name) is not getattr(before, name)]
    assert not different, (
        f"{later.stem}의 {sorted(different)}은 {earlier.stem}의 것과 다른 객체입니다."
    )


def test_the_table_drops_some_names_and_its_reader_reads_dash_lines():
    # 검사할 것이 없어서 통과하는 일이 없도록: 빼는 단계도, 넘겨받는 단계도 있습니다.
    assert any(DROPPED.values())
    assert sum(bool(_passed_on(earlier, later)) for earlier, later in PAIRS) > 30
    table = (
        "step10    10         + 테스트\n"
        "                     - Square, exp\n"
        "(없음)    5          이론\n"
        "                     - 모듈 줄 밖\n"
    )
    with pytest.raises(AssertionError, match="딸리지 않은"):
        table_names(table, "-")
    assert table_names(table.split("(없음)")[0], "-") == {"step10": ["Square", "exp"]}
