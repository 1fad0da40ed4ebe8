"""tinygrad_ko.tools.memory: 역전파 중 메모리 흐름을 재는 도구의 테스트.

배열 하나가 8 MB이므로 MB로 반올림한 값은 배열의 개수 × 8 입니다. 엔진이 어떤 배열을 언제 놓아
주는지는 엔진의 약속(retain_grad, retain_graph, no_grad)이므로 그 개수를 확인합니다.
"""

from __future__ import annotations

import tracemalloc

import numpy as np
import pytest

import tinygrad_ko as tg
from tinygrad_ko.tools.memory import Timeline, memory_timeline, to_xychart

ARRAY_MB = 8


def chain_builder(n=4):
    x = tg.Variable(np.ones(1_000_000))  # 잰 값에 들어가지 않습니다

    def build():
        y = x
        for _ in range(n):
            y = tg.square(y)
        return y

    return x, build


def arrays(timeline):
    return [size / ARRAY_MB for _, size in timeline.megabytes()]


def test_points_are_forward_end_each_function_and_backward_end():
    _, build = chain_builder()
    timeline = memory_timeline(build)
    assert [label for label, _ in timeline.points] == [
        "순전파 끝",
        "1. Square",
        "2. Square",
        "3. Square",
        "4. Square",
        "역전파 끝",
    ]
    assert timeline.peak >= max(size for _, size in timeline.points)


def test_default_backward_releases_the_graph():
    _, build = chain_builder()
    counts = arrays(memory_timeline(build))
    assert counts[0] == 4  # 순전파가 만든 출력 넷을 그래프가 쥐고 있습니다
    assert counts[-1] == 2  # 끝나면 출력 y와 x.grad만 남습니다
    assert counts[-1] < counts[0]


def test_retain_options_keep_more():
    _, build = chain_builder()
    default = arrays(memory_timeline(build))[-1]
    grads = arrays(memory_timeline(build, retain_grad=True))[-1]
    graph = arrays(memory_timeline(build, retain_graph=True))[-1]
    both = arrays(memory_timeline(build, retain_grad=True, retain_graph=True))[-1]
    assert default < grads < graph < both
    assert graph == 4 + 1  # 그래프의 출력 넷 + x.grad
    assert both == 4 + 4 + 1  # 출력 넷과 그 미분값 넷 + x.grad


def test_no_grad_forward_keeps_only_the_output():
    _, build = chain_builder()

    def build_without_graph():
        with tg.no_grad():
            return build()

    timeline = memory_timeline(build_without_graph, backward=False)
    assert arrays(timeline) == [1]
    assert round(timeline.peak / 1e6) == 2 * ARRAY_MB  # 입력과 출력, 배열 둘을 넘지 않습니다


def test_refuses_to_run_inside_another_measurement():
    _, build = chain_builder()
    tracemalloc.start()
    try:
        with pytest.raises(RuntimeError, match="이미 켜져"):
            memory_timeline(build)
    finally:
        tracemalloc.stop()


def test_xychart_text():
    timeline = Timeline([("순전파 끝", 16_000_000), ("1. Square", 24_400_000)], peak=30_000_000)
    lines = to_xychart(timeline, "기본값").splitlines()
    assert lines[0] == "---" and "backgroundColor" in "\n".join(
        lines[: lines.index("xychart-beta")]
    )
    assert lines[lines.index("xychart-beta") :] == [
        "xychart-beta",
        '    title "기본값"',
        '    x-axis ["순전파 끝", "1. Square"]',
        '    y-axis "MB" 0 --> 24',
        "    bar [16, 24]",
    ]
    assert '    y-axis "MB" 0 --> 40' in to_xychart(timeline, "t", y_max=40).splitlines()
