"""엔진이 내는 한국어 오류를 만드는 곳입니다. 엔진 코드는 `raise messages.이름(...)` 한 줄로 씁니다.

메시지마다 세 가지를 말합니다: 무엇을 받았는지, 왜 안 되는지, 무엇을 하면 되는지. 이 모듈은 엔진의
다른 모듈을 가져오지 않습니다(받은 객체의 속성만 읽습니다). 받은 값을 적는 `describe`와 True/False
자리의 오류 `not_bool`은 NumPy 없는 micrograd와 함께 쓰는 `tinygrad_ko._describe`, `tinygrad_ko._checks`에
있습니다.
"""

from __future__ import annotations

import numpy as np

from .._checks import not_bool  # noqa: F401 - 엔진이 messages.not_bool로 씁니다(설정, backward, grad)
from .._describe import describe, short_repr  # noqa: F401 - short_repr는 functions가 여기서 가져갑니다

# 미분할 수 없는 dtype: 문자열, 바이트, 파이썬 객체, 구조체, 날짜/시간.
REJECTED_KINDS = frozenset("OSUVMm")


def var_name(x: object) -> str:
    name = getattr(x, "name", None)
    return f"'{name}'" if name else "이름 없는 변수"


# --- 변수를 만들 때 ---------------------------------------------------------------------
def not_an_array(data: object) -> TypeError:
    return TypeError(
        f"Variable에는 numpy.ndarray(또는 None)만 넣을 수 있습니다. "
        f"받은 값: {describe(data)}. np.array(...)로 감싸서 넘겨 주세요."
    )


def not_numeric(dtype: np.dtype) -> TypeError:
    return TypeError(
        f"Variable에는 수치형 배열만 넣을 수 있습니다. 받은 배열의 dtype: {dtype}. "
        f"np.asarray(..., dtype=float)처럼 수치형으로 바꿔 주세요."
    )


def not_differentiable(dtype: np.dtype) -> TypeError:
    """미분이 필요한 변수에 실수가 아닌 배열을 넣었을 때(PyTorch도 정수와 bool은 거부합니다)."""
    if dtype.kind == "c":
        return TypeError(
            f"복소수 배열(dtype {dtype})에는 미분값을 구하지 않습니다. 이 엔진의 미분 공식은 실수용이라 "
            f"복소수에서는 켤레를 취하지 않은 틀린 값이 나옵니다. 실수부와 허수부를 따로 실수 변수로 "
            f"담거나(data.real, data.imag), 미분하지 않을 상수라면 requires_grad=False로 만드세요."
        )
    return TypeError(
        f"미분이 필요한 Variable에는 실수(float) 배열만 넣을 수 있습니다. 받은 배열의 dtype: {dtype}. "
        f"정수와 bool의 미분값은 그 dtype으로 계산되어 넘치거나(uint8에서 -1이 255로) 잘립니다. "
        f"이미지처럼 정수로 온 데이터라면 data.astype(np.float32)나 data.astype(np.float64)로 바꿔서 "
        f"넣고, 미분하지 않을 상수라면 Variable(data, requires_grad=False)로 만드세요."
    )


def no_length(x: object) -> TypeError:
    return TypeError(
        f"0차원이거나 data가 None인 Variable에는 길이가 없습니다. 받은 변수: {x!r}. "
        f"원소 수는 x.size로, 모양은 x.shape로 보세요."
    )


def no_truth_value(data: np.ndarray | None) -> Exception:
    if data is None:
        return TypeError(
            "data가 None인 Variable은 참/거짓을 정할 수 없습니다. x.data is None으로 확인하세요."
        )
    return ValueError(
        f"원소가 {data.size}개인 Variable(모양 {data.shape})의 참/거짓은 정할 수 없습니다. "
        f"(x.data > 0).any()나 .all()처럼 배열로 물어보세요."
    )


def deepcopy_intermediate(creator: object) -> RuntimeError:
    return RuntimeError(
        f"계산 그래프의 중간 변수(창조자가 {type(creator).__name__}인 변수)는 deepcopy할 수 "
        f"없습니다(PyTorch와 같음). 복사본의 그래프는 원래 그래프와 이어지지 않아 역전파가 "
        f"틀립니다. 값만 필요하면 Variable(y.data.copy())를, 그래프가 필요하면 순전파를 다시 "
        f"계산하세요."
    )


def foreign_variable(obj: object) -> TypeError:
    return TypeError(
        f"다른 모듈({type(obj).__module__})의 Variable을 받았습니다. 최종 엔진(tinygrad_ko)의 함수에는 "
        f"tinygrad_ko.Variable을, 단계별 엔진의 함수에는 그 단계의 Variable을 넘겨 주세요. "
        f"값만 옮기려면 tinygrad_ko.Variable(x.data)로 감싸고, 4단계의 numerical_diff로 최종 "
        f"엔진의 함수를 확인하려던 것이라면 tinygrad_ko.numerical_diff를 쓰세요."
    )


def not_a_value(obj: object) -> TypeError:
    return TypeError(
        f"Variable, numpy.ndarray 또는 수가 필요합니다. 받은 값: {describe(obj)}. "
        f"리스트라면 np.array(...)로 바꿔서 넘겨 주세요."
    )


def hand_wired(func: object) -> RuntimeError:
    """책의 7단계처럼 호출하지 않은 함수를 창조자로 이으려 할 때."""
    name = type(func).__name__
    return RuntimeError(
        f"{name}은(는) 호출되어 이 변수를 출력으로 낸 함수가 아니므로 창조자로 이을 수 없습니다. "
        f"{_CALL_IT.format(name=name)}"
    )


_CALL_IT = (
    "최종 엔진에서는 함수를 호출하면 출력의 창조자가 정해집니다: y = {name}()(x). 책의 7단계처럼 "
    "set_creator로 손수 잇는 코드는 tinygrad_ko.steps.step07에서 실행하세요."
)


# --- 함수를 부를 때 ----------------------------------------------------------------------
def shared_mutable_state(func: object, key: str, value: object) -> TypeError:
    name = type(func).__name__
    return TypeError(
        f"이미 쓰이고 있는 {name} 인스턴스를 다시 불렀습니다. 속성 {key}"
        f"({type(value).__name__})를 두 그래프가 함께 쓰게 되어, 한쪽의 변경이 다른 쪽의 "
        f"역전파를 바꿉니다. 부를 때마다 새 인스턴스를 만들어 주세요: {name}(...)(x)."
    )


def bad_keep(func: object, got: int, expected: int) -> ValueError:
    return ValueError(
        f"{type(func).__name__}.keep이 {got}개를 돌려주었지만 입력은 {expected}개입니다. "
        f"입력마다 True나 False를 하나씩 돌려주세요."
    )


def forward_failed(func: object, inputs: tuple, error: Exception) -> Exception | None:
    """forward의 예외를 알아들을 수 있는 말로: 브로드캐스트할 수 없는 모양, 또는 data가 None인 입력.

    어느 쪽도 아니면(사용자의 forward가 낸 오류) None을 돌려주어 원래 예외가 그대로 올라가게 합니다.
    """
    name = type(func).__name__
    datas = [getattr(x, "data", x) for x in inputs]
    for i, (x, data) in enumerate(zip(inputs, datas, strict=True)):
        if data is None and x is not None:
            return TypeError(
                f"{name}의 {i}번 입력({var_name(x)})의 data가 None이라 계산할 수 없습니다. "
                f"먼저 x.data에 numpy 배열을 넣어 주세요."
            )
    if not isinstance(error, ValueError):
        return None
    shapes = [np.shape(data) for data in datas]
    try:
        np.broadcast_shapes(*shapes)
    except ValueError:
        listed = ", ".join(str(s) for s in shapes)
        return ValueError(
            f"{name}의 순전파를 계산할 수 없습니다. 입력의 모양: {listed}. "
            f"모양이 같거나 브로드캐스트할 수 있는 입력을 넣어 주세요. (NumPy: {error})"
        )
    return None


def bad_forward_result(y: object) -> TypeError:
    return TypeError(
        f"forward는 numpy.ndarray를 돌려주어야 합니다. 받은 값: {describe(y)}. "
        f"np.array(...)로 감싸서 돌려주세요."
    )


def not_pickleable(func: object) -> TypeError:
    return TypeError(
        f"계산 그래프에 든 함수({type(func).__name__})는 pickle하거나 복사할 수 없습니다. "
        f"값을 저장하려면 값만 담기는 Variable이나 그 data를 pickle하세요."
    )


# --- 역전파 ---------------------------------------------------------------------------
def released(func: object) -> RuntimeError:
    name = type(func).__name__
    if getattr(func, "outputs", None) is None:  # 호출된 적이 없는 함수: 창조자를 손으로 이었습니다.
        return RuntimeError(
            f"창조자 {name}은(는) 호출되어 그래프에 든 함수가 아닙니다(창조자를 손으로 이은 것 "
            f"같습니다). {_CALL_IT.format(name=name)}"
        )
    return RuntimeError(
        f"{name}의 그래프는 앞선 역전파에서 이미 해제되었습니다. "
        f"같은 그래프로 두 번 역전파하려면 앞선 backward()나 tinygrad_ko.grad()에 retain_graph=True를 "
        f"주세요. 앞선 역전파의 그래프에 이어진 변수로 새로 계산했다면, retain_graph 대신 그 변수를 "
        f"detach()로 떼어 내세요."
    )


def unchain_released(func: object) -> RuntimeError:
    return RuntimeError(
        f"{type(func).__name__}의 그래프는 앞선 역전파(retain_graph=False)에서 이미 해제되어 "
        f"unchain_backward가 거슬러 갈 수 없습니다. 끊을 그래프를 남기려면 backward(retain_graph=True) "
        f"뒤에 unchain_backward()를 부르거나, 보통의 backward() 뒤에 상태를 h.detach()로 바꾸세요."
    )


def kept_input_changed(func: object, i: int, x: object, in_place: bool) -> RuntimeError:
    how = (
        "제자리에서 고쳐졌습니다(옵티마이저의 step처럼 라이브러리가 값을 바꿨습니다). 뷰(W.T, reshape, "
        "인덱싱, broadcast_to)와 detach()로 만든 변수는 원본과 data를 함께 쓰므로, 원본을 고쳐도 바뀝니다"
        if in_place
        else "다른 배열로 바뀌었습니다"
    )
    return RuntimeError(
        f"역전파에 필요한 {type(func).__name__}의 {i}번 입력({var_name(x)})의 data가 순전파 뒤에 "
        f"{how}. 이대로 계산하면 틀린 미분값이 나옵니다. 값을 "
        f"바꾸기 전에 역전파를 마치거나, 바꾼 값으로 순전파를 다시 계산하세요."
    )


def not_a_root(root: object) -> TypeError:
    return TypeError(f"미분을 시작할 출력은 Variable이어야 합니다. 받은 값: {describe(root)}.")


def empty_root() -> ValueError:
    return ValueError("data가 None인 Variable에서는 역전파를 시작할 수 없습니다.")


def non_float_root(dtype: np.dtype) -> TypeError:
    what = "복소수" if dtype.kind == "c" else "실수가 아닌"
    return TypeError(
        f"{what} 출력(dtype {dtype})에서는 역전파를 시작할 수 없습니다. 이 엔진의 미분은 실수 "
        f"출력에서만 정의합니다(PyTorch도 복소수 출력의 시작값은 만들지 않습니다). 실수 배열로 "
        f"계산하거나, 복소수라면 실수부와 허수부를 따로 실수 변수로 계산하세요."
    )


def no_grad_root(root: object) -> RuntimeError:
    return RuntimeError(
        f"미분이 필요 없는 변수(requires_grad=False)에서는 역전파를 시작할 수 없습니다. 받은 변수: "
        f"{root!r}. requires_grad=False로 만든 변수(detach()의 결과도 그렇습니다)이거나, no_grad "
        f"안에서 계산했거나, 미분이 필요 없는 값만으로 계산한 결과입니다. 미분할 입력을 "
        f"requires_grad=True(기본값)인 Variable로 만들고 no_grad 밖에서 계산하세요."
    )


def non_float_seed(dtype: np.dtype) -> TypeError:
    return TypeError(
        f"시작 미분값(gradient)은 실수 배열이어야 합니다. 받은 dtype: {dtype}. "
        f"np.asarray(gradient, dtype=float)로 바꿔서 넘겨 주세요."
    )


def none_given(what: str) -> TypeError:
    return TypeError(f"{what}에 None을 줄 수 없습니다. Variable이나 그 리스트를 주세요.")


def seed_count(outputs: int, seeds: int) -> ValueError:
    return ValueError(
        f"grad_outputs는 출력마다 하나씩이어야 합니다. 출력 {outputs}개, "
        f"grad_outputs {seeds}개를 받았습니다."
    )


def unused_input(x: object) -> RuntimeError:
    return RuntimeError(
        f"입력 {x!r}이(가) 출력을 계산하는 데 쓰이지 않았습니다. 쓰이지 않은 입력의 자리에 "
        f"None을 받으려면 allow_unused=True를 주세요."
    )


def not_in_outputs(creator: object) -> RuntimeError:
    return RuntimeError(f"{type(creator).__name__}의 출력 목록에 이 변수가 없습니다.")


def not_graph_ready(func: object) -> TypeError:
    name = type(func).__name__
    return TypeError(
        f"{name}.backward는 create_graph=True에 쓸 수 있다고 표시되지 않았습니다. ndarray(.data)로 "
        f"계산한 국소 미분은 다시 미분하면 틀릴 수 있기 때문입니다. backward에서 입력을 self.saved()로 꺼내 "
        f"연산자와 tinygrad_ko의 함수로 계산하고 클래스에 supports_create_graph = True를 두세요."
    )


def grads_as_list(func: object, count: int) -> TypeError:
    return TypeError(
        f"{type(func).__name__}.backward가 미분값을 리스트로 돌려주었습니다(원소 {count}개). 입력이 "
        f"여럿이면 입력마다 하나씩 튜플로 돌려주세요: return gx0, gx1."
    )


def grad_count(func: object, got: int, expected: int) -> ValueError:
    return ValueError(
        f"{type(func).__name__}.backward가 미분값 {got}개를 돌려주었지만 입력은 {expected}개입니다. "
        f"입력마다 하나씩(필요 없으면 None) 돌려주세요."
    )


def grad_not_variable(what: str, gx: object) -> TypeError:
    return TypeError(
        f"create_graph=True인데 {what}이 {type(gx).__name__}입니다. 2계 미분을 하려면 "
        f"backward가 Variable 연산으로 미분값을 만들어야 합니다."
    )


def grad_not_array(what: str, grad: object) -> TypeError:
    return TypeError(
        f"{what}은(는) numpy.ndarray여야 합니다. 받은 값: {type(grad).__name__}. "
        f"np.array(...)로 감싸 주세요."
    )


def grad_shape(what: str, got: tuple, expected: tuple) -> ValueError:
    return ValueError(
        f"{what}의 모양 {got}이(가) 변수의 모양 {expected}과(와) 다릅니다. "
        f"변수와 같은 모양의 배열을 넣어 주세요."
    )


# --- 역전파를 지켜볼 때 ---------------------------------------------------------------------
def not_a_listener(callback: object) -> TypeError:
    return TypeError(
        f"observe_backward에는 역전파의 한 걸음(BackwardStep) 하나를 받는 함수를 주세요. "
        f"받은 값: {describe(callback)}. 예: observe_backward(lambda step: print(step.func))"
    )


# --- 한 판 동안만 받아 주는 옛 이름 ---------------------------------------------------------
def renamed_function_class(old: str, layer: str, new: str, functional: str) -> str:
    return (
        f"{old}은(는) 이름이 바뀌었습니다. 이제 {layer.rsplit('.', 1)[1]}은(는) 층 {layer}만 뜻합니다. "
        f"함수로 부르려면 F.{functional}(...)를, 함수 클래스가 필요하면 tinygrad_ko.functions.{new}을(를) "
        f"쓰세요. 옛 이름은 이번 판(0.1)까지만 함수 클래스 {new}을(를) 돌려줍니다."
    )


def grad_input_not_variable(position: int, value: object) -> TypeError:
    return TypeError(
        f"grad의 inputs에는 Variable만 줄 수 있는데, {position}번째로 받은 것은 {describe(value)}입니다. 미분값을 "
        f"구할 값을 Variable로 만들어 계산에 쓰고, 그 Variable을 inputs로 주세요."
    )
