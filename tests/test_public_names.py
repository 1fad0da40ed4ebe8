"""공개 이름 하나는 한 가지만 뜻합니다: `tinygrad_ko`가 내보내는 이름은 다른 어디서 내보내도 같은 객체입니다.

함수 형태는 `functions`(F.linear, F.conv2d), 층은 `nn`(nn.Linear, nn.Conv2d)에 있습니다. 옛 이름
(`tinygrad_ko.Linear` 등)은 한 판 동안 새 이름을 알리는 FutureWarning과 함께 받아 줍니다.
"""

import importlib
import pkgutil
import warnings

import pytest

import tinygrad_ko
import tinygrad_ko.functions as F
import tinygrad_ko.micrograd.nn as micro_nn
import tinygrad_ko.nn as nn

# 책의 각 단계를 그대로 옮긴 스냅샷은 단계마다 자기 Variable, Linear …를 가집니다(단계의 한계까지 책과 같게).
SNAPSHOTS = "tinygrad_ko.steps"
# 같은 뜻을 다른 세계에서 하는 쌍둥이: 값은 순수 파이썬 Value의 리스트입니다(NumPy 배열·Variable이 아닌).
SCALAR_TWINS = {
    "tinygrad_ko.gpt.value_model.softmax": "Value 리스트의 소프트맥스(47장이 이것으로 주의를 가르칩니다)",
}


def library_modules():
    for info in pkgutil.walk_packages(tinygrad_ko.__path__, "tinygrad_ko."):
        name = info.name
        if name.startswith(SNAPSHOTS) or name.endswith("__main__"):
            continue
        yield importlib.import_module(name)


def test_every_exported_name_is_one_object_wherever_it_is_exported():
    differ = []
    for module in library_modules():
        defined = vars(
            module
        )  # 옛 이름을 받아 주는 __getattr__은 거치지 않습니다(그건 아래에서 따로)
        for name in tinygrad_ko.__all__:
            if name in defined and defined[name] is not getattr(tinygrad_ko, name):
                differ.append(f"{module.__name__}.{name}")
    assert sorted(differ) == sorted(SCALAR_TWINS)  # 쌍둥이 목록이 낡으면 이 줄이 알립니다


def test_the_walk_sees_the_framework_the_gpt_and_the_side_track():
    """위 시험이 헛돌지 않게: 살펴보는 모듈에 층, 함수, GPT, micrograd가 모두 들어 있습니다."""
    names = {module.__name__ for module in library_modules()}
    assert {
        "tinygrad_ko.nn.layers",
        "tinygrad_ko.functions.matrix",
        "tinygrad_ko.gpt.tensor_model",
    } <= names
    assert "tinygrad_ko.micrograd.nn" in names and not any(n.startswith(SNAPSHOTS) for n in names)


@pytest.mark.parametrize("name", ["Linear", "Conv2d"])
def test_layer_names_mean_layers_and_are_not_exported_from_the_top(name):
    assert name not in tinygrad_ko.__all__ and name not in F.__all__
    assert issubclass(getattr(nn, name), nn.Layer)
    assert not issubclass(getattr(F, f"{name}Function"), nn.Layer)
    assert getattr(tinygrad_ko, f"{name}Function") is getattr(F, f"{name}Function")


@pytest.mark.parametrize("module", [tinygrad_ko, F], ids=["tinygrad_ko", "functions"])
@pytest.mark.parametrize(
    "old, new, functional",
    [("Linear", "LinearFunction", "linear"), ("Conv2d", "Conv2dFunction", "conv2d")],
)
def test_old_spelling_warns_in_korean_naming_the_new_ones_for_one_release(
    module, old, new, functional
):
    with pytest.warns(FutureWarning) as caught:
        got = getattr(module, old)
    assert got is getattr(F, new)  # 옛 코드는 이번 판에서는 그대로 돕니다
    text = str(caught[0].message)
    assert f"{module.__name__}.{old}" in text and f"tinygrad_ko.nn.{old}" in text
    assert f"F.{functional}" in text and new in text and "이번 판" in text
    assert caught[0].filename == __file__  # 경고가 옛 이름을 쓴 줄을 가리킵니다


def test_old_spelling_works_with_from_import():
    with pytest.warns(FutureWarning, match="tinygrad_ko.nn.Linear"):
        from tinygrad_ko import Linear
    assert Linear is F.LinearFunction


def test_unknown_names_are_still_plain_attribute_errors():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(AttributeError, match="no attribute 'Linearr'"):
            tinygrad_ko.Linearr  # noqa: B018
        with pytest.raises(AttributeError, match="no attribute 'Conv3d'"):
            F.Conv3d  # noqa: B018


def test_micrograd_sign_accuracy_keeps_its_old_name_for_one_release():
    with pytest.warns(FutureWarning, match="sign_accuracy") as caught:
        old = micro_nn.accuracy
    assert old is micro_nn.sign_accuracy and "tinygrad_ko.accuracy" in str(caught[0].message)
    assert micro_nn.sign_accuracy is not tinygrad_ko.accuracy


@pytest.mark.parametrize("name", ["linear", "conv2d", "dropout"])
def test_functional_forms_live_with_the_functions_and_nn_only_re_exports_them(name):
    assert name in F.__all__ and getattr(tinygrad_ko, name) is getattr(F, name)
    assert getattr(F, name).__module__.startswith("tinygrad_ko.functions.")
