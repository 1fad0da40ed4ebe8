"""스냅숏 모듈의 짜임새: 가져오기 규칙, 독스트링, 목차 표.

페이지가 넣는 코드 구역(``--8<--``)은 ``tests/site/test_snippets.py``가, 뒤 단계가 다시 정의한
클래스와 함수는 ``test_redefinitions.py``가 확인합니다.
"""

import ast
import importlib
import inspect
import re
from pathlib import Path

import pytest

import tinygrad_ko.steps

STEPS_DIR = Path(tinygrad_ko.steps.__file__).parent

# os: 51단계가 저장소의 숫자 파일 경로를, 53단계가 저장에 실패한 파일을 지울 때 씁니다(책과 같음).
STDLIB_ALLOWED = {"contextlib", "io", "math", "os", "unittest", "weakref"}


def _module_files():
    return sorted(STEPS_DIR.glob("step*.py"))


def _imports(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield 0, alias.name
        elif isinstance(node, ast.ImportFrom):
            yield node.level, node.module or ""


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
    source = inspect.getsource(importlib.import_module(f"tinygrad_ko.steps.{module}").Variable)
    add_func = source[source.index("def add_func") : source.index("add_func(self.creator)")]
    assert "funcs.sort(key=lambda x: x.generation)" in add_func
