"""스냅숏 모듈의 짜임새: 구역 표시, 가져오기 규칙, 목차 표.

장(章)을 쓰는 사람은 ``src/tinygrad_ko/steps/stepNN.py:이름`` 으로 코드 일부를 페이지에 넣습니다.
여기의 ``SECTIONS``가 그 이름들의 약속입니다. 이름을 바꾸거나 지우면 이 테스트가 실패합니다.
"""

import ast
import importlib
import re
import textwrap
from pathlib import Path

import pytest

import tinygrad_ko.steps

STEPS_DIR = Path(tinygrad_ko.steps.__file__).parent
REPO_ROOT = STEPS_DIR.parents[2]

SECTIONS = {
    "step01": ["variable"],
    "step02": ["function", "square"],
    "step03": ["exp"],
    "step04": ["numerical_diff", "forward_diff"],
    "step06": ["variable", "function", "square", "square_backward", "exp", "exp_backward"],
    "step07": ["variable", "set_creator", "backward", "function", "square", "exp"],
    "step08": ["variable", "backward", "function", "square", "exp", "traced_backward"],
    "step09": ["as_array", "variable", "init", "backward", "function", "square", "exp", "helpers"],
    "step10": ["square_test", "run_tests"],
    "step11": ["function", "add"],
    "step12": ["function", "add"],
    "step13": ["variable", "backward", "function", "square", "add"],
    "step14": ["variable", "cleargrad", "backward", "accumulate", "function", "square", "add"],
    "step16": ["variable", "set_creator", "backward", "add_func", "function", "square", "add"],
    "step17": [
        "variable",
        "set_creator",
        "backward",
        "add_func",
        "function",
        "weak_outputs",
        "square",
        "add",
    ],
    "step18": [
        "config",
        "using_config",
        "no_grad",
        "variable",
        "backward",
        "retain_grad",
        "function",
        "enable_backprop",
        "square",
        "add",
    ],
    "step22": [
        "variable",
        "array_priority",
        "init",
        "properties",
        "repr",
        "as_variable",
        "function",
        "add",
        "mul",
        "neg",
        "sub",
        "div",
        "pow",
        "square",
        "exp",
        "operators",
    ],
    "step24": ["sphere", "matyas", "goldstein"],
}

MARKER = re.compile(r"--8<-- \[(start|end):([^\]]*)\]")
STDLIB_ALLOWED = {"contextlib", "io", "unittest", "weakref"}


def _module_files():
    return sorted(STEPS_DIR.glob("step*.py"))


def _markers(path):
    return [
        (kind, name, lineno)
        for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        for kind, name in MARKER.findall(line)
    ]


def _section_text(path, name):
    lines = path.read_text(encoding="utf-8").splitlines()
    start = end = None
    for i, line in enumerate(lines):
        if f"[start:{name}]" in line:
            start = i
        elif f"[end:{name}]" in line:
            end = i
    body = [line for line in lines[start + 1 : end] if "--8<--" not in line]
    return textwrap.dedent("\n".join(body))


def test_every_module_is_listed_in_the_contract():
    assert sorted(p.stem for p in _module_files()) == sorted(SECTIONS)


@pytest.mark.parametrize("module", sorted(SECTIONS))
def test_sections_are_the_promised_ones_and_balanced(module):
    markers = _markers(STEPS_DIR / f"{module}.py")
    starts = [name for kind, name, _ in markers if kind == "start"]
    ends = [name for kind, name, _ in markers if kind == "end"]
    assert starts == SECTIONS[module]
    assert sorted(ends) == sorted(starts)
    open_sections = []
    for kind, name, lineno in markers:
        assert re.fullmatch(r"[a-z][a-z0-9_]*", name), (module, lineno, name)
        if kind == "start":
            open_sections.append(name)
        else:
            assert name in open_sections, f"{module}:{lineno} [end:{name}] 앞에 start가 없습니다"
            open_sections.remove(name)
    assert not open_sections


@pytest.mark.parametrize(
    ("module", "section"),
    [(module, section) for module, names in SECTIONS.items() for section in names],
)
def test_each_section_is_whole_python_code(module, section):
    text = _section_text(STEPS_DIR / f"{module}.py", section)
    assert text.strip(), f"{module}:{section} 구역이 비었습니다"
    compile(text, f"{module}:{section}", "exec")  # 문법 오류면 SyntaxError로 실패합니다.


def test_pages_can_include_sections_with_pymdownx_snippets():
    markdown = pytest.importorskip("markdown", reason="문서 의존성(markdown)이 없는 환경입니다")
    pytest.importorskip("pymdownx", reason="문서 의존성(pymdown-extensions)이 없는 환경입니다")
    md = markdown.Markdown(
        extensions=["pymdownx.snippets"],
        extension_configs={
            "pymdownx.snippets": {
                "base_path": [str(REPO_ROOT)],
                "check_paths": True,
                "dedent_subsections": True,
            }
        },
    )
    snippet = md.preprocessors["snippet"]
    lines = snippet.run(['--8<-- "src/tinygrad_ko/steps/step08.py:backward"'])
    assert lines[0] == "def backward(self):"
    assert any("funcs.pop()" in line for line in lines)
    assert not any("--8<--" in line for line in lines)
    whole = snippet.run(['--8<-- "src/tinygrad_ko/steps/step16.py"'])
    assert not any("[start:" in line for line in whole)  # 파일 전체를 넣으면 표시가 지워집니다.


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
    text = _section_text(STEPS_DIR / f"{module}.py", "variable")
    add_func = text[text.index("def add_func") : text.index("add_func(self.creator)")]
    assert "funcs.sort(key=lambda x: x.generation)" in add_func
