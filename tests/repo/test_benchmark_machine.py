"""벤치마크 표의 기계 설명: 벡터 명령어 폭(AVX-512 등)이 적혀야 다른 기계의 표와 비교할 수 있습니다."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import machine  # noqa: E402 - 위의 경로를 먼저 넣어야 합니다

X86 = "processor\t: 0\nflags\t\t: fpu sse2 sse4_2 avx avx2 fma avx512f avx512bw\nprocessor\t: 1\n"
ARM = "processor\t: 0\nFeatures\t: fp asimd evtstrm sve\n"


def test_simd_flags_lists_vector_extensions_in_order():
    assert machine.simd_flags(X86) == "sse4_2 avx avx2 fma avx512f avx512bw"


def test_simd_flags_reads_arm_features():
    assert machine.simd_flags(ARM) == "asimd sve"


def test_simd_flags_says_unknown_without_flags():
    assert machine.simd_flags("processor\t: 0\n") == "알 수 없음"


def test_describe_records_simd():
    assert "simd" in machine.describe()
