"""53단계: 매개변수의 저장과 불러오기. ``save_weights``, ``load_weights``.

층 안의 층에 든 매개변수를 ``l0/W``처럼 경로를 ``/``로 이은 이름의 딕셔너리로 펴고
(``flatten_params``), NumPy의 ``np.savez_compressed``로 ``.npz`` 파일 하나에 씁니다. 불러올 때는 같은
이름으로 펴서 배열을 하나씩 넣습니다. 책은 이것을 ``Layer``의 메서드로 두지만, 여기서는 45단계의
``Layer``를 다시 쓰지 않으려고 모델을 받는 함수로 둡니다(하는 일은 같습니다).

한계: 저장할 파일에 바로 씁니다. ``np.savez_compressed``가 그 파일을 처음부터 다시 쓰므로 저장 도중에
실패하면 예전 내용은 이미 바뀌어 있고, 반쯤 쓴 그 파일마저 지웁니다. 불러올 때는 모양을 검사하지
않습니다. 없는 파일은 NumPy의 영어 ``FileNotFoundError``, 이름이 모자라면 ``KeyError``가 나고, 모양이 다른 배열은 그대로 들어갑니다. 오류가 나기 전에 넣은 매개변수는 이미 바뀌어 있습니다.
``np.savez_compressed``는 이름 끝에 ``.npz``를 붙입니다.
"""

import os

import numpy as np

from . import step51 as _previous
from .step45 import Layer
from .step51 import *  # noqa: F403

__all__ = [*_previous.__all__, "flatten_params", "save_weights", "load_weights"]


def flatten_params(layer, params_dict, parent_key=""):
    """층의 매개변수를 {'l0/W': Parameter, ...} 딕셔너리에 펴서 담습니다."""
    for name in layer._params:
        obj = layer.__dict__[name]
        key = parent_key + "/" + name if parent_key else name
        if isinstance(obj, Layer):
            flatten_params(obj, params_dict, key)
        else:
            params_dict[key] = obj


# --8<-- [start:save-load]
def save_weights(layer, path):
    params_dict = {}
    flatten_params(layer, params_dict)
    array_dict = {key: param.data for key, param in params_dict.items() if param is not None}
    try:
        np.savez_compressed(path, **array_dict)
    except (Exception, KeyboardInterrupt):
        if os.path.exists(path):
            os.remove(path)
        raise


def load_weights(layer, path):
    npz = np.load(path)
    params_dict = {}
    flatten_params(layer, params_dict)
    for key, param in params_dict.items():
        param.data = npz[key]
        # --8<-- [end:save-load]
