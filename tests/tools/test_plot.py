"""tinygrad_ko.tools.plot: 페이지의 그림이 같은 값이면 같은 SVG 글이 되고, 화면 색을 따르는지."""

from __future__ import annotations

import re
import sys

import numpy as np
import pytest

pytest.importorskip("matplotlib", reason="그림 도구는 matplotlib이 있을 때만 씁니다(docs 의존성)")

from tinygrad_ko.tools.plot import COLORS, figure, to_svg  # noqa: E402


def draw(values) -> str:
    fig, ax = figure()
    ax.plot(np.arange(len(values)), values, marker=".")
    return to_svg(fig)


def test_same_values_give_the_same_text_and_different_values_do_not():
    values = np.exp(-np.arange(30) / 7)
    assert draw(values) == draw(values.copy())
    assert draw(values) != draw(values * 1.01)


def test_svg_is_bare_and_follows_the_page_colours():
    svg = draw([3.0, 1.0, 0.5])
    assert svg.startswith("<svg") and svg.endswith("</svg>")
    assert "<?xml" not in svg and "<metadata>" not in svg and "<dc:date>" not in svg
    assert "currentColor" in svg and "#010203" not in svg  # 글자와 축은 페이지의 글자색
    assert COLORS[0] in svg
    assert not re.search(r"[ \t]\n", svg)  # 줄 끝 공백 없음(편집기가 지우면 출력이 달라집니다)
    assert not re.search(r"\d\.\d{3,}", svg)  # 좌표는 소수 둘째 자리까지


def test_fonts_stay_readable_on_a_phone():
    """4.8인치 그림(460 px)이 390 px 폰의 본문 폭(358 px)으로 줄어도 11포인트 글자는 10 px을 넘습니다.
    SVG의 좌표 단위는 포인트이고(viewBox 폭 345.6), 글자 크기도 그 단위로 적힙니다."""
    svg = draw([1.0, 2.0])
    view_width = float(re.search(r'viewBox="0 0 ([\d.]+) ', svg)[1])
    sizes = {float(size) for size in re.findall(r"font-size: ([\d.]+)px", svg)}
    assert sizes and min(sizes) * 358 / view_width >= 10


def test_missing_matplotlib_is_reported_in_korean(monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    with pytest.raises(ModuleNotFoundError, match="pip install matplotlib"):
        figure()


def test_axis_labels_and_legend_follow_the_page_colours():
    """페이지 코드가 붙인 축 이름과 범례도 글자색을 따라야 어두운 화면에서 보입니다(흰 상자, 검은 글자 없이)."""
    fig, ax = figure()
    ax.plot([0, 1], [1, 0], label="ko")
    ax.set(xlabel="step", ylabel="loss")
    ax.legend()
    svg = to_svg(fig)
    texts = re.findall(r"<text [^>]*>(?:step|loss|ko)</text>", svg)
    assert len(texts) == 3
    assert all("fill: currentColor" in text and "font-size: 11px" in text for text in texts)
    assert "#ffffff" not in svg
