"""여러 테스트 파일이 함께 쓰는 작은 도구입니다."""

import ast
import re

import numpy as np

from tinygrad_ko.steps.step04 import numerical_diff


def numerical_partials(f, variable_class, *values):
    """입력이 여럿인 f의 편미분을 4단계의 ``numerical_diff``로 하나씩 어림합니다.

    ``f``는 ``variable_class`` 변수들을 받아 변수를 돌려주는 함수입니다. ``numerical_diff``는
    2단계 ``Variable``을 넘겨주므로, 그 값을 ``variable_class``의 0차원 배열로 다시 담습니다.
    """
    partials = []
    for i, value in enumerate(values):

        def only_i(v, i=i):
            args = [variable_class(np.array(x, dtype=float)) for x in values]
            args[i] = variable_class(np.asarray(v.data, dtype=float))
            return f(*args)

        partials.append(numerical_diff(only_i, variable_class(np.array(value, dtype=float))))
    return partials


def composite(module):
    """7·8단계 모듈의 함수로 만든 y = (e^(x²))² (페이지의 예제와 같은 합성 함수)."""

    def f(v):
        return module.Square()(module.Exp()(module.Square()(v)))

    return f


def seeded_graph(module, value):
    """``composite(module)``로 그래프를 만들고 출력의 미분값 1을 직접 넣습니다.

    7·8단계의 ``backward``는 시작 미분값을 스스로 채우지 않습니다(9단계부터 채움).
    """
    x = module.Variable(np.array(value))
    y = composite(module)(x)
    y.grad = np.array(1.0)
    return x, y


MODULE_ROW = re.compile(r"^(?P<module>step\d\d)\s")
DEFINITIONS = (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)


def table_names(table: str, mark: str) -> dict[str, list[str]]:
    """목차 표에서 ``mark``(``~``나 ``-``)로 시작하는 줄을 읽어 {모듈: [이름, ...]}으로 돌려줍니다.

    모든 모듈 줄이 열쇠가 됩니다. 그런 줄이 없는 모듈은 빈 리스트입니다.
    """
    mark_line = re.compile(rf"^\s+{re.escape(mark)} (?P<names>.+)$")
    names: dict[str, list[str]] = {}
    current = None
    for line in table.splitlines():
        if match := MODULE_ROW.match(line):
            current = match["module"]
            names[current] = []
        elif line and not line[0].isspace():
            current = None  # "(없음)" 줄이나 표 밖의 문단
        elif match := mark_line.match(line):
            assert current is not None, f"모듈 줄에 딸리지 않은 {mark} 줄입니다: {line!r}"
            names[current] += [name.strip() for name in match["names"].split(",")]
    return names


def own_names(tree: ast.Module) -> set[str]:
    """모듈이 스스로 정의하거나 대입하는 최상위 이름(가져온 이름은 빼고)."""
    names = {node.name for node in tree.body if isinstance(node, DEFINITIONS)}
    for node in tree.body:
        if isinstance(node, ast.Assign):
            names |= {target.id for target in node.targets if isinstance(target, ast.Name)}
    return names
