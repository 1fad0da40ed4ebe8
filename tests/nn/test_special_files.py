"""save_weights는 장치 파일이나 FIFO 같은 보통이 아닌 파일을 보통 파일로 바꿔치지 않습니다.

임시 파일에 다 쓴 뒤 이름을 바꾸는(os.replace) 저장은, 목표가 `/dev/null` 같은 장치 파일이면 그 장치 파일을
지우고 보통 파일을 둡니다(root로 돌리는 컨테이너나 Colab에서 실제로 일어납니다). 진짜 `/dev/null`은 건드리지
않고, tmp_path 안에 만든 FIFO와 장치 파일로 봅니다.
"""

from __future__ import annotations

import os
import stat
import sys

import numpy as np
import pytest
from korean_messages import korean_instruction

from tinygrad_ko import Parameter
from tinygrad_ko.nn.layers import Layer

pytestmark = pytest.mark.skipif(
    sys.platform == "win32", reason="FIFO와 장치 파일은 유닉스에만 있습니다"
)


class Tiny(Layer):
    def __init__(self):
        self.W = Parameter(np.ones((2, 2)))


def make_fifo(path):
    os.mkfifo(path)
    return stat.S_ISFIFO


def make_device(path):
    """/dev/null과 같은 문자 장치(1, 3)를 tmp_path 안에 만듭니다. root만 만들 수 있습니다."""
    try:
        os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    except PermissionError:
        pytest.skip("장치 파일을 만들 권한이 없습니다(root가 아님): FIFO 시험이 같은 길을 봅니다")
    return stat.S_ISCHR


@pytest.mark.parametrize("make", [make_fifo, make_device], ids=["fifo", "device"])
def test_a_special_file_is_refused_and_left_as_it_was(tmp_path, make):
    target = tmp_path / "special"
    is_kind = make(target)
    with pytest.raises(OSError, match="보통 파일이 아닙니다") as info:
        Tiny().save_weights(target)
    assert str(target) in korean_instruction(info.value)
    assert is_kind(os.lstat(target).st_mode)  # 고치기 전: 보통 파일로 바뀌었습니다
    assert sorted(p.name for p in tmp_path.iterdir()) == ["special"]  # 임시 파일도 남지 않았습니다


def test_a_symlink_to_a_special_file_is_refused_too(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    link = tmp_path / "latest.npz"
    link.symlink_to(fifo)
    with pytest.raises(OSError, match="보통 파일이 아닙니다"):
        Tiny().save_weights(link)
    assert stat.S_ISFIFO(os.stat(fifo).st_mode) and link.is_symlink()


@pytest.mark.parametrize("links", [1, 2])
def test_a_symlink_loop_is_refused_and_left_as_it_was(tmp_path, links):
    # np.savez는 고리를 따라가다 ELOOP로 멈춥니다. 고치기 전에는 링크를 보통 파일로 바꿔치웠습니다.
    names = [tmp_path / f"link{i}.npz" for i in range(links)]
    for i, name in enumerate(names):
        name.symlink_to(names[(i + 1) % links])
    with pytest.raises(OSError, match="고리") as info:
        Tiny().save_weights(names[0])
    assert str(names[0]) in korean_instruction(info.value)
    assert all(name.is_symlink() for name in names)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(n.name for n in names)
