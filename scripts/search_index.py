"""검색 색인(search/search_index.json)을 독자가 읽을 수 있게 다듬고, 용어를 처음 소개하는 장을 앞에 둡니다.

Material의 검색은 페이지의 글을 그대로 색인에 넣으므로 두 가지가 독자에게 보입니다.

1. 수식의 TeX 원문: 결과 미리보기에 `\\(\\frac{dy}{dy}=1\\)`가 나옵니다. 여기서는 수식을 읽을 수 있는
   글자(`dy/dy=1`)로 바꿉니다. 페이지의 수식은 그대로이고(MathJax가 그립니다) 색인만 바뀝니다.
2. 용어를 소개하는 장의 순위: `역전파`로 찾으면 그 말을 제목에 품은 장이 여럿이라 소개하는 3장이
   21장(이중 역전파)보다 뒤에 올 수 있습니다. 그래서 용어집의 용어마다, 읽는 순서(nav)에서 제목에
   그 용어가 처음 나오는 페이지를 "소개하는 장"으로 정하고, 그 페이지의 첫 항목에 `intro` 필드를
   더합니다. mkdocs.yml 의 검색 설정이 이 필드에 큰 가중치(boost)를 줍니다. 필드의 값은 용어의 빈칸을
   뺀 낱말이라(`이중역전파`), `역전파`를 찾을 때 21장의 `이중 역전파`가 함께 올라가지 않습니다.
   Material의 페이지 단위 `search: boost`는 모든 검색어에 똑같이 걸리므로 쓰지 않습니다.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from pathlib import Path

# TeX 명령 -> 읽을 수 있는 글자. 없는 명령은 백슬래시만 뗍니다(\sin -> sin).
SYMBOLS = {
    "alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "Delta": "Δ", "epsilon": "ε",
    "varepsilon": "ε", "eta": "η", "theta": "θ", "lambda": "λ", "mu": "μ", "sigma": "σ",
    "Sigma": "Σ", "pi": "π", "phi": "φ", "tau": "τ", "omega": "ω", "partial": "∂",
    "nabla": "∇", "infty": "∞", "times": "×", "cdot": "·", "approx": "≈", "le": "≤",
    "leq": "≤", "ge": "≥", "geq": "≥", "ne": "≠", "neq": "≠", "to": "→", "rightarrow": "→",
    "leftarrow": "←", "mapsto": "↦", "sum": "Σ", "prod": "Π", "in": "∈", "pm": "±",
    "ldots": "…", "cdots": "…", "dots": "…", "top": "ᵀ", "circ": "∘", "odot": "⊙",
    "quad": " ", "qquad": " ", "lVert": "‖", "rVert": "‖", "Vert": "‖", "mid": "|",
    "propto": "∝", "lfloor": "⌊", "rfloor": "⌋", "lceil": "⌈", "rceil": "⌉", "langle": "⟨", "rangle": "⟩",
}  # fmt: skip
# 글꼴과 모양만 바꾸는 명령: 인수의 글자만 남깁니다.
STYLE = {
    "text", "mathrm", "mathbf", "mathit", "mathsf", "mathtt", "mathcal", "boldsymbol",
    "operatorname", "textbf", "textit", "bm", "mbox", "hat", "bar", "tilde", "vec",
    "overline", "underline", "widehat",
}  # fmt: skip
# 간격과 크기 조절: 지웁니다.
SPACING = {"left", "right", "big", "Big", "bigg", "Bigg", "bigl", "bigr", "Bigl", "Bigr",
           "displaystyle", "textstyle", "limits", "nolimits"}  # fmt: skip

# 색인의 글은 HTML 이스케이프되어 있고 <code>, <pre> 같은 태그를 조금 남깁니다.
MATH = re.compile(
    r"\\\((.+?)\\\)|\\\[(.+?)\\\]|\$\$(.+?)\$\$|(?<![A-Za-z0-9$\\])\$([^\s$][^$]*?)\$(?![A-Za-z0-9$])",
    re.S,
)
CODE = re.compile(r"(<(pre|code)>.*?</\2>)", re.S)


def _group(tex: str, start: int) -> tuple[str, int]:
    """`{...}` 하나(또는 글자 하나)를 읽어 (내용, 다음 위치)를 돌려줍니다."""
    while start < len(tex) and tex[start] == " ":
        start += 1
    if start >= len(tex):
        return "", start
    if tex[start] != "{":
        if tex[start] == "\\":
            name = re.match(r"\\([A-Za-z]+|.)", tex[start:])[0]
            return name, start + len(name)
        return tex[start], start + 1
    depth = 0
    for end in range(start, len(tex)):
        depth += {"{": 1, "}": -1}.get(tex[end], 0)
        if depth == 0:
            return tex[start + 1 : end], end + 1
    return tex[start + 1 :], len(tex)


def _wrap(text: str) -> str:
    """분수의 분자나 분모가 여러 항이면 괄호로 묶습니다(a+b/c 가 되지 않게)."""
    return f"({text})" if re.search(r"[+\-−=,\s]", text.strip()) else text.strip()


def tex_to_text(tex: str) -> str:
    """TeX 수식 하나를 색인에 넣을 평범한 글자로 바꿉니다. 예: `\\frac{dy}{dx}` -> `dy/dx`."""
    out: list[str] = []
    i = 0
    while i < len(tex):
        char = tex[i]
        if char == "\\":
            match = re.match(r"\\([A-Za-z]+|.)", tex[i:])
            name = match[1] if match else ""
            i += len(match[0]) if match else 1
            if name in {"frac", "dfrac", "tfrac"}:
                top, i = _group(tex, i)
                bottom, i = _group(tex, i)
                out.append(f"{_wrap(tex_to_text(top))}/{_wrap(tex_to_text(bottom))}")
            elif name == "sqrt":
                inside, i = _group(tex, i)
                out.append(f"√{_wrap(tex_to_text(inside))}")
            elif name in STYLE:
                inside, i = _group(tex, i)
                out.append(tex_to_text(inside))
            elif name in SPACING:
                continue
            elif name in {",", ";", ":", "!", " "}:
                out.append(" " if name != "!" else "")
            elif name == "\\":
                out.append("; ")
            elif name in {"{", "}", "%", "_", "&", "#", "$"}:
                out.append(name)
            else:
                out.append(SYMBOLS.get(name, name))
        elif char in "{}":
            i += 1
        elif tex.startswith("&amp;", i):  # 정렬 표시(aligned)
            i += len("&amp;")
        else:
            out.append(char)
            i += 1
    text = "".join(out).replace("^ᵀ", "ᵀ")  # W^\top -> Wᵀ
    return re.sub(r" {2,}", " ", text).strip()


def clean_text(text: str) -> str:
    """색인 글에서 수식을 읽을 수 있는 글자로 바꾸고 `¶`를 지웁니다. 코드(<code>, <pre>)는 그대로 둡니다."""
    parts = CODE.split(text)
    cleaned = []
    for index, part in enumerate(parts):
        kind = index % 3  # split 결과: 글, 코드 전체, 태그 이름, 글, ...
        if kind == 0:
            part = MATH.sub(lambda m: tex_to_text(next(g for g in m.groups() if g)), part)
            cleaned.append(part.replace("¶", ""))
        elif kind == 1:
            cleaned.append(part)
    return "".join(cleaned)


def korean_terms(glossary: str) -> list[str]:
    """용어집 표 첫 열의 한국어 용어들. `A / B`는 둘로, 괄호 속 풀이는 뺍니다."""
    terms = []
    for line in glossary.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if not line.startswith("|") or len(cells) < 3 or cells[0] in {"한국어", ""}:
            continue
        if set(cells[0]) <= {"-"}:
            continue
        for term in re.sub(r"\(.*?\)", "", cells[0]).split("/"):
            if term.strip():
                terms.append(term.strip())
    return terms


def introducing_pages(terms: Iterable[str], titles: list[tuple[str, str]]) -> dict[str, list[str]]:
    """(페이지 주소, 제목)의 읽는 순서 목록에서, 용어마다 제목에 그 용어가 처음 나오는 페이지를 고릅니다.

    돌려주는 값은 페이지 주소 -> 그 페이지가 소개하는 용어들입니다. 용어 앞은 제목의 처음이거나 한글이
    아닌 글자여야 합니다(`이중 역전파`는 `역전파`로 시작하지 않지만 `역전파`를 품으므로, 3장이 앞에
    있으면 3장이 `역전파`를 가져갑니다).
    """
    found: dict[str, list[str]] = {}
    for term in terms:
        pattern = re.compile(r"(?<![가-힣A-Za-z])" + re.escape(term))
        for url, title in titles:
            if pattern.search(title):
                found.setdefault(url, []).append(term)
                break
    return found


def rewrite(index_path: Path, intro: dict[str, list[str]]) -> None:
    """search_index.json 을 제자리에서 고칩니다: 글을 다듬고 소개하는 장의 첫 항목에 `intro`를 더합니다."""
    index = json.loads(index_path.read_text(encoding="utf-8"))
    for document in index["docs"]:
        document["title"] = clean_text(document["title"])
        document["text"] = clean_text(document["text"])
        terms = intro.get(document["location"])
        if terms:
            document["intro"] = " ".join(term.replace(" ", "") for term in terms)
    if "intro" not in index["config"]["fields"]:
        raise ValueError("mkdocs.yml 의 search.fields 에 intro 필드(가중치)가 없습니다.")
    index_path.write_text(
        json.dumps(index, ensure_ascii=False, separators=(",", ":")), encoding="utf-8"
    )
