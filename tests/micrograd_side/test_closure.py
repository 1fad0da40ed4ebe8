"""tinygrad_ko.micrograd.closure: 45장의 고전적인(클로저 방식) Value의 테스트.

짧은 교재용 코드이지만 페이지가 그 동작을 근거로 설명하므로, 맞는 답과 한계를 모두 확인합니다.
"""

from __future__ import annotations

import gc
import random
import sys
import weakref

import pytest

from tinygrad_ko.micrograd import value
from tinygrad_ko.micrograd.closure import Value


def test_add_and_mul_rules():
    a, b, c = Value(2.0), Value(-3.0), Value(10.0)
    loss = a * b + c
    loss.backward()
    assert (loss.data, a.grad, b.grad, c.grad) == (4.0, -3.0, 2.0, 1.0)


def test_numbers_on_either_side_become_leaves():
    x = Value(3.0)
    y = 2 * x + 1
    z = x * 2 + 1
    y.backward()
    assert (y.data, z.data, x.grad) == (7.0, 7.0, 2.0)


def test_reused_node_gets_the_sum_of_both_paths():
    a = Value(3.0)
    b = a + a
    c = b * b  # c = 4a², dc/da = 8a
    c.backward()
    assert a.grad == 24.0


def test_matches_the_library_value_on_random_expressions():
    rng = random.Random(0)
    for _ in range(50):
        xs = [rng.uniform(-2, 2) for _ in range(3)]
        classic = [Value(x) for x in xs]
        library = [value.Value(x) for x in xs]
        ops = [(rng.randrange(3), rng.randrange(3), rng.choice("+*")) for _ in range(6)]
        for nodes in (classic, library):
            for i, j, op in ops:
                nodes.append(nodes[i] + nodes[j] if op == "+" else nodes[i] * nodes[j])
            nodes[-1].backward()
        assert classic[-1].data == pytest.approx(library[-1].data)
        for a, b in zip(classic[:3], library[:3], strict=True):
            assert a.grad == pytest.approx(b.grad)


def test_recursive_sort_fails_on_a_deep_chain():
    node = Value(1.0)
    for _ in range(sys.getrecursionlimit() + 100):
        node = node * 1.0
    with pytest.raises(RecursionError):
        node.backward()


def test_each_result_node_and_its_closure_form_a_cycle(gc_disabled):
    out = Value(2.0) * Value(3.0)
    closure = out._backward
    assert out in [cell.cell_contents for cell in closure.__closure__]
    alive = weakref.ref(out)
    del out, closure
    assert alive() is not None  # 참조 카운트만으로는 풀리지 않습니다
    gc.collect()
    assert alive() is None
