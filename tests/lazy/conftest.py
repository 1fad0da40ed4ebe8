"""지연 엔진 테스트의 준비물: 두 백엔드로 돌리기, 테스트용 커널 캐시 폴더."""

import os

import pytest

from tinygrad_ko.lazy import compiler

HAS_CC = compiler.command() is not None
# CI는 gcc를 설치하고 이 변수를 켭니다: 컴파일러가 없으면 C 시험을 건너뛰지 않고 실패합니다.
if os.environ.get("TINYGRAD_KO_REQUIRE_CC") == "1" and not HAS_CC:
    raise RuntimeError("TINYGRAD_KO_REQUIRE_CC=1인데 C 컴파일러(cc, gcc, clang)를 찾지 못했습니다.")
needs_cc = pytest.mark.skipif(
    not HAS_CC, reason="C 컴파일러(cc, gcc, clang)가 없어 C 백엔드를 시험할 수 없습니다"
)
BACKENDS = ["numpy", pytest.param("c", marks=needs_cc)]


@pytest.fixture(scope="session", autouse=True)
def session_cache(tmp_path_factory):
    """이 테스트 실행의 커널 캐시: 사용자의 캐시 폴더를 건드리지 않고, 실행 안에서는 한 번만 컴파일합니다."""
    folder = tmp_path_factory.mktemp("lazy-kernels")
    patch = pytest.MonkeyPatch()
    patch.setenv("TINYGRAD_KO_CACHE", str(folder))
    patch.delenv("TINYGRAD_KO_CC", raising=False)
    patch.delenv("TINYGRAD_KO_LAZY_BACKEND", raising=False)
    compiler.reset()
    yield folder
    patch.undo()
    compiler.reset()


@pytest.fixture(params=BACKENDS)
def backend(request):
    """테스트를 두 백엔드로 한 번씩 돌립니다(C는 컴파일러가 있을 때만)."""
    from tinygrad_ko import lazy

    with lazy.using_backend(request.param):
        yield request.param


@pytest.fixture
def fresh_cache(tmp_path, monkeypatch):
    """이 테스트만의 빈 커널 캐시 폴더. 끝나면 이 프로세스의 캐시와 실패 기록도 지웁니다."""
    folder = tmp_path / "kernels"
    monkeypatch.setenv("TINYGRAD_KO_CACHE", str(folder))
    compiler.reset()
    yield folder
    compiler.reset()
