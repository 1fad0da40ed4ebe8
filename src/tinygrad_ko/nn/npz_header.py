"""가중치 파일(.npz)의 머리말만 읽습니다: 배열마다의 모양과 dtype을, 데이터를 읽기 전에.

.npz는 zip 안의 .npy 파일들이고, .npy의 머리말(header)이 배열의 모양과 dtype을 말합니다. NumPy는 이 머리말을
믿고 배열 자리를 먼저 잡으므로, 244바이트 파일이 2**40개의 원소를 말하면 8 TiB를 잡으려다 MemoryError가
납니다. 여기서는 머리말이 말하는 크기가 그 파일에 실제로 들어 있을 수 있는 크기인지 먼저 봅니다.
"""

from __future__ import annotations

import math
import zipfile
from pathlib import Path

import numpy as np

# deflate(zip의 압축)가 줄일 수 있는 최대 비율은 약 1032:1입니다. 파일보다 이만큼 더 큰 배열은 들어 있을 수 없습니다.
MAX_DEFLATE_RATIO = 1032


class BadHeader(ValueError):
    """머리말이 가중치 파일의 것일 수 없습니다. 메시지는 한국어로, 무엇이 어긋났는지 말합니다."""


def read_npz_header(path: Path) -> dict[str, tuple[tuple[int, ...], np.dtype]]:
    """배열 이름 -> (모양, dtype). 머리말이 파일보다 큰 배열을 말하면 BadHeader, .npy가 아니면 ValueError.

    이름은 `np.load`가 보여 주는 것과 같습니다(zip 안의 이름에서 `.npy`를 뗀 것).
    """
    limit = MAX_DEFLATE_RATIO * path.stat().st_size
    found = {}
    with zipfile.ZipFile(path) as archive:
        for info in archive.infolist():
            if info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
                # np.savez와 np.savez_compressed가 쓰는 두 방식만: 다른 압축은 줄어드는 비율에 상한이 없습니다.
                raise BadHeader(
                    f"{info.filename}의 압축 방식(zip {info.compress_type})은 받지 않습니다"
                )
            with archive.open(info) as member:
                shape, dtype = _npy_header(member)
            size = math.prod(shape) * dtype.itemsize  # 파이썬 정수: 넘치지 않습니다
            if size > min(info.file_size, limit):
                raise BadHeader(
                    f"{info.filename}의 머리말은 {size:,}바이트짜리 배열 {shape}을(를) 말하지만 "
                    f"파일에는 그만큼이 들어 있을 수 없습니다"
                )
            name = info.filename
            found[name[:-4] if name.endswith(".npy") else name] = (shape, dtype)
    return found


def _npy_header(member) -> tuple[tuple[int, ...], np.dtype]:
    version = np.lib.format.read_magic(member)
    if version == (1, 0):
        shape, _, dtype = np.lib.format.read_array_header_1_0(member)
    elif version == (2, 0):
        shape, _, dtype = np.lib.format.read_array_header_2_0(member)
    else:  # 3.0은 구조체 dtype의 유니코드 필드 이름에만 쓰입니다: 가중치로는 어차피 받지 않습니다.
        raise BadHeader(f".npy 형식 {version}은(는) 가중치 파일로 받지 않습니다")
    return shape, dtype
