"""55단계: 합성곱의 출력 크기. ``get_conv_outsize(input_size, kernel_size, stride, pad)``.

입력 크기 H, 커널 크기 K, 스트라이드 S, 패딩 P일 때 출력 크기는 (H + 2P − K) // S + 1입니다. P는 한쪽에
붙이는 폭이라 2P를 더합니다(DeZero의 ``pad``, PyTorch의 ``padding``). d2l(『Dive into Deep Learning』)은 패딩을
양쪽의 합 p로 세어 ⌊(n − k + p + s) / s⌋로 씁니다. 56단계는 합성곱의 이론뿐이라 코드가 없습니다.

한계: 인수를 검사하지 않습니다. 커널이 패딩한 입력보다 크면 0이나 음수가 그대로 나옵니다.
"""

from . import step54 as _previous
from .step54 import *  # noqa: F403

__all__ = [*_previous.__all__, "get_conv_outsize"]


# --8<-- [start:get-conv-outsize]
def get_conv_outsize(input_size, kernel_size, stride, pad):
    return (input_size + pad * 2 - kernel_size) // stride + 1
    # --8<-- [end:get-conv-outsize]
