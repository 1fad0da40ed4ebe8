"""텐서판 GPT: Value판과 같은 손실과 기울기(1e-9), 수치 미분, 배치, 짧은 학습, 저장과 불러오기, 명령줄."""

import json

import numpy as np
import pytest

from tinygrad_ko.gpt.checkpoint import sidecar_path
from tinygrad_ko.gpt.cli import main
from tinygrad_ko.gpt.config import GPTConfig, init_weights
from tinygrad_ko.gpt.data import load_names
from tinygrad_ko.gpt.hangul import is_hangul_name
from tinygrad_ko.gpt.sampling import sample_names
from tinygrad_ko.gpt.tensor_model import TensorEngine, TensorGPT
from tinygrad_ko.gpt.training import ValueEngine, train
from tinygrad_ko.gpt.value_model import ValueGPT

TINY = GPTConfig(vocab_size=6, n_embd=4, n_head=2, block_size=5, mlp_ratio=2)


@pytest.mark.parametrize(("data", "name"), [("ko", "민준"), ("ko", "똠"), ("en", "christopher")])
@pytest.mark.parametrize(("residual", "final_norm"), [(True, False), (False, False), (True, True)])
def test_same_loss_and_gradients_as_the_value_model(data, name, residual, final_norm):
    _, tokenizer = load_names(data)
    config = GPTConfig(tokenizer.vocab_size, residual=residual, final_norm=final_norm)
    weights = init_weights(config, seed=7)
    ids = tokenizer.encode(name)
    value_model, tensor_model = ValueGPT(config, weights), TensorGPT(config, weights)
    value_loss, tensor_loss = value_model.loss(ids), tensor_model.loss([ids])
    value_loss.backward()
    tensor_loss.backward()
    assert abs(value_loss.data - float(tensor_loss.data)) < 1e-9
    value_grads, tensor_grads = value_model.grads(), tensor_model.grads()
    assert list(value_grads) == list(tensor_grads)
    for key in value_grads:
        np.testing.assert_allclose(
            tensor_grads[key], value_grads[key], rtol=0, atol=1e-9, err_msg=key
        )


def test_same_attention_weights_as_the_value_model():
    _, tokenizer = load_names("ko")
    config = GPTConfig(tokenizer.vocab_size)
    weights = init_weights(config, 0)
    ids = tokenizer.encode("서연")
    value_model, tensor_model = ValueGPT(config, weights), TensorGPT(config, weights)
    value_model.loss(ids)
    tensor_model.loss([ids])
    (weights_t,) = tensor_model.attention  # 블록 하나: (1, H, T, T)
    for p in range(len(ids) - 1):
        for head in range(config.n_head):
            row = weights_t[0, head, p]
            np.testing.assert_allclose(
                row[: p + 1], value_model.attention[p * config.n_head + head]
            )
            assert np.all(row[p + 1 :] == 0.0)  # 인과 마스크: 뒤의 위치는 정확히 0


def test_training_steps_match_the_value_model():
    """같은 가중치에서 Adam 세 스텝을 밟아도 두 판의 가중치가 1e-9 안에서 같습니다."""
    names, tokenizer = load_names("ko")
    config = GPTConfig(tokenizer.vocab_size)
    weights = init_weights(config, 1)
    value_model, tensor_model = ValueGPT(config, weights), TensorGPT(config, weights)
    value_losses = train(ValueEngine(value_model), names[:3], tokenizer, 3, seed=2)
    tensor_losses = train(TensorEngine(tensor_model), names[:3], tokenizer, 3, seed=2)
    np.testing.assert_allclose(tensor_losses, value_losses, rtol=0, atol=1e-9)
    for key, array in value_model.state_dict().items():
        np.testing.assert_allclose(tensor_model.state_dict()[key], array, rtol=0, atol=1e-9)


def test_whole_model_gradient_matches_numerical_differentiation():
    weights = init_weights(TINY, seed=4)
    batch = [[0, 3, 1, 4, 4, 2, 0], [0, 5, 0]]  # 길이가 달라 채우는 자리가 생기는 배치
    model = TensorGPT(TINY, weights)
    model.loss(batch).backward()
    grads = model.grads()
    h = 1e-6
    for name, array in weights.items():
        for index in np.ndindex(array.shape):
            saved = array[index]
            array[index] = saved + h
            up = float(TensorGPT(TINY, weights).loss(batch).data)
            array[index] = saved - h
            down = float(TensorGPT(TINY, weights).loss(batch).data)
            array[index] = saved
            numerical = (up - down) / (2 * h)
            assert abs(grads[name][index] - numerical) <= 1e-5 * abs(numerical) + 1e-8, name


def test_batch_loss_is_the_mean_over_all_predicted_tokens():
    weights = init_weights(TINY, 0)
    a, b = [0, 3, 1, 0], [0, 5, 2, 4, 1, 0]
    model = TensorGPT(TINY, weights)
    together = float(model.loss([a, b]).data)
    alone = [float(model.loss([ids]).data) for ids in (a, b)]
    assert together == pytest.approx((3 * alone[0] + 5 * alone[1]) / 8, abs=1e-12)


def test_short_seeded_run_lowers_the_loss():
    names, tokenizer = load_names("ko")
    config = GPTConfig(tokenizer.vocab_size)
    model = TensorGPT(config, init_weights(config, 0))
    losses = train(TensorEngine(model), names, tokenizer, 300, seed=0)
    first, last = np.mean(losses[:30]), np.mean(losses[-30:])
    assert last < first - 1.0 and last < 2.2, (first, last)
    samples = sample_names(model.logits, tokenizer, config.block_size, 50, temperature=0.5, seed=1)
    assert all(is_hangul_name(n) for n in samples), samples


def test_save_and_load_round_trip(tmp_path):
    config = GPTConfig(vocab_size=27)
    model = TensorGPT(config, init_weights(config, 5))
    path = tmp_path / "w.npz"
    model.save_weights(path)
    other = TensorGPT(config, init_weights(config, 6))
    other.load_weights(path)
    for key, array in model.state_dict().items():
        np.testing.assert_array_equal(other.state_dict()[key], array)
    smaller = TensorGPT(TINY, init_weights(TINY))
    before = smaller.state_dict()
    with pytest.raises(ValueError):
        smaller.load_weights(path)  # 다른 구조의 파일: 거부하고 가중치는 그대로
    for key, array in before.items():
        np.testing.assert_array_equal(smaller.state_dict()[key], array)


def test_command_line_train_and_sample(tmp_path, capsys):
    out = tmp_path / "gpt-ko.npz"
    main(["train", "--data", "ko", "--steps", "40", "--out", str(out)])
    printed = capsys.readouterr()
    assert "저장했습니다" in printed.out and "steps/s" in printed.err
    meta = json.loads(sidecar_path(out).read_text("utf-8"))
    assert meta["data"] == "ko" and len(meta["losses"]) == 40 and meta["config"]["n_embd"] == 16
    main(["sample", "--weights", str(out), "--n", "5", "--temperature", "0.5"])
    names = capsys.readouterr().out.split()
    assert len(names) == 5 and all(is_hangul_name(n) for n in names)


def test_command_line_reports_a_missing_file(tmp_path):
    with pytest.raises(SystemExit, match="gpt-xx.npz과\\(와\\) 설정 파일 .*gpt-xx.npz.json"):
        main(["sample", "--weights", str(tmp_path / "gpt-xx.npz")])
