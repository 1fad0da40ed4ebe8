"""save_weights가 쓰는 파일: 권한(umask), 이미 있는 파일의 권한, 심볼릭 링크, 없는 폴더.

기준은 `np.savez`(그리고 `torch.save`)입니다. 둘 다 보통의 `open(path, "wb")`로 쓰므로 새 파일은
0o666에서 umask를 뺀 권한이 되고, 이미 있는 파일은 권한을 그대로 두며, 심볼릭 링크는 링크를 두고 그
링크가 가리키는 파일에 씁니다.
"""

import os
import stat
import sys

import numpy as np
import pytest

from tinygrad_ko import Parameter
from tinygrad_ko.nn.layers import Layer

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="유닉스 권한을 봅니다")


class Tiny(Layer):
    def __init__(self, value=1.0):
        self.W = Parameter(np.full((2, 2), value))


def mode(path):
    return stat.S_IMODE(os.stat(path).st_mode)


@pytest.fixture(params=[0o022, 0o027, 0o077])
def umask(request):
    old = os.umask(request.param)
    yield request.param
    os.umask(old)


def leftovers(folder):
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


def test_new_file_mode_follows_the_umask_like_np_savez(tmp_path, umask):
    Tiny().save_weights(tmp_path / "ours.npz")
    np.savez(tmp_path / "numpy.npz", W=np.zeros(2))
    assert mode(tmp_path / "ours.npz") == mode(tmp_path / "numpy.npz") == 0o666 & ~umask


def test_existing_file_keeps_its_mode(tmp_path):
    path = tmp_path / "w.npz"
    Tiny(1.0).save_weights(path)
    os.chmod(path, 0o640)
    Tiny(2.0).save_weights(path)
    assert mode(path) == 0o640
    fresh = Tiny(0.0)
    fresh.load_weights(path)
    np.testing.assert_array_equal(fresh.W.data, np.full((2, 2), 2.0))


def test_symlink_is_written_through_not_replaced(tmp_path):
    real = tmp_path / "runs" / "real.npz"
    real.parent.mkdir()
    Tiny(1.0).save_weights(real)
    link = tmp_path / "latest.npz"
    link.symlink_to(real)
    Tiny(3.0).save_weights(link)
    assert link.is_symlink() and os.readlink(link) == str(real)
    fresh = Tiny(0.0)
    fresh.load_weights(real)
    np.testing.assert_array_equal(fresh.W.data, np.full((2, 2), 3.0))
    assert leftovers(tmp_path) == leftovers(real.parent) == []


def test_missing_folder_names_the_path_not_a_temporary_file(tmp_path):
    target = tmp_path / "없는폴더" / "w.npz"
    with pytest.raises(FileNotFoundError, match="저장할 폴더") as info:
        Tiny().save_weights(target)
    assert str(target) in str(info.value) and ".tmp" not in str(info.value)


@pytest.mark.parametrize("name", [".", ""])
def test_a_folder_is_refused(tmp_path, monkeypatch, name):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(IsADirectoryError, match="폴더입니다"):
        Tiny().save_weights(name or tmp_path)
    assert list(tmp_path.iterdir()) == []


def test_failed_write_leaves_no_temporary_file_and_keeps_the_old_one(tmp_path, monkeypatch):
    path = tmp_path / "w.npz"
    Tiny(1.0).save_weights(path)

    def broken(*args, **kwargs):
        raise OSError("디스크가 가득 찼습니다(흉내)")

    monkeypatch.setattr(np, "savez_compressed", broken)
    with pytest.raises(OSError, match="흉내"):
        Tiny(2.0).save_weights(path)
    monkeypatch.undo()
    assert leftovers(tmp_path) == []
    fresh = Tiny(0.0)
    fresh.load_weights(path)
    np.testing.assert_array_equal(fresh.W.data, np.ones((2, 2)))
