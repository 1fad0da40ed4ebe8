"""PyTorch와 비교하는 테스트(오라클)들이 함께 쓰는 torch 가져오기 규칙."""

import os

import pytest


def import_torch(module: str):
    """torch 모듈. `TINYGRAD_KO_ORACLE=1`이면 꼭 있어야 하고(없으면 ImportError로 실패합니다: 비교를
    하겠다고 했으니까요. CI가 이렇게 돕니다), 아니면 없을 때 그 테스트 파일 전체를 건너뜁니다. `module`은 건너뛴 까닭에 적을 테스트
    모듈의 이름(`__name__`)입니다."""
    if os.environ.get("TINYGRAD_KO_ORACLE") == "1":
        import torch

        return torch
    return pytest.importorskip(
        "torch",
        reason=f"{module}: PyTorch가 없습니다: TINYGRAD_KO_ORACLE=1 python3 dev.py test 로 설치됩니다",
    )
