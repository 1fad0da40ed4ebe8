"""처음 페이지(docs/index.md)가 장들에 대해 하는 말이 장 원본과 맞는지 빌드 없이 검사합니다.

- "각 장은 「이 장을 마치면」 상자로 시작해 `## 연습 문제`로 끝나고": 장마다 제목 바로 다음 상자가 그 요약
  상자이고, 마지막 `## ` 절이 연습 문제입니다.
- "1–44장은 대부분 … 단계 번호가 붙은 모듈로 불러 씁니다": 1–44장 가운데 9할 이상이
  `tinygrad_ko.steps`에서 모듈을 불러옵니다.
- "이 사이트는 제4고지와 제5고지를 둘씩 나눕니다": 목차(mkdocs.yml의 nav)에 제4고지와 제5고지로 시작하는
  절이 둘씩, 제1·2·3고지로 시작하는 절은 하나씩 있습니다.
- "…프레임워크가 빨라지는 길(50–56장)까지 갑니다": 56장이 마지막 장입니다.
- "GPU를 쓰는 52단계는 36장 끝에서 설명만 합니다": 36장에서 정리와 연습 문제를 빼면 마지막 절이 52단계 절입니다.
- "예제는 아무것도 내려받지 않고, 저장소에 넣어 둔 MNIST 손글씨 숫자 10,000장과 작은 합성곱 신경망의
  가중치를 씁니다": 페이지의 코드 블록, 실험 노트북의 셀, 라이브러리 어디에도 네트워크를 쓰는 모듈
  (urllib, requests, socket 등)이 없고, 두 파일이 저장소에 있습니다.
- "PyTorch와 micrograd는 `TINYGRAD_KO_ORACLE=1`을 주고 실행할 때만 설치합니다": dev.py가 그때만 선택
  의존성 oracle을 넣고, pyproject.toml의 oracle이 그 둘입니다.
- "검색창은 … 낱말을 앞부분으로 찾습니다('전파'로는 '역전파'가 나오지 않습니다)": 브라우저로 검사하는
  tests/site/test_search.py의 test_search_matches_the_start_of_a_word가 지킵니다.

장을 고쳐 이 말이 틀리게 되면 이 테스트가 실패하므로, 장이나 처음 페이지 가운데 하나를 고칩니다.
"""

from __future__ import annotations

import importlib.util
import json
import re
import tomllib

import numpy as np
import pytest
from sitetools import CHAPTER_FILE, DOCS, ROOT, load_site_config

HOME = (DOCS / "index.md").read_text(encoding="utf-8")
TITLE = re.compile(r"^# (\d+)장\. ")
CHAPTERS = {
    int(TITLE.match(path.read_text(encoding="utf-8"))[1]): path
    for path in sorted(DOCS.rglob("*.md"))
    if CHAPTER_FILE.match(path.name) and TITLE.match(path.read_text(encoding="utf-8"))
}
STEP_IMPORT = re.compile(
    r"^\s*(from tinygrad_ko\.steps(\.step\d\d)? import|import tinygrad_ko\.steps)", re.M
)


def test_the_home_page_still_makes_these_claims():
    # 처음 페이지의 문장을 바꾸면 이 테스트도 함께 고치라는 표시입니다.
    flat = " ".join(HOME.split())
    assert '각 장은 "이 장을 마치면" 상자로 시작해 `## 연습 문제`로 끝나고' in flat
    assert "1–44장은 대부분 책의 단계를 `tinygrad_ko.steps.step07`처럼" in flat
    assert "이 사이트는 제4고지와 제5고지를 둘씩 나눕니다" in flat
    assert "프레임워크가 빨라지는 길(50–56장)까지 갑니다" in flat
    assert "GPU를 쓰는 52단계는 36장 끝에서 설명만 합니다" in flat
    assert (
        "예제는 아무것도 내려받지 않고, 저장소에 넣어 둔 MNIST 손글씨 숫자 10,000장과 작은 합성곱 신경망의 "
        "가중치를 씁니다" in flat
    )
    assert "PyTorch와 micrograd는 `TINYGRAD_KO_ORACLE=1`을 주고 실행할 때만 설치합니다" in flat
    assert "낱말을 앞부분으로 찾습니다('전파'로는 '역전파'가 나오지 않습니다)" in flat
    assert sorted(CHAPTERS) == list(range(1, len(CHAPTERS) + 1)), sorted(CHAPTERS)


@pytest.mark.parametrize("number", sorted(CHAPTERS))
def test_chapter_opens_with_the_summary_box_and_ends_with_exercises(number):
    lines = CHAPTERS[number].read_text(encoding="utf-8").splitlines()
    first = next(line for line in lines[1:] if line.strip())
    assert first == '!!! abstract "이 장을 마치면"', f"{number}장: 제목 다음이 {first!r}"
    sections = [line for line in lines if line.startswith("## ")]
    assert sections and sections[-1] == "## 연습 문제", f"{number}장의 마지막 절: {sections[-1:]}"


def test_most_book_chapters_load_a_step_module():
    book = [n for n in CHAPTERS if n <= 44]
    assert len(book) == 44, book
    without = [n for n in book if not STEP_IMPORT.search(CHAPTERS[n].read_text(encoding="utf-8"))]
    assert len(without) * 10 <= len(book), f"단계 모듈을 불러오지 않는 장: {without}"


def test_the_site_splits_the_fourth_and_fifth_plateaus_in_two():
    sections = [next(iter(item)) for item in load_site_config()["nav"] if isinstance(item, dict)]
    counts = {n: sum(title.startswith(f"제{n}고지") for title in sections) for n in range(1, 6)}
    assert counts == {1: 1, 2: 1, 3: 1, 4: 2, 5: 2}, sections


def test_the_route_ends_at_the_last_chapter():
    assert max(CHAPTERS) == 56, sorted(CHAPTERS)[-3:]


def test_chapter_36_ends_with_the_gpu_step():
    lines = CHAPTERS[36].read_text(encoding="utf-8").splitlines()
    sections = [line for line in lines if line.startswith("## ")]
    body = [line for line in sections if line not in ("## 정리", "## 연습 문제")]
    assert "52단계" in body[-1], sections[-3:]


NETWORK = re.compile(
    r"\b(urllib|urlopen|urlretrieve|requests|http\.client|socket|ftplib|pooch|get_file)\b"
)
PYTHON_FENCE = re.compile(r"^[ \t]*```python[^\n]*\n(.*?)^[ \t]*```", re.M | re.S)


def code_sources() -> dict[str, str]:
    """페이지의 python 블록, 실험 노트북의 코드 셀, 라이브러리의 .py 파일을 곳마다 이어 붙인 글."""
    sources = {}
    for path in sorted(DOCS.rglob("*.md")):
        sources[str(path)] = "\n".join(PYTHON_FENCE.findall(path.read_text(encoding="utf-8")))
    for path in sorted(DOCS.rglob("*.ipynb")):
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        sources[str(path)] = "\n".join(
            "".join(cell["source"]) for cell in cells if cell["cell_type"] == "code"
        )
    for path in sorted((ROOT / "src" / "tinygrad_ko").rglob("*.py")):
        sources[str(path)] = path.read_text(encoding="utf-8")
    return sources


def test_examples_download_nothing_and_use_the_stored_digits_and_weights():
    sources = code_sources()
    pages_with_code = [path for path, text in sources.items() if path.endswith(".md") and text]
    assert len(pages_with_code) > 50, "페이지의 python 블록을 거의 읽지 못했습니다"
    network = {
        path: NETWORK.findall(text) for path, text in sources.items() if NETWORK.search(text)
    }
    assert not network, network
    data = ROOT / "src" / "tinygrad_ko" / "data"
    with np.load(data / "mnist10k.npz") as digits:
        assert len(digits["train_images"]) + len(digits["test_images"]) == 10_000
    with np.load(data / "digit_cnn.npz") as weights:
        assert weights.files, "작은 합성곱 신경망의 가중치 파일이 비었습니다"


def load_dev():
    spec = importlib.util.spec_from_file_location("dev", ROOT / "dev.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_torch_and_micrograd_are_installed_only_with_the_oracle_switch(monkeypatch):
    dev = load_dev()
    monkeypatch.delenv("TINYGRAD_KO_ORACLE", raising=False)
    assert "oracle" not in dev.extras().split(",")
    monkeypatch.setenv("TINYGRAD_KO_ORACLE", "1")
    assert "oracle" in dev.extras().split(",")
    with open(ROOT / "pyproject.toml", "rb") as file:
        extras = tomllib.load(file)["project"]["optional-dependencies"]
    names = {re.split(r"[=<>~!\[ ]", spec)[0].lower() for spec in extras["oracle"]}
    assert names == {"torch", "micrograd"}, extras["oracle"]
    with open(ROOT / "pyproject.toml", "rb") as file:
        project = tomllib.load(file)["project"]
    always = project["dependencies"] + [
        spec for name, specs in extras.items() if name != "oracle" for spec in specs
    ]
    others = {re.split(r"[=<>~!\[ ]", spec)[0].lower() for spec in always}
    assert not others & {"torch", "micrograd"}, others
