"""tinygrad_ko 개발 명령 모음: 가상 환경을 만들고, 사이트를 띄우고, 테스트를 돌립니다.

    python3 dev.py serve        # 사이트를 http://127.0.0.1:8000 에 띄웁니다(--port 8001 처럼 바꿀 수 있음)
    python3 dev.py test         # 린트, 단위 테스트, 문서 코드 블록, 사이트 빌드, 노트북, 브라우저 테스트
    python3 dev.py build --zip  # site/ 에 엄격 빌드하고 dist/tinygrad_ko-site.zip 으로 묶습니다

두 명령 모두 처음 한 번 `.venv/`를 만들고 `requirements/constraints.txt`에 고정된 버전을
설치합니다. 다음 실행부터는 pyproject.toml 과 constraints.txt 가 바뀌지 않았다면
설치를 건너뜁니다. 표준 라이브러리만 쓰므로 파이썬 3.11 이상만 있으면 됩니다.

    TINYGRAD_KO_VENV=.venv-numpy-floor TINYGRAD_KO_NUMPY=2.0 python3 dev.py test
                                # 고정된 NumPy 대신 pyproject.toml이 허락하는 가장 낮은 NumPy로(CI가 한 번)
"""

from __future__ import annotations

import errno
import hashlib
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
# 가상 환경 폴더. 여러 파이썬 버전을 나란히 시험할 때는 TINYGRAD_KO_VENV로 바꿉니다.
VENV = ROOT / os.environ.get("TINYGRAD_KO_VENV", ".venv")
CONSTRAINTS = ROOT / "requirements" / "constraints.txt"
# 고정된 NumPy 대신 설치할 버전(예: pyproject.toml이 허락하는 가장 낮은 버전). CI가 그 버전으로 한 번 돕니다.
NUMPY_ENV = "TINYGRAD_KO_NUMPY"
STAMP = VENV / "tinygrad_ko-installed.txt"
ARCHIVE = ROOT / "dist" / "tinygrad_ko-site.zip"
MIN_PYTHON = (3, 11)


def venv_python() -> Path:
    sub = "Scripts/python.exe" if os.name == "nt" else "bin/python"
    return VENV / sub


def extras() -> str:
    """설치할 선택 의존성 묶음. TINYGRAD_KO_ORACLE=1이면 원본과 비교하는 테스트용 torch와 micrograd도 넣습니다."""
    names = ["test", "docs"]
    if os.environ.get("TINYGRAD_KO_ORACLE") == "1":
        names.append("oracle")
    return ",".join(names)


def numpy_override() -> str | None:
    """TINYGRAD_KO_NUMPY로 준 NumPy 버전(없으면 None). 버전 꼴이 아니면 한국어로 알리고 끝냅니다."""
    version = os.environ.get(NUMPY_ENV, "").strip()
    if not version:
        return None
    if not re.fullmatch(r"\d+(\.\d+){1,2}", version):
        sys.exit(
            f"{NUMPY_ENV}={version!r}은(는) NumPy 버전이 아닙니다. "
            f"{NUMPY_ENV}=2.0 처럼 숫자와 점으로 된 버전을 주세요."
        )
    return version


def constraints_file() -> Path:
    """pip에 넘길 고정 버전 파일. TINYGRAD_KO_NUMPY가 있으면 numpy 줄만 그 버전으로 바꾼 사본입니다."""
    version = numpy_override()
    if version is None:
        return CONSTRAINTS
    lines = [
        f"numpy=={version}" if line.lower().startswith("numpy==") else line
        for line in CONSTRAINTS.read_text("utf-8").splitlines()
    ]
    path = VENV / "constraints-numpy.txt"
    path.write_text("\n".join(lines) + "\n", "utf-8")
    return path


def install_fingerprint() -> str:
    """설치에 영향을 주는 파일, 선택 의존성, NumPy 버전, 파이썬 버전의 해시. 같으면 다시 설치하지 않습니다."""
    digest = hashlib.sha256(sys.version.encode() + extras().encode())
    digest.update((numpy_override() or "").encode())
    for path in (ROOT / "pyproject.toml", CONSTRAINTS):
        digest.update(path.read_bytes())
    return digest.hexdigest()


def ensure_venv() -> Path:
    if sys.version_info < MIN_PYTHON:
        sys.exit(
            f"파이썬 {sys.version.split()[0]} 으로 실행했습니다. "
            f"tinygrad_ko 는 {MIN_PYTHON[0]}.{MIN_PYTHON[1]} 이상이 필요합니다."
        )
    numpy_override()  # 잘못 준 버전은 가상 환경을 만들기 전에 알립니다
    python = venv_python()
    if not python.exists():
        print(f"[dev] 가상 환경을 만듭니다: {VENV}", flush=True)
        try:
            venv.EnvBuilder(with_pip=True, clear=True).create(VENV)
        except subprocess.CalledProcessError as error:
            # pip 없는 반쯤 만든 가상 환경을 남기면 다음 실행이 그것을 다 만든 것으로 압니다.
            shutil.rmtree(VENV, ignore_errors=True)
            sys.exit(
                f"가상 환경에 pip를 넣지 못했습니다(ensurepip 실패: {error}). 데비안·우분투라면 "
                f"python3-venv 패키지를 설치하세요(예: sudo apt install python3-venv 또는 "
                f"python{sys.version_info[0]}.{sys.version_info[1]}-venv). 그다음 같은 명령을 다시 실행하세요."
            )
    fingerprint = install_fingerprint()
    if STAMP.exists() and STAMP.read_text() == fingerprint:
        return python
    print("[dev] 고정된 의존성을 설치합니다 (처음 한 번, 또는 의존성이 바뀐 뒤).", flush=True)
    run(
        python, "-m", "pip", "install", "--disable-pip-version-check", "--quiet",
        "-c", str(constraints_file()), "-e", f".[{extras()}]",
    )  # fmt: skip
    STAMP.write_text(fingerprint)
    return python


def run(*args: object, env: dict[str, str] | None = None) -> None:
    completed = subprocess.run([str(a) for a in args], cwd=ROOT, env=env)
    if completed.returncode != 0:
        sys.exit(completed.returncode)


def tool_env() -> dict[str, str]:
    env = dict(os.environ)
    env["NO_MKDOCS_2_WARNING"] = "1"  # Material 9.x 의 mkdocs 2.0 안내 배너를 숨깁니다.
    env.setdefault("PYTHONHASHSEED", "0")
    # .pyc 를 씁니다(파이썬의 기본값). 테스트 한 번이 파이썬 프로세스를 수백 개(커널, 벤치마크 워커, 명령줄
    # 시험) 띄우는데, 셸이 PYTHONDONTWRITEBYTECODE 를 주면 프로세스마다 tinygrad_ko 와 IPython 을 소스에서 다시
    # 컴파일했습니다. 캐시(__pycache__)는 .gitignore 에 있고 휠에는 담지 않습니다(scripts/site_wheel.py).
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    # NumPy의 행렬 곱(OpenBLAS)을 스레드 하나로: 코어 2개를 나눠 쓰는 기계에서 스레드 여럿은 서로를
    # 기다리며 CPU를 태우고(36장의 학습이 열 배 느려졌습니다), 스레드 수에 따라 합의 순서가 달라져
    # 페이지에 적힌 출력의 마지막 자리가 기계마다 달라질 수 있습니다. 벤치마크도 PyTorch를 스레드
    # 하나로 재므로 같은 조건이 됩니다. 바꾸려면 환경 변수로 주세요.
    env.setdefault("OPENBLAS_NUM_THREADS", "1")
    # 행렬 곱 커널도 CPU와 상관없이 하나로: OpenBLAS는 CPU마다 다른 커널(인텔 AVX-512의 SkylakeX, AMD의
    # Zen 등)을 골라 합의 순서가 달라지고, 학습을 거친 출력의 마지막 자리가 달라집니다(38장의 시험 손실이
    # 인텔 Xeon에서 0.509, AMD EPYC에서 0.508이었습니다). AVX2가 있는 x86이면 어디서나 도는 Haswell 커널로
    # 맞춥니다(AMD의 Zen 커널과 같은 결과). scripts/train_digit_cnn.py와 같은 선택입니다.
    if has_avx2():
        env.setdefault("OPENBLAS_CORETYPE", "Haswell")
    return env


def has_avx2() -> bool:
    """리눅스 x86에서 CPU가 AVX2와 FMA를 갖췄는지(Haswell 커널을 돌릴 수 있는지). 알 수 없으면 False."""
    try:
        flags = Path("/proc/cpuinfo").read_text("utf-8", errors="replace")
    except OSError:
        return False
    line = re.search(r"^flags\s*:(.*)$", flags, re.M)
    return line is not None and {"avx2", "fma"} <= set(line.group(1).split())


def port_problem(port: int) -> str | None:
    """127.0.0.1:port 를 쓸 수 없으면 그 까닭(한국어), 쓸 수 있으면 None.

    mkdocs 의 서버처럼 SO_REUSEADDR 를 켜고 묶어 봅니다: 방금 닫힌 연결(TIME_WAIT)은 막지 않고,
    다른 프로그램이 듣고 있는 포트만 걸러 냅니다.
    """
    if not 1 <= port <= 65535:
        return f"포트 {port}은(는) 쓸 수 없는 번호입니다. 1부터 65535 사이의 번호를 주세요."
    error = _bind_error(port)
    if error is None:
        return None
    if error.errno == errno.EADDRINUSE:
        # 권하는 번호는 비어 있는 것으로: 다음 번호도 쓰고 있거나 65536이면 권한 명령이 또 실패합니다.
        nearby = [*range(port + 1, min(port + 50, 65536)), *range(port - 1, max(port - 50, 0), -1)]
        free = next((p for p in nearby if _bind_error(p) is None), None)
        hint = f": python3 dev.py serve --port {free}" if free else ""
        return (
            f"포트 {port}은(는) 다른 프로그램이 이미 쓰고 있습니다. 그 프로그램을 끄거나 "
            f"다른 포트를 주세요{hint}"
        )
    return f"포트 {port}을(를) 열 수 없습니다({error.strerror}). 다른 포트를 주세요."


def _bind_error(port: int) -> OSError | None:
    """127.0.0.1:port 에 묶어 보고 실패하면 그 오류, 되면 None."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(("127.0.0.1", port))
        except OSError as error:
            return error
    return None


def _default_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def serve_until_stopped(args: list[object], env: dict[str, str]) -> int:
    """mkdocs serve 를 띄우고, dev.py 가 멈추라는 신호(SIGINT, SIGTERM, SIGHUP)를 받으면 그것도 멈춥니다.

    mkdocs serve 는 자기 프로세스 그룹에서 돌려 터미널의 Ctrl+C 가 dev.py 에만 가게 하고, dev.py 가
    SIGINT 를 한 번 넘겨 줍니다: 그래야 mkdocs 가 임시로 만든 사이트 폴더를 지우고 끝납니다.
    """
    # 셸이 배경(`&`)으로 띄운 dev.py는 SIGINT를 무시한 채 시작하고, 무시는 자식에게 물려집니다. 그러면
    # 아래에서 넘기는 SIGINT를 mkdocs가 듣지 못하므로, 자식에서는 SIGINT를 기본 처리로 되돌립니다.
    group = {"process_group": 0, "preexec_fn": _default_sigint} if os.name == "posix" else {}
    child = subprocess.Popen([str(a) for a in args], cwd=ROOT, env=env, **group)

    def stop(signum, frame):
        raise KeyboardInterrupt

    names = ("SIGINT", "SIGTERM", "SIGHUP")
    for sig in (getattr(signal, name) for name in names if hasattr(signal, name)):
        signal.signal(sig, stop)
    try:
        return child.wait()
    except KeyboardInterrupt:
        pass
    for sig in (getattr(signal, name) for name in names if hasattr(signal, name)):
        signal.signal(sig, signal.SIG_IGN)  # 끝내는 동안 또 온 신호로 멈추지 않게
    if os.name == "posix":
        child.send_signal(signal.SIGINT)
    else:
        child.terminate()
    try:
        child.wait(timeout=15)
    except subprocess.TimeoutExpired:
        child.kill()
        child.wait()
    print("[dev] 사이트 서버를 멈췄습니다.", flush=True)
    return 0


def cmd_serve(extra: list[str]) -> None:
    """글을 쓰며 보는 서버. 실험 노트북은 실행하지 않고 build/test 가 남긴 결과를 씁니다."""
    parser = korean_parser(
        prog="python3 dev.py serve",
        description=(
            "사이트를 http://127.0.0.1:포트 에 띄우고, 문서나 코드를 고치면 다시 그립니다. "
            "실험 노트북은 실행하지 않고 build 나 test 가 실행해 둔 결과를 보여 줍니다."
        ),
    )
    parser.add_argument(
        "--port", type=int, default=8000, metavar="번호", help="띄울 포트(기본값: 8000)"
    )
    options = parser.parse_args(extra)
    problem = port_problem(options.port)  # 설치와 빌드 전에 알립니다
    if problem:
        sys.exit(f"[dev] {problem}")
    python = ensure_venv()
    address = f"127.0.0.1:{options.port}"
    print(f"[dev] http://{address}/ 에 띄웁니다. 멈추려면 Ctrl+C 를 누르세요.", flush=True)
    # --dirty: 고친 페이지만 다시 그립니다(사이트 전체는 10초쯤, 한 페이지는 2초쯤). src/ 를 고치면 그 코드를
    # 싣는 페이지도 다시 그립니다(scripts/dirty_serve.py).
    command = [python, "-m", "mkdocs", "serve", "--dirty", "-a", address]
    code = serve_until_stopped(command, tool_env())
    if code != 0:
        sys.exit(code)


def korean_parser(**options):
    """한국어로 답하는 ArgumentParser. 라이브러리의 것(표준 라이브러리만 씀)을 파일 경로로 읽습니다."""
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        from korean_cli import KoreanArgumentParser
    finally:
        sys.path.pop(0)
    return KoreanArgumentParser(**options)


def cmd_build(extra: list[str]) -> None:
    """엄격 모드로 사이트를 만듭니다. `--zip`이면 오프라인용 압축 파일로도 묶습니다."""
    parser = korean_parser(
        prog="python3 dev.py build",
        description="엄격 모드(mkdocs build --strict)로 사이트를 만듭니다.",
    )
    parser.add_argument(
        "--zip", action="store_true", help="빌드한 뒤 dist/tinygrad_ko-site.zip 으로도 묶습니다."
    )
    parser.add_argument(
        "-d", "--site-dir", default="site", metavar="폴더", help="사이트를 만들 폴더(기본값: site)"
    )
    options = parser.parse_args(extra)  # 모르는 옵션은 설치와 빌드 전에 한국어로 알립니다
    python = ensure_venv()
    run(
        python, "-m", "mkdocs", "build", "--strict", "--site-dir", options.site_dir,
        env=tool_env(),
    )  # fmt: skip
    if options.zip:
        # 빌드가 사이트 안(downloads/)에 만든 오프라인 압축 파일을 그대로 dist/ 로 복사합니다.
        built = ROOT / options.site_dir / "downloads" / ARCHIVE.name
        ARCHIVE.parent.mkdir(exist_ok=True)
        shutil.copyfile(built, ARCHIVE)
        size = ARCHIVE.stat().st_size / 1_000_000
        print(f"[dev] {ARCHIVE.relative_to(ROOT)}: {size:.1f} MB. 풀어서 index.html 을 여세요.")


# 경로를 주지 않은 `dev.py test`는 pytest 두 개를 나란히 돌립니다. 이 파일들의 테스트는 대부분의 시간을
# 하위 프로세스(벤치마크, mkdocs serve, pip, gcc, 백만 노드 사슬)를 기다리며 보냅니다. 본 pytest 한 줄에서
# 차례로 기다리면 사이트 줄이 끝난 뒤에도 코어 하나가 노는 꼬리가 남았으므로, 옆 pytest 에서 따로 돕니다.
SIDE_TESTS = (
    "tests/repo",
    "tests/lazy",
    "tests/micrograd_side/test_deep.py",
    "tests/gpt/test_cli.py",
    "tests/gpt/test_checkpoint_files.py",
)
NO_TESTS = 5  # pytest 의 종료 코드: 고른 테스트가 하나도 없음


def names_paths(extra: list[str]) -> bool:
    """pytest 인자에 경로(파일, 폴더, `파일::테스트`)가 있는지. 있으면 그것만 돌리므로 나누지 않습니다."""
    return any(not arg.startswith("-") and (ROOT / arg.split("::")[0]).exists() for arg in extra)


def combined_exit_code(main: int, side: int) -> int:
    """두 pytest 의 종료 코드를 하나로. 한쪽만 테스트가 없으면(예: -k 로 고름) 그쪽은 성공으로 봅니다."""
    if main == side == NO_TESTS:
        return NO_TESTS
    codes = [code for code in (main, side) if code not in (0, NO_TESTS)]
    return codes[0] if codes else 0


def cmd_test(extra: list[str]) -> None:
    python = ensure_venv()
    env = tool_env()
    run(python, "-m", "ruff", "check", ".", env=env)
    run(python, "-m", "ruff", "format", "--check", ".", env=env)
    # docs/notebooks/*.ipynb 는 여기서 따로 실행하지 않습니다(예전의 --nbmake). tests/site 의 엄격
    # 빌드가 mkdocs-jupyter(execute: true, allow_errors: false)로 한 번 실행해 그 출력을 페이지에
    # 담고, 셀 하나라도 실패하면 빌드가 실패합니다. test_build.py 가 모든 노트북 페이지에 실행
    # 결과가 있는지 확인합니다. 같은 노트북을 두 번 돌리지 않으려고 한 곳에서만 실행합니다.
    # --codeblocks: 옆 pytest 도(tests/repo 에 페이지처럼 실행되는 .md 가 있습니다)
    pytest = [str(python), "-m", "pytest", "--codeblocks"]
    if names_paths(extra) or any(arg.startswith("--basetemp") for arg in extra):
        run(*pytest, *extra, env=env)
        return
    ignored = [f"--ignore={path}" for path in SIDE_TESTS]
    # 옆 pytest 의 출력은 임시 파일에 모았다가 본 pytest 가 끝난 뒤에 보입니다(두 출력이 섞이지 않게).
    with tempfile.TemporaryFile("w+", encoding="utf-8") as out:
        side = subprocess.Popen(
            [*pytest, *extra, *SIDE_TESTS], cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT
        )
        try:
            main = subprocess.run([*pytest, *extra, *ignored], cwd=ROOT, env=env)
            side_code = side.wait()
        finally:
            if side.poll() is None:  # Ctrl+C 등으로 본 pytest 가 멈췄으면 옆 pytest 도 멈춥니다
                side.terminate()
                side.wait()
        out.seek(0)
        print(f"\n[dev] 나란히 돈 pytest({', '.join(SIDE_TESTS)})의 출력:", flush=True)
        sys.stdout.write(out.read())
        sys.stdout.flush()
    code = combined_exit_code(main.returncode, side_code)
    if code != 0:
        sys.exit(code)


def cmd_bench(extra: list[str]) -> None:
    python = ensure_venv()
    run(python, "benchmarks/run.py", *extra, env=tool_env())


COMMANDS = {
    "serve": cmd_serve,
    "test": cmd_test,
    "build": cmd_build,
    "bench": cmd_bench,
}


def main(argv: list[str]) -> None:
    if argv[:1] in (["-h"], ["--help"], ["help"]):
        print(__doc__.strip())
        print(f"\n명령: {', '.join(COMMANDS)}. serve와 build의 옵션은 python3 dev.py serve -h 처럼")
        return
    if not argv or argv[0] not in COMMANDS:
        names = ", ".join(COMMANDS)
        got = argv[0] if argv else "(없음)"
        sys.exit(f"알 수 없는 명령: {got}. 다음 중 하나를 주세요: {names}\n{__doc__}")
    COMMANDS[argv[0]](argv[1:])


if __name__ == "__main__":
    main(sys.argv[1:])
