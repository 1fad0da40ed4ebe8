"""지연 엔진(`tinygrad_ko.lazy`)이 내는 한국어 오류. 받은 것, 안 되는 까닭, 할 일을 말합니다."""

from __future__ import annotations

import numpy as np

from .._describe import describe


def not_an_array(data: object) -> TypeError:
    return TypeError(
        f"lazy.Tensor에는 numpy.ndarray만 넣을 수 있습니다. 받은 값: {describe(data)}. "
        f"np.array(..., dtype=np.float32)처럼 배열로 만들어 넘겨 주세요."
    )


def bad_dtype(dtype: np.dtype) -> TypeError:
    return TypeError(
        f"lazy.Tensor는 float32와 float64 배열만 계산합니다(생성하는 코드가 이 두 dtype만 압니다). "
        f"받은 배열의 dtype: {dtype}. data.astype(np.float32)나 data.astype(np.float64)로 바꿔 주세요."
    )


def bad_operand(value: object) -> TypeError:
    return TypeError(
        f"lazy.Tensor와 계산할 수 있는 것은 lazy.Tensor, 파이썬 수(int, float), NumPy 실수 스칼라, "
        f"float 배열입니다. 받은 값: {describe(value)}. 리스트라면 np.array(...)로, 값이 필요하면 "
        f"lazy.Tensor(...)로 감싸 주세요."
    )


def mixed_dtypes(a: np.dtype, b: np.dtype) -> TypeError:
    return TypeError(
        f"dtype이 다른 두 텐서({a}와 {b})는 계산하지 않습니다. 지연 엔진은 dtype을 몰래 바꾸지 않으므로 "
        f"한쪽을 다른 쪽의 dtype으로 만든 lazy.Tensor를 주세요(예: lazy.Tensor(x.astype(np.{a})))."
    )


def shapes_mismatch(a: tuple, b: tuple) -> ValueError:
    return ValueError(
        f"모양 {a}와(과) {b}은(는) 브로드캐스트할 수 없습니다. 뒤쪽 축부터 맞춰 보아 크기가 같거나 한쪽이 1이어야 "
        f"합니다. reshape으로 축을 맞춰 주세요."
    )


def bad_axis(axis: object, shape: tuple) -> ValueError:
    return ValueError(
        f"sum의 axis {axis!r}는 모양 {shape}인 텐서에 맞지 않습니다. None, 또는 -{len(shape)}부터 "
        f"{len(shape) - 1}까지의 서로 다른 정수(의 튜플)를 주세요."
    )


def bad_reshape(shape: tuple, new: object) -> ValueError:
    return ValueError(
        f"모양 {shape}인 텐서를 {new!r}(으)로 바꿀 수 없습니다. 원소 개수가 같은 정수의 튜플을 주세요."
    )


def not_scalar_root(shape: tuple) -> RuntimeError:
    return RuntimeError(
        f"backward는 원소가 하나인 0차원 결과에서만 부를 수 있습니다. 받은 텐서의 모양: {shape}. "
        f"먼저 .sum()으로 줄여 주세요."
    )


def no_grad_root() -> RuntimeError:
    return RuntimeError(
        "이 텐서는 미분이 필요한 텐서(requires_grad=True)로부터 계산되지 않았으므로 backward할 수 "
        "없습니다. 미분할 입력을 lazy.Tensor(x, requires_grad=True)로 만들어 주세요."
    )


def released() -> RuntimeError:
    return RuntimeError(
        "이 텐서의 계산 그래프는 앞선 backward가 이미 놓았습니다. 다시 미분하려면 순전파를 다시 "
        "계산하세요(최종 엔진의 retain_graph=False와 같은 약속입니다)."
    )


def unknown_backend(name: object) -> ValueError:
    return ValueError(
        f"알 수 없는 백엔드입니다: {name!r}. 'c'(생성한 C를 컴파일) 또는 'numpy'를 주세요. 환경 변수 "
        f"TINYGRAD_KO_LAZY_BACKEND도 같은 이름만 받습니다."
    )


def no_compiler(from_environment: bool = False) -> RuntimeError:
    chosen = "환경 변수 TINYGRAD_KO_LAZY_BACKEND가 'c'를 골랐지만, " if from_environment else ""
    return RuntimeError(
        f"{chosen}C 컴파일러(cc, gcc, clang)를 PATH에서 찾지 못해 C 백엔드를 쓸 수 없습니다. 데비안·우분투라면 "
        "apt-get install gcc로 설치하거나, 환경 변수 TINYGRAD_KO_CC에 컴파일러를 주세요. 그동안은 "
        "'numpy' 백엔드가 같은 값을 계산합니다"
        + (
            " (TINYGRAD_KO_LAZY_BACKEND=numpy 또는 그 변수를 지우면 자동으로 고릅니다)."
            if from_environment
            else "."
        )
    )


def replay_needs_lazy_results() -> ValueError:
    return ValueError(
        "Replay로 감싼 함수는 아직 계산하지 않은 lazy.Tensor(하나 또는 튜플)를 돌려주어야 합니다. 함수 안에서 "
        ".numpy()를 부르지 말고, 결과 텐서를 그대로 돌려주세요."
    )


def replay_took_out_a_value() -> ValueError:
    return ValueError(
        "Replay로 감싼 함수 안에서 .numpy()(또는 lazy.realize)로 값을 꺼냈습니다. 되풀이는 처음 부를 때 기록한 "
        "커널만 다시 돌리므로, 꺼낸 값으로 한 계산은 다음 호출에서도 처음 값 그대로 남습니다. 함수 안에서는 값을 "
        "꺼내지 말고, 결과 텐서를 돌려준 뒤 바깥에서 .numpy()를 부르세요."
    )


def replay_outside_tensor(shape: tuple, dtype: np.dtype) -> ValueError:
    return ValueError(
        f"Replay로 감싼 함수가 인수가 아닌 텐서(모양 {shape}, {dtype})를 읽었습니다. 되풀이는 그 텐서를 처음 "
        f"부를 때의 값으로 기록하므로, 바깥 변수를 다른 텐서로 바꿔도 옛 값으로 계산합니다. 바깥 변수의 "
        f"텐서나 함수 안에서 ndarray로 만든 텐서는 함수의 인수로 넘기세요."
    )


def bad_compiler_command(text: str, reason: str) -> ValueError:
    return ValueError(
        f"환경 변수 TINYGRAD_KO_CC의 값 {text!r}을(를) 명령과 인수로 나누지 못했습니다({reason}). "
        f"따옴표를 짝지어 닫거나, 경로에 빈칸이 있으면 따옴표로 감싸 주세요(예: '\"/opt/my cc/gcc\"'). "
        f"PATH의 cc, gcc, clang을 쓰려면 이 변수를 지우세요."
    )


def compiler_reports_value_changing(text: str, signs: list[str]) -> ValueError:
    named = ", ".join(signs)
    return ValueError(
        f"환경 변수 TINYGRAD_KO_CC의 값 {text!r}로 컴파일러에게 물었더니 값을 바꾸는 설정의 표시 {named}이(가) "
        f"나와 이 컴파일러 명령을 쓰지 않습니다(__FAST_MATH__ 같은 매크로는 -ffast-math 무리의 옵션이 켜졌다는 "
        f"뜻이고, crtfastmath.o는 이 프로세스의 NumPy까지 비정규수를 0으로 바꿉니다). --fast-math, -Wp,-D..., "
        f"@파일처럼 다르게 적은 옵션도 같습니다. TINYGRAD_KO_CC에서 그 옵션을 빼 주세요. 옵션에 따라 값과 속도가 "
        f"어떻게 달라지는지 보려면 compiler.build(source, options)로 따로 컴파일하세요(56장)."
    )


def compiler_changes_values(text: str, differences: list[str]) -> ValueError:
    named = "; ".join(differences)
    return ValueError(
        f"환경 변수 TINYGRAD_KO_CC의 값 {text!r}로 작은 시험 프로그램을 컴파일해 실행했더니 IEEE 754(NumPy)와 "
        f"다른 값이 나와 이 컴파일러 명령을 쓰지 않습니다: {named}. 헤더의 #pragma GCC optimize, "
        f"-fsingle-precision-constant, -U로 지운 매크로처럼 옵션 목록에 드러나지 않는 설정도 이렇게 값을 바꿉니다. "
        f"TINYGRAD_KO_CC에서 그 설정을 빼 주세요. 옵션에 따라 값과 속도가 어떻게 달라지는지 보려면 "
        f"compiler.build(source, options)로 따로 컴파일하세요(56장)."
    )


def value_changing_compiler_flags(text: str, flags: list[str]) -> ValueError:
    named = ", ".join(flags)
    return ValueError(
        f"환경 변수 TINYGRAD_KO_CC의 값 {text!r}에 값을 바꾸는 옵션 {named}이(가) 들어 있어 이 컴파일러 명령을 "
        f"쓰지 않습니다. 지연 엔진의 커널은 NumPy와 같은 IEEE 754 값을 내야 하는데, 이런 옵션은 계산 순서를 "
        f"바꾸거나 NaN, 무한대, 비정규수가 없다고 가정해 값을 바꾸고, 링크에 닿으면 이 프로세스의 NumPy까지 "
        f"비정규수를 0으로 바꿉니다. TINYGRAD_KO_CC에서 {named}을(를) 빼 주세요. 옵션에 따라 값과 속도가 "
        f"어떻게 달라지는지 보려면 compiler.build(source, options)로 따로 컴파일하세요(56장)."
    )


def bad_timeout(text: str) -> ValueError:
    return ValueError(
        f"환경 변수 TINYGRAD_KO_CC_TIMEOUT의 값 {text!r}은(는) 쓸 수 없습니다. 컴파일을 기다릴 초를 0보다 큰 "
        f"유한한 수로 주세요(예: 120). 지우면 60초입니다."
    )


def bad_cache_limit(text: str) -> ValueError:
    return ValueError(
        f"환경 변수 TINYGRAD_KO_CACHE_BYTES의 값 {text!r}은(는) 쓸 수 없습니다. 커널 캐시의 크기 한도를 0 "
        f"이상의 정수 바이트로 주세요(예: 200000000). 지우면 100 MiB(104857600바이트)입니다."
    )


def number_too_large(value: object, dtype: np.dtype) -> OverflowError:
    return OverflowError(
        f"수가 너무 커서 {dtype}(float)로 바꿀 수 없습니다. 받은 값: {describe(value)}. NumPy처럼 "
        f"OverflowError를 냅니다. 무한대가 필요하면 float('inf')를, 아니면 더 작은 수를 주세요."
    )
