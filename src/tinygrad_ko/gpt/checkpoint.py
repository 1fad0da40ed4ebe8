"""학습한 모델을 파일 두 개로 저장합니다: 가중치(.npz)와, 설정·데이터 이름·손실 기록(.json).

가중치 파일은 텐서판 모델의 `save_weights`(프레임워크의 53단계)가 씁니다. 그래서 어느 엔진으로 학습했든
같은 모양의 파일이 되고, `load_weights`가 이름과 모양을 확인하며 읽습니다.
"""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path

import numpy as np

from .config import GPTConfig

__all__ = ["load_checkpoint", "save_checkpoint"]


def save_checkpoint(
    path: Path, config: GPTConfig, weights: dict[str, np.ndarray], meta: dict
) -> None:
    from .tensor_model import TensorGPT

    path = Path(path)
    TensorGPT(config, weights).save_weights(path)
    info = {"config": asdict(config), **meta}
    path.with_suffix(".json").write_text(json.dumps(info, ensure_ascii=False, indent=1), "utf-8")


def load_checkpoint(path: Path) -> tuple[GPTConfig, dict[str, np.ndarray], dict]:
    """(설정, 가중치 사전, 그 밖의 기록)."""
    from .config import init_weights
    from .tensor_model import TensorGPT

    path = Path(path)
    sidecar = path.with_suffix(".json")
    if not sidecar.is_file():
        raise FileNotFoundError(
            f"설정 파일 {sidecar} 이 없습니다. train 명령이 가중치와 함께 저장한 .json 을 같은 폴더에 두세요."
        )
    info = json.loads(sidecar.read_text("utf-8"))
    config = GPTConfig(**info.pop("config"))
    model = TensorGPT(config, init_weights(config))
    model.load_weights(path)
    return config, model.state_dict(), info
