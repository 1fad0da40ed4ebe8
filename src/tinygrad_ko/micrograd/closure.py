"""45장의 출발점: 노드마다 역전파 규칙을 클로저로 만드는 고전적인 스칼라 자동 미분 노드.

micrograd와 그것을 따라 한 글들이 보여 주는 형태를 이 프로젝트의 말로 새로 쓴 것입니다. 짧고 읽기
쉬운 대신 세 가지 한계가 있고, 45장은 이것을 먼저 돌려 본 뒤 `tinygrad_ko.micrograd.value.Value`가 왜 다르게
쓰였는지 설명합니다.

- 연산마다 클로저를 하나씩 새로 만들고, 출력 노드 → 클로저 → 출력 노드의 순환 참조가 생깁니다.
- 위상 정렬이 재귀라서 깊은 그래프에서 `RecursionError`가 납니다.
- 입력을 검사하지 않습니다.

micrograd는 입력 노드를 집합(set)에 담지만, 여기서는 순서가 늘 같도록 튜플에 담습니다.
"""

__all__ = ["Value"]


# --8<-- [start:value]
class Value:
    """스칼라 하나(data)와 그 기울기(grad), 입력 노드(_prev), 역전파 규칙(_backward)을 담습니다."""

    def __init__(self, data, _prev=(), _op=""):
        self.data = data
        self.grad = 0.0
        self._prev = _prev  # 이 노드를 만든 입력 노드들
        self._op = _op  # 연산 이름(그림용)
        self._backward = lambda: None  # 말단 변수는 기울기를 전할 곳이 없습니다

    def __add__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data + other.data, (self, other), "+")

        def _backward():  # 국소 미분은 둘 다 1: 출력의 기울기를 그대로 더합니다
            self.grad += out.grad
            other.grad += out.grad

        out._backward = _backward
        return out

    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data * other.data, (self, other), "*")

        def _backward():  # 국소 미분은 상대 입력의 값입니다
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad

        out._backward = _backward
        return out

    def backward(self):
        order, visited = [], set()

        def visit(node):  # 재귀 깊이 우선 탐색: 입력들을 먼저 줄 세운 뒤 자신을 넣습니다
            if node not in visited:
                visited.add(node)
                for child in node._prev:
                    visit(child)
                order.append(node)

        visit(self)
        self.grad = 1.0
        for node in reversed(order):  # 출력에서 입력 쪽으로
            node._backward()

    # --8<-- [end:value]

    __radd__ = __add__  # 2 + x
    __rmul__ = __mul__  # 2 * x

    def __repr__(self):
        return f"Value(data={self.data}, grad={self.grad})"
