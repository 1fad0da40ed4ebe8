"""1단계: 변수(Variable)를 상자로 만듭니다.

이 단계의 ``Variable``은 데이터 하나를 담아 두는 상자일 뿐입니다.
함수도, 미분도 아직 없습니다. 상자에 무엇을 넣든 검사하지 않습니다(검사는 9단계에서 붙습니다).
"""

__all__ = ["Variable"]


# --8<-- [start:variable]
class Variable:
    """데이터를 담는 상자입니다. 꺼낼 때는 ``data`` 속성을 읽습니다."""

    def __init__(self, data):
        self.data = data


# --8<-- [end:variable]
