"""페이지 원본(마크다운)이 사이트의 약속을 지키는지 빌드 없이 검사합니다.

- 용어: 괄호 속 영어는 한 페이지에 한 번, 그 용어가 처음 나오는 곳에만 붙입니다. 1~3장에서 익히는
  기본 용어는 4장부터 영어를 붙이지 않습니다(CONTRIBUTING.md 의 「용어와 표기」).
- 말투: 페이지와 라이브러리의 안내는 "-세요"로 씁니다("-십시오"를 섞지 않습니다).
- 연습 문제: 모든 장이 "**문제 N.** 질문" 다음에 접힌 정답(`??? note "정답"`)을 두고, 정답에는 실행해서
  출력을 검사하는 코드가 있습니다.
- PyTorch 예제: PyTorch를 쓰는 블록에는 PyTorch가 없을 때 건너뛰는 표시와 그 까닭이 붙어 있습니다.
- 부록「최종 엔진의 역전파 더 보기」가 밝게 표시한 줄은 `backprop.py`에서 힙을 다루는 줄과 같아야 합니다.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from sitetools import DOCS, ROOT

PAGES = sorted(p for p in DOCS.rglob("*.md") if "assets" not in p.parts)
CHAPTERS = sorted(
    p
    for p in PAGES
    if re.match(r"\d\d-", p.name) and re.fullmatch(r"part\d+|micrograd|gpt", p.parent.name)
)
BASIC_TERMS = {"변수", "함수", "계산 그래프", "순전파", "역전파", "미분값"}
HANGUL = "가-힣"


def page_id(path: Path) -> str:
    return path.relative_to(DOCS).as_posix()


def prose(text: str) -> str:
    """코드 블록, 인라인 코드, HTML 주석, 수식, 제목 줄, 「이 장을 마치면」 상자를 지운 본문."""
    text = re.sub(r"^([ \t]*)(`{3,}|~{3,}).*?^\1\2[ \t]*$", "", text, flags=re.S | re.M)
    text = remove_summary_box(text)
    text = re.sub(r"^#{1,6} .*$", "", text, flags=re.M)
    text = re.sub(r"^\s*(!!!|\?\?\?\+?) .*$", "", text, flags=re.M)  # 상자의 제목 줄
    text = re.sub(r"<!--.*?-->", "", text, flags=re.S)
    text = re.sub(r"`[^`\n]*`", "", text)
    text = re.sub(r"\$\$.*?\$\$", "", text, flags=re.S)
    return re.sub(r"\$[^$\n]*\$", "", text)


def remove_summary_box(text: str) -> str:
    """맨 위의 요약 상자(!!! abstract ...)와 그 안의 들여 쓴 줄들을 지웁니다."""
    return re.sub(r"^!!! abstract .*\n((    .*|)\n)*", "", text, flags=re.M)


def summary_and_headings(text: str) -> str:
    box = re.search(r"^!!! abstract .*\n((    .*|)\n)*", text, flags=re.M)
    headings = re.findall(r"^#{1,6} .*$|^\s*(?:!!!|\?\?\?\+?) .*$", text, flags=re.M)
    return (box[0] if box else "") + "\n".join(headings)


def glossary_terms() -> list[tuple[str, str]]:
    """용어집 표의 (한국어, 영어) 쌍. "A / B" 꼴은 둘로 나눕니다."""
    terms = []
    for line in (DOCS / "glossary.md").read_text(encoding="utf-8").splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) < 3 or cells[0] in {"한국어", ""} or set(cells[0]) <= {"-"}:
            continue
        korean = [k.strip() for k in re.sub(r"\(.*?\)", "", cells[0]).split("/")]
        english = [e.strip() for e in re.sub(r"\(.*?\)", "", cells[1]).split("/")]
        if len(korean) == len(english):
            terms += [(k, e) for k, e in zip(korean, english, strict=True) if k and e]
    return terms


TERMS = glossary_terms()


def test_glossary_opens_with_its_terms():
    """용어집은 독자를 위한 페이지입니다: 제목과 한 문단 다음 바로 용어 표의 절이 옵니다. 글을 쓰는 사람의
    약속(표기 원칙)은 CONTRIBUTING.md 에 있습니다."""
    text = (DOCS / "glossary.md").read_text(encoding="utf-8")
    before_first_table = text[: text.index("\n| 한국어 |")]
    blocks = [b for b in before_first_table.split("\n\n") if b.strip()]
    assert [b.split("\n")[0][:2] for b in blocks] == ["# ", "이 ", "##"], blocks
    assert "표기 원칙" not in text
    assert "## 용어와 표기" in (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")


# 페이지가 뜻을 풀지 않고 쓰는 용어(4판 검토에서 용어집에 없던 것들). 용어집에 행이 있어야 합니다.
TERMS_PAGES_USE = [
    "재귀 한도",
    "프레임",
    "제자리 연산",
    "자릿수 상실",
    "반사 연산자",
    "덕 타이핑",
    "다이아몬드 그래프",
    "스냅숏",
    "0차원 배열",
    "보폭",
    "최소 제곱법",
    "Define-and-Run",
]


def test_glossary_has_terms():
    assert len(TERMS) > 40, TERMS
    assert ("역전파", "backpropagation") in TERMS
    missing = [term for term in TERMS_PAGES_USE if term not in {k for k, _ in TERMS}]
    assert not missing, f"용어집에 행이 없습니다: {missing}"


def test_one_word_one_meaning_for_strides_and_step_size():
    """보폭은 배열의 strides(23·25·50장)입니다. 최적화에서 한 번에 옮기는 양은 스텝 크기(17·18장)입니다.
    그래서 보폭을 쓰는 페이지는 strides도 말합니다(코드든 글이든). 합성곱의 stride는 스트라이드이고,
    용어집에서 보폭은 자기 행에만 나옵니다(다른 행의 다른 이름으로 쓰지 않습니다)."""
    assert ("보폭", "strides") in TERMS and ("스텝 크기", "step size") in TERMS
    assert [e for k, e in TERMS if k == "보폭"] == ["strides"]
    rows = (DOCS / "glossary.md").read_text(encoding="utf-8").splitlines()
    names = [row.split("|")[1].strip() for row in rows if row.startswith("|") and "보폭" in row]
    assert names == ["보폭"], names
    files = PAGES + sorted((DOCS / "notebooks").glob("*.ipynb"))
    wrong = [
        page_id(p)
        for p in files
        if p.name != "glossary.md"
        and "보폭" in (text := p.read_text(encoding="utf-8"))
        and "strides" not in text
    ]
    assert not wrong, f"보폭을 strides가 아닌 뜻(스텝 크기?)으로 씁니다: {wrong}"


def spaced(words: str) -> str:
    """여러 낱말인 영어가 줄바꿈으로 나뉘어도 찾도록 공백 자리를 \\s+로 둡니다."""
    return r"\s+".join(re.escape(word) for word in words.split())


def gloss_pattern(korean: str, english: str) -> re.Pattern:
    # "역전파(backpropagation" 처럼 한국어 바로 뒤 괄호가 영어로 시작하는 곳(쉼표 뒤 설명은 허용).
    return re.compile(
        rf"(?<![{HANGUL}]){spaced(korean)}\s?\((?:[^()]*, )?{spaced(english)}\b", re.I
    )


def mentions(text: str, korean: str, longer: list[str]) -> list[int]:
    """한국어 용어가 쓰인 자리(그 용어를 품은 더 긴 용어 안의 자리는 뺍니다)."""
    masked = text
    for other in longer:
        masked = re.sub(spaced(other), lambda m: "□" * len(m[0]), masked)
    # "기울기(slope)"처럼 다른 영어를 붙여 다른 뜻으로 쓴 자리도 뺍니다.
    found = re.finditer(rf"(?<![{HANGUL}]){spaced(korean)}(?!\s?\([A-Za-z])", masked)
    return [m.start() for m in found]


@pytest.mark.parametrize("page", PAGES, ids=page_id)
def test_english_only_at_first_use(page):
    text = prose(page.read_text(encoding="utf-8"))
    problems = []
    for korean, english in TERMS:
        glosses = [m.start() for m in gloss_pattern(korean, english).finditer(text)]
        if not glosses:
            continue
        if len(glosses) > 1:
            problems.append(f"{korean}({english})가 {len(glosses)}번")
        longer = [k for k, _ in TERMS if korean in k and k != korean]
        first = mentions(text, korean, longer)
        if first and first[0] < glosses[0]:
            before = text[max(0, first[0] - 20) : first[0] + 20].replace("\n", " ")
            problems.append(
                f"{korean}({english})보다 앞에 {korean}이(가) 먼저 나옵니다: …{before}…"
            )
    assert not problems, problems


@pytest.mark.parametrize("page", PAGES, ids=page_id)
def test_no_english_in_headings_and_summary_boxes(page):
    """제목과 「이 장을 마치면」 상자는 영어 없이 씁니다. 영어는 본문에서 처음 나올 때 붙입니다."""
    text = summary_and_headings(page.read_text(encoding="utf-8"))
    glossed = [f"{k}({e})" for k, e in TERMS if gloss_pattern(k, e).search(text)]
    assert not glossed, glossed


@pytest.mark.parametrize(
    "page",
    [p for p in CHAPTERS if int(p.name[:2]) >= 4] + [DOCS / "autodiff-overview.md"],
    ids=page_id,
)
def test_basic_terms_are_not_glossed_after_chapter_3(page):
    text = prose(page.read_text(encoding="utf-8"))
    glossed = [k for k, e in TERMS if k in BASIC_TERMS and gloss_pattern(k, e).search(text)]
    assert not glossed, f"4장부터는 기본 용어에 영어를 붙이지 않습니다: {glossed}"


def ends_with_b_siot(syllable: str) -> bool:
    """받침이 ㅂ인 한글 음절(봅, 합, 갑, 읍 …)인지: "-ㅂ시다"(청유형)를 찾는 데 씁니다."""
    code = ord(syllable) - 0xAC00
    return 0 <= code < 11172 and code % 28 == 17


def not_hapnida(text: str) -> list[str]:
    """합니다체가 아닌 끝맺음: "-ㅂ시다"(봅시다, 합시다, 만듭시다 …)와 잘못 쓴 "붑니다"(불어납니다)."""
    found = [
        m[0] for m in re.finditer(r"\S*([가-힣])시다(?![가-힣])", text) if ends_with_b_siot(m[1])
    ]
    return found + re.findall(r"\S*붑니다", text)


def test_hapnida_check_finds_suggestions_and_leaves_other_words():
    assert not_hapnida("확인해 봅시다. 함께 만듭시다! 붑니다") == ["봅시다", "만듭시다", "붑니다"]
    assert not_hapnida("보시다시피 확인해 봅니다. 다시다 국물") == []


@pytest.mark.parametrize("page", PAGES + sorted((DOCS / "notebooks").glob("*.ipynb")), ids=page_id)
def test_prose_is_in_hapnida_style(page):
    """글은 합니다체로 씁니다("봅시다", "합시다" 대신 "봅니다", "합니다"). 코드와 주석 안은 보지 않습니다."""
    text = page.read_text(encoding="utf-8")
    found = not_hapnida(prose(text) if page.suffix == ".md" else text)
    assert not found, found


def test_one_voice_for_instructions():
    sources = PAGES + sorted((ROOT / "src" / "tinygrad_ko").rglob("*.py"))
    sources += [ROOT / "README.md"]
    offenders = [
        p.relative_to(ROOT).as_posix()
        for p in sources
        if re.search("십시오|하십|마십", p.read_text(encoding="utf-8"))
    ]
    assert not offenders, f"'-십시오' 대신 '-세요'로 씁니다: {offenders}"


@pytest.mark.parametrize("page", CHAPTERS, ids=page_id)
def test_exercise_format(page):
    text = page.read_text(encoding="utf-8")
    start = text.index("## 연습 문제")
    # 연습 문제는 페이지 끝까지, 또는 그 뒤의 가로줄(---)과 맺는 글 앞까지입니다.
    end = text.find("\n---\n", start)
    section = text[start : end if end != -1 else len(text)]
    questions = re.findall(r"^\*\*문제 (\d+)\.\*\* \S", section, flags=re.M)
    assert questions, "연습 문제가 없습니다"
    assert [int(n) for n in questions] == list(range(1, len(questions) + 1))
    parts = re.split(r"^\*\*문제 \d+\.\*\* ", section, flags=re.M)[1:]
    for number, part in enumerate(parts, start=1):
        assert part.count('??? note "정답"') == 1, f"문제 {number}: 접힌 정답이 하나여야 합니다"
        answer = part[part.index('??? note "정답"') :]
        assert re.search(r"^    ```python$", answer, re.M), f"문제 {number}: 정답에 실행하는 코드"
        assert "pytest-codeblocks:expected-output" in answer, f"문제 {number}: 출력 검사"
    assert not re.search(r"^\d+\. ", section, flags=re.M), "번호 목록 형식의 문제가 남아 있습니다"


# 저장소를 받은 사람(관리자, 기여자)만 쓰는 명령. 독자가 읽는 페이지와 받는 노트북에는 나오지 않습니다.
MAINTAINER_COMMAND = re.compile(r"dev\.py")
# 저장소에서 사이트를 띄우고 테스트하는 사람을 위한 절이 있는 페이지: 홈의 「저장소에서」. 노트북이 없고,
# 명령 앞에 저장소 폴더에서 쓴다고 밝힙니다. 성능 페이지는 벤치마크 명령을 benchmarks/README.md에 맡깁니다.
REPOSITORY_PAGES = {"index.md"}
READER_FILES = [p for p in PAGES if page_id(p) not in REPOSITORY_PAGES] + sorted(
    (DOCS / "notebooks").glob("*.ipynb")
)


@pytest.mark.parametrize("page", READER_FILES, ids=page_id)
def test_reader_pages_never_send_readers_to_a_maintainer_command(page):
    """장 페이지와 실험 노트북은 `dev.py`를 말하지 않습니다. 글뿐 아니라 HTML 주석(건너뛰기 까닭)도 봅니다:
    노트북에서는 그 까닭이 "이 셀을 건너뜁니다: …"로 독자에게 출력되기 때문입니다."""
    lines = page.read_text(encoding="utf-8").splitlines()
    found = [
        f"{n}: {line.strip()[:80]}"
        for n, line in enumerate(lines, 1)
        if MAINTAINER_COMMAND.search(line)
    ]
    assert not found, found


TORCH_SKIP = re.compile(
    r'<!--pytest\.mark\.skipif\(.*find_spec\("torch"\) is None, reason="[^"]+"\)-->'
)


@pytest.mark.parametrize("page", PAGES, ids=page_id)
def test_pytorch_blocks_say_why_they_may_be_skipped(page):
    lines = page.read_text(encoding="utf-8").splitlines()
    for number, line in enumerate(lines):
        if line.strip() != "```python":
            continue
        block = []
        for following in lines[number + 1 :]:
            if following.strip() == "```":
                break
            block.append(following)
        if not any(re.match(r"\s*import torch\b", b) for b in block):
            continue
        marks = [lines[i].strip() for i in range(max(0, number - 3), number) if lines[i].strip()]
        assert any(TORCH_SKIP.fullmatch(m) for m in marks), (
            f"{page_id(page)}:{number + 1}: PyTorch 블록 앞에 건너뛰는 표시와 까닭이 없습니다"
        )


# 8장이 말하는 조건: 블록은 따로 설치할 것(PyTorch, micrograd, C 컴파일러)이 없을 때만 건너뜁니다.
NAMED_SKIP_CONDITION = re.compile(
    r'find_spec\("(torch|micrograd)"\) is None|lazy\.compiler\.(command\(\) is None|is_gcc\(\))'
    r'|libc_ver\(\)\[0\] != "glibc"|benchmarks/results/[\w.]+"\)\.exists\(\)'
)


def test_blocks_are_skipped_only_for_what_chapter_8_names():
    marks = [
        (page_id(page), line.strip())
        for page in PAGES
        for line in page.read_text(encoding="utf-8").splitlines()
        if line.strip().startswith(("<!--pytest.mark.skip", "<!--pytest-codeblocks:skip"))
    ]
    assert len(marks) > 10, marks
    other = [
        f"{page}: {mark[:90]}" for page, mark in marks if not NAMED_SKIP_CONDITION.search(mark)
    ]
    assert not other, f"8장이 말하지 않는 조건으로 건너뛰는 블록: {other}"


def test_appendix_highlights_the_heap_lines_of_backprop():
    """부록은 backprop.py의 [propagate] 구역을 넣고, 본문(독스트링 뒤)에서 힙과 칸(heap, heapq, pending)을
    다루는 줄을 빠짐없이 밝힙니다. 줄 번호는 구역 안에서 셉니다(linenums="1")."""
    from test_snippets import section_text

    section = section_text(ROOT / "src/tinygrad_ko/autograd/backprop.py", "propagate")
    function = ast.parse(section).body[0]
    lines = section.splitlines()
    heap_lines = [
        number
        for number in range(function.body[1].lineno, function.end_lineno + 1)
        if re.search(r"\b(heap|heapq|pending)\b", lines[number - 1].split("#", 1)[0])
    ]
    page = (DOCS / "appendix" / "final-engine-backward.md").read_text(encoding="utf-8")
    fence = re.search(
        r'title="src/tinygrad_ko/autograd/backprop.py" linenums="1" hl_lines="([\d ]+)"\n'
        r'--8<-- "src/tinygrad_ko/autograd/backprop.py:propagate"',
        page,
    )
    assert fence, "부록에 backprop.py의 [propagate] 구역이 없습니다"
    assert [int(n) for n in fence[1].split()] == heap_lines
