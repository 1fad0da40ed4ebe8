"""```output 울타리(블록의 출력: 글 줄과 SVG 그림)를 페이지에 넣는 빌드 훅의 함수."""

from __future__ import annotations

import mkdocs_hooks
import pytest
from mkdocs.exceptions import PluginError

SVG = '<svg viewBox="0 0 10 10"><text>1 &lt; 2</text></svg>'


def render(source: str) -> str:
    return mkdocs_hooks.output_fence(source, "output", "tinygrad-ko-output", {}, None)


def test_text_stays_text_and_svg_becomes_a_figure():
    html = render(f"손실 0.12 < 0.13\n{SVG}\n정확도 0.97\n{SVG}\n")
    assert html.startswith('<div class="tinygrad-ko-output">')
    assert html.count('<figure class="tinygrad-ko-plot" data-search-exclude>') == 2
    assert "<code>손실 0.12 &lt; 0.13</code>" in html  # 글은 이스케이프합니다
    assert "<code>정확도 0.97</code>" in html
    assert html.count(SVG) == 2  # 그림은 그대로


def test_scripts_in_a_figure_are_refused():
    with pytest.raises(PluginError, match="스크립트"):
        render('<svg onload="alert(1)"></svg>')
