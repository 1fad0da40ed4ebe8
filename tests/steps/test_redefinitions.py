"""뒤 단계가 다시 정의한 클래스와 함수: 고친 것은 목차 표에 있고, 나머지는 앞 단계와 똑같은지.

스냅숏 모듈은 앞 모듈의 ``Variable``, ``Function``, ``Square`` 같은 것을 자주 다시 정의합니다.
읽는 사람이 "이 단계에서 무엇이 바뀌었나"를 표 한 곳에서 알 수 있도록 다음을 확인합니다.

- 앞 모듈과 다르게 다시 정의한 이름은 모두 ``tinygrad_ko.steps`` 목차 표의 ``~`` 줄에 있습니다.
- ``~`` 줄의 이름은 그 모듈이 정말로 고쳐서 다시 정의한 것입니다.
- ``~`` 줄에 없는 다시 정의는 앞 모듈의 것과 똑같고, 이 모듈의 다른 정의를 가리키기 때문에만
  다시 씁니다(그렇지 않으면 앞 모듈에서 가져와야 합니다).

비교는 구문 트리(AST)로 하므로 주석과 줄 바꿈은 보지 않습니다. 독스트링과
``NotImplementedError``의 문구도 뺍니다. 보여 주는 페이지가 있는 단계만 긴 안내문을 두고,
나머지는 한 줄로 줄였기 때문입니다. 비교 대상은 그 이름을 가장 최근에 정의한 앞 모듈입니다.
"""

from __future__ import annotations

import ast
import copy
from dataclasses import dataclass
from pathlib import Path

import pytest

import tinygrad_ko.steps

from .helpers import own_names, table_names

STEPS_DIR = Path(tinygrad_ko.steps.__file__).parent
DEFINITIONS = (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)


def intended_changes(table: str) -> dict[str, list[str]]:
    """목차 표의 ``~`` 줄을 읽어 {모듈: [고친 이름, ...]}으로 돌려줍니다. 모든 모듈 줄이 열쇠가 됩니다."""
    return table_names(table, "~")


def _comparable(node: ast.AST) -> str:
    """독스트링과 NotImplementedError의 문구를 뺀 구문 트리(위치 정보 없음)."""
    node = copy.deepcopy(node)
    for child in ast.walk(node):
        if isinstance(child, DEFINITIONS) and ast.get_docstring(child, clean=False) is not None:
            child.body = child.body[1:]
        if (
            isinstance(child, ast.Raise)
            and isinstance(child.exc, ast.Call)
            and isinstance(child.exc.func, ast.Name)
            and child.exc.func.id == "NotImplementedError"
        ):
            child.exc = child.exc.func
    return ast.dump(node)


def _uses(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}


@dataclass(frozen=True)
class Redefinition:
    module: str
    name: str
    earlier: str  # 같은 이름을 가장 최근에 정의한 앞 모듈
    same: bool  # 독스트링과 오류 문구를 빼면 똑같은지
    binds_own: tuple[str, ...]  # 이 모듈이 정의한, 이 정의가 가리키는 다른 이름


def _modules() -> list[tuple[str, ast.Module]]:
    paths = sorted(STEPS_DIR.glob("step*.py"), key=lambda p: int(p.stem[len("step") :]))
    return [(path.stem, ast.parse(path.read_text(encoding="utf-8"))) for path in paths]


def _extends_earlier(node: ast.AST) -> bool:
    """``class Variable(step36.Variable)``처럼 앞 단계의 같은 이름을 물려받아 일부만 다시 쓰는 클래스."""
    return isinstance(node, ast.ClassDef) and any(
        isinstance(base, ast.Attribute) and base.attr == node.name for base in node.bases
    )


def _members(node: ast.AST) -> dict[str, str]:
    """클래스 본문의 메서드와 클래스 속성(이름 -> 비교용 트리). 함수는 자기 자신 하나입니다."""
    if not isinstance(node, ast.ClassDef):
        return {node.name: _comparable(node)}
    members = {}
    for statement in node.body:
        if isinstance(statement, DEFINITIONS):
            members[statement.name] = _comparable(statement)
        elif isinstance(statement, ast.Assign):
            for target in statement.targets:
                if isinstance(target, ast.Name):
                    members[target.id] = ast.dump(statement)
    return members


def redefinitions() -> list[Redefinition]:
    """다시 정의한 것마다 앞 정의와 같은지. 앞 단계를 물려받는 클래스는 다시 쓴 멤버만 견줍니다.

    물려받는 클래스의 멤버가 자기 클래스 이름을 가리키면, 그 이름이 이제 이 모듈의 클래스이므로
    이 모듈의 이름을 가리키는 것으로 셉니다(예: 시작 미분값을 ``Variable(...)``로 만드는 ``backward``).
    """
    found = []
    latest: dict[str, tuple[str, str, dict[str, str]]] = {}  # 이름 -> (모듈, 비교용 트리, 멤버)
    for module, tree in _modules():
        own = own_names(tree)
        for node in tree.body:
            if not isinstance(node, DEFINITIONS):
                continue
            dump, members = _comparable(node), _members(node)
            if node.name in latest:
                earlier, earlier_dump, earlier_members = latest[node.name]
                uses = _uses(node) & own
                if _extends_earlier(node):
                    same = all(earlier_members.get(k) == v for k, v in members.items())
                    members = {**earlier_members, **members}
                    dump = None  # 물려받은 클래스는 멤버로만 견줍니다
                else:
                    same = dump == earlier_dump if earlier_dump else members == earlier_members
                    uses -= {node.name}
                binds = tuple(sorted(uses))
                found.append(Redefinition(module, node.name, earlier, same, binds))
            latest[node.name] = (module, dump, members)
    return found


TABLE = intended_changes(tinygrad_ko.steps.__doc__)
REDEFINITIONS = redefinitions()
MODULES = [module for module, _ in _modules()]


def test_the_table_has_a_row_for_every_module_and_the_checks_see_redefinitions():
    assert sorted(TABLE) == sorted(MODULES)
    assert len(REDEFINITIONS) > 30  # 검사할 것이 없어서 통과하는 일이 없도록
    assert any(r.same for r in REDEFINITIONS) and not all(r.same for r in REDEFINITIONS)


@pytest.mark.parametrize("module", MODULES)
def test_every_changed_redefinition_is_in_the_table(module):
    changed = [
        f"{r.name}({r.earlier}의 것과 다름)"
        for r in REDEFINITIONS
        if r.module == module and not r.same
    ]
    unlisted = [name for name in changed if name.split("(")[0] not in TABLE[module]]
    assert not unlisted, (
        f"{module}에서 앞 모듈과 다르게 다시 정의했지만 steps/__init__.py 표의 ~ 줄에 없는 이름: "
        f"{', '.join(unlisted)}. 의도한 변경이면 표에 적고, 아니면 앞 모듈과 똑같이 맞추세요."
    )


@pytest.mark.parametrize("module", MODULES)
def test_every_name_in_the_table_is_really_changed_in_that_module(module):
    by_name = {r.name: r for r in REDEFINITIONS if r.module == module}
    for name in TABLE[module]:
        assert name in by_name, (
            f"표의 {module} ~ 줄에 있는 이름 {name!r}: {module}에서 앞 모듈의 것을 다시 정의한 "
            "이름이 아닙니다. 이름을 고치거나 줄에서 지우세요."
        )
        assert not by_name[name].same, (
            f"표의 {module} ~ 줄에 있는 이름 {name}: {by_name[name].earlier}의 것과 똑같습니다. "
            "줄에서 지우세요."
        )


@pytest.mark.parametrize("module", MODULES)
def test_identical_copies_are_only_there_to_bind_this_modules_names(module):
    needless = [r.name for r in REDEFINITIONS if r.module == module and r.same and not r.binds_own]
    assert not needless, (
        f"{module}에서 다시 정의한 {', '.join(needless)}: 앞 모듈의 것과 똑같고 이 모듈의 다른 "
        "정의도 가리키지 않습니다. 다시 쓰지 말고 앞 모듈에서 가져오세요(예: from .step18 import Config)."
    )


def test_the_comparison_sees_code_but_not_docstrings_or_stub_messages():
    def one(source: str) -> str:
        return _comparable(ast.parse(source).body[0])

    base = (
        'class A:\n    """설명"""\n    def f(self):\n        raise NotImplementedError("긴 안내")\n'
    )
    reworded = 'class A:\n    """다른 설명"""\n    def f(self):\n        raise NotImplementedError("짧게")\n'
    changed = 'class A:\n    def f(self):\n        raise ValueError("긴 안내")\n'
    assert one(base) == one(reworded)
    assert one(base) != one(changed)


def test_the_table_reader_reads_change_lines_of_each_row():
    table = (
        "step01    1          + 무엇\n"
        "                     ~ Variable, Function\n"
        "                     ! 한계\n"
        "(없음)    5          이론\n"
        "step06    6          + 다른 것\n"
        "\n"
        "~ 줄은 설명 문단입니다.\n"
    )
    assert intended_changes(table) == {"step01": ["Variable", "Function"], "step06": []}
