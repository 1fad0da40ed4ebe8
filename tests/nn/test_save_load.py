"""save_weights / load_weights: 되돌리기, 그리고 실패할 때 매개변수가 그대로인지."""

import errno
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from tinygrad_ko import Parameter
from tinygrad_ko.nn.layers import Layer

SRC = Path(__file__).resolve().parents[2] / "src"


class Block(Layer):
    def __init__(self, n_in=3, n_out=2, seed=0):
        rng = np.random.default_rng(seed)
        self.W = Parameter(rng.normal(size=(n_in, n_out)).astype(np.float32))
        self.b = Parameter(np.zeros(n_out, dtype=np.float32))


class Net(Layer):
    def __init__(self, seed=0, sizes=(3, 2)):
        self.l0 = Block(*sizes, seed=seed)
        self.l1 = Block(sizes[1], 1, seed=seed + 1)


def snapshot(model):
    return {name: p.data.copy() for name, p in model.named_parameters()}


def assert_same(model, saved):
    current = snapshot(model)
    assert current.keys() == saved.keys()
    for name in saved:
        np.testing.assert_array_equal(current[name], saved[name])


def test_round_trip(tmp_path):
    path = tmp_path / "net.npz"
    trained = Net(seed=0)
    trained.save_weights(path)
    fresh = Net(seed=10)
    fresh.load_weights(path)
    assert_same(fresh, snapshot(trained))
    assert fresh.l0.W.data.dtype == np.float32
    # 불러온 배열은 복사본입니다: 한쪽을 고쳐도 다른 쪽은 그대로.
    fresh.l0.W.data[0, 0] = 100.0
    assert trained.l0.W.data[0, 0] != 100.0


def test_names_in_the_file(tmp_path):
    path = tmp_path / "net.npz"
    Net().save_weights(path)
    with np.load(path) as arrays:
        assert sorted(arrays.files) == ["l0.W", "l0.b", "l1.W", "l1.b"]


def test_missing_file_leaves_weights(tmp_path):
    model = Net()
    before = snapshot(model)
    with pytest.raises(FileNotFoundError, match="가중치 파일이 없습니다"):
        model.load_weights(tmp_path / "없는파일.npz")
    assert_same(model, before)


@pytest.mark.parametrize(
    "content",
    [b"this is not an npz file", b"PK\x03\x04 broken zip", b""],
    ids=["text", "broken-zip", "empty"],
)
def test_not_an_npz_file(tmp_path, content):
    path = tmp_path / "weights.npz"
    path.write_bytes(content)
    model = Net()
    before = snapshot(model)
    with pytest.raises(ValueError, match="읽을 수 없습니다"):
        model.load_weights(path)
    assert_same(model, before)


@pytest.mark.parametrize("content", [b"this is not an npz file", b""], ids=["text", "empty"])
def test_a_file_that_is_not_a_zip_says_so_in_korean(tmp_path, content):
    # 까닭이 예외 이름 "(ValueError)"뿐이면 무엇이 틀렸는지 알 수 없습니다.
    path = tmp_path / "weights.npz"
    path.write_bytes(content)
    with pytest.raises(ValueError, match=r"읽을 수 없습니다\(zip 파일이 아닙니다") as info:
        Net().load_weights(path)
    assert "(ValueError)" not in str(info.value)


def test_damaged_compressed_data_says_so_in_korean_and_keeps_the_weights(tmp_path):
    # 압축된 데이터의 첫 바이트들이 망가지면 zipfile은 zlib.error를 올립니다(rev60w). ValueError의
    # 한 갈래가 아니라서 한국어 오류로 바뀌지 않고 영어 그대로 나왔습니다.
    import struct
    import zipfile

    path = tmp_path / "net.npz"
    Net().save_weights(path)
    raw = bytearray(path.read_bytes())
    with zipfile.ZipFile(path) as archive:
        offset = archive.infolist()[0].header_offset
    name_len, extra_len = struct.unpack("<HH", raw[offset + 26 : offset + 30])
    start = offset + 30 + name_len + extra_len
    raw[start : start + 4] = b"\xff\xff\xff\xff"
    path.write_bytes(bytes(raw))
    model = Net(seed=3)
    before = snapshot(model)
    with pytest.raises(ValueError, match="가중치 파일\\(.npz\\)로 읽을 수 없습니다"):
        model.load_weights(path)
    assert_same(model, before)


def test_single_npy_array_is_not_accepted(tmp_path):
    path = tmp_path / "weights.npy"
    np.save(path, np.ones(3))
    model = Net()
    with pytest.raises(ValueError, match="읽을 수 없습니다"):
        model.load_weights(path)


def test_pickled_file_is_refused(tmp_path):
    path = tmp_path / "weights.npz"
    np.save(path.with_suffix(".npy"), np.array([{"a": 1}], dtype=object), allow_pickle=True)
    path.write_bytes(path.with_suffix(".npy").read_bytes())
    with pytest.raises(ValueError, match="읽을 수 없습니다"):
        Net().load_weights(path)


def test_other_architecture_names_and_shapes(tmp_path):
    path = tmp_path / "wider.npz"
    Net(sizes=(3, 5)).save_weights(path)
    model = Net()
    before = snapshot(model)
    with pytest.raises(ValueError, match="다른 구조") as error:
        model.load_weights(path)
    assert "l0.W: 모델 (3, 2), 파일 (3, 5)" in str(error.value)
    assert_same(model, before)

    class Other(Layer):
        def __init__(self):
            self.first = Block()

    Other().save_weights(path)
    with pytest.raises(ValueError, match="파일에 없는 매개변수: l0.W, l0.b, l1.W, l1.b"):
        model.load_weights(path)
    assert_same(model, before)


def test_lazy_parameters_take_the_saved_shape(tmp_path):
    path = tmp_path / "net.npz"
    Net().save_weights(path)
    model = Net()
    model.l0.W = Parameter(None)  # 아직 모양이 정해지지 않은 매개변수
    model.load_weights(path)
    assert model.l0.W.data.shape == (3, 2)


def test_saving_uninitialised_parameters_is_refused(tmp_path):
    model = Net()
    model.l0.W = Parameter(None)
    with pytest.raises(RuntimeError, match="순전파한 뒤"):
        model.save_weights(tmp_path / "x.npz")
    assert list(tmp_path.iterdir()) == []  # 반쯤 쓴 파일을 남기지 않습니다.


def test_save_overwrites_atomically(tmp_path):
    path = tmp_path / "net.npz"
    Net(seed=1).save_weights(path)
    Net(seed=2).save_weights(path)
    loaded = Net(seed=3)
    loaded.load_weights(path)
    assert_same(loaded, snapshot(Net(seed=2)))
    assert [p.name for p in tmp_path.iterdir()] == ["net.npz"]


def test_a_failed_save_leaves_no_half_open_zip_behind(tmp_path, monkeypatch):
    """쓰다가 실패한 저장이 닫히지 않은 zip을 남기면(NumPy 2.0의 savez), 나중에 그 zip이 이미 닫힌 임시 파일에
    쓰려다 'Exception ignored'를 찍습니다(고치기 전: NumPy 2.0에서 ValueError 하나)."""
    import gc
    import sys

    class DiskFull:
        def __array__(self, *args, **kwargs):
            raise OSError("디스크가 가득 찼습니다")

    ignored = []
    monkeypatch.setattr(sys, "unraisablehook", ignored.append)
    layer = Layer()
    layer.a = Parameter(np.ones(3))
    layer.b = Parameter(np.ones(3))
    layer.b.data = DiskFull()
    with pytest.raises(OSError):
        layer.save_weights(tmp_path / "w.npz")
    gc.collect()
    assert [str(u.exc_value) for u in ignored] == []
    assert list(tmp_path.iterdir()) == []  # 임시 파일도 남지 않습니다


@pytest.mark.skipif(
    sys.platform == "win32", reason="파일 크기 한도(RLIMIT_FSIZE)는 POSIX에만 있습니다"
)
def test_a_disk_full_error_inside_the_zip_leaves_nothing_behind(tmp_path):
    """zip 안에서 쓰기가 실패하면(EFBIG, 디스크가 가득 찬 것과 같은 OSError) NumPy 2.0의 savez는 zip을 닫지 않고
    둡니다. 그 zip이 나중에 닫힌 파일에 쓰려다 'Exception ignored'를 찍지 않아야 합니다."""
    script = textwrap.dedent(
        f"""
        import gc, resource, signal
        import numpy as np
        from tinygrad_ko import Parameter
        from tinygrad_ko.nn.layers import Layer

        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # 한도를 넘는 쓰기가 신호 대신 EFBIG 오류가 되게
        resource.setrlimit(resource.RLIMIT_FSIZE, (20_000, 20_000))
        layer = Layer()
        layer.a = Parameter(np.random.default_rng(0).normal(size=100_000))
        try:
            layer.save_weights({str(tmp_path / "w.npz")!r})
        except OSError as error:
            print("OSError", error.errno)
        gc.collect()
        """
    )
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=120
    )
    assert result.stdout == f"OSError {errno.EFBIG}\n"
    assert result.stderr == ""
    assert list(tmp_path.iterdir()) == []
