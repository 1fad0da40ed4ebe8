"""C 소스를 시스템 컴파일러로 공유 라이브러리로 만들고 `ctypes`로 불러옵니다(표준 라이브러리만 씁니다).

- 컴파일러: 환경 변수 `TINYGRAD_KO_CC`(명령과 인수, 셸 없이 나눕니다)가 있으면 그것, 없으면 PATH의
  `cc`, `gcc`, `clang` 가운데 처음 찾은 것. 셸을 거치지 않고 인수 목록으로 실행합니다(파일 이름의 `;`, `$( )` 같은 글자가 셸 문법으로 해석되지 않습니다). 그 인수에 값을 바꾸는
  옵션(`-ffast-math` 같은 `VALUE_CHANGING`)이 있거나, 컴파일러에게 물어 `__FAST_MATH__` 같은 매크로를 정의하거나
  crtfastmath.o를 붙이면(`_fast_math_signs`), 또는 그 명령으로 컴파일한 시험 프로그램(`PROBE`)이 IEEE 754와 다른
  값을 내면(`_probe_differences`) 한국어 ValueError로 거절합니다.
- 플래그 `-O3 -march=native`: 이 기계의 벡터 명령까지 씁니다(그래서 캐시의 이름에 CPU가 들어갑니다, `cpu_identity`). `-ffp-contract=off`: 곱셈과 덧셈을 FMA로
  합치지 않아 NumPy와 같은 값을 냅니다. `-fno-trapping-math`: 부동소수점 연산이 트랩(trap,
  0으로 나누기 같은 예외가 난 자리에서 처리기를 부르는 것)을 일으키지 않는다고 가정하게 합니다. 값은 그대로입니다.
  gcc 12가 AVX-512 없는 x86-64-v3를 겨냥하면 56장의 표에서 relu(`a <= 0 ? 0 : a`) 뒤에 상수와의 곱셈이나
  덧셈이 오는 식들과 원소별 연산 20개 사슬은 이 플래그가 있어야 벡터화되었고(relu만 있으면 없이도 됩니다), AVX-512가
  있는 x86-64-v4를 겨냥하면 플래그 없이도 벡터화되었습니다(56장). `-march=native`이므로 어느 쪽인지는 이 기계의 CPU에 달렸습니다.
- gcc에는 `GCC_OPTIONS`를 더 줍니다(다른 컴파일러는 모르는 이름에서 실패할 수 있습니다). 값은 그대로이고 반복문의
  명령만 바뀝니다: `-fno-thread-jumps`는 relu가 0을 낸 갈래를 따로 복사하지 않게 해 원소별 연산 20개 사슬의
  명령을 줄이고, `-funroll-loops -fschedule-insns -fsched-pressure`는 벡터 네 개를 한 번에 돌며 그 계산을 엇갈려
  놓습니다. AVX2까지인 Zen 3 기계(32바이트 벡터)에서 잰 기록으로는 `-fno-thread-jumps`가 float 8칸마다 명령을 38개에서
  25개로 줄였고, 엇갈려 놓기는 명령 수가 같은 채 커널을 0.38에서 0.30 ms로 줄였습니다(`benchmarks/README.md`).
- `build(source, options)`: 옵션을 골라 컴파일하는 실험용 입구(56장). 옵션도 캐시의 해시에 들어갑니다.
  `called_functions(source, options)`: 커널이 부르는 함수의 이름(어셈블리에서, 56장).
- 실패하거나 `TINYGRAD_KO_CC_TIMEOUT`초(기본 60) 안에 끝나지 않으면 한국어 경고(`CompilerWarning`)를 내고
  None을 돌려줍니다. 한도는 컴파일러를 부를 때마다지만, 한 번 멈춘 컴파일러는 `reset()` 전까지 다시 부르지 않습니다(`_run`).
  실패했을 때는 컴파일러의 메시지를, 멈췄을 때는 명령과 시간 한도를 경고에 담습니다. 부르는 쪽은 그 커널을 NumPy 백엔드로 돌리고, 이
  프로세스에서는 C를 다시 시도하지 않습니다(`reset()`을 부르기 전까지).
- 캐시의 라이브러리가 깨졌으면(불러오지 못하거나 다른 커널이면) 지우고 다시 컴파일합니다.
"""

from __future__ import annotations

import _ctypes
import ctypes
import functools
import hashlib
import math
import os
import platform
import re
import shlex
import shutil
import signal
import struct
import subprocess
import tempfile
import threading
import warnings
from collections.abc import Callable

import numpy as np

from . import cache, messages

# --8<-- [start:flags]
OPTIONS = ("-O3", "-march=native", "-ffp-contract=off", "-fno-trapping-math")
GCC_OPTIONS = ("-fno-thread-jumps", "-funroll-loops", "-fschedule-insns", "-fsched-pressure")


def default_options() -> tuple[str, ...]:
    """C 백엔드가 커널을 컴파일하는 옵션: OPTIONS에, 컴파일러가 gcc이면 GCC_OPTIONS를 더한 것."""
    return (*OPTIONS, *GCC_OPTIONS) if is_gcc() else OPTIONS


def default_flags() -> tuple[str, ...]:
    """컴파일러에 주는 모든 플래그: 기본 옵션과 공유 라이브러리 만들기."""
    return (*default_options(), "-shared", "-fPIC")


# --8<-- [end:flags]
KEY_SYMBOL = (
    "tinygrad_ko_key"  # 라이브러리 안에 자기 해시를 적어 두는 변수(다른 파일과 바뀌었는지 봅니다)
)


class CompilerWarning(RuntimeWarning):
    """C 컴파일러를 쓰지 못해 NumPy 백엔드로 돌아갈 때의 경고."""


_loaded: dict[str, object] = {}  # 소스 -> 불러온 커널 함수(이 프로세스 안의 캐시)
_libraries: list = []  # 불러온 라이브러리들(reset이 닫습니다)
_generation = [
    0
]  # reset마다 1씩: 그 전에 받아 둔 커널 함수(Replay의 계획)는 닫힌 라이브러리를 가리킵니다
# 커널의 모양(runner._signature) -> (C 함수, 소스). 같은 커널은 소스를 다시 쓰지도 해시하지도 않습니다.
by_signature: dict[tuple, tuple] = {}
_locks: dict[str, threading.Lock] = {}
_locks_guard = threading.Lock()
_state: dict = {"broken": None, "identity": None}
# 시간 한도 안에 끝나지 않은 컴파일러 명령 -> 멈춘 명령(_run)
_hung: dict[tuple[str, ...], list[str]] = {}
counters = {"compiled": 0, "from_disk": 0, "from_memory": 0, "failed": 0}


def command() -> list[str] | None:
    """컴파일러 명령(인수 목록). 찾지 못하면 None. 환경 변수(TINYGRAD_KO_CC, PATH)가 같으면 다시 찾지 않습니다."""
    given, path = os.environ.get("TINYGRAD_KO_CC"), os.environ.get("PATH")
    if _state.get("searched") == (given, path):
        return _state["command"]
    try:  # 빈칸뿐인 값은 빈 값처럼 "정하지 않음"입니다.
        found = shlex.split(given) if given else None
    except ValueError as error:
        raise messages.bad_compiler_command(given, str(error)) from None
    refused = _value_changing(found or [])
    if refused:
        raise messages.value_changing_compiler_flags(given, refused)
    signs = _fast_math_signs(found) if found else []
    if signs:
        raise messages.compiler_reports_value_changing(given, signs)
    differences = _probe_differences(found) if found else []
    if differences:
        raise messages.compiler_changes_values(given, differences)
    found = found or None
    for name in () if found else ("cc", "gcc", "clang"):
        if shutil.which(name):
            found = [shutil.which(name)]
            break
    _state["searched"], _state["command"] = (given, path), found
    return found


# 값을 NumPy(IEEE 754)와 다르게 바꾸는 gcc·clang의 옵션. -ffast-math, -Ofast,
# -funsafe-math-optimizations는 링크에 닿으면 crtfastmath.o를 붙여, 이 프로세스의 NumPy까지 비정규수를 0으로 바꿉니다.
# -mpc32·-mpc64도 링크에 crtprec32.o·crtprec64.o를 붙여 이 프로세스의 x87 정밀도(NumPy의 longdouble)를 바꿉니다.
VALUE_CHANGING = re.compile(
    r"-ffast-math|-Ofast|-funsafe-math-optimizations|-fassociative-math|-freciprocal-math"
    r"|-ffinite-math-only|-fno-signed-zeros|-fno-honor-(nans|infinities)|-fapprox-func"
    r"|-fcx-limited-range|-mdaz-ftz|-mrecip(=.*)?|-ffp-model=(fast|aggressive)|-mfpmath=(.*387.*|both)"
    r"|-D__FAST_MATH__(=.*)?|-mpc(32|64)"
)


def _value_changing(args: list[str]) -> list[str]:
    """컴파일러 인수 가운데 커널의 값을 바꾸는 옵션들(`VALUE_CHANGING`), 받은 대로 적은 것."""
    found = []
    for before, arg in zip(["", *args], args, strict=False):
        # "-D __FAST_MATH__"처럼 둘로 나눠 준 매크로는 붙여서 봅니다.
        if VALUE_CHANGING.fullmatch(f"-D{arg}" if before == "-D" else arg):
            found.append(f"-D {arg}" if before == "-D" else arg)
    return found


# 목록(VALUE_CHANGING)에 없는 철자(gcc의 --fast-math, -Wp,-D__FAST_MATH__, @파일)도 잡으려고 컴파일러에게
# 직접 묻습니다. 전처리기가 정의하는 이 매크로들은 값을 바꾸는 옵션이 켜졌다는 표시입니다. __NO_MATH_ERRNO__
# (-fno-math-errno)와 __NO_TRAPPING_MATH__(엔진의 -fno-trapping-math)는 값을 바꾸지 않으므로 넣지 않습니다.
FAST_MATH_MACROS = (
    "__FAST_MATH__",
    "__FINITE_MATH_ONLY__",
    "__ASSOCIATIVE_MATH__",
    "__RECIPROCAL_MATH__",
    "__NO_SIGNED_ZEROS__",
)
_probed: dict[tuple[str, ...], list[str]] = {}  # 명령 -> 찾은 표시(명령마다 한 번만 묻습니다)


def _fast_math_signs(cc: list[str]) -> list[str]:
    """컴파일러 명령 cc가 값을 바꾸게 설정되었다는 표시들: 정의된 `FAST_MATH_MACROS`와, 링크에 붙일 crtfastmath.o.

    `cc -dM -E -x c /dev/null`(정의된 매크로)과 `cc -### -shared ...`(실행하지 않고 보여 주는 링크 명령)을 셸 없이
    한 번씩 부릅니다. 컴파일러를 실행하지 못하거나 멈추면 표시가 없다고 보고, 실패는 컴파일할 때 알립니다.
    """
    key = tuple(cc)
    if key not in _probed:
        signs = []
        try:
            macros = _run([*cc, "-dM", "-E", "-x", "c", os.devnull], cc).stdout
            link = _run(
                [*cc, "-###", "-shared", "-x", "c", os.devnull, "-o", os.devnull], cc
            ).stderr
        except (OSError, subprocess.SubprocessError):
            macros = link = ""
        for name in FAST_MATH_MACROS:
            if re.search(rf"^#define {name} [1-9]", macros, re.MULTILINE):
                signs.append(name)
        if "crtfastmath" in link:
            signs.append("crtfastmath.o")
        _probed[key] = signs
    return _probed[key]


# 값을 바꾸는 설정 가운데 -include 한 헤더의 #pragma GCC optimize, -U로 지운 매크로, -fsingle-precision-constant는
# 위의 두 물음(-dM -E의 FAST_MATH_MACROS, 링크 명령)에 드러나지 않습니다. 그래서 그 명령과 커널의 옵션으로 작은 프로그램을
# 컴파일해 따로 실행하고(비정규수를 0으로 바꾸는 설정이 이 프로세스에 닿지 않게), 그 값을 IEEE 754의 값과 비교합니다.
# 값은 volatile 변수와 전역 배열로 주어 컴파일러가 미리 계산하지 못하게 합니다.
PROBE = r"""
#include <math.h>
#include <stdio.h>
volatile double minus_zero = -0.0, small = 1e-300, smaller = 1e-10, one = 1.0, five = 5.0;
volatile double seed = 1e-16;
volatile float five_f = 5.0f;
volatile double near_one = 0x1.00000004p0; /* 1 + 2^-30 */
volatile float near_one_f = 0x1.0008p0f;   /* 1 + 2^-13 */
double values[64];
int main(void) {
    volatile double nan_value = NAN;
    double total = 0.0;
    values[0] = 1.0;
    for (int i = 1; i < 64; i++) values[i] = seed;
    for (int i = 0; i < 64; i++) total += values[i];
    printf("%a\n%a\n%a\n%a\n%a\n%a\n%a\n%a\n%d\n", total, minus_zero + 0.0, small * smaller,
           one * 0.1, five / 3.0, (double)(five_f / 3.0f), near_one * near_one - one,
           (double)(near_one_f * near_one_f - 1.0f), nan_value != nan_value);
    return 0;
}
"""


def _left_to_right_sum(values: list[float]) -> float:
    """C의 반복문처럼 왼쪽부터 한 번씩 반올림하며 더한 합. 파이썬 3.12부터 sum()은 보정한 합을 냅니다."""
    total = 0.0
    for value in values:
        total += value
    return total


# PROBE가 찍는 줄마다: (무엇을 보는지, IEEE 754의 값). 마지막 줄은 정수(NaN은 자신과 다름)입니다.
PROBE_EXPECTED = (
    ("덧셈의 순서(1 + 1e-16 + ... 63번)", _left_to_right_sum([1.0] + [1e-16] * 63)),
    ("부호 있는 0(-0.0 + 0.0)", 0.0),
    ("비정규수(1e-300 * 1e-10)", 1e-300 * 1e-10),
    ("상수의 정밀도(1.0 * 0.1)", 0.1),
    ("나눗셈(5.0 / 3.0)", 5.0 / 3.0),
    ("float32 나눗셈(5.0f / 3.0f)", float(np.float32(5.0) / np.float32(3.0))),
    # 곱을 한 번 반올림한 뒤 더하면 2**-29, FMA로 합쳐 한 번만 반올림하면 2**-29 + 2**-60입니다.
    ("곱셈 뒤 뺄셈을 FMA로 합치지 않음((1 + 2**-30)**2 - 1)", (1 + 2**-30) * (1 + 2**-30) - 1.0),
    # float32에서는 2**-12와 2**-12 + 2**-26입니다.
    (
        "float32 곱셈 뒤 뺄셈을 FMA로 합치지 않음((1 + 2**-13)**2 - 1)",
        float(np.float32(1 + 2**-13) * np.float32(1 + 2**-13) - np.float32(1.0)),
    ),
    ("NaN 비교(nan != nan)", 1),
)
_probe_results: dict[tuple[str, ...], list[str]] = {}  # 명령 -> IEEE 754와 다르게 나온 것들


def _probe_differences(cc: list[str]) -> list[str]:
    """cc로 PROBE를 컴파일해 실행했을 때 IEEE 754와 다른 값을 낸 항목들. 컴파일이나 실행이 안 되면 빈 목록
    (컴파일의 실패는 커널을 컴파일할 때 알립니다)."""
    key = tuple(cc)
    if key not in _probe_results:
        options = (*OPTIONS, *GCC_OPTIONS) if _identity(cc)[1] else OPTIONS
        with tempfile.TemporaryDirectory(prefix="tinygrad_ko-probe-") as folder:
            source, program = os.path.join(folder, "probe.c"), os.path.join(folder, "probe")
            with open(source, "w", encoding="utf-8") as file:
                file.write(PROBE)
            try:
                built = _run([*cc, *options, source, "-o", program, "-lm"], cc)
                lines = _run([program]).stdout.split() if built.returncode == 0 else []
            except (OSError, subprocess.SubprocessError):
                lines = []
        _probe_results[key] = [
            f"{what}: {line} (IEEE 754: {expected!r})"
            for (what, expected), line in zip(PROBE_EXPECTED, lines, strict=False)
            if not _same_bits(line, expected)
        ]
    return _probe_results[key]


def _same_bits(printed: str, expected: float | int) -> bool:
    """PROBE가 찍은 글(%a 또는 %d)이 expected와 비트까지 같은지(-0.0과 0.0을 가릅니다)."""
    try:
        value = int(printed) if isinstance(expected, int) else float.fromhex(printed)
    except ValueError:
        return False
    return struct.pack("<d", value) == struct.pack("<d", expected)


def available() -> bool:
    """이 프로세스에서 C 백엔드를 쓸 수 있는지: 컴파일러가 있고 아직 실패하지 않았는지."""
    return _state["broken"] is None and command() is not None


def is_gcc() -> bool:
    """컴파일러가 gcc인지(`-v`가 "gcc version"을 말하는지). gcc만 아는 옵션(`GCC_OPTIONS`, `-fopt-info-vec`)을 쓸 때 봅니다."""
    cc = command()
    return cc is not None and _identity(cc)[1]


def version() -> str:
    """컴파일러의 명령과 버전 줄(예: "/usr/bin/cc gcc version 12.2.0 (Debian 12.2.0-14)"). 없으면 빈 문자열.

    출력이 컴파일러의 버전에 달린 페이지 블록(56장)이 건너뛸지 정할 때 씁니다.
    """
    cc = command()
    return "" if cc is None else _identity(cc)[0]


def reset() -> None:
    """실패 기록과 이 프로세스의 캐시를 지우고 불러온 라이브러리를 닫습니다(환경 변수를 바꾼 뒤, 테스트에서).

    닫지 않으면 운영 체제가 같은 경로의 라이브러리를 다시 열지 않고 이미 연 것을 돌려줍니다. 커널을 돌리는
    중에는 부르지 마세요.
    """
    _state["broken"] = _state["identity"] = _state["searched"] = None
    _generation[0] += 1
    _loaded.clear()
    _hung.clear()
    by_signature.clear()
    while _libraries:
        _close(_libraries.pop())


def generation() -> int:
    """`reset`을 부른 횟수. 커널 함수를 붙잡아 두는 쪽(Replay)이 그 함수가 아직 유효한지 볼 때 씁니다."""
    return _generation[0]


def _close(lib) -> None:
    if hasattr(_ctypes, "dlclose"):
        _ctypes.dlclose(lib._handle)


def _identity(cc: list[str]) -> tuple[str, bool]:
    """(해시에 넣을 컴파일러의 이름과 버전, gcc인지). 컴파일러에게 `-v`로 한 번만 묻습니다.

    이름과 버전은 다른 컴파일러의 라이브러리를 잘못 쓰지 않게 해시에 넣습니다(예: "gcc version 12.2.0 (Debian
    12.2.0-14+deb12u1)", "clang version 17.0.6").
    """
    # 명령마다 기억합니다: reset 없이 TINYGRAD_KO_CC를 바꿔도 옛 컴파일러의 이름으로 캐시하지 않게.
    known = _state["identity"]
    if known is None or known[0] != cc:
        try:
            said = _run([*cc, "-v"], cc).stderr.splitlines()
        except (OSError, subprocess.SubprocessError):
            said = []
        version = [line.strip() for line in said if re.search(r"\bversion \d", line)][:1]
        gcc = any("gcc version" in line for line in said)
        # shlex.join: 인수의 경계까지 적습니다(`cc "-DA= -DB"`와 `cc -DA= -DB`가 같은 글이 되지 않게).
        # 이름만 준 명령(TINYGRAD_KO_CC=gcc)은 PATH에서 찾은 경로로 적습니다: 다른 폴더의 같은 이름과 가르려고.
        named = [shutil.which(cc[0]) or cc[0], *cc[1:]]
        _state["identity"] = known = (list(cc), " ".join([shlex.join(named), *version]), gcc)
    return known[1], known[2]


def _run(args: list[str], cc: list[str] | None = None) -> subprocess.CompletedProcess:
    """셸 없이 args를 실행합니다. 시간이 다하면 컴파일러와 그 자식들(cc1, as, ld)을 함께 멈추고 TimeoutExpired.

    `subprocess.run(timeout=...)`은 컴파일러 자신만 죽여, 그 자식이 남아 계속 돌았습니다. 그래서 새
    프로세스 그룹(세션)에서 띄우고 시간이 다하면 그룹 전체를 멈춥니다.

    args가 컴파일러 명령 cc를 부르는 것이면, cc가 한 번 멈춘 뒤로는(`reset()` 전까지) 실행하지 않고 바로
    TimeoutExpired를 냅니다(cmd는 멈췄던 명령). 그러지 않으면 물음(-v, 값 검사)과 컴파일이 저마다 시간 한도를 기다려
    대비책까지 한도의 몇 배가 걸립니다.
    """
    hung = _hung.get(tuple(cc)) if cc else None
    if hung is not None:
        raise subprocess.TimeoutExpired(hung, _timeout())
    posix = os.name == "posix"
    with subprocess.Popen(
        args,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        encoding="utf-8",
        errors="replace",  # UTF-8이 아닌 글(예: EUC-KR 로캘의 gcc)은 대체 문자로
        start_new_session=posix,
    ) as process:
        try:
            out, err = process.communicate(timeout=_timeout())
        except subprocess.TimeoutExpired:
            if posix:
                try:
                    os.killpg(process.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            process.kill()
            process.communicate()
            if cc:
                _hung[tuple(cc)] = list(args)
            raise
    return subprocess.CompletedProcess(args, process.returncode, out, err)


def _timeout() -> float:
    """컴파일을 기다릴 초. 빈 값이면 60. 0 이하, NaN, 무한, 수가 아닌 값은 한국어 ValueError."""
    text = os.environ.get("TINYGRAD_KO_CC_TIMEOUT", "")
    if not text.strip():
        return 60.0
    try:
        seconds = float(text)
    except ValueError:
        seconds = math.nan
    if not (0 < seconds < math.inf):  # NaN도 여기서 걸립니다.
        raise messages.bad_timeout(text)
    return seconds


@functools.cache
def cpu_identity() -> str:
    """이 기계의 CPU: 아키텍처, 모델 이름, 명령 집합 플래그(리눅스의 /proc/cpuinfo에서 첫 CPU). 프로세스마다 한 번 읽습니다.

    `-march=native`로 만든 라이브러리는 이 CPU의 명령(예: AVX-512)을 씁니다. 캐시 폴더를 여러 기계가 함께 쓰면
    (네트워크 홈 폴더) 다른 CPU가 만든 라이브러리를 불러와 잘못된 명령(SIGILL)으로 죽을 수 있으므로, 캐시의
    이름에 넣습니다. /proc/cpuinfo가 없는 운영 체제에서는 `platform`이 아는 만큼만 씁니다.
    """
    fields = {}
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as file:
            for line in file:
                if not line.strip():
                    break  # 첫 CPU의 항목만 읽습니다
                name, _, value = line.partition(":")
                fields.setdefault(name.strip(), value.strip())
    except OSError:
        pass
    wanted = ("model name", "CPU implementer", "CPU part", "flags", "Features")
    return " | ".join(
        [platform.machine(), platform.processor(), *(fields[k] for k in wanted if k in fields)]
    )


def key_of(source: str, flags: tuple[str, ...] | None = None) -> str:
    """캐시의 이름: 컴파일러(이름과 버전), CPU(`cpu_identity()`), 플래그(없으면 `default_flags()`), 소스를
    함께 해시합니다. 하나만 달라도 다른 커널입니다."""
    cc = command() or ["(없음)"]
    text = "\n".join([_identity(cc)[0], cpu_identity(), " ".join(flags or default_flags()), source])
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def load(source: str) -> object | None:
    """source의 `kernel` 함수를 돌려줍니다. 캐시에 없으면 컴파일합니다. C를 쓸 수 없으면 None."""
    fn = _loaded.get(source)
    if fn is not None:
        counters["from_memory"] += 1
        return fn
    if not available():
        return None
    with _lock(source):
        if source in _loaded:
            counters["from_memory"] += 1
            return _loaded[source]
        try:
            fn = _load_or_compile(source)
        except _CompileFailed as failure:
            counters["failed"] += 1
            _state["broken"] = str(failure)
            warnings.warn(str(failure), CompilerWarning, stacklevel=4)
            return None
        _loaded[source] = fn
        return fn


def build(source: str, options: tuple[str, ...] | None = None) -> tuple[Callable, str]:
    """실험용(56장): source를 고른 컴파일 옵션(없으면 `default_options()`)으로 컴파일해 `(run, 메시지)`를 돌려줍니다.

    `run(out, *inputs)`은 C 순서로 놓인 ndarray들을 받아 소스의 `kernel`을 부릅니다(모양과 dtype은 부르는
    쪽이 소스에 맞춰 줍니다). 메시지는 처음 컴파일할 때 컴파일러가 남긴 글입니다(`-fopt-info-vec`을 주면
    gcc의 벡터화 보고). 옵션도 해시에 들어가므로 옵션마다 따로 캐시합니다. 백엔드의 커널과 달리 실패해도 C
    백엔드를 끄지 않고 RuntimeError를 냅니다.
    """
    if command() is None:
        raise RuntimeError(
            "C 컴파일러(cc, gcc, clang)를 찾지 못해 build를 쓸 수 없습니다. 컴파일러를 설치하거나 "
            "환경 변수 TINYGRAD_KO_CC로 컴파일러 명령을 주세요."
        )
    flags = (*(default_options() if options is None else options), "-shared", "-fPIC")
    with _lock(source):
        fn = _loaded.get((source, flags))
        if fn is None:
            try:
                fn = _loaded[(source, flags)] = _load_or_compile(source, flags)
            except _CompileFailed as failure:
                raise RuntimeError(
                    str(failure).replace(" NumPy 백엔드로 계산합니다.", "")
                ) from None
    log = cache.paths(key_of(source, flags))[1].with_suffix(".log")
    message = log.read_text(encoding="utf-8") if log.exists() else ""
    fn.argtypes = None

    def run(out: np.ndarray, *inputs: np.ndarray) -> None:
        arrays = (out, *inputs)
        if not all(isinstance(a, np.ndarray) and a.flags.c_contiguous for a in arrays):
            raise ValueError(
                "build가 돌려준 run에는 C 순서로 빈틈없이 놓인 ndarray만 줄 수 있습니다. "
                "np.ascontiguousarray(...)로 바꿔 주세요."
            )
        fn(*(ctypes.c_void_p(a.ctypes.data) for a in arrays))

    return run, message


def called_functions(source: str, options: tuple[str, ...] | None = None) -> list[str]:
    """실험용(56장): source를 options로 어셈블리까지만 컴파일해, 커널이 부르는 함수들의 이름(정렬).

    벡터화한 반복문이 스칼라 `expf` 대신 그 벡터판(예: glibc의 `_ZGVdN8v_expf`)을 부르는지 봅니다.
    """
    # x86-64의 call/jmp, arm64의 bl/b. 점으로 시작하는 이름(.L3)은 함수 안의 자리입니다.
    return sorted(
        set(re.findall(r"\b(?:call|jmp|bl|b)\s+([A-Za-z_]\w*)", assembly(source, options)))
    )


def assembly(source: str, options: tuple[str, ...] | None = None) -> str:
    """실험용(56장): source를 options로 어셈블리까지만 컴파일한 글(기계어 명령을 글자로 적은 것).

    어셈블리는 임시 폴더에 두었다가 지웁니다(캐시에 남기지 않습니다). 실패하면 RuntimeError.
    """
    cc = command()
    if cc is None:
        raise RuntimeError(
            "C 컴파일러(cc, gcc, clang)를 찾지 못해 어셈블리를 얻을 수 없습니다. 컴파일러를 "
            "설치하거나 환경 변수 TINYGRAD_KO_CC로 컴파일러 명령을 주세요."
        )
    with tempfile.TemporaryDirectory(prefix="tinygrad_ko-asm-") as folder:
        c_path = os.path.join(folder, "kernel.c")
        with open(c_path, "w", encoding="utf-8") as file:
            file.write(source)
        chosen = default_options() if options is None else options
        args = [*cc, *chosen, "-S", "-o", "-", c_path]
        done = _run(args, cc)
    if done.returncode != 0:
        raise RuntimeError(
            f"C 컴파일러가 실패했습니다(종료 코드 {done.returncode}, 명령: {shlex.join(args)}). "
            f"옵션과 소스를 확인하세요. 컴파일러의 메시지:\n{done.stderr.strip()[-2000:]}"
        )
    return done.stdout


def _lock(source: str) -> threading.Lock:
    with _locks_guard:
        return _locks.setdefault(source, threading.Lock())


class _CompileFailed(Exception):
    pass


def _load_or_compile(source: str, flags: tuple[str, ...] | None = None) -> object:
    flags = flags or default_flags()
    key = key_of(source, flags)
    try:
        cache.prepare()
        return _load_or_compile_in_cache(source, flags, key)
    except OSError as error:
        if error.errno is None:  # prepare의 한국어 거절(남도 쓸 수 있는 폴더)
            raise _CompileFailed(f"{error} NumPy 백엔드로 계산합니다.") from None
        # 운영 체제의 오류: .c나 라이브러리 자리에 폴더가, 폴더 자리에 파일이 있을 때, 디스크가 찼을 때 등
        raise _CompileFailed(_cache_trouble(error)) from None


def _cache_trouble(error: OSError) -> str:
    return (
        f"커널 캐시 폴더 {cache.directory()}의 파일을 만들거나 읽지 못했습니다({error}). NumPy 백엔드로 "
        f"계산합니다. 그 자리의 파일이나 폴더를 치우거나, 환경 변수 TINYGRAD_KO_CACHE로 다른 폴더를 주세요."
    )


def _load_or_compile_in_cache(source: str, flags: tuple[str, ...], key: str) -> object:
    c_path, lib_path = cache.paths(key)
    fn = _open(lib_path, key)
    if fn is not None:
        counters["from_disk"] += 1
        cache.touch(lib_path)
        return fn
    full = f'{source}\nconst char {KEY_SYMBOL}[] = "{key}";\n'
    _write_atomic(c_path, full)
    _compile(c_path, lib_path, flags)
    counters["compiled"] += 1
    cache.evict(keep=key)
    fn = _open(lib_path, key)
    if fn is None:
        raise _CompileFailed(
            f"컴파일한 라이브러리 {lib_path}를 불러오지 못했습니다. NumPy 백엔드로 계산합니다."
        )
    return fn


def _write_atomic(path, text: str) -> None:
    tmp = cache.temporary(path)
    try:
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
    except OSError:
        tmp.unlink(missing_ok=True)  # 실패한 임시 파일을 남기지 않습니다
        raise


# --8<-- [start:compile]
def _compile(c_path, lib_path, flags: tuple[str, ...]) -> None:
    # 컴파일(-c)과 링크를 나눕니다. -ffast-math 같은 옵션을 링크에도 주면 gcc 12는 crtfastmath.o를 붙이고, 그
    # 라이브러리를 불러온 스레드(와 그 뒤 그 스레드가 만든 스레드)가 비정규수를 0으로 바꿉니다. 링크에는 -shared만
    # 줍니다. TINYGRAD_KO_CC의 인수는 링크에도 가므로 그런 옵션이 있으면 command()가 거절합니다.
    cc = command()
    obj, tmp = cache.temporary(lib_path.with_suffix(".o")), cache.temporary(lib_path)
    try:
        report = _run_compiler(
            [*cc, *(f for f in flags if f != "-shared"), "-c", "-o", str(obj), str(c_path)], obj
        )
        report += _run_compiler([*cc, "-shared", "-o", str(tmp), str(obj), "-lm"], tmp)
    finally:
        obj.unlink(missing_ok=True)
    # 경고나 -fopt-info의 보고는 라이브러리 곁에 남겨 둡니다(build가 돌려줍니다).
    if report.strip():
        _write_atomic(lib_path.with_suffix(".log"), report)
    try:
        os.replace(tmp, lib_path)
    except OSError:
        tmp.unlink(missing_ok=True)
        raise


# --8<-- [end:compile]
def _run_compiler(args: list[str], output) -> str:
    """컴파일러를 한 번 부르고 그 stderr를 돌려줍니다. 실패하거나 멈추면 `output`을 지우고 _CompileFailed."""
    try:
        done = _run(args, command())
    except subprocess.TimeoutExpired as stopped:
        # stopped.cmd는 멈춘 명령입니다(앞서 멈춘 물음일 수도 있습니다).
        output.unlink(missing_ok=True)
        raise _CompileFailed(
            f"C 컴파일러가 {_timeout():g}초 안에 끝나지 않아 멈췄습니다(명령: {shlex.join(stopped.cmd)}). "
            f"NumPy 백엔드로 계산합니다. 느린 기계라면 환경 변수 TINYGRAD_KO_CC_TIMEOUT으로 시간을 늘리세요."
        ) from None
    except OSError as error:
        raise _CompileFailed(
            f"C 컴파일러를 실행하지 못했습니다(명령: {shlex.join(args)}): {error}. NumPy 백엔드로 계산합니다."
        ) from None
    if done.returncode != 0 or not output.exists():
        output.unlink(missing_ok=True)
        message = (done.stderr or done.stdout).strip()[-2000:]
        raise _CompileFailed(
            f"C 컴파일러가 실패했습니다(종료 코드 {done.returncode}, 명령: {shlex.join(args)}). "
            f"NumPy 백엔드로 계산합니다. 컴파일러의 메시지:\n{message}"
        )
    return done.stderr


def _open(lib_path, key: str) -> object | None:
    """라이브러리를 불러와 `kernel` 함수를 돌려줍니다. 없거나 깨졌거나 다른 커널이면 지우고 None."""
    if not lib_path.exists():
        return None
    try:
        lib = ctypes.CDLL(str(lib_path))
    except OSError:  # 잘렸거나 라이브러리가 아닌 파일
        lib = None
    try:
        stored = (ctypes.c_char * (len(key) + 1)).in_dll(lib, KEY_SYMBOL).value if lib else None
        fn = lib.kernel if lib else None
    except (AttributeError, ValueError):
        stored, fn = None, None
    if stored != key.encode():
        if lib is not None:
            _close(lib)  # 같은 경로를 다시 열 때 이 라이브러리를 돌려받지 않게
        try:
            lib_path.unlink()
        except FileNotFoundError:
            pass
        return None
    fn.restype = None
    _libraries.append(lib)
    return fn
