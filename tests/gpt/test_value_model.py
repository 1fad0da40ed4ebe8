"""Value판 GPT: 기울기를 수치 미분과 비교하고, 짧은 학습에서 손실이 줄고, 뽑은 이름이 한글 음절인지."""

import math

import numpy as np
import pytest

from tinygrad_ko.gpt.config import GPTConfig, init_weights, parameter_count
from tinygrad_ko.gpt.data import korean_tokenizer, load_names
from tinygrad_ko.gpt.hangul import is_hangul_name
from tinygrad_ko.gpt.sampling import sample_names
from tinygrad_ko.gpt.training import ValueEngine, linear_lr, train
from tinygrad_ko.gpt.value_model import ValueAdam, ValueGPT, cross_entropy, softmax
from tinygrad_ko.micrograd.value import Value

TINY = GPTConfig(vocab_size=6, n_embd=4, n_head=2, block_size=5, mlp_ratio=2)
TINY_IDS = [0, 3, 1, 4, 4, 2, 0]  # 문맥(5)보다 길어 잘리는 경우까지


def value_loss(config, weights, ids):
    return ValueGPT(config, weights).loss(ids).data


@pytest.mark.parametrize(("residual", "final_norm"), [(True, False), (False, False), (True, True)])
def test_whole_model_gradient_matches_numerical_differentiation(residual, final_norm):
    config = GPTConfig(**{**TINY.__dict__, "residual": residual, "final_norm": final_norm})
    weights = init_weights(config, seed=1)
    model = ValueGPT(config, weights)
    model.loss(TINY_IDS).backward()
    grads = model.grads()
    h = 1e-6
    for name, array in weights.items():
        numerical = np.zeros_like(array)
        for index in np.ndindex(array.shape):
            saved = array[index]
            array[index] = saved + h
            up = value_loss(config, weights, TINY_IDS)
            array[index] = saved - h
            down = value_loss(config, weights, TINY_IDS)
            array[index] = saved
            numerical[index] = (up - down) / (2 * h)
        np.testing.assert_allclose(grads[name], numerical, rtol=1e-5, atol=1e-8, err_msg=name)


def test_parameter_count_matches_microgpt():
    assert parameter_count(GPTConfig(vocab_size=27)) == 4192  # 영어: 약 4,200개
    assert parameter_count(GPTConfig(vocab_size=68)) == 5504  # 한국어 자모 67개 + BOS
    model = ValueGPT(TINY, init_weights(TINY))
    assert len(model.parameters()) == parameter_count(TINY)


def test_norm_placement_follows_microgpt_unless_final_norm():
    """microGPT: 임베딩 바로 뒤에서 RMSNorm, lm_head 앞에는 없음. final_norm=True는 GPT-2의 자리."""

    def first_logits(config, scale):
        weights = init_weights(config, seed=3)
        weights["wte"][2] *= scale  # 위치 0에서 읽는 토큰 2의 임베딩 x = wte[2] + wpe[0]을 scale배
        weights["wpe"][0] *= scale
        return np.array([z.data for z in ValueGPT(config, weights).forward_token(2, 0, [([], [])])])

    micro = GPTConfig(vocab_size=6, n_embd=4, n_head=2, block_size=5, mlp_ratio=2)
    gpt2 = GPTConfig(**{**micro.__dict__, "final_norm": True})
    # 임베딩 바로 뒤의 정규화가 x의 크기를 지우므로 점수가 같습니다(ε만큼의 차이만).
    np.testing.assert_allclose(first_logits(micro, 100.0), first_logits(micro, 1.0), rtol=1e-3)
    # GPT-2의 자리에서는 큰 x가 잔차 연결을 타고 블록의 출력을 덮어 점수가 달라집니다.
    assert np.max(np.abs(first_logits(gpt2, 100.0) - first_logits(gpt2, 1.0))) > 1e-2


@pytest.mark.parametrize("field", ["residual", "final_norm"])
def test_switches_must_be_booleans(field):
    with pytest.raises(ValueError, match=f"{field}은\\(는\\) True나 False"):
        GPTConfig(vocab_size=6, **{field: 1})


def test_first_loss_is_near_uniform_guess():
    """처음 가중치가 작으므로 처음 손실은 모든 토큰을 같은 확률로 찍는 log(어휘 크기) 근처입니다."""
    names, tokenizer = load_names("ko")
    config = GPTConfig(tokenizer.vocab_size)
    loss = ValueGPT(config, init_weights(config, 0)).loss(tokenizer.encode(names[0])).data
    assert abs(loss - math.log(tokenizer.vocab_size)) < 0.3


def test_softmax_subtracts_the_max():
    probs = softmax([Value(1000.0), Value(999.0), Value(-1000.0)])
    assert math.isclose(sum(p.data for p in probs), 1.0)
    assert math.isclose(probs[0].data / probs[1].data, math.e)
    loss = cross_entropy([Value(1000.0), Value(-1000.0)], 1)
    assert math.isclose(loss.data, 2000.0)


def test_attention_weights_are_recorded_and_sum_to_one():
    model = ValueGPT(TINY, init_weights(TINY))
    model.loss(TINY_IDS)
    # 위치마다 헤드 2개: 위치 p의 가중치는 p+1개(자기 자신과 앞의 토큰들)입니다.
    assert [len(w) for w in model.attention] == [1, 1, 2, 2, 3, 3, 4, 4, 5, 5]
    assert all(math.isclose(sum(w), 1.0) for w in model.attention)


def test_adam_matches_the_formula():
    p = Value(1.0)
    adam = ValueAdam([p], lr=0.1, betas=(0.85, 0.99), eps=1e-8)
    data, m, v = 1.0, 0.0, 0.0
    for t, g in enumerate([0.5, -0.25, 2.0], start=1):
        p.grad = g
        adam.step()
        m, v = 0.85 * m + 0.15 * g, 0.99 * v + 0.01 * g * g
        data -= 0.1 * (m / (1 - 0.85**t)) / (math.sqrt(v / (1 - 0.99**t)) + 1e-8)
        assert math.isclose(p.data, data, rel_tol=1e-12)


def test_linear_learning_rate():
    assert [linear_lr(0.01, s, 4) for s in range(4)] == [0.01, 0.0075, 0.005, 0.0025]


def test_short_seeded_run_lowers_the_loss():
    names, tokenizer = load_names("ko")
    config = GPTConfig(tokenizer.vocab_size, n_embd=8, n_head=2)
    model = ValueGPT(config, init_weights(config, 0))
    losses = train(ValueEngine(model), names[:8], tokenizer, 48, lr=0.02, seed=0)
    first, last = np.mean(losses[:8]), np.mean(losses[-8:])
    assert last < first - 0.8, (first, last)


def test_sampled_names_are_hangul_syllables():
    tokenizer = korean_tokenizer()
    config = GPTConfig(tokenizer.vocab_size, n_embd=4, n_head=2, block_size=6, mlp_ratio=1)
    model = ValueGPT(config, init_weights(config, 3))
    # 학습하지 않은 모델과 높은 온도: 문법이 없으면 음절이 되지 않는 자모가 쉽게 나옵니다.
    names = sample_names(model.logits, tokenizer, config.block_size, 20, temperature=2.0, seed=0)
    assert all(is_hangul_name(n) for n in names), names
    raw = sample_names(
        model.logits, tokenizer, config.block_size, 20, temperature=2.0, seed=0, grammar=False
    )
    assert not all(is_hangul_name(n) for n in raw)  # 그래서 이 검사가 헛돌지 않음을 봅니다


def test_bad_inputs():
    with pytest.raises(ValueError, match="나누어떨어지지"):
        GPTConfig(vocab_size=5, n_embd=6, n_head=4)
    with pytest.raises(ValueError, match="어휘 크기"):
        ValueGPT(TINY, init_weights(TINY)).loss([0, 9, 0])
    with pytest.raises(ValueError, match="둘 이상"):
        ValueGPT(TINY, init_weights(TINY)).loss([0])
    weights = init_weights(TINY)
    weights["wte"] = weights["wte"][:, :3]
    with pytest.raises(ValueError, match="wte의 모양"):
        ValueGPT(TINY, weights)
    with pytest.raises(ValueError, match="온도"):
        sample_names(lambda ids: np.zeros(6), korean_tokenizer(), 4, temperature=0)


def test_reader_reuses_the_cache_and_gives_the_same_scores_as_logits():
    config = GPTConfig(6, n_embd=4, n_head=2, block_size=4, mlp_ratio=1)
    model = ValueGPT(config, init_weights(config, 5))
    read = model.reader()
    positions = []  # reader가 읽은 토큰의 위치
    original = model.forward_token

    def counting(token, pos, cache):
        positions.append(pos)
        return original(token, pos, cache)

    # 이름 하나를 이어 읽고, 새 이름([BOS])으로 돌아가고, 문맥(4)보다 긴 ids를 받습니다.
    sequence = ([0], [0, 3], [0, 3, 2], [0, 3, 2, 5], [0], [0, 1], [0, 3, 2, 5, 4])
    for ids in sequence:
        model.forward_token = counting
        scores = read(ids)
        model.forward_token = original
        np.testing.assert_allclose(scores, model.logits(ids), rtol=0, atol=1e-12)
    # 이어 읽을 때는 새 토큰 하나만, 새 이름과 문맥보다 긴 ids는 처음부터 읽습니다.
    assert positions == [0, 1, 2, 3, 0, 1, 0, 1, 2, 3]
