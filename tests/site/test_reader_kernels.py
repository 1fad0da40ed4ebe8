"""장 노트북을 모는 커널과 그 클라이언트: 노트북 하나가 끝나면 아무것도 남기지 않습니다.

CI에서 한 번, 33장 노트북의 학습 셀 출력에 커널의 오류 로그("DELIM not in msg_list")가 세 번 섞여 실패했습니다.
그 전 노트북의 클라이언트가 커널을 끈 뒤에도 하트비트 채널을 닫지 않아 옛 TCP 포트로 계속 ping을 보냈고,
운영 체제가 그 포트를 다음 커널의 control 포트로 다시 나눠 주자 그 ping이 새 커널에 닿은 것으로 봅니다(같은
오류를 zmq REQ 소켓 하나로 control 포트에 ping을 보내 재현했습니다). 그래서 (1) 끝난 노트북의 채널을 닫고,
(2) 커널마다 새 폴더의 유닉스 소켓(ipc)으로 통신해 다른 프로세스가 옛 주소로 닿을 수 없게 합니다.
"""

from __future__ import annotations

import os
import sys
import threading
from pathlib import Path

import pytest
import reader_env

pytestmark = pytest.mark.slow

pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")


def _notebook(*sources: str) -> dict:
    import nbformat

    cells = [nbformat.v4.new_code_cell(source) for source in sources]
    return nbformat.v4.new_notebook(cells=cells)


@pytest.fixture
def this_python_as_reader(tmp_path) -> reader_env.ReaderEnv:
    """이 테스트의 파이썬(ipykernel이 있는)으로 도는 커널: 새 가상 환경을 만들지 않아 빠릅니다."""
    return reader_env.with_kernel(tmp_path, Path(sys.executable))


def test_a_finished_notebook_leaves_no_channel_threads_behind(this_python_as_reader, tmp_path):
    # 첫 노트북은 jupyter_core의 이벤트 루프 스레드(프로세스에 하나, 계속 다시 씀)를 띄우므로 그 뒤를 셉니다.
    reader_env.execute(_notebook("print(1)"), this_python_as_reader, cwd=tmp_path)
    before = set(threading.enumerate())
    executed = reader_env.execute(_notebook("print(1 + 1)"), this_python_as_reader, cwd=tmp_path)
    assert executed.cells[0].outputs[0]["text"] == "2\n"
    left = [thread.name for thread in set(threading.enumerate()) - before if thread.is_alive()]
    assert left == []


@pytest.mark.skipif(os.name == "nt", reason="윈도에는 유닉스 소켓 전송(ipc)이 없어 TCP를 씁니다")
def test_each_kernel_talks_over_unix_sockets_in_a_folder_of_its_own(
    this_python_as_reader, tmp_path
):
    where = (
        "import json, os\nfrom ipykernel.connect import get_connection_file\n"
        "info = json.load(open(get_connection_file()))\n"
        "print(info['transport'] + '|' + os.path.dirname(info['ip']))"
    )
    folders = []
    for _ in range(2):
        executed = reader_env.execute(_notebook(where), this_python_as_reader, cwd=tmp_path)
        transport, folder = executed.cells[0].outputs[0]["text"].strip().split("|")
        assert transport == "ipc"
        folders.append(folder)
    assert folders[0] != folders[1]
    assert not any(Path(folder).exists() for folder in folders), (
        "끝난 커널의 소켓 폴더가 남았습니다"
    )
