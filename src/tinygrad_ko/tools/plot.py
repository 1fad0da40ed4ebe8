"""matplotlib 그림을 페이지에 넣을 SVG 글로 바꿉니다(손실 곡선, 결정 경계, 어텐션 가중치).

페이지의 블록이 학습한 값으로 그림을 그리고 `print(to_svg(fig))`로 SVG 글을 내면, 블록 다음의
```` ```output ```` 울타리가 그 출력(앞에 찍은 글 줄과 SVG)입니다. pytest-codeblocks는 블록을 다시 실행해
그 출력이 울타리와 글자 하나까지 같은지 보고(다른 모든 출력처럼), 사이트는 울타리의 SVG를 그림으로
보여 줍니다(scripts/mkdocs_hooks.py 의 output_fence). 그래서
독자가 보는 그림은 페이지의 코드가 그린 것과 다를 수 없습니다. 같은 값이면 같은 글이 나오도록
날짜와 무작위 id를 빼고, 글꼴은 matplotlib에 들어 있는 DejaVu Sans만 씁니다(그림 안의 글자는 숫자와
영어 축 이름·범례뿐이고, 한국어 설명은 그림 밖 본문에 씁니다. 기계마다 다른 한글 글꼴이 글자의 자리를
바꾸지 않도록).

폰과 어두운 화면: 그림은 4.8 x 3인치(화면에서 460 px 폭)에 11포인트 글자라 390 px 폰에서 줄어도
글자가 10 px 넘게 남습니다. 배경은 투명하고, 글자와 축은 페이지 글자색(`currentColor`)을 따르며, 선과
점의 색은 밝은 화면과 어두운 화면 모두에서 보이는 중간 밝기입니다. 범례는 흰 상자 없이 글자만 둡니다.

matplotlib은 라이브러리의 의존성이 아니므로 이 모듈의 함수를 부를 때만 가져옵니다.
"""

from __future__ import annotations

import io
import re

__all__ = ["COLORS", "figure", "to_svg"]

# 선과 점의 색: 남색, 주황, 초록, 회색(밝은 화면과 어두운 화면 모두에서 대비 3:1 이상).
COLORS = ("#5c6bc0", "#e6550d", "#2ca25f", "#969696")
# 글자와 축을 이 색으로 그린 뒤 SVG에서 currentColor로 바꿉니다(다른 곳에 쓰이지 않을 색).
_INK = "#010203"
_RC = {
    "svg.fonttype": "none",  # 글자를 모양(path)이 아닌 글자로: 작고, 화면의 글꼴로 그려집니다.
    "svg.hashsalt": "tinygrad_ko",  # 잘라 내기(clip) id가 실행마다 같도록
    "font.family": "DejaVu Sans",
    "font.size": 11,
    "axes.labelcolor": _INK,  # 축 이름(set_xlabel, set_ylabel)도 페이지 글자색으로
    "axes.prop_cycle": None,  # 아래에서 COLORS로 채웁니다.
}


def _matplotlib():
    try:
        import matplotlib
        from matplotlib.figure import Figure
    except ModuleNotFoundError:
        raise ModuleNotFoundError(
            "그림을 그리려면 matplotlib이 필요합니다. `pip install matplotlib`으로 설치한 뒤 다시 "
            "실행하세요(tinygrad_ko 자체는 NumPy만 씁니다)."
        ) from None
    return matplotlib, Figure


def _settings(matplotlib) -> dict:
    return {**_RC, "axes.prop_cycle": matplotlib.cycler(color=COLORS)}


def figure(ncols: int = 1, width: float = 4.8, height: float = 3.0):
    """폰에서도 읽히는 크기와 글자, 화면 색을 따르는 축을 가진 (그림, 축) 또는 (그림, [축, ...])."""
    matplotlib, Figure = _matplotlib()
    with matplotlib.rc_context(_settings(matplotlib)):
        fig = Figure(figsize=(width, height), layout="constrained")
        axes = fig.subplots(1, ncols, squeeze=False)[0]
        for ax in axes:
            ax.set_facecolor("none")
            ax.tick_params(colors=_INK, labelsize=11)
            for spine in ax.spines.values():
                spine.set_color(_INK)
            ax.grid(color=COLORS[3], alpha=0.3, linewidth=0.6)
    return (fig, axes[0]) if ncols == 1 else (fig, list(axes))


def _legends_follow_the_page(fig) -> None:
    """범례는 페이지 코드가 figure() 뒤에 붙이므로 여기서 맞춥니다: 흰 상자 없이, 글자는 페이지 글자색과 11포인트."""
    for ax in fig.axes:
        legend = ax.get_legend()
        if legend is not None:
            legend.set_frame_on(False)
            for text in legend.get_texts():
                text.set(color=_INK, fontsize=11, fontfamily="DejaVu Sans")


def to_svg(fig) -> str:
    """그림을 SVG 글 한 덩어리로: XML 머리말과 날짜 없이, 글자와 축은 currentColor로."""
    matplotlib, _ = _matplotlib()
    _legends_follow_the_page(fig)
    buffer = io.StringIO()
    with matplotlib.rc_context(_settings(matplotlib)):
        fig.savefig(buffer, format="svg", transparent=True, metadata={"Date": None})
    svg = buffer.getvalue()
    svg = svg[svg.index("<svg") :]  # <?xml ...?>, <!DOCTYPE ...> 를 뺍니다
    svg = re.sub(r"<metadata>.*?</metadata>\s*", "", svg, flags=re.S)
    # 페이지에 글로 들어가므로 작게: 좌표는 소수 둘째 자리까지(화면에서 0.01 px), 경로는 한 줄로.
    svg = re.sub(r"-?\d+\.\d{3,}", lambda m: f"{float(m[0]):.2f}".rstrip("0").rstrip("."), svg)
    svg = re.sub(r'd="([^"]*)"', lambda m: 'd="' + " ".join(m[1].split()) + '"', svg)
    svg = re.sub(r"[ \t]+\n", "\n", svg)  # 줄 끝 공백은 편집기가 지우므로 처음부터 두지 않습니다
    return svg.replace(_INK, "currentColor").strip()
