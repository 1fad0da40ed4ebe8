"""테스트가 엔진의 오류 메시지를 읽는 도우미: 한국어로, 무엇을 하라는 말로 끝나는지."""


def korean_instruction(error: BaseException) -> str:
    """메시지가 한국어로, 무엇을 하라는 말(-세요)로 끝나는지 확인하고 메시지를 돌려줍니다."""
    message = str(error)
    assert any("가" <= ch <= "힣" for ch in message), message
    assert "세요" in message, message
    return message
