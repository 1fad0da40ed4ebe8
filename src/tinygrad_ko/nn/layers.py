"""층(`Layer`): 매개변수와 다른 층을 속성으로 가지는 구성 요소(44단계), 그 저장·불러오기(53단계),
그리고 완전 연결 층 `Linear`(입력 크기는 첫 호출에서 정합니다).

층은 매개변수를 따로 등록하지 않습니다. `parameters()`를 부르면 그때의 속성을 넣은 순서대로 훑어,
값이 `Parameter`이면 그 자신을, `Layer`이면 그 층의 매개변수를, 리스트나 튜플이면 그 안의
매개변수와 층을 모읍니다. 같은 매개변수(또는 층)를 두 곳에 두어도 한 번만 셉니다.

`micrograd` 곁가지의 `tinygrad_ko.micrograd.nn.Layer`(스칼라 `Value`로 만든 뉴런들)와는 다른 클래스입니다.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import stat
import traceback
import zipfile
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO

import numpy as np

from .._checks import check_count
from ..autograd.variable import Parameter, Variable
from ..functions.matrix import linear
from .npz_header import BadHeader, read_npz_header

__all__ = ["Layer", "Linear"]


# --8<-- [start:layer]
class Layer:
    """매개변수(`Parameter`)와 다른 층을 속성으로 가지는 구성 요소의 바탕 클래스.

    하위 클래스는 `forward`를 구현합니다. 층을 함수처럼 부르면 `forward`가 불립니다.
    """

    def __call__(self, *inputs):
        return self.forward(*inputs)

    def forward(self, *inputs):
        raise NotImplementedError(f"{type(self).__name__}.forward를 구현해 주세요.")

    def named_parameters(self) -> Iterator[tuple[str, Parameter]]:
        """(이름, 매개변수)를 속성 순서대로 내놓습니다. 이름은 `l0.W`처럼 점으로 잇습니다."""
        return _walk(self, "", set(), set())

    def params(self) -> Iterator[Parameter]:
        """매개변수를 하나씩 내놓습니다(책의 이름). 아래 층의 매개변수까지 모두 모읍니다."""
        for _, param in self.named_parameters():
            yield param

    def parameters(self) -> list[Parameter]:
        """매개변수의 리스트(PyTorch의 이름). 옵티마이저에 넘길 때 씁니다."""
        return list(self.params())

    def cleargrads(self) -> None:
        """모든 매개변수의 미분값을 지웁니다. 역전파 전에 불러야 미분값이 쌓이지 않습니다."""
        for param in self.params():
            param.cleargrad()

    # --8<-- [end:layer]

    # --8<-- [start:save]
    def save_weights(self, path: str | os.PathLike) -> None:
        """매개변수를 이름별 배열로 `.npz` 파일에 저장합니다(53단계).

        먼저 같은 폴더의 임시 파일에 쓰고 다 쓴 뒤에 이름을 바꾸므로, 저장 도중에 실패해도(예:
        디스크가 가득 참) 원래 파일이 반쯤 쓰인 채로 남지 않습니다.
        """
        arrays = {}
        for name, param in self.named_parameters():
            if param.data is None:
                raise RuntimeError(
                    f"매개변수 {name}의 모양이 아직 정해지지 않았습니다(입력 크기를 첫 호출에서 "
                    f"정하는 층입니다). 데이터를 한 번 넣어 순전파한 뒤에 저장하세요."
                )
            arrays[name] = param.data
        target = save_target(path)  # 폴더가 있는지 먼저 보고, 심볼릭 링크는 가리키는 파일로
        temporary = write_beside(target, lambda file: np.savez_compressed(file, **arrays))
        try:
            os.replace(temporary, target)
        except BaseException:
            os.unlink(temporary)
            raise

    # --8<-- [end:save]

    # --8<-- [start:load]
    def load_weights(self, path: str | os.PathLike) -> None:
        """`save_weights`로 저장한 파일에서 매개변수를 읽어 옵니다.

        파일이 없거나, `.npz`가 아니거나, 다른 구조의 모델에서 저장한 파일이면(이름이나 모양이 다르면)
        한국어 오류를 냅니다. 모든 검사를 통과한 뒤에야 값을 바꾸므로, 실패하면 매개변수는 그대로입니다.
        """
        arrays = _read_npz(Path(path))
        params = dict(self.named_parameters())
        _check_same_structure(self, params, arrays, path)
        # 매개변수의 dtype으로 바꿉니다. 아직 만들지 않은 매개변수(Linear의 W)는 층의 dtype으로.
        datas = {
            name: _loaded_data(self, name, param, arrays[name]) for name, param in params.items()
        }
        for name, param in params.items():
            param.data = np.array(datas[name], copy=True)

    # --8<-- [end:load]

    def _lazy_shape(self, param: Parameter) -> tuple[int | None, ...] | None:
        """아직 값이 없는 매개변수 `param`이 가질 모양. 첫 입력에서 정할 축은 None이고, 층이 정해 둔 것이 없으면 None입니다.

        입력 크기를 첫 호출에서 정하는 층(`Linear`, `Conv2d`)이 덮어써, 불러오기가 출력 크기 같은
        이미 정해 둔 축을 확인하게 합니다.
        """
        return None


def _walk(
    value: object, prefix: str, seen: set[int], visiting: set[int]
) -> Iterator[tuple[str, Parameter]]:
    """층의 속성을 훑으며 (이름, 매개변수)를 내놓습니다. 이미 본 매개변수와 층은 건너뜁니다."""
    for name, item in vars(value).items():
        yield from _visit(item, f"{prefix}{name}", seen, visiting)


def _visit(
    item: object, name: str, seen: set[int], visiting: set[int]
) -> Iterator[tuple[str, Parameter]]:
    if isinstance(item, Parameter):
        if id(item) not in seen:
            seen.add(id(item))
            yield name, item
    elif isinstance(item, Layer):
        if id(item) in visiting:
            raise ValueError(
                f"층 {name}이(가) 자기 자신을 (간접적으로) 속성으로 가지고 있습니다. "
                f"층의 속성이 고리를 이루지 않게 해 주세요."
            )
        if id(item) not in seen:
            seen.add(id(item))
            visiting.add(id(item))
            yield from _walk(item, f"{name}.", seen, visiting)
            visiting.discard(id(item))
    elif isinstance(item, list | tuple):
        for i, element in enumerate(item):
            if isinstance(element, Parameter | Layer | list | tuple):
                yield from _visit(element, f"{name}.{i}", seen, visiting)


def save_target(path: str | os.PathLike) -> Path:
    """저장할 실제 파일. 심볼릭 링크면 링크를 두고 그 링크가 가리키는 파일에 씁니다(np.savez와 같음).

    쓰기 전에 폴더가 있는지, 경로가 폴더 자체가 아닌지 봅니다. 그래야 오류가 임시 파일의 이름이 아니라
    받은 경로를 말하고, 오래 걸리는 일을 하기 전에(학습 전에) 확인할 수 있습니다. 장치 파일(`/dev/null`)과
    FIFO는 거부합니다: 임시 파일을 그 자리에 바꿔 넣으면 장치 파일이 보통 파일로 바뀝니다.
    """
    given = Path(path)
    target = Path(os.path.realpath(given)) if given.is_symlink() else given
    if target.is_dir() or not target.name:
        raise IsADirectoryError(
            f"{given}은(는) 폴더입니다. 폴더 안의 파일 이름(예: {given / 'model.npz'})을 주세요."
        )
    if target.is_symlink():  # realpath가 끝을 찾지 못한 링크: 고리입니다
        raise OSError(
            f"{given}은(는) 서로를 가리키는 심볼릭 링크의 고리라 가리키는 파일이 없습니다. 링크를 고치거나 "
            f"보통 파일의 경로를 주세요."
        )
    if target.exists() and not target.is_file():
        raise OSError(
            f"{given}은(는) 보통 파일이 아닙니다({_file_kind(target)}). 저장은 임시 파일에 다 쓴 뒤 그 자리에 "
            f"바꿔 넣으므로, 이 파일이 보통 파일로 바뀌어 사라집니다. 보통 파일의 경로(예: model.npz)를 주세요."
        )
    folder = target.parent
    if not folder.is_dir():
        raise FileNotFoundError(
            f"{given}을(를) 저장할 폴더 {folder}이(가) 없습니다. 폴더를 먼저 만들거나 있는 폴더를 주세요."
        )
    if not os.access(folder, os.W_OK | os.X_OK) or (
        target.exists() and not os.access(target, os.W_OK)
    ):
        raise PermissionError(f"{given}에 쓸 권한이 없습니다. 쓸 수 있는 폴더의 경로를 주세요.")
    return target


def _file_kind(path: Path) -> str:
    mode = os.stat(path).st_mode
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "/dev/null 같은 장치 파일"
    if stat.S_ISFIFO(mode):
        return "FIFO(이름 있는 파이프)"
    return "소켓" if stat.S_ISSOCK(mode) else "특수 파일"


def write_beside(target: Path, write: Callable[[IO[bytes]], object]) -> Path:
    """target과 같은 폴더의 새 임시 파일에 `write(file)`로 쓰고, 그 임시 파일의 경로를 돌려줍니다.

    권한은 보통의 파일 만들기와 같습니다: 이미 있는 파일이면 그 파일의 권한을 그대로, 없으면 umask를
    따른 권한(보통 0644). `tempfile.mkstemp`는 늘 0600으로 만들어, 저장할 때마다 권한이 바뀌었습니다.
    쓰다가 실패하면 임시 파일을 지우고 오류를 그대로 냅니다.
    """
    mode = stat.S_IMODE(target.stat().st_mode) if target.exists() else None
    for _ in range(100):
        temporary = target.with_name(f".{target.name}.{secrets.token_hex(4)}.tmp")
        try:
            # 0o666에서 umask를 뺀 권한으로 만듭니다(open()으로 새 파일을 만들 때와 같음).
            handle = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
            break
        except FileExistsError:
            continue
    else:  # pragma: no cover - 이름 100개가 모두 있을 수는 없습니다
        raise FileExistsError(f"{target} 옆에 임시 파일을 만들 수 없습니다.")
    try:
        with os.fdopen(handle, "wb") as file:
            if mode is not None:
                os.chmod(temporary, mode)
            try:
                write(file)
            except BaseException as error:
                # NumPy 2.0의 savez는 실패하면 zip을 닫지 않고 둡니다. 그 zip은 나중에 이미 닫힌 파일에 쓰려다
                # 'Exception ignored'를 찍으므로, 실패한 쓰기의 프레임을 비워 파일이 열려 있는 지금 닫히게 합니다.
                # 디스크가 가득 차면 zip을 닫다가 난 두 번째 오류가 첫 오류를 이으므로, 이어진 오류의 프레임도 비웁니다.
                chained: BaseException | None = error
                while chained is not None:
                    traceback.clear_frames(chained.__traceback__)
                    chained = chained.__context__
                raise
    except BaseException:
        os.unlink(temporary)
        raise
    return temporary


def _read_npz(
    path: Path, check_shapes: Callable[[dict[str, tuple[int, ...]]], None] | None = None
) -> dict[str, np.ndarray]:
    """가중치 파일의 배열들. `check_shapes`를 주면 데이터를 읽기 전에 머리말의 모양(이름 -> 모양)으로
    부릅니다: 모양이 맞지 않는 파일을 큰 배열을 읽기 전에 거부할 수 있습니다."""
    if not path.is_file():
        raise FileNotFoundError(
            f"가중치 파일이 없습니다: {path}. 경로를 확인하거나, 먼저 save_weights로 저장하세요."
        )
    with _unreadable_weights(path):
        # zip이 아니면(.npy 배열 하나, 글 파일) 읽지 않습니다: np.load는 .npy의 머리말을 믿고 자리부터 잡습니다.
        # zip인지는 np.load처럼 첫 바이트로 봅니다(zipfile.is_zipfile은 읽기 권한 오류도 삼킵니다).
        with open(path, "rb") as file:
            if file.read(4) not in (b"PK\x03\x04", b"PK\x05\x06"):
                raise BadHeader("zip 파일이 아닙니다")
        # 머리말이 말하는 크기가 파일에 들어 있을 수 있는지 먼저 봅니다(거짓이면 BadHeader).
        header = read_npz_header(path)
    if check_shapes is not None:
        check_shapes({name: shape for name, (shape, _) in header.items()})
    with _unreadable_weights(path), np.load(path, allow_pickle=False) as loaded:
        return {name: loaded[name] for name in loaded.files}


@contextlib.contextmanager
def _unreadable_weights(path: Path) -> Iterator[None]:
    """가중치 파일을 읽다 난 오류를 그 파일을 말하는 한국어 오류로 바꿉니다."""
    try:
        yield
    except PermissionError as error:  # 망가진 파일이 아니라 권한 문제이므로 그렇게 말합니다.
        raise PermissionError(
            f"가중치 파일 {path}을(를) 읽을 권한이 없습니다. 파일의 권한(ls -l, chmod)을 확인해 주세요."
        ) from error
    except (ValueError, OSError, EOFError, zipfile.BadZipFile, zlib.error, AttributeError) as error:
        raise ValueError(
            f"{path}은(는) 가중치 파일(.npz)로 읽을 수 없습니다({_reason(error)}). "
            f"save_weights로 저장한 파일을 주세요."
        ) from error


def _reason(error: BaseException) -> str:
    """읽지 못한 까닭: 머리말 검사가 한국어로 말한 것은 그대로, 그 밖에는 예외의 이름만(영어 문장을 옮기지 않게)."""
    return str(error) if isinstance(error, BadHeader) else type(error).__name__


def _loaded_data(root: Layer, name: str, param: Parameter, data: np.ndarray) -> np.ndarray:
    """불러올 배열을 매개변수의 dtype으로 바꿉니다(PyTorch의 load_state_dict처럼 복사하며 형 변환).

    아직 값이 없는 매개변수는 그 매개변수를 가진 층의 `dtype`(Linear는 만들 때 정한 dtype)을 따릅니다.
    층이 dtype을 정하지 않았으면 파일의 dtype을 쓰되, 실수가 아닌 배열은 미분할 수 없으므로 거부합니다.
    """
    if (
        data.dtype.kind not in "biuf"
    ):  # 문자열, 복소수, 날짜: 실수로 바꾸면 오류나 허수부를 잃습니다.
        raise TypeError(
            f"파일의 {name}은(는) dtype {data.dtype}인 배열이라 매개변수로 불러올 수 없습니다. "
            f"save_weights로 저장한 실수 배열의 파일을 주세요. 매개변수는 바꾸지 않았습니다."
        )
    if param.data is not None:
        return data.astype(param.data.dtype, copy=False)
    dtype = getattr(_owner(root, name), "dtype", None)
    if isinstance(dtype, np.dtype) and dtype.kind == "f":
        return data.astype(dtype, copy=False)
    if data.dtype.kind != "f":
        raise TypeError(
            f"파일의 {name}은(는) dtype {data.dtype}인 배열이라 매개변수로 불러올 수 없습니다(미분이 필요한 "
            f"매개변수는 실수 배열이어야 합니다). 실수(float32나 float64) 배열로 저장한 파일을 주세요. "
            f"매개변수는 바꾸지 않았습니다."
        )
    return data


def _owner(root: Layer, name: str) -> object:
    """`layers.0.W` 같은 매개변수 이름에서 그 매개변수를 가진 가장 가까운 층을 찾습니다."""
    owner = current = root
    for part in name.split(".")[:-1]:
        current = (
            current[int(part)] if isinstance(current, list | tuple) else getattr(current, part)
        )
        if isinstance(current, Layer):
            owner = current
    return owner


def _check_same_structure(
    root: Layer, params: dict[str, Variable], arrays: dict[str, np.ndarray], path: object
) -> None:
    """파일의 배열 이름과 모양이 모델의 매개변수와 같은지 봅니다. 다르면 다른 점을 모두 알려 줍니다.

    아직 값이 없는 매개변수는 그 층이 정해 둔 축(Linear의 출력 크기 등)만 봅니다."""
    missing = [name for name in params if name not in arrays]
    unexpected = [name for name in arrays if name not in params]
    shapes = []
    for name, param in params.items():
        if name not in arrays:
            continue
        expected = (
            param.data.shape
            if param.data is not None
            else getattr(_owner(root, name), "_lazy_shape", lambda _: None)(param)
        )
        if expected is not None and not _fits(expected, arrays[name].shape):
            shapes.append(f"{name}: 모델 {_shape_text(expected)}, 파일 {arrays[name].shape}")
    if not (missing or unexpected or shapes):
        return
    details = []
    if missing:
        details.append(f"파일에 없는 매개변수: {', '.join(missing)}")
    if unexpected:
        details.append(f"모델에 없는 배열: {', '.join(unexpected)}")
    if shapes:
        unknown = (
            " (?는 첫 입력에서 정할 크기라 어느 값이든 맞습니다)"
            if any("?" in s for s in shapes)
            else ""
        )
        details.append(f"모양이 다른 매개변수: {'; '.join(shapes)}{unknown}")
    raise ValueError(
        f"{path}은(는) 다른 구조의 모델에서 저장한 가중치입니다. {' / '.join(details)}. "
        f"같은 구조(층의 종류, 순서, 크기)로 만든 모델에서 불러오세요. 매개변수는 바꾸지 않았습니다."
    )


def _fits(expected: tuple[int | None, ...], shape: tuple[int, ...]) -> bool:
    """모양 `shape`가 `expected`와 같은지. `expected`의 None인 축은 어느 크기든 맞습니다."""
    return len(expected) == len(shape) and all(
        e is None or e == n for e, n in zip(expected, shape, strict=True)
    )


def _shape_text(shape: tuple[int | None, ...]) -> str:
    """(2, 4)처럼 적고, 아직 정하지 않은 축(None)은 ?로 적습니다."""
    if all(n is not None for n in shape):
        return str(tuple(shape))
    text = ", ".join("?" if n is None else str(n) for n in shape)
    return f"({text},)" if len(shape) == 1 else f"({text})"


class InputSizeFromW:
    """입력 크기 속성(`Linear.in_size`, `Conv2d.in_channels`): W가 있으면 W의 모양(`axis`축)이, 없으면
    만들 때 받았거나 첫 입력에서 정한 값이 답입니다. 아직 입력을 받지 않은 층에 가중치를 불러온 뒤에도 맞습니다."""

    def __init__(self, axis: int) -> None:
        self.axis = axis

    def __set_name__(self, owner: type, name: str) -> None:
        self.slot = f"_{name}"

    def __get__(self, layer: object, owner: type | None = None) -> object:
        if layer is None:
            return self
        W = layer.__dict__.get("W")
        return layer.__dict__[self.slot] if W is None or W.data is None else W.data.shape[self.axis]

    def __set__(self, layer: object, value: int | None) -> None:
        layer.__dict__[self.slot] = value


# --8<-- [start:linear]
class Linear(Layer):
    """완전 연결 층 y = x @ W + b. W는 (입력 크기, 출력 크기), b는 (출력 크기,)입니다.

    `in_size`를 주지 않으면 처음 들어온 입력의 마지막 축 크기로 W를 만듭니다(책과 같음). W의 처음
    값은 평균 0, 표준편차 √(1/입력 크기)의 정규 분포에서 뽑습니다. `seed`(정수나
    numpy.random.Generator)를 주면 같은 값으로 시작합니다.
    """

    def __init__(
        self,
        out_size: int,
        in_size: int | None = None,
        *,
        bias: bool = True,
        dtype: object = np.float32,
        seed: int | np.random.Generator | None = None,
    ) -> None:
        self.out_size = check_count("out_size", out_size)
        self.in_size = None if in_size is None else check_count("in_size", in_size)
        self.dtype = np.dtype(dtype)
        self.rng = np.random.default_rng(seed)
        self.W = Parameter(None, name="W")
        if self.in_size is not None:
            self._init_W()
        self.b = Parameter(np.zeros(self.out_size, dtype=self.dtype), name="b") if bias else None

    def _init_W(self) -> None:
        scale = np.sqrt(1.0 / self.in_size)
        W = self.rng.standard_normal((self.in_size, self.out_size)) * scale
        self.W.data = W.astype(self.dtype)

    def forward(self, x):
        if self.W.data is None:
            self.in_size = check_count("입력의 마지막 축 크기", _last_axis(x))
            self._init_W()
        return linear(x, self.W, self.b)

    # --8<-- [end:linear]

    in_size = InputSizeFromW(axis=0)

    def _lazy_shape(self, param: Parameter) -> tuple[int | None, ...] | None:
        return (self.in_size, self.out_size) if param is self.W else None

    def __repr__(self) -> str:
        return f"Linear(in_size={self.in_size}, out_size={self.out_size})"


def _data(x: object) -> object:
    return x.data if isinstance(x, Variable) else x


def _last_axis(x: object) -> int:
    """입력의 마지막 축 크기(Linear가 W를 만들 때). 축이 없는 0차원 입력은 한국어로 거부합니다."""
    shape = np.shape(_data(x))
    if not shape:
        raise ValueError(
            f"Linear의 입력은 (샘플 수, 특징 수)처럼 마지막 축이 특징인 배열이어야 합니다. 받은 값: "
            f"0차원 {type(x).__name__}(모양 ()). 수 하나라면 np.array([[값]])처럼 (1, 1)로 주세요."
        )
    return shape[-1]
