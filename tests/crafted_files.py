"""시험이 손으로 만드는 작은 파일들: 머리말이 거짓을 말하는 .npy와 .npz."""

from __future__ import annotations

import io
import zipfile

import numpy as np


def npy(shape, descr="<f8", payload=b"\0" * 32):
    """머리말은 shape와 descr를 말하고, 데이터는 payload뿐인 .npy 파일의 바이트."""
    buffer = io.BytesIO()
    header = {"descr": descr, "fortran_order": False, "shape": shape}
    np.lib.format.write_array_header_1_0(buffer, header)
    return buffer.getvalue() + payload


def craft(path, members, compression=zipfile.ZIP_STORED):
    """이름 -> .npy 바이트를 zip으로 묶은 .npz를 path에 씁니다."""
    with zipfile.ZipFile(path, "w", compression) as archive:
        for name, data in members.items():
            archive.writestr(f"{name}.npy", data)
    return path
