"""머리말(header)이 거짓을 말하는 작은 .npz: 읽기 전에 알아보고, 늘 하던 한국어 오류로 거부합니다.

.npz는 zip 안의 .npy 파일들이고, .npy의 머리말이 배열의 모양과 dtype을 말합니다. NumPy는 머리말을 믿고
배열 자리를 먼저 잡으므로, 244바이트 파일이 2**40개의 원소(8 TiB)를 말하면 영어 MemoryError가 납니다.
"""

from __future__ import annotations

import zipfile

import numpy as np
import pytest
from crafted_files import craft, npy
from korean_messages import korean_instruction

from tinygrad_ko import Parameter
from tinygrad_ko.nn.layers import Layer


class Tiny(Layer):
    def __init__(self):
        self.W = Parameter(np.ones((2, 2)))


LIES = {
    "2**40 elements": {"W": npy((2**40,))},
    "2**20 x 2**20": {"W": npy((2**20, 2**20))},
    "2**33 elements": {"W": npy((2**33,))},
    "more than the data": {"W": npy((2, 2), payload=b"\0" * 8)},
}


@pytest.mark.parametrize(
    "compression", [zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED], ids=["stored", "deflated"]
)
@pytest.mark.parametrize("lie", LIES)
def test_a_header_that_claims_more_than_the_file_holds_is_refused_in_korean(
    tmp_path, lie, compression
):
    path = craft(tmp_path / "lie.npz", LIES[lie], compression)
    assert path.stat().st_size < 400
    model = Tiny()
    with pytest.raises(ValueError, match="가중치 파일\\(.npz\\)로 읽을 수 없습니다") as info:
        model.load_weights(path)
    assert str(path) in korean_instruction(info.value)
    np.testing.assert_array_equal(model.W.data, np.ones((2, 2)))  # 매개변수는 그대로


def test_a_compression_without_a_ratio_limit_is_refused(tmp_path):
    # np.savez는 저장(stored)과 deflate만 씁니다. bzip2와 lzma는 줄어드는 비율에 쓸 만한 상한이 없습니다.
    path = craft(tmp_path / "lzma.npz", {"W": npy((2**40,))}, zipfile.ZIP_LZMA)
    with pytest.raises(ValueError, match="압축 방식"):
        Tiny().load_weights(path)


def test_an_honest_crafted_file_still_loads(tmp_path):
    data = np.arange(4.0).reshape(2, 2)
    path = craft(tmp_path / "ok.npz", {"W": npy((2, 2), payload=data.tobytes())})
    model = Tiny()
    model.load_weights(path)
    np.testing.assert_array_equal(model.W.data, data)


def test_a_highly_compressed_honest_file_still_loads(tmp_path):
    # 0으로 가득한 배열은 수백 배로 줄어듭니다. 줄어든 비율이 커도 참말이면 읽습니다.
    class Big(Layer):
        def __init__(self):
            self.W = Parameter(np.ones((1000, 1000)))

    path = tmp_path / "zeros.npz"
    np.savez_compressed(path, W=np.zeros((1000, 1000)))
    assert path.stat().st_size * 500 < 8_000_000
    model = Big()
    model.load_weights(path)
    assert not model.W.data.any()


def test_a_lying_npy_file_is_refused_without_reading_it(tmp_path):
    # .npz가 아닌 .npy 하나: np.load는 머리말을 믿고 2**40개 자리를 먼저 잡으려 합니다.
    path = tmp_path / "lie.npy"
    path.write_bytes(npy((2**40,)))
    with pytest.raises(ValueError, match="로 읽을 수 없습니다\\(zip 파일이 아닙니다\\)"):
        Tiny().load_weights(path)
