"""빌드한 사이트 폴더를 오프라인용 압축 파일(zip) 하나로 묶습니다.

    python scripts/site_archive.py site dist/tinygrad_ko-site.zip

압축을 풀면 `tinygrad_ko-site/` 폴더 하나가 나오고, 그 안의 `index.html`을 브라우저로 바로 열면
(file://) 인터넷 없이 검색, 수식, 그림이 모두 됩니다(사이트가 처음부터 그렇게 만들어집니다:
offline 플러그인, 벤더링한 MathJax와 mermaid). 장 노트북과 tinygrad_ko 휠도 함께 들어 있습니다.
압축 파일 자신은 들어 있지 않으므로, 장 페이지에서 그 파일을 링크하는 문단은 빼고 묶습니다.

같은 사이트에서는 바이트까지 같은 파일이 나오도록 파일 순서와 시각을 고정합니다.
표준 라이브러리만 씁니다.
"""

from __future__ import annotations

import re
import sys
import zipfile
from pathlib import Path

from korean_cli import KoreanArgumentParser  # 같은 폴더: 한국어 도움말과 오류

TOP = "tinygrad_ko-site"  # 압축을 풀면 생기는 폴더 이름
# 사이트 안에 둔 같은 압축 파일(장 페이지가 링크합니다; 빌드 훅이 만듭니다). 압축 파일에는 넣지 않습니다.
IN_SITE = "downloads/tinygrad_ko-site.zip"
FIXED_TIME = (1980, 1, 1, 0, 0, 0)
# 장 페이지에서 그 압축 파일을 링크하는 문단의 클래스(빌드 훅이 붙입니다). 압축 파일 안에는 그 파일이
# 없으므로, 묶을 때 이 문단을 빼서 푼 사이트에 죽은 링크가 남지 않게 합니다.
LINK_CLASS = "tinygrad-ko-archive-link"
_LINK_PARAGRAPH = re.compile(
    rf'\n?<p\b[^>]*\bclass="(?:[^"]*\s)?{LINK_CLASS}(?:\s[^"]*)?"[^>]*>.*?</p>', re.S
)


def without_archive_link(html: str) -> str:
    """압축 파일을 링크하는 문단을 뺀 페이지."""
    return _LINK_PARAGRAPH.sub("", html)


def pack(site: Path, archive: Path, top: str = TOP) -> int:
    """`site` 폴더를 `archive`(zip)로 묶고 파일 수를 돌려줍니다."""
    if not (site / "index.html").is_file():
        raise FileNotFoundError(
            f"{site}/index.html이 없습니다. 먼저 `python3 dev.py build`로 사이트를 만드세요."
        )
    archive.parent.mkdir(parents=True, exist_ok=True)
    partial = archive.with_name(archive.name + ".partial")
    skipped = {(site / IN_SITE).resolve(), archive.resolve(), partial.resolve()}
    files = sorted(p for p in site.rglob("*") if p.is_file() and p.resolve() not in skipped)
    with zipfile.ZipFile(partial, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=9) as zf:
        for path in files:
            info = zipfile.ZipInfo(f"{top}/{path.relative_to(site).as_posix()}", FIXED_TIME)
            info.external_attr = 0o644 << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            content = path.read_bytes()
            if path.suffix == ".html":
                content = without_archive_link(content.decode("utf-8")).encode("utf-8")
            zf.writestr(info, content, compresslevel=9)
    partial.replace(archive)  # 중간에 멈춰도 반쯤 쓴 파일이 남지 않게 합니다
    return len(files)


def main(argv: list[str]) -> None:
    parser = KoreanArgumentParser(
        prog="python3 scripts/site_archive.py",
        description="빌드한 사이트를 오프라인용 zip 하나로 묶습니다.",
    )
    parser.add_argument("site", type=Path, help="빌드한 사이트 폴더(보통 site)")
    parser.add_argument("archive", type=Path, help="만들 zip 파일")
    args = parser.parse_args(argv)
    try:
        count = pack(args.site, args.archive)
    except FileNotFoundError as error:
        sys.exit(str(error))
    size = args.archive.stat().st_size
    print(
        f"[site] {args.archive}: 파일 {count}개, {size / 1_000_000:.1f} MB. "
        f"풀어서 {TOP}/index.html 을 브라우저로 여세요."
    )


if __name__ == "__main__":
    main(sys.argv[1:])
