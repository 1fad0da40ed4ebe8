"""적대적인 환경 변수(TINYGRAD_KO_CC, _CC_TIMEOUT, _CACHE_BYTES, _LAZY_BACKEND): 영어 예외나 엉뚱한 값 대신
받은 값을 말하는 한국어 오류를 냅니다."""

import os
import signal
import sys
import time

import numpy as np
import pytest

from tinygrad_ko import lazy
from tinygrad_ko.lazy import cache, compiler

from .conftest import needs_cc

A = np.arange(12.0).reshape(3, 4)


def compute():
    with lazy.using_backend("c"):
        return (lazy.Tensor(A) * 2.0 + 1.0).numpy()


def test_compiler_command_with_an_unclosed_quote_is_refused_in_korean(fresh_cache, monkeypatch):
    monkeypatch.setenv("TINYGRAD_KO_CC", "gcc '-O")
    compiler.reset()
    with pytest.raises(ValueError, match="TINYGRAD_KO_CC") as info:
        compiler.command()
    assert "gcc '-O" in str(info.value) and "따옴표" in str(info.value)


@needs_cc
def test_compiler_command_of_only_spaces_means_unset(fresh_cache, monkeypatch):
    monkeypatch.setenv("TINYGRAD_KO_CC", "   ")
    compiler.reset()
    assert compiler.command() is not None and compiler.command() != []
    assert np.array_equal(compute(), A * 2.0 + 1.0)


@pytest.mark.parametrize("text", ["nan", "inf", "-1", "0", "abc", "1e400"])
def test_bad_compiler_timeout_is_refused_in_korean(fresh_cache, monkeypatch, text):
    monkeypatch.setenv("TINYGRAD_KO_CC_TIMEOUT", text)
    compiler.reset()
    with pytest.raises(ValueError, match="TINYGRAD_KO_CC_TIMEOUT") as info:
        compiler._timeout()
    assert repr(text) in str(info.value)


@pytest.mark.parametrize("text", [" 2.5 ", "1e-3", "600"])
def test_good_compiler_timeout_is_read(monkeypatch, text):
    monkeypatch.setenv("TINYGRAD_KO_CC_TIMEOUT", text)
    assert compiler._timeout() == float(text)


@pytest.mark.parametrize("text", ["-5", "abc", "1.5", "²"])
def test_bad_cache_limit_is_refused_in_korean(monkeypatch, text):
    monkeypatch.setenv("TINYGRAD_KO_CACHE_BYTES", text)
    with pytest.raises(ValueError, match="TINYGRAD_KO_CACHE_BYTES") as info:
        cache.limit()
    assert repr(text) in str(info.value)


@pytest.mark.parametrize("text", ["0", "1000", str(10**30)])
def test_good_cache_limit_is_read(monkeypatch, text):
    monkeypatch.setenv("TINYGRAD_KO_CACHE_BYTES", text)
    assert cache.limit() == int(text)


def test_empty_values_mean_unset(monkeypatch):
    monkeypatch.setenv("TINYGRAD_KO_CC_TIMEOUT", "")
    monkeypatch.setenv("TINYGRAD_KO_CACHE_BYTES", "")
    assert compiler._timeout() == 60.0
    assert cache.limit() == cache.DEFAULT_LIMIT


@needs_cc
@pytest.mark.parametrize("blocked", ["source", "library", "folder"])
def test_cache_path_taken_by_a_directory_or_file_falls_back_in_korean(fresh_cache, blocked):
    """캐시의 .c나 라이브러리 자리에 폴더가, 캐시 폴더 자리에 파일이 있으면: 한국어 경고와 NumPy의 값."""
    x = lazy.Tensor(A) * 2.0 + 1.0
    c_path, lib_path = cache.paths(compiler.key_of(lazy.source(lazy.schedule(x)[0], "c")))
    if blocked == "folder":
        fresh_cache.write_text("폴더가 아닌 파일", encoding="utf-8")
    else:
        fresh_cache.mkdir(mode=0o700)
        taken = c_path if blocked == "source" else lib_path
        taken.mkdir()
        (taken / "inside").write_text("지우면 안 되는 파일", encoding="utf-8")
    with pytest.warns(lazy.CompilerWarning, match="커널 캐시 폴더") as record:
        assert np.array_equal(compute(), A * 2.0 + 1.0)
    assert "NumPy 백엔드로" in str(record[0].message)
    assert "TINYGRAD_KO_CACHE" in str(record[0].message)
    if blocked != "folder":
        assert (taken / "inside").exists()
        assert not [p for p in fresh_cache.iterdir() if p.name.endswith(".tmp")]


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat", encoding="utf-8") as stat:  # 좀비는 이미 끝난 프로세스입니다
        return stat.read().split(")")[-1].split()[0] != "Z"


@needs_cc
@pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="/proc로 프로세스를 봅니다(리눅스)"
)
def test_compiler_that_hangs_leaves_no_child_running(fresh_cache, tmp_path, monkeypatch):
    """멈춘 컴파일러가 띄운 자식(진짜 cc가 띄우는 cc1, as처럼)도 시간이 다하면 함께 멈춥니다."""
    pid_file = tmp_path / "child.pid"
    script = tmp_path / "hang_cc.py"
    script.write_text(
        "import subprocess, sys, time\n"
        "child = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)'])\n"
        f"open({str(pid_file)!r}, 'w').write(str(child.pid))\n"
        "time.sleep(60)\n",
        encoding="utf-8",
    )
    monkeypatch.setenv("TINYGRAD_KO_CC", f"{sys.executable} {script}")
    monkeypatch.setenv("TINYGRAD_KO_CC_TIMEOUT", "1.5")
    compiler.reset()
    with pytest.warns(lazy.CompilerWarning, match="1.5초 안에 끝나지 않아"):
        assert np.array_equal(compute(), A * 2.0 + 1.0)
    child = int(pid_file.read_text(encoding="utf-8"))
    try:
        for _ in range(50):  # 끝나기까지 잠깐 기다립니다(최대 5초)
            if not _alive(child):
                break
            time.sleep(0.1)
        assert not _alive(child), "멈춘 컴파일러의 자식 프로세스가 남았습니다"
    finally:
        if _alive(child):
            os.kill(child, signal.SIGKILL)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("side", ["left", "right"])
@pytest.mark.parametrize("digits", [400, 5000])
def test_integer_too_large_for_a_float_is_refused_in_korean(dtype, side, digits):
    """NumPy처럼 OverflowError이되, 받은 수와 할 일을 한국어로 말합니다(10**400은 float64로도 못 적습니다).

    4300자리가 넘는 정수는 파이썬의 repr도 ValueError를 내므로, 메시지에는 자릿수로 적습니다."""
    t = lazy.Tensor(np.ones(2, dtype))
    with pytest.raises(OverflowError, match="float") as info:
        t * 10**digits if side == "left" else 10**digits - t
    assert "너무 커서" in str(info.value)
    assert ("int 10000" if digits < 4300 else "비트 정수") in str(info.value)


def test_integer_that_overflows_only_float32_becomes_inf_like_numpy():
    with np.errstate(over="ignore"):
        expected = np.ones(2, np.float32) * 10**40
    assert np.array_equal((lazy.Tensor(np.ones(2, np.float32)) * 10**40).numpy(), expected)


@needs_cc
@pytest.mark.parametrize("status", [0, 1])
def test_compiler_printing_bytes_that_are_not_utf8_is_handled(
    fresh_cache, tmp_path, monkeypatch, status
):
    """EUC-KR 로캘의 gcc처럼 UTF-8이 아닌 글을 내는 컴파일러: 디코딩 오류로 멈추지 않고 경고에 담습니다."""
    script = tmp_path / "bytes_cc.py"
    script.write_text(
        "import sys\n"
        "sys.stderr.buffer.write('경고: 글자'.encode('euc-kr') + b'\\xff\\n' * 3)\n"
        f"sys.exit({status})\n",
        encoding="utf-8",
    )
    monkeypatch.setenv("TINYGRAD_KO_CC", f"{sys.executable} {script}")
    compiler.reset()
    # 종료 코드 0이어도 라이브러리를 만들지 않았으므로 실패로 보고 NumPy로 계산합니다.
    with pytest.warns(lazy.CompilerWarning, match="C 컴파일러가 실패했습니다") as record:
        assert np.array_equal(compute(), A * 2.0 + 1.0)
    assert "\ufffd" in str(record[0].message)  # 읽을 수 없는 바이트는 대체 문자로


@needs_cc
def test_changing_the_compiler_without_reset_changes_the_cache_name(fresh_cache, monkeypatch):
    """TINYGRAD_KO_CC를 프로세스 중간에 바꾸면(reset 없이) 새 컴파일러의 라이브러리는 다른 이름이어야 합니다.

    고치기 전에는 처음 컴파일러의 이름과 버전을 기억해 두고 해시에 넣어, 다른 컴파일러(또는 다른 -D
    인수)로 만든 라이브러리가 옛 컴파일러의 이름으로 캐시에 들어갔습니다."""
    [cc] = compiler.command()
    monkeypatch.setenv("TINYGRAD_KO_CC", cc)
    compiler.reset()
    before = compiler.key_of("int x;")
    monkeypatch.setenv("TINYGRAD_KO_CC", f"{cc} -DTINYGRAD_KO_OTHER=1")
    assert compiler.command() == [cc, "-DTINYGRAD_KO_OTHER=1"]
    assert compiler.key_of("int x;") != before


def test_version_names_the_compiler_or_is_empty_without_one(fresh_cache, monkeypatch, tmp_path):
    """56장의 건너뛰기 조건이 읽는 compiler.version(): 컴파일러가 있으면 그 버전 줄, 없으면 빈 문자열."""
    from tinygrad_ko.lazy import compiler

    if compiler.command() is not None:
        assert " version " in compiler.version()
    monkeypatch.delenv("TINYGRAD_KO_CC", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))  # 컴파일러가 하나도 없는 PATH
    compiler.reset()
    try:
        assert compiler.version() == ""
    finally:
        compiler.reset()


@pytest.mark.parametrize(
    "flag",
    [
        "-ffast-math",
        "-Ofast",
        "-funsafe-math-optimizations",
        "-ffinite-math-only",
        "-D__FAST_MATH__",
        "-D __FAST_MATH__=1",
        "-mfpmath=387",
        "-mfpmath=sse,387",
        "-mfpmath=both",  # sse+387과 같은 뜻(gcc 설명서). rev61g: 이 철자만 빠져 있었습니다
        "-mpc32",  # rev67h: 링크에 crtprec32.o를 붙여 이 프로세스의 x87 정밀도(NumPy longdouble)를 바꿉니다
        "-mpc64",
    ],
)
def test_value_changing_flag_in_compiler_command_is_refused_in_korean(
    fresh_cache, monkeypatch, flag
):
    """TINYGRAD_KO_CC에 값을 바꾸는 옵션이 있으면 컴파일하지 않고 받은 값과 할 일을 말하는 ValueError."""
    monkeypatch.setenv("TINYGRAD_KO_CC", f"cc -O2 {flag}")
    compiler.reset()
    with pytest.raises(ValueError, match="TINYGRAD_KO_CC") as info:
        compiler.command()
    message = str(info.value)
    assert repr(f"cc -O2 {flag}") in message and f"값을 바꾸는 옵션 {flag}" in message
    assert "-O2," not in message and "compiler.build" in message


@needs_cc
@pytest.mark.parametrize(
    "flags", ["--fast-math", "-fno-math-errno -Wp,-D__FAST_MATH__", "@{response}"]
)
def test_value_changing_spelling_the_list_misses_is_refused_by_asking_the_compiler(
    fresh_cache, monkeypatch, tmp_path, flags
):
    """고치기 전: gcc가 -ffast-math로 받는 --fast-math와 전처리기에 바로 준 -D__FAST_MATH__는 목록에 없어
    통과했습니다(--fast-math는 crtfastmath.o까지 붙였습니다). 컴파일러에게 직접 묻습니다."""
    [cc] = compiler.command()
    if not compiler.is_gcc():
        pytest.skip("gcc의 옵션 철자입니다")
    response = tmp_path / "flags.rsp"  # gcc가 읽어 인수로 펼치는 파일
    response.write_text("-O2 --fast-math\n")
    given = f"{cc} {flags.format(response=response)}"
    monkeypatch.setenv("TINYGRAD_KO_CC", given)
    compiler.reset()
    with pytest.raises(ValueError, match="TINYGRAD_KO_CC") as info:
        compiler.command()
    message = str(info.value)
    assert repr(given) in message and "__FAST_MATH__" in message and "compiler.build" in message


@needs_cc
def test_no_math_errno_alone_is_accepted(fresh_cache, monkeypatch):
    """-fno-math-errno 하나는 값을 바꾸지 않습니다(56장: expf는 스칼라 그대로). 거절하지 않습니다."""
    [cc] = compiler.command()
    monkeypatch.setenv("TINYGRAD_KO_CC", f"{cc} -fno-math-errno")
    compiler.reset()
    assert compiler.command() == [cc, "-fno-math-errno"]


@needs_cc
def test_fast_math_in_compiler_command_changes_neither_values_nor_numpy(tmp_path):
    """고치기 전: TINYGRAD_KO_CC="cc -ffast-math"이면 (x + 1e8) - 1e8이 x를 그대로 돌려줬고(NumPy는 [0 0 0 8]),
    -ffast-math가 링크에도 닿아 crtfastmath.o가 붙어, 같은 프로세스의 NumPy가 비정규수를 0으로 바꿨습니다.
    FTZ는 프로세스의 상태라 자식 프로세스에서 봅니다."""
    import subprocess

    [cc] = compiler.command()
    child = (
        "import numpy as np\n"
        "from tinygrad_ko import lazy\n"
        "x = np.array([0.5, 1.5, 3.0, 5.0], np.float32)\n"
        "try:\n"
        "    with lazy.using_backend('c'):\n"
        "        print(((lazy.Tensor(x) + 1e8) - 1e8).numpy().tolist())\n"
        "except ValueError as error:\n"
        "    print('ValueError', '-ffast-math' in str(error))\n"
        "print(np.float32(1e-40) * np.float32(1) > 0)\n"
    )
    env = {**os.environ, "TINYGRAD_KO_CC": f"{cc} -ffast-math", "TINYGRAD_KO_CACHE": str(tmp_path)}
    env["PYTHONPATH"] = os.pathsep.join(
        [os.path.dirname(os.path.dirname(lazy.__file__)), *sys.path]
    )
    done = subprocess.run(
        [sys.executable, "-c", child], env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[:2] == ["ValueError True", "True"]


def _cpu_has_fma() -> bool:
    """x86-64에서는 /proc/cpuinfo의 fma 표시를 봅니다. 다른 CPU(aarch64 등)는 FMA가 기본이라고 봅니다."""
    import platform

    if platform.machine().lower() not in ("x86_64", "amd64"):
        return True
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as file:
            return any(line.startswith("flags") and " fma " in f"{line} " for line in file)
    except OSError:
        return False


@needs_cc
@pytest.mark.parametrize(
    "flags",
    [
        "-include {header}",  # 헤더의 #pragma GCC optimize("fast-math"): 매크로도 crtfastmath.o도 없음
        "@{response}",  # 결합 법칙과 부호 없는 0을 켜고 그 매크로를 -U로 지움
        "-fsingle-precision-constant",  # 0.1 같은 상수를 float로: float64 값이 바뀜
        "-include {fma}",  # 헤더의 #pragma GCC optimize("fp-contract=fast"): a*b+c를 FMA 한 번으로
    ],
)
def test_settings_that_leave_no_macro_are_refused_by_running_a_probe(
    fresh_cache, monkeypatch, tmp_path, flags
):
    """고치기 전: 이 설정들은 목록에도 매크로에도 crtfastmath.o에도 드러나지 않아 통과했고, 커널의 값을
    NumPy와 다르게 바꿨습니다(앞의 셋은 56장 네 번째 읽기). 그 명령으로 작은 프로그램을 컴파일해 실행하고 IEEE 754의
    값과 비교합니다. fp-contract=fast 헤더는 시험 프로그램에 곱셈 뒤 덧셈이 없어 통과했고, 그 명령의 커널에서
    x*1.01+0.5가 NumPy와 원소의 31.6%에서 달랐습니다(56장 읽기 rev30C)."""
    [cc] = compiler.command()
    if not compiler.is_gcc():
        pytest.skip("gcc의 옵션과 #pragma입니다")
    if "{fma}" in flags and not _cpu_has_fma():
        pytest.skip("FMA 명령이 없는 CPU에서는 -march=native가 곱셈과 덧셈을 합치지 못합니다")
    header = tmp_path / "fast.h"
    header.write_text('#pragma GCC optimize("fast-math")\n')
    fma = tmp_path / "fma.h"
    fma.write_text('#pragma GCC optimize("fp-contract=fast")\n')
    response = tmp_path / "flags.rsp"
    response.write_text(
        "-fassociative-math -fno-signed-zeros -U__ASSOCIATIVE_MATH__ -U__NO_SIGNED_ZEROS__\n"
    )
    given = f"{cc} {flags.format(header=header, response=response, fma=fma)}"
    monkeypatch.setenv("TINYGRAD_KO_CC", given)
    compiler.reset()
    with pytest.raises(ValueError, match="TINYGRAD_KO_CC") as info:
        compiler.command()
    message = str(info.value)
    assert repr(given) in message and "IEEE 754" in message and "compiler.build" in message
    if "{fma}" in flags:
        assert "FMA" in message
