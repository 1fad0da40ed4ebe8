"""장 노트북을 모는 커널과 그 클라이언트: 노트북 하나가 끝나면 아무것도 남기지 않습니다.

CI에서 한 번, 33장 노트북의 학습 셀 출력에 커널의 오류 로그("DELIM not in msg_list")가 세 번 섞여 실패했습니다.
그 전 노트북의 클라이언트가 커널을 끈 뒤에도 하트비트 채널을 닫지 않아 옛 TCP 포트로 계속 ping을 보냈고,
운영 체제가 그 포트를 다음 커널의 control 포트로 다시 나눠 주자 그 ping이 새 커널에 닿은 것으로 봅니다(같은
오류를 zmq REQ 소켓 하나로 control 포트에 ping을 보내 재현했습니다). 그래서 (1) 끝난 노트북의 채널을 닫고,
(2) 커널마다 새 폴더의 유닉스 소켓(ipc)으로 통신해 다른 프로세스가 옛 주소로 닿을 수 없게 합니다.

커널은 사이트 줄처럼 다른 프로세스에서 몹니다. 이 pytest 프로세스에서 몰면 jupyter_core의 이벤트 루프
스레드가 남아, 페이지 블록을 도는 프로세스에 스레드가 없어야 한다는 test_site_lane.py가 깨집니다.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")

# 이 테스트의 파이썬(ipykernel이 있는)으로 도는 커널로 노트북 셋을 차례로 돌려, 두 번째와 세 번째 뒤에 새로
# 생긴 스레드와 각 커널이 받은 연결 정보를 알립니다. 첫 노트북은 jupyter_core의 이벤트 루프 스레드(프로세스에
# 하나, 계속 다시 씀)를 띄우므로 그 뒤부터 셉니다.
RUN = """
import json, sys, threading
from pathlib import Path
import nbformat, reader_env

root = Path(sys.argv[1])
reader = reader_env.with_kernel(root, Path(sys.executable))
where = (
    "import json, os, sys\\nfrom ipykernel.connect import get_connection_file\\n"
    "info = json.load(open(get_connection_file()))\\n"
    "print('|'.join([info['transport'], os.path.dirname(info['ip']), str(sys.dont_write_bytecode)]))"
)
runs = []
before = set(threading.enumerate())
for n in range(3):
    node = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(where)])
    executed = reader_env.execute(node, reader, cwd=root)
    if n == 0:
        before = set(threading.enumerate())
    runs.append(executed.cells[0].outputs[0]["text"].strip().split("|"))
left = [t.name for t in set(threading.enumerate()) - before if t.is_alive()]
print(json.dumps({"left": left, "runs": runs}))
"""


@pytest.fixture(scope="module")
def three_notebooks(tmp_path_factory) -> dict:
    root = tmp_path_factory.mktemp("kernels")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(Path(__file__).parent), *sys.path])}
    env["PYTHONDONTWRITEBYTECODE"] = (
        "1"  # 바이트코드를 쓰지 말라는 환경에서 불러도(아래의 마지막 테스트)
    )
    completed = subprocess.run(
        [sys.executable, "-c", RUN, str(root)],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert completed.returncode == 0, completed.stderr
    return json.loads(completed.stdout.splitlines()[-1])


def test_a_finished_notebook_leaves_no_channel_threads_behind(three_notebooks):
    assert three_notebooks["left"] == []


@pytest.mark.skipif(os.name == "nt", reason="윈도에는 유닉스 소켓 전송(ipc)이 없어 TCP를 씁니다")
def test_each_kernel_talks_over_unix_sockets_in_a_folder_of_its_own(three_notebooks):
    transports = [transport for transport, _, _ in three_notebooks["runs"]]
    folders = [folder for _, folder, _ in three_notebooks["runs"]]
    assert transports == ["ipc"] * 3
    assert len(set(folders)) == 3
    assert not any(Path(folder).exists() for folder in folders), (
        "끝난 커널의 소켓 폴더가 남았습니다"
    )


def test_kernels_cache_bytecode_even_when_the_caller_says_not_to(three_notebooks):
    """독자의 커널은 보통의 파이썬처럼 .pyc 를 씁니다. 부른 쪽의 PYTHONDONTWRITEBYTECODE 를 물려받으면 커널마다
    NumPy, IPython, tinygrad_ko 를 소스에서 다시 컴파일해, 장 노트북 56개의 CPU 시간이 215초에서 163초로
    줄어들 만큼(2026-12-07, 이 기계) 느렸습니다."""
    assert [flag for _, _, flag in three_notebooks["runs"]] == ["False"] * 3
