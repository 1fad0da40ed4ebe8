"""여러 모듈이 함께 쓰는 인수 검사: 개수(정수), 실수, 0과 1 사이의 비율, True/False.

층의 크기, 학습률, 드롭아웃 비율, 설정 플래그처럼 뜻은 달라도 검사는 같은 인수를 한곳에서 봅니다.
모양, 축, 토큰 번호처럼 그 모듈만 아는 검사는 그 모듈에 둡니다.

- 타입이 틀리면 `TypeError`, 타입은 맞는데 값이 범위 밖이면 `ValueError`입니다.
- 메시지는 한 모양입니다: "`이름`에는 `바라는 것`을 넣어 주세요. 받은 값: `타입 repr`." 뒤에 부르는
  쪽의 `hint`(공백으로 시작하는 문장)가 붙습니다.
- bool은 정수로도 실수로도 받지 않습니다(`True`가 1로 조용히 쓰이지 않게). NumPy의 정수와 실수
  스칼라(`np.int64`, `np.float32`)는 `numbers`에 등록되어 있어 NumPy를 가져오지 않고도 받습니다.

`_describe`처럼 표준 라이브러리 밖의 것은 가져오지 않으므로(NumPy도) NumPy 없이 도는
`tinygrad_ko.micrograd`도 이것을 씁니다.
"""

import math
import numbers

from ._describe import describe

__all__ = [
    "check_count",
    "check_flag",
    "check_fraction",
    "check_positive",
    "check_real",
    "is_integer",
    "is_real",
    "not_bool",
]


def is_integer(value: object) -> bool:
    """파이썬이나 NumPy의 정수인지(bool은 아님)."""
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def is_real(value: object) -> bool:
    """파이썬이나 NumPy의 실수(정수 포함)인지(bool은 아님). NaN과 inf도 실수입니다."""
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


def _message(name: str, wanted: str, value: object, hint: str) -> str:
    return f"{name}에는 {wanted}를 넣어 주세요. 받은 값: {describe(value)}.{hint}"


def _type_tip(value: object, convert: str) -> str:
    """수 자리에 온 bool과 문자열에 붙이는 한 문장."""
    if isinstance(value, bool):
        return " True와 False는 수로 받지 않습니다."
    if isinstance(value, str):
        example = repr(value) if len(value) <= 20 else "문자열"
        return f" 문자열이라면 {convert}({example})처럼 먼저 수로 바꾸세요."
    return ""


def not_bool(name: str, value: object, hint: str = "") -> TypeError:
    """True나 False가 와야 할 자리에 다른 값이 왔을 때의 오류(엔진의 `messages.not_bool`도 이것)."""
    return TypeError(_message(name, "True나 False", value, hint))


def check_flag(
    name: str, value: object, *, also: type | tuple[type, ...] = (), hint: str = ""
) -> bool:
    """True나 False만 받습니다. `"False"`나 0은 참/거짓으로 읽히므로 조용히 받지 않습니다.

    `also`에 준 타입(예: `np.bool_`)도 받아 파이썬 bool로 바꿔 돌려줍니다.
    """
    if isinstance(value, bool) or isinstance(value, also):
        return bool(value)
    raise not_bool(name, value, hint)


def check_count(name: str, value: object, *, minimum: int = 1, hint: str = "") -> int:
    """`minimum` 이상의 정수(크기, 개수, 스텝 수). 파이썬 int로 돌려줍니다."""
    wanted = f"{minimum} 이상의 정수"
    if not is_integer(value):
        raise TypeError(_message(name, wanted, value, _type_tip(value, "int") + hint))
    if value < minimum:
        raise ValueError(_message(name, wanted, value, hint))
    return int(value)


def _as_float(value: numbers.Real) -> float:
    try:
        return float(value)
    except OverflowError:  # float로 담기지 않는 큰 정수(10**400)
        return math.inf if value > 0 else -math.inf


def check_real(name: str, value: object, *, hint: str = "") -> float:
    """실수이기만 하면 받습니다(음수, NaN, inf도). 범위는 부르는 쪽이 봅니다. float로 돌려줍니다."""
    if not is_real(value):
        raise TypeError(_message(name, "실수", value, _type_tip(value, "float") + hint))
    return _as_float(value)


def check_positive(
    name: str, value: object, *, zero_ok: bool = False, finite: bool = True, hint: str = ""
) -> float:
    """0보다 큰(`zero_ok=True`면 0 이상의) 실수. `finite=True`면 inf도 받지 않습니다. NaN은 늘 거부합니다."""
    wanted = ("0 이상의" if zero_ok else "0보다 큰") + (" 유한한" if finite else "") + " 실수"
    if not is_real(value):
        raise TypeError(_message(name, wanted, value, _type_tip(value, "float") + hint))
    number = _as_float(value)
    if not (number >= 0 if zero_ok else number > 0) or (finite and number == math.inf):
        raise ValueError(_message(name, wanted, value, hint))
    return number


def check_fraction(name: str, value: object, *, include_one: bool = False, hint: str = "") -> float:
    """0 이상 1 미만(`include_one=True`면 1 이하)의 실수: 확률, 비율, 감쇠율. float로 돌려줍니다."""
    wanted = "0 이상 1 이하의 실수" if include_one else "0 이상이고 1보다 작은 실수"
    if not is_real(value):
        raise TypeError(_message(name, wanted, value, _type_tip(value, "float") + hint))
    number = _as_float(value)
    if not (0 <= number <= 1 if include_one else 0 <= number < 1):
        raise ValueError(_message(name, wanted, value, hint))
    return number
