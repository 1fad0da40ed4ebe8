"""학습한 모델을 파일 두 개로 저장합니다: 가중치(.npz)와, 설정·데이터 이름·손실 기록(.json).

가중치 파일은 텐서판 모델의 `save_weights`(37장, 책의 53단계)와 같은 파일입니다. 그래서 어느 엔진으로
학습했든 같은 모양의 파일이 되고, `load_weights`가 이름과 모양을 확인하며 읽습니다.

설정 파일의 이름은 가중치 파일 이름 끝에 `.json`을 붙인 것입니다(`ko.npz` -> `ko.npz.json`). 확장자를
바꾸면(`with_suffix`) `model.step100`과 `model.step200`이 둘 다 `model.json`이 되어 서로의 설정을
덮어썼습니다. 예전 이름(`ko.npz` -> `ko.json`)으로 저장한 체크포인트도 읽습니다.

두 파일은 짝으로 바뀝니다: 둘 다 임시 파일에 다 쓴 뒤에야 이름을 바꾸고, 두 번째 이름 바꾸기가 실패하면
첫 번째를 되돌립니다. 그래서 저장이 실패해도 예전 체크포인트는 온전히 남습니다.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import shutil
from collections.abc import Iterator
from dataclasses import asdict, fields
from pathlib import Path

import numpy as np

from tinygrad_ko.nn.layers import _read_npz, save_target, write_beside

from .config import GPTConfig, weight_count, weight_shapes

__all__ = ["load_checkpoint", "save_checkpoint", "save_targets", "sidecar_path"]

CONFIG_FIELDS = tuple(f.name for f in fields(GPTConfig))


def sidecar_path(path: str | os.PathLike) -> Path:
    """가중치 파일 옆의 설정 파일: 이름 끝에 `.json`을 붙입니다(`gpt-ko.npz` -> `gpt-ko.npz.json`)."""
    path = _weights_path(path)
    return path.with_name(path.name + ".json")


def _legacy_sidecar(path: Path) -> Path | None:
    """예전 이름(`ko.npz` -> `ko.json`). `.npz`로 끝나는 이름만: 그때만 다른 파일과 겹치지 않습니다."""
    return path.with_suffix(".json") if path.suffix == ".npz" else None


def _weights_path(path: str | os.PathLike) -> Path:
    path = Path(path)
    if path.is_dir() or not path.name or path.name in (".", ".."):
        raise IsADirectoryError(
            f"{path}은(는) 폴더입니다. 체크포인트의 가중치 파일(예: {path / 'gpt-ko.npz'})을 주세요."
        )
    return path


def _to_json(value: object) -> object:
    """json.dumps가 모르는 값: NumPy 수와 배열은 파이썬 값으로, 나머지는 한국어로 거절합니다."""
    if isinstance(value, np.generic | np.ndarray):
        return value.tolist()
    raise TypeError(
        f"기록(meta)의 값 {value!r}({type(value).__name__})은(는) JSON으로 저장할 수 없습니다. "
        "수, 문자열, 참/거짓, 리스트, 사전만 넣으세요."
    )


def save_checkpoint(
    path: str | os.PathLike, config: GPTConfig, weights: dict[str, np.ndarray], meta: dict
) -> None:
    """가중치를 `path`(.npz)에, 설정과 meta를 `sidecar_path(path)`(.json)에 짝으로 저장합니다.

    meta에는 어느 이름 목록으로 학습했는지 `data`("ko"나 "en")가 있어야 합니다. 파일에 손대기 전에 모든
    것을 확인하고 두 파일의 내용을 다 만들어 두므로, 확인이나 변환이 실패하면 아무 파일도 바뀌지 않습니다.
    """
    from .tensor_model import TensorGPT

    if not isinstance(meta, dict):
        raise TypeError(f"meta는 사전이어야 합니다. 받은 값: {type(meta).__name__}")
    if "config" in meta:
        raise ValueError(
            "meta에 'config' 항목이 있습니다. 설정은 config 인수로만 저장합니다(meta의 것이 설정을 "
            "덮어쓰지 않게). meta에서 'config'를 빼세요."
        )
    _check_data(meta.get("data"), config, "meta")
    weights_file, config_file = save_targets(path)
    arrays = TensorGPT(config, weights).state_dict()  # 설정과 모양이 맞는지도 여기서 봅니다
    text = json.dumps(
        {"config": asdict(config), **meta}, ensure_ascii=False, indent=1, default=_to_json
    )
    staged = []
    try:
        staged.append(write_beside(weights_file, lambda f: np.savez_compressed(f, **arrays)))
        staged.append(write_beside(config_file, lambda f: f.write(text.encode("utf-8"))))
        with _pair_lock(weights_file, exclusive=True):
            _replace_pair(staged[0], weights_file, staged[1], config_file)
    finally:
        for temporary in staged:
            if temporary.exists():
                temporary.unlink()


def save_targets(path: str | os.PathLike) -> tuple[Path, Path]:
    """체크포인트 짝이 쓸 두 파일(가중치, 설정). 쓸 수 있는지와, 이미 있는 파일이 체크포인트의 것인지 봅니다.

    `train --out package`는 설정을 `package.json`에 씁니다. 그 자리에 체크포인트가 아닌 파일(프로젝트의
    package.json, config.json)이 있으면 덮어써서 잃게 되므로, 학습을 시작하기 전에 거부합니다.
    """
    weights, config = save_target(_weights_path(path)), save_target(sidecar_path(path))
    if _has_content(weights) and not _is_npz(weights):
        raise FileExistsError(
            f"{weights}은(는) 가중치 파일(.npz)이 아닌데 이미 있습니다. 덮어쓰면 그 내용을 잃으므로 저장하지 "
            f"않습니다. 다른 이름(예: --out gpt-ko.npz)을 주거나, 지워도 되는 파일이면 지운 뒤 다시 하세요."
        )
    if _has_content(config) and not _is_checkpoint_sidecar(config):
        raise FileExistsError(
            f"{config}은(는) 체크포인트의 설정 파일이 아닌데 이미 있습니다(가중치 {weights}의 설정은 이름 끝에 "
            f".json을 붙인 이 파일에 씁니다). 덮어쓰면 그 내용을 잃으므로 저장하지 않습니다. 다른 이름(예: "
            f"--out gpt-ko.npz)을 주거나, 지워도 되는 파일이면 지운 뒤 다시 하세요."
        )
    return weights, config


def _has_content(path: Path) -> bool:
    return path.is_file() and path.stat().st_size > 0


def _is_npz(path: Path) -> bool:
    """zip의 첫 바이트인지(np.load가 .npz를 알아보는 방법과 같음)."""
    with open(path, "rb") as file:
        return file.read(4) in (b"PK\x03\x04", b"PK\x05\x06")


def _is_checkpoint_sidecar(path: Path) -> bool:
    """save_checkpoint가 쓴 설정 파일인지: 'config' 사전을 가진 JSON 사전."""
    try:
        info = _read_info(path)
    except ValueError:
        return False
    return isinstance(info.get("config"), dict)


@contextlib.contextmanager
def _pair_lock(weights: Path, exclusive: bool) -> Iterator[None]:
    """짝을 바꿔 넣는 저장(exclusive)과 짝을 읽는 일을 같은 폴더에서 하나씩 합니다(다른 프로세스와도).

    두 저장이 동시에 바꿔 넣으면 한쪽의 가중치와 다른 쪽의 설정이 짝으로 남습니다. 폴더에 거는 flock이라
    자물쇠 파일이 남지 않고, 프로세스가 죽으면 풀립니다. fcntl이 없는 Windows에서는 잠그지 않습니다.
    """
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows
        yield
        return
    try:
        folder = os.open(weights.parent, os.O_RDONLY)
    except OSError:  # 없는 폴더나 읽을 수 없는 폴더: 잠그지 않고, 그 뒤의 일이 한국어로 알립니다
        yield
        return
    try:
        try:
            fcntl.flock(folder, fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH)
        except OSError:  # flock을 모르는 파일 시스템(일부 NFS의 ENOLCK): 잠그지 않고 합니다
            pass
        yield
    finally:
        os.close(folder)  # 닫으면 자물쇠가 풀립니다


def _replace_pair(new_weights: Path, weights: Path, new_config: Path, config: Path) -> None:
    """두 임시 파일을 제자리로. 두 번째가 실패하면 첫 번째를 예전 가중치로 되돌립니다."""
    backup = None
    if weights.exists():
        backup = weights.with_name(f".{weights.name}.{secrets.token_hex(4)}.old")
        try:
            os.link(weights, backup)  # 예전 가중치를 복사 없이 붙잡아 둡니다
        except OSError:  # 하드 링크를 못 만드는 파일 시스템
            shutil.copy2(weights, backup)
    try:
        os.replace(new_weights, weights)
        try:
            os.replace(new_config, config)
        except BaseException:
            if backup is not None:
                os.replace(backup, weights)
            else:
                weights.unlink()
            raise
    finally:
        if backup is not None and backup.exists():
            backup.unlink()


def load_checkpoint(path: str | os.PathLike) -> tuple[GPTConfig, dict[str, np.ndarray], dict]:
    """(설정, 가중치 사전, 그 밖의 기록). 두 파일을 함께 확인하고, 문제가 있으면 파일과 항목을 말합니다."""
    path = _weights_path(path)
    # 저장이 짝을 바꿔 넣는 사이에 읽으면 새 가중치와 예전 설정을 함께 읽게 됩니다: 저장이 끝나기를 기다립니다.
    with _pair_lock(path, exclusive=False):
        return _load_pair(path)


def _load_pair(path: Path) -> tuple[GPTConfig, dict[str, np.ndarray], dict]:
    from .tensor_model import TensorGPT

    sidecar = sidecar_path(path)
    legacy = _legacy_sidecar(path)
    if not sidecar.is_file() and legacy is not None and legacy.is_file():
        sidecar = legacy
    if not path.is_file() or not sidecar.is_file():
        raise FileNotFoundError(_missing_message(path, sidecar))
    info = _read_info(sidecar)
    config = _read_config(info.pop("config", None), sidecar)
    _check_data(info.get("data"), config, f"설정 파일 {sidecar}")
    # 배열의 모양은 데이터를 읽기 전에 머리말로 봅니다. .npz가 아니면 그 파일을 말하는 한국어 오류.
    arrays = _read_npz(path, lambda found: _check_shapes(found, config, path, sidecar))
    return config, TensorGPT(config, arrays).state_dict(), info


def _check_shapes(found: dict[str, tuple], config: GPTConfig, path: Path, sidecar: Path) -> None:
    """파일의 배열(이름 -> 모양)이 설정과 맞는지. 배열 수부터 봅니다: 설정 파일이 n_layer를 3,000,000으로
    말해도 그만큼의 이름과 모양을 만들기 전에(수 초와 수 GB) 거부합니다."""
    expected = weight_count(config)
    if len(found) != expected:
        problems = [
            f"파일에는 배열 {len(found):,}개, config(n_layer={config.n_layer:,})로는 {expected:,}개"
        ]
    else:
        shapes = weight_shapes(config)
        problems = [
            f"{name}: 설정으로는 {shape}, 파일에는 {found.get(name, '없음')}"
            for name, shape in shapes.items()
            if found.get(name) != shape
        ]
        problems += [f"{name}: 설정에 없는 배열" for name in found if name not in shapes]
    if problems:
        raise ValueError(
            f"가중치 파일 {path}이(가) 설정 파일 {sidecar}의 config와 맞지 않습니다"
            f"({'; '.join(problems[:3])}{' …' if len(problems) > 3 else ''}). "
            "같은 train 실행이 함께 저장한 두 파일을 쓰세요."
        )


def _missing_message(path: Path, sidecar: Path) -> str:
    have_weights, have_config = path.is_file(), sidecar.is_file()
    if not have_weights and not have_config:
        found = f"가중치 파일 {path}과(와) 설정 파일 {sidecar}이(가) 모두 없습니다."
    elif not have_weights:
        found = f"가중치 파일 {path}이(가) 없습니다(설정 파일 {sidecar}은(는) 있습니다)."
    else:
        found = f"설정 파일 {sidecar}이(가) 없습니다(가중치 파일 {path}은(는) 있습니다)."
    return (
        f"체크포인트를 읽을 수 없습니다. {found} train 명령이 함께 저장한 두 파일을 같은 폴더에 두거나, "
        f"python3 -m tinygrad_ko.gpt train --out {path} 로 먼저 학습하세요."
    )


def _read_info(sidecar: Path) -> dict:
    try:
        info = json.loads(sidecar.read_text("utf-8"))
    except json.JSONDecodeError as error:
        raise ValueError(
            f"설정 파일 {sidecar}이(가) 망가졌습니다: {error.lineno}번째 줄 {error.colno}번째 글자에서 "
            "JSON을 읽지 못했습니다. train으로 다시 저장하세요."
        ) from None
    except UnicodeDecodeError:
        raise ValueError(
            f"설정 파일 {sidecar}이(가) UTF-8 글이 아닙니다. train이 저장한 .json 파일을 주세요."
        ) from None
    except RecursionError:  # 괄호 10만 겹: 파이썬의 JSON 해석기가 재귀 한도에 닿습니다
        raise ValueError(
            f"설정 파일 {sidecar}을(를) 읽지 못했습니다: 괄호가 너무 깊게 겹쳐 있습니다. train이 저장한 "
            ".json 파일을 주세요."
        ) from None
    except ValueError:  # 수천 자리의 정수: 파이썬이 정수로 바꾸기를 거부합니다(영어 메시지)
        raise ValueError(
            f"설정 파일 {sidecar}을(를) 읽지 못했습니다: 너무 긴 수(수천 자리)가 있습니다. train이 저장한 "
            ".json 파일을 주세요."
        ) from None
    if not isinstance(info, dict):
        raise ValueError(
            f"설정 파일 {sidecar}의 내용이 사전({{...}})이 아니라 {type(info).__name__}입니다. "
            "train이 저장한 .json 파일을 주세요."
        )
    return info


def _read_config(raw: object, sidecar: Path) -> GPTConfig:
    where = f"설정 파일 {sidecar}의 'config' 항목"
    if raw is None:
        raise ValueError(
            f"설정 파일 {sidecar}에 'config' 항목(모델의 크기)이 없습니다. "
            "train이 가중치와 함께 저장한 .json 파일을 주세요."
        )
    if not isinstance(raw, dict):
        raise ValueError(
            f"{where}이 사전이 아니라 {type(raw).__name__}입니다. train으로 다시 저장하세요."
        )
    unknown = sorted(set(raw) - set(CONFIG_FIELDS))
    if unknown:
        raise ValueError(
            f"{where}에 모르는 키 {', '.join(unknown)}이(가) 있습니다. "
            f"쓸 수 있는 키: {', '.join(CONFIG_FIELDS)}. 그 키를 지우거나 train으로 다시 저장하세요."
        )
    if "final_norm" not in raw:  # 이 항목이 생기기 전의 체크포인트는 모두 lm_head 앞에서 정규화
        raw = {**raw, "final_norm": True}
    if "vocab_size" not in raw:
        raise ValueError(f"{where}에 vocab_size가 없습니다. train으로 다시 저장하세요.")
    try:
        return GPTConfig(**raw)
    except (TypeError, ValueError) as error:
        raise ValueError(f"{where}: {error}") from None


def _check_data(data: object, config: GPTConfig, where: str) -> None:
    """이름 목록(ko/en)이 있는지, 그 토크나이저의 어휘 크기가 설정과 같은지."""
    from .data import DATASETS, TOKENIZERS

    if data not in DATASETS:
        got = "없음" if data is None else repr(data)
        raise ValueError(
            f"{where}의 'data' 항목(학습한 이름 목록)이 {got}입니다. "
            f"{' 또는 '.join(map(repr, DATASETS))}이어야 합니다. train이 저장한 파일을 쓰세요."
        )
    vocab = TOKENIZERS[data]().vocab_size
    if config.vocab_size != vocab:
        raise ValueError(
            f"{where}: 'data'는 {data!r}(어휘 {vocab}개)인데 config의 vocab_size는 {config.vocab_size}입니다. "
            "두 값은 같은 학습에서 나와야 합니다. train이 함께 저장한 두 파일을 쓰세요."
        )
