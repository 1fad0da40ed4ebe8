"""엔진은 하나입니다: 라이브러리를 가져와도 어느 클래스의 메서드도 바뀌지 않습니다.

페이지가 보여 주는 `Function.__call__`과 역전파의 반복문이 실제로 도는 코드여야 합니다. 새 인터프리터에서
`import tinygrad_ko`를 한 뒤, 가져온 라이브러리 모듈마다 소스에 정의한 클래스의 메서드가 그 소스의 그 `def`인지
봅니다. 다른 곳에서 붙는 것은 `functions/operators.py`가 `Variable`에 더하는 연산자와 메서드뿐이고, 그것도
`Variable`이 정의한 이름을 덮지 않습니다.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

PROBE = textwrap.dedent(
    """
    import ast, inspect, json, sys
    import tinygrad_ko

    replaced, added = [], {}
    modules = [m for name, m in sorted(sys.modules.items()) if name.startswith("tinygrad_ko")]
    for module in modules:
        path = getattr(module, "__file__", None)
        if not path or not path.endswith(".py"):
            continue
        tree = ast.parse(open(path, encoding="utf-8").read())
        for node in tree.body:
            if not isinstance(node, ast.ClassDef):
                continue
            cls = getattr(module, node.name, None)
            if not inspect.isclass(cls) or cls.__module__ != module.__name__:
                continue
            body = {}
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    first = min([item.lineno] + [d.lineno for d in item.decorator_list])
                    body.setdefault(item.name, set()).add(first)
            for name, lines in body.items():
                value = cls.__dict__.get(name)
                if isinstance(value, property):
                    value = value.fget
                value = getattr(value, "__func__", value)  # staticmethod, classmethod
                code = getattr(value, "__code__", None)
                if code is None or code.co_filename != path or code.co_firstlineno not in lines:
                    replaced.append(f"{module.__name__}.{node.name}.{name}")
            names = set(body)  # 클래스 몸통에서 정의하거나 대입한 모든 이름
            for item in node.body:
                targets = item.targets if isinstance(item, ast.Assign) else [getattr(item, "target", None)]
                names.update(t.id for t in targets if isinstance(t, ast.Name))
            # 몸통 밖에서 라이브러리 코드가 붙인 것. 데코레이터(dataclass)가 만든 메서드는 그 클래스의 이름을
            # 달고 나오고, 3.13의 dataclass는 표준 라이브러리의 함수(`__replace__`)를 그대로 붙입니다.
            def patched(k, v):
                func = getattr(v, "fget", v)
                return (
                    getattr(func, "__module__", "").startswith("tinygrad_ko")
                    and getattr(func, "__qualname__", "") != f"{cls.__qualname__}.{k}"
                )
            extra = [
                k for k, v in cls.__dict__.items()
                if k not in names and (inspect.isfunction(v) or isinstance(v, property)) and patched(k, v)
            ]
            if extra:
                added[f"{module.__name__}.{node.name}"] = sorted(extra)
    print(json.dumps({"replaced": replaced, "added": added, "modules": len(modules)}))
    """
)


def probe() -> dict:
    out = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, check=True
    ).stdout
    return json.loads(out)


def installed_by_operators() -> list[str]:
    """`functions/operators.py`의 `install_operators`가 `Variable.이름 = ...`으로 붙이는 이름들."""
    import ast
    import inspect

    from tinygrad_ko.functions import operators

    tree = ast.parse(inspect.getsource(operators.install_operators))
    return sorted(
        target.attr
        for node in ast.walk(tree)
        if isinstance(node, ast.Assign)
        for target in node.targets
        if isinstance(target, ast.Attribute) and target.value.id == "Variable"
    )


def test_import_replaces_no_method_defined_in_the_source():
    found = probe()
    assert found["modules"] > 20  # 라이브러리의 모듈을 실제로 훑었는지
    assert found["replaced"] == []


def test_only_the_operators_are_added_and_only_to_variable():
    found = probe()
    assert list(found["added"]) == ["tinygrad_ko.autograd.variable.Variable"]
    assert found["added"]["tinygrad_ko.autograd.variable.Variable"] == installed_by_operators()


def test_function_call_and_the_loop_are_the_ones_the_pages_show():
    import inspect

    from tinygrad_ko import Function
    from tinygrad_ko.autograd import backprop, function

    assert inspect.getsourcefile(Function.__call__) == function.__file__
    assert inspect.getsourcefile(backprop.propagate) == backprop.__file__
    assert not hasattr(backprop, "loop")
