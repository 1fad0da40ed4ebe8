"""오류 메시지에 받은 값을 적는 함수 하나. 엔진(`autograd.messages`), 인수 검사(`_checks`)와 micrograd가 함께 씁니다.

아무것도 가져오지 않으므로(NumPy도) NumPy 없이 도는 `tinygrad_ko.micrograd`도 이것을 씁니다.
"""

__all__ = ["describe", "short_repr"]

LIMIT = 60  # 메시지에 넣는 repr의 최대 길이


def short_repr(value: object) -> str:
    """`repr(value)`를 60자 이하로: 넘치면 57자까지 남기고 `...`를 붙입니다."""
    try:
        text = repr(value)
    except ValueError:  # 4300자리가 넘는 정수는 repr도 거절합니다(sys.set_int_max_str_digits)
        text = (
            f"<{value.bit_length()}비트 정수>"
            if isinstance(value, int)
            else f"<{type(value).__name__}>"
        )
    return text if len(text) <= LIMIT else text[: LIMIT - 3] + "..."


def describe(value: object) -> str:
    """오류 메시지에 넣을 값의 짧은 표현: 타입 이름과 60자 이하의 repr."""
    return f"{type(value).__name__} {short_repr(value)}"
