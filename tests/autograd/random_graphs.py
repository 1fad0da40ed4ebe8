"""속성 기반 테스트가 함께 쓰는 무작위 식 그래프 생성기와 연산 표.

프로그램은 ("u", 연산, i) 또는 ("b", 연산, i, j) 단계의 목록입니다. 각 단계는 앞서 만든 노드
(입력 포함) 가운데 i, j번째를 골라 쓰므로 부분식이 자주 공유됩니다. 연산의 구현은 엔진마다
``operations(모듈)``로 넘겨받으므로, 같은 프로그램을 tinygrad_ko와 PyTorch에서 똑같이 만들 수
있습니다(수치 미분과 비교하는 test_properties.py, PyTorch와 비교하는 test_torch_oracle.py).
"""

from hypothesis import strategies as st

UNARY_NAMES = ["cos", "exp", "log", "neg", "pow", "sin", "square", "tanh"]
BINARY_NAMES = ["add", "div", "mul", "sub"]


def operations(module):
    """연산 이름 -> 그 모듈의 함수. tinygrad_ko와 torch는 이 연산들을 같은 이름으로 가집니다.

    최종 엔진의 라이브러리 함수를 모두 씁니다(``pow``의 지수는 상수).
    """
    return {name: getattr(module, name) for name in UNARY_NAMES + BINARY_NAMES}


steps = st.one_of(
    st.tuples(st.just("u"), st.sampled_from(UNARY_NAMES), st.integers(0, 99)),
    st.tuples(st.just("b"), st.sampled_from(BINARY_NAMES), st.integers(0, 99), st.integers(0, 99)),
)
programs = st.lists(steps, min_size=1, max_size=12)


def build(program, inputs, ops):
    """`ops`는 이름 -> 함수. 값이 너무 커지지 않도록 exp, mul, div는 tanh로 눌러 쓰고, log와 pow는
    양수에만 씁니다."""
    tanh = ops["tanh"]
    safe = {
        "exp": lambda v: ops["exp"](tanh(v)),
        "log": lambda v: ops["log"](ops["mul"](v, v) + 1.0),  # log(v² + 1)
        "pow": lambda v: ops["pow"](ops["exp"](tanh(v)), 2.5),
        "square": lambda v: ops["square"](tanh(v)),
        "mul": lambda a, b: ops["mul"](tanh(a), tanh(b)),
        "div": lambda a, b: ops["div"](a, ops["exp"](tanh(b))),  # 분모는 늘 양수
    }
    nodes = list(inputs)
    for op in program:
        func = safe.get(op[1], ops[op[1]])
        if op[0] == "u":
            nodes.append(func(nodes[op[2] % len(nodes)]))
        else:
            nodes.append(func(nodes[op[2] % len(nodes)], nodes[op[3] % len(nodes)]))
    total = nodes[len(inputs)]
    for node in nodes[len(inputs) + 1 :]:
        total = ops["add"](total, node)
    return total
