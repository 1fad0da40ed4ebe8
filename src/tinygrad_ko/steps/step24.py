"""23~24단계: 2고지 끝의 엔진으로 복잡한 함수를 미분합니다.

엔진은 22단계 것을 그대로 씁니다(23단계는 코드를 패키지로 옮기는 일이라 엔진이 바뀌지
않습니다). 이 모듈이 "책의 엔진"입니다. 벤치마크가 최종 엔진과 비교할 때 이것을 가져옵니다.
세대 순으로 정렬하는 역전파, 전역 ``Config``, 약한 참조, 연산자 오버로드를 모두 갖추었습니다.

새로 더한 것은 최적화 문제에서 자주 쓰는 시험용 함수 세 개입니다. 모두 연산자만으로 적으므로
식을 그대로 옮기면 역전파까지 저절로 됩니다.

- ``sphere(x, y) = x² + y²``
- ``matyas(x, y) = 0.26(x² + y²) - 0.48xy``
- ``goldstein(x, y)``: Goldstein-Price 함수

한계: 22단계와 같습니다.
"""

from . import step22 as _previous
from .step22 import *  # noqa: F403

__all__ = [*_previous.__all__, "sphere", "matyas", "goldstein"]


# --8<-- [start:sphere]
def sphere(x, y):
    """z = x² + y². 최솟값은 (0, 0)에서 0입니다."""
    return x**2 + y**2


# --8<-- [end:sphere]


# --8<-- [start:matyas]
def matyas(x, y):
    """z = 0.26(x² + y²) - 0.48xy. 최솟값은 (0, 0)에서 0입니다."""
    return 0.26 * (x**2 + y**2) - 0.48 * x * y


# --8<-- [end:matyas]


# --8<-- [start:goldstein]
def goldstein(x, y):
    """Goldstein-Price 함수. 최솟값은 (0, -1)에서 3입니다."""
    a = 1 + (x + y + 1) ** 2 * (19 - 14 * x + 3 * x**2 - 14 * y + 6 * x * y + 3 * y**2)
    b = 30 + (2 * x - 3 * y) ** 2 * (18 - 32 * x + 12 * x**2 + 48 * y - 36 * x * y + 27 * y**2)
    return a * b


# --8<-- [end:goldstein]
