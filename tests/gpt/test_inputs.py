"""GPT 패키지가 잘못된 입력과 망가진 파일에 한국어로 답하는지(이슈 22의 12, 14, 15와 오류 문장들).

토큰 번호, 온도, 점수(logits), 체크포인트 두 파일의 이름과 짝 저장을 봅니다. 명령줄은 test_cli.py가
따로 프로세스를 띄워 봅니다.
"""

import json
import math
import os

import numpy as np
import pytest

from tinygrad_ko.gpt import checkpoint as checkpoint_module
from tinygrad_ko.gpt.checkpoint import load_checkpoint, save_checkpoint, sidecar_path
from tinygrad_ko.gpt.config import GPTConfig, init_weights
from tinygrad_ko.gpt.data import english_tokenizer, korean_tokenizer
from tinygrad_ko.gpt.sampling import sample_names
from tinygrad_ko.gpt.tensor_model import TensorEngine, TensorGPT
from tinygrad_ko.gpt.training import train
from tinygrad_ko.gpt.value_model import ValueGPT

# 영어 어휘(27개)에 맞춘 작은 설정: 체크포인트는 data의 어휘 크기와 config가 같아야 합니다.
SMALL = GPTConfig(vocab_size=27, n_embd=4, n_head=2, block_size=5, mlp_ratio=2)


def small_model(seed=0):
    return TensorGPT(SMALL, init_weights(SMALL, seed))


# --- 12. 토큰 번호 ---------------------------------------------------------------------
@pytest.mark.parametrize(
    ("ids", "error", "message"),
    [
        ([0, -1, 3, 0], ValueError, "어휘 크기\\(27\\) 밖"),  # -1: 안에서 쓰는 채움 표시
        ([0, -5, 0], ValueError, "어휘 크기\\(27\\) 밖"),  # 뒤에서부터 세는 번호가 되던 것
        ([0, 27, 0], ValueError, "어휘 크기\\(27\\) 밖"),
        ([0, 2.0, 0], TypeError, "정수여야"),  # 잘려서 2로 읽히던 것
        ([0, True, 0], TypeError, "정수여야"),
    ],
)
def test_loss_refuses_bad_token_ids_like_the_value_model(ids, error, message):
    with pytest.raises(error, match=message):
        small_model().loss([ids])
    with pytest.raises((TypeError, ValueError)):
        ValueGPT(SMALL, init_weights(SMALL)).loss(ids)


def test_loss_accepts_numpy_integer_ids():
    ids = np.array([0, 3, 4, 0], dtype=np.int32)
    a = float(small_model().loss([ids]).data)
    b = float(small_model().loss([[0, 3, 4, 0]]).data)
    assert a == b


def test_empty_inputs_are_refused_in_korean():
    model = small_model()
    with pytest.raises(ValueError, match="이름이 하나도 없습니다"):
        model.loss([])
    with pytest.raises(ValueError, match="토큰이 하나도 없습니다"):
        model.logits([])
    with pytest.raises(ValueError, match="어휘 크기"):
        model.logits([0, 999])


@pytest.mark.parametrize("tokenizer", [english_tokenizer(), korean_tokenizer()])
def test_tokenizer_checks_ids_and_names(tokenizer):
    with pytest.raises(TypeError, match="문자열"):
        tokenizer.encode(None)
    with pytest.raises(ValueError, match="어휘 크기"):
        tokenizer.decode([0, -1])  # 예전에는 마지막 기호로 읽었습니다
    with pytest.raises(ValueError, match="어휘 크기"):
        tokenizer.decode([0, tokenizer.vocab_size])
    with pytest.raises(ValueError, match="어휘 크기"):
        tokenizer.allowed([0, 999])  # 예전에는 KeyError: 999
    with pytest.raises(ValueError, match="어휘 크기"):
        tokenizer.label(-1)
    assert tokenizer.decode(tokenizer.encode("ab" if tokenizer.language == "en" else "민준")) in (
        "ab",
        "민준",
    )


# --- 온도와 점수 -------------------------------------------------------------------------
def fixed_logits(values):
    return lambda ids: np.array(values, dtype=float)


def test_numpy_temperature_is_accepted():
    model = small_model(3)
    tokenizer = english_tokenizer()
    plain = sample_names(model.logits, tokenizer, 5, 4, temperature=0.5, seed=1)
    numpy = sample_names(model.logits, tokenizer, 5, 4, temperature=np.float32(0.5), seed=1)
    assert numpy == plain


@pytest.mark.parametrize("temperature", [math.inf, np.float64("inf"), -0.5, 0.0, math.nan])
def test_bad_temperature_is_refused(temperature):
    with pytest.raises(ValueError, match="온도"):
        sample_names(small_model().logits, english_tokenizer(), 5, 1, temperature=temperature)


@pytest.mark.parametrize("bad", [math.nan, math.inf])
def test_nan_or_inf_logits_get_a_korean_error(bad):
    values = np.zeros(27)
    values[3] = bad
    with pytest.raises(ValueError, match="NaN이나 \\+inf"):
        sample_names(fixed_logits(values), english_tokenizer(), 5, 1)


def test_logits_of_the_wrong_vocabulary_are_refused():
    # 한국어 모델(어휘 68)의 점수를 영어 토크나이저(어휘 27)로 뽑으려 한 경우
    with pytest.raises(ValueError, match="\\(27,\\)이어야"):
        sample_names(fixed_logits(np.zeros(68)), english_tokenizer(), 5, 1)


def test_a_subnormal_temperature_picks_the_best_token():
    values = np.linspace(0.0, 1.0, 27)
    values[0] = 0.99  # BOS(끝)가 2등: 가장 높은 'z'를 block_size까지 이어 뽑아야 합니다
    names = sample_names(fixed_logits(values), english_tokenizer(), 5, 3, temperature=5e-324)
    assert names == ["zzzzz"] * 3


# --- 학습률 ----------------------------------------------------------------------------
@pytest.mark.parametrize("lr", [-0.01, math.nan, math.inf])
def test_train_refuses_a_bad_learning_rate(lr):
    engine = TensorEngine(small_model())
    before = engine.model.state_dict()
    with pytest.raises((TypeError, ValueError), match="lr"):
        train(engine, ["ab", "cd"], english_tokenizer(), 2, lr=lr)
    with pytest.raises((TypeError, ValueError), match="lr"):
        engine.step([0, 1, 2, 0], lr)
    for name, array in engine.model.state_dict().items():
        np.testing.assert_array_equal(array, before[name])


# --- 14, 15. 체크포인트 -------------------------------------------------------------------
def save(path, seed=0, **meta):
    meta = {"data": "en", **meta}
    save_checkpoint(path, SMALL, init_weights(SMALL, seed), meta)


def test_sidecar_names_do_not_collide(tmp_path):
    save(tmp_path / "model.step100", seed=1, steps=100)
    save(tmp_path / "model.step200", seed=2, steps=200)
    config, weights, info = load_checkpoint(tmp_path / "model.step100")
    assert info["steps"] == 100
    np.testing.assert_array_equal(weights["wte"], init_weights(SMALL, 1)["wte"])
    assert sidecar_path(tmp_path / "model.step100").name == "model.step100.json"


def test_weights_named_json_are_not_overwritten_by_their_sidecar(tmp_path):
    save(tmp_path / "model.json", steps=1)
    config, weights, info = load_checkpoint(tmp_path / "model.json")
    assert info["steps"] == 1 and (tmp_path / "model.json.json").is_file()


def test_legacy_sidecar_name_is_still_read(tmp_path):
    save(tmp_path / "gpt-en.npz", steps=7)
    sidecar_path(tmp_path / "gpt-en.npz").rename(tmp_path / "gpt-en.json")
    assert load_checkpoint(tmp_path / "gpt-en.npz")[2]["steps"] == 7


def test_a_config_without_final_norm_is_an_older_final_norm_checkpoint(tmp_path):
    """final_norm이 생기기 전에 저장한 체크포인트는 모두 lm_head 앞에서 정규화했습니다."""
    save(tmp_path / "old.npz")
    sidecar = sidecar_path(tmp_path / "old.npz")
    info = json.loads(sidecar.read_text("utf-8"))
    assert info["config"].pop("final_norm") is False
    sidecar.write_text(json.dumps(info), "utf-8")
    assert load_checkpoint(tmp_path / "old.npz")[0].final_norm is True


def test_shipped_runs_load():
    from importlib.resources import files

    runs = files("tinygrad_ko.gpt").joinpath("runs")
    for data in ("ko", "en"):
        config, weights, info = load_checkpoint(runs.joinpath(f"{data}.npz"))
        assert info["data"] == data and len(info["losses"]) == info["steps"]


def snapshot(folder):
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def test_meta_with_a_config_key_is_refused_before_writing(tmp_path):
    with pytest.raises(ValueError, match="'config'"):
        save(tmp_path / "w.npz", config={"vocab_size": 3})
    assert list(tmp_path.iterdir()) == []


def test_unserialisable_meta_keeps_the_previous_checkpoint(tmp_path):
    path = tmp_path / "w.npz"
    save(path, seed=1, steps=1)
    before = snapshot(tmp_path)
    with pytest.raises(TypeError, match="JSON으로 저장할 수 없습니다"):
        save(path, seed=2, steps=2, note=object())
    assert snapshot(tmp_path) == before


def test_numpy_numbers_in_meta_are_saved(tmp_path):
    path = tmp_path / "w.npz"
    save(path, losses=[np.float32(1.5), np.float64(2.0)], steps=np.int64(2))
    info = load_checkpoint(path)[2]
    assert info["losses"] == [1.5, 2.0] and info["steps"] == 2


def test_failed_second_rename_restores_the_previous_pair(tmp_path, monkeypatch):
    path = tmp_path / "w.npz"
    save(path, seed=1, steps=1)
    before = snapshot(tmp_path)
    real_replace = os.replace
    calls = []

    def replace(source, target):
        calls.append(target)
        if str(target).endswith(".json"):
            raise OSError("이름 바꾸기 실패(흉내)")
        real_replace(source, target)

    monkeypatch.setattr(checkpoint_module.os, "replace", replace)
    with pytest.raises(OSError, match="흉내"):
        save(path, seed=2, steps=2)
    monkeypatch.undo()
    assert len(calls) >= 2
    assert snapshot(tmp_path) == before
    assert load_checkpoint(path)[2]["steps"] == 1


def test_failed_first_save_leaves_nothing(tmp_path):
    with pytest.raises(ValueError, match="'data'"):
        save_checkpoint(tmp_path / "w.npz", SMALL, init_weights(SMALL), {"data": "fr"})
    with pytest.raises(ValueError, match="vocab_size"):
        save_checkpoint(tmp_path / "w.npz", SMALL, init_weights(SMALL), {"data": "ko"})
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda info: info.pop("config"), "'config' 항목"),
        (lambda info: info.pop("data"), "'data' 항목"),
        (lambda info: info["config"].update(dropout=0.1), "모르는 키 dropout"),
        (lambda info: info["config"].pop("vocab_size"), "vocab_size가 없습니다"),
        (lambda info: info["config"].update(n_head=3), "나누어떨어지지"),
        (lambda info: info.update(data="ko"), "vocab_size는 27"),
        (lambda info: info["config"].update(n_embd=8), "맞지 않습니다"),
    ],
)
def test_damaged_metadata_names_the_file_and_the_field(tmp_path, change, message):
    path = tmp_path / "w.npz"
    save(path)
    info = json.loads(sidecar_path(path).read_text("utf-8"))
    change(info)
    sidecar_path(path).write_text(json.dumps(info), "utf-8")
    with pytest.raises(ValueError, match=message) as error:
        load_checkpoint(path)
    assert str(sidecar_path(path)) in str(error.value)


def test_corrupt_json_and_folders(tmp_path):
    path = tmp_path / "w.npz"
    save(path)
    sidecar_path(path).write_text('{"config": {', "utf-8")
    with pytest.raises(ValueError, match="망가졌습니다: 1번째 줄"):
        load_checkpoint(path)
    with pytest.raises(IsADirectoryError, match="폴더입니다"):
        load_checkpoint(tmp_path)
    with pytest.raises(IsADirectoryError, match="폴더입니다"):
        load_checkpoint(".")


def test_missing_checkpoint_names_both_files(tmp_path):
    with pytest.raises(FileNotFoundError) as error:
        load_checkpoint(tmp_path / "gpt-ko.npz")
    text = str(error.value)
    assert "gpt-ko.npz과(와) 설정 파일" in text and "gpt-ko.npz.json이(가) 모두 없습니다" in text
    assert " 이 없습니다" not in text


def test_weights_that_are_not_an_npz_name_the_file(tmp_path):
    path = tmp_path / "w.npz"
    save(path)
    path.write_text("가중치가 아닙니다", "utf-8")
    with pytest.raises(ValueError, match="가중치 파일\\(.npz\\)로 읽을 수 없습니다") as error:
        load_checkpoint(path)
    assert str(path) in str(error.value) and "맞지 않습니다" not in str(error.value)
