"""저장소 전체의 테스트 준비: 지연 엔진의 커널 캐시를 이 실행만의 임시 폴더로 돌립니다.

페이지의 코드 블록(--codeblocks), 장 노트북, 사이트 빌드도 C 커널을 컴파일합니다. 사용자의 캐시 폴더
(~/.cache/tinygrad_ko/kernels)에 남기지 않도록, 테스트를 모으기 전(configure)에 환경 변수를 바꿉니다.
그 뒤에 띄우는 하위 프로세스(사이트 빌드, 노트북 커널)도 같은 폴더를 물려받습니다.
"""

import os
import shutil
import tempfile

_saved: dict = {}


def pytest_configure(config):
    folder = tempfile.mkdtemp(prefix="tinygrad_ko-kernels-")
    _saved.update(folder=folder, before=os.environ.get("TINYGRAD_KO_CACHE"))
    os.environ["TINYGRAD_KO_CACHE"] = folder


def pytest_unconfigure(config):
    if "folder" not in _saved:
        return
    if _saved["before"] is None:
        os.environ.pop("TINYGRAD_KO_CACHE", None)
    else:
        os.environ["TINYGRAD_KO_CACHE"] = _saved["before"]
    shutil.rmtree(_saved.pop("folder"), ignore_errors=True)
