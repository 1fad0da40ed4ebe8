"""`python3 dev.py serve`: 포트를 고르고, 쓰고 있는 포트는 빌드 전에 한국어로 알리고, dev.py를 멈추면
그것이 띄운 mkdocs 서버도 멈춥니다. 띄운 서버는 첫 장 페이지와 그 노트북을 내어 줍니다.

빠른 시험은 가상 환경을 만들기 전에 끝나는 경우(포트 문제)와 신호를 넘기는 부분만 봅니다. 실제로 사이트를
띄우는 시험은 느린 시험입니다(노트북은 실행하지 않지만 페이지 64개를 그립니다).
"""

import os
import random
import signal
import socket
import subprocess
import sys
import textwrap
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
import dev  # noqa: E402  (저장소 루트의 dev.py: 표준 라이브러리만 씁니다)

sys.path.remove(str(ROOT))


def ephemeral_ports() -> range:
    """운영 체제가 bind(("…", 0))에 나눠 주는 임시 포트의 범위(리눅스가 아니면 흔한 기본값)."""
    try:
        low, high = map(int, Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split())
    except (OSError, ValueError):
        low, high = 32768, 60999
    return range(low, high + 1)


def free_port() -> int:
    """지금 비어 있고, 임시 포트 범위 밖인 포트.

    mkdocs는 첫 빌드를 마친 뒤에야 포트를 엽니다. 그 사이에 다른 프로세스가 bind(0)으로 같은 포트를 받을 수
    있어, 임시 포트 범위 안에서는 고르지 않습니다(전체 시험에서 장 노트북 커널의 zmq 포트를 받아, 서버에 보낸
    HTTP 요청이 BadStatusLine으로 실패한 적이 있습니다).
    """
    ephemeral = ephemeral_ports()
    for port in random.sample(range(20000, 30000), 200):
        if port in ephemeral:
            continue
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError("20000~29999에서 빈 포트를 찾지 못했습니다")


def test_free_port_is_outside_the_ephemeral_range():
    port = free_port()
    assert port not in ephemeral_ports()
    assert dev.port_problem(port) is None


def dev_py(*args, env=None, timeout=60):
    return subprocess.run(
        [sys.executable, str(ROOT / "dev.py"), *args],
        cwd=ROOT,
        env={**os.environ, **(env or {})},
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=timeout,
    )


@pytest.fixture
def venv(tmp_path):
    """dev.py가 만들 가상 환경 자리. 포트 문제로 멈추면 만들어지지 않았어야 합니다."""
    path = tmp_path / "venv"
    yield {"TINYGRAD_KO_VENV": str(path)}
    assert not path.exists(), "포트를 확인하기 전에 가상 환경을 만들었습니다"


def test_a_busy_port_is_reported_in_korean_before_any_install_or_build(venv):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        result = dev_py("serve", "--port", str(port), env=venv)
    assert result.returncode == 1, result.stderr
    assert f"포트 {port}은(는) 다른 프로그램이 이미 쓰고 있습니다" in result.stderr
    assert 1 <= suggested_port(result.stderr) <= 65535  # 비어 있는 번호를 권합니다(아래 시험)
    assert "Traceback" not in result.stderr and result.stdout == ""


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--port", "70000"], "포트 70000은(는) 쓸 수 없는 번호입니다"),
        (["--port", "여덟"], "--port"),
        (["--bogus"], "알 수 없는 인수입니다: --bogus"),
    ],
)
def test_serve_options_are_checked_in_korean(venv, args, message):
    result = dev_py("serve", *args, env=venv)
    assert result.returncode in (1, 2) and message in result.stderr, result.stderr
    assert "usage:" not in result.stderr and "Traceback" not in result.stderr


def test_port_problem_lets_a_free_port_through():
    assert dev.port_problem(free_port()) is None


# 신호를 받으면 SIGINT를 받았다고 파일에 적고 끝나는 자식(mkdocs serve 자리).
CHILD = textwrap.dedent(
    """
    import signal, sys, time
    from pathlib import Path
    def stop(signum, frame):
        Path(sys.argv[1]).write_text(signal.Signals(signum).name)
        sys.exit(0)
    signal.signal(signal.SIGINT, stop)
    Path(sys.argv[2]).write_text("ready")
    time.sleep(120)
    """
)
PARENT = textwrap.dedent(
    """
    import sys
    sys.path.insert(0, sys.argv[1])
    import dev
    code = dev.serve_until_stopped([sys.executable, "-c", sys.argv[2], sys.argv[3], sys.argv[4]], {})
    print("끝", code)
    """
)


@pytest.mark.skipif(os.name != "posix", reason="POSIX 신호(SIGTERM, SIGINT)를 보내는 시험입니다")
@pytest.mark.parametrize("sent", [signal.SIGTERM, signal.SIGINT, signal.SIGHUP])
def test_stopping_dev_py_passes_sigint_to_the_server_it_started(tmp_path, sent):
    got, ready = tmp_path / "got", tmp_path / "ready"
    parent = subprocess.Popen(
        [sys.executable, "-c", PARENT, str(ROOT), CHILD, str(got), str(ready)],
        stdout=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 60
    while not ready.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert ready.exists(), "자식 프로세스가 시작하지 않았습니다"
    parent.send_signal(sent)
    out, _ = parent.communicate(timeout=60)
    assert parent.returncode == 0
    assert got.read_text() == "SIGINT"  # mkdocs serve 가 임시 폴더를 지우고 끝나는 신호
    assert "사이트 서버를 멈췄습니다." in out and "끝 0" in out


# 신호 처리기를 따로 두지 않은 자식: 파이썬의 기본 SIGINT 처리(KeyboardInterrupt)에 기대는 mkdocs serve 자리.
PLAIN_CHILD = textwrap.dedent(
    """
    import sys, time
    from pathlib import Path
    Path(sys.argv[2]).write_text("ready")
    try:
        time.sleep(120)
    except KeyboardInterrupt:
        Path(sys.argv[1]).write_text("SIGINT")
    """
)


@pytest.mark.skipif(os.name != "posix", reason="POSIX 신호(SIGTERM, SIGINT)를 보내는 시험입니다")
def test_dev_py_started_in_the_background_still_stops_the_server_with_sigint(tmp_path):
    """셸이 `&`로 띄운 프로그램은 SIGINT를 무시한 채 시작하고, 그 자식도 무시를 물려받습니다. 그래도
    dev.py가 넘긴 SIGINT로 서버가 스스로 끝나야 합니다(강제로 죽이면 mkdocs가 임시 폴더를 남깁니다)."""
    got, ready = tmp_path / "got", tmp_path / "ready"
    parent = subprocess.Popen(
        [sys.executable, "-c", PARENT, str(ROOT), PLAIN_CHILD, str(got), str(ready)],
        stdout=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN),  # 셸의 배경 작업처럼
    )
    deadline = time.monotonic() + 60
    while not ready.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert ready.exists(), "자식 프로세스가 시작하지 않았습니다"
    parent.send_signal(signal.SIGTERM)
    out, _ = parent.communicate(timeout=60)
    assert got.exists() and got.read_text() == "SIGINT", (
        "서버가 SIGINT로 끝나지 않았습니다(무시를 물려받음)"
    )
    assert "사이트 서버를 멈췄습니다." in out


def fetch(url: str) -> str | None:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.read().decode("utf-8")
    except (urllib.error.URLError, ConnectionError, TimeoutError):
        return None


@pytest.mark.slow
def test_serve_answers_the_first_chapter_and_stops_with_dev_py(tmp_path):
    """실제로 띄웁니다: 첫 장 페이지(노트북 받기 링크와 함께)와 그 노트북이 나오고, 실험 노트북은
    실행하지 않으며, dev.py에 SIGTERM을 보내면 포트가 다시 비어 있습니다(mkdocs가 남지 않음)."""
    port = free_port()
    log = (tmp_path / "serve.log").open("w+", encoding="utf-8")
    server = subprocess.Popen(
        [sys.executable, str(ROOT / "dev.py"), "serve", "--port", str(port)],
        cwd=ROOT,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}/"
    try:
        deadline = time.monotonic() + 600  # 바쁜 기계를 위한 여유(속도는 README의 측정이 말합니다)
        page = None
        while page is None and time.monotonic() < deadline and server.poll() is None:
            time.sleep(0.5)
            page = fetch(base + "part1/01-variable-function.html")
        log.seek(0)
        assert page is not None, f"첫 장 페이지가 나오지 않았습니다:\n{log.read()}"
        assert "이 장을 노트북으로 받기" in page
        notebook = fetch(base + "part1/01-variable-function.ipynb")
        assert notebook is not None and '"nbformat": 4' in notebook
        log.seek(0)
        built = log.read()
        assert "Converting notebook (execute=True)" not in built, built
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=60)
        log.close()
    assert server.returncode == 0
    assert dev.port_problem(port) is None, "dev.py가 끝났는데 mkdocs 서버가 포트를 쥐고 있습니다"
    assert fetch(base) is None


def listening(port: int) -> socket.socket | None:
    """127.0.0.1:port 에서 듣는 소켓(쓸 수 없으면 None)."""
    sock = socket.socket()
    try:
        sock.bind(("127.0.0.1", port))
    except OSError:
        sock.close()
        return None
    sock.listen()
    return sock


def suggested_port(message: str) -> int:
    return int(message.rsplit("--port ", 1)[1].split()[0])


def test_busy_port_suggests_a_port_that_is_free():
    """다음 번호도 쓰고 있으면 그 번호를 권하지 않습니다(권한 명령이 또 실패하지 않게)."""
    for port in range(18400, 18990, 3):
        pair = [listening(port), listening(port + 1)]
        if all(pair):
            break
        for sock in pair:
            if sock:
                sock.close()
    else:
        pytest.skip("18400~18990에서 이어진 빈 포트 두 개를 찾지 못했습니다")
    try:
        message = dev.port_problem(port)
        suggestion = suggested_port(message)
        assert suggestion not in (port, port + 1)
        assert dev.port_problem(suggestion) is None
    finally:
        for sock in pair:
            sock.close()


def test_busy_last_port_suggests_a_port_in_range():
    sock = listening(65535)
    if sock is None:
        pytest.skip("포트 65535를 이 시험이 열 수 없습니다(다른 프로그램이 씁니다)")
    with sock:
        suggestion = suggested_port(dev.port_problem(65535))
    assert 1 <= suggestion <= 65535 and suggestion != 65535
