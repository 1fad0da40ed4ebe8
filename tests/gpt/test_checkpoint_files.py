"""GPT 체크포인트가 손대면 안 되는 파일: 장치 파일과 FIFO, 체크포인트가 아닌 .json, 학습이 망가진 뒤의
예전 체크포인트. 그리고 읽을 수 없는 설정 파일과 가중치 파일을 한국어로 거부하는지(이슈 35).

`--out /dev/null`은 진짜 /dev/null 대신 tmp_path 안에 만든 FIFO와 장치 파일로 봅니다.
"""

from __future__ import annotations

import os
import stat
import sys
import threading

import numpy as np
import pytest
from crafted_files import craft, npy

from tinygrad_ko.gpt.checkpoint import load_checkpoint, save_checkpoint, sidecar_path
from tinygrad_ko.gpt.config import GPTConfig, init_weights, weight_count, weight_shapes
from tinygrad_ko.gpt.data import korean_tokenizer

from .test_cli import ENGLISH, edit_meta, files_in, run

KO = GPTConfig(korean_tokenizer().vocab_size)
unix_only = pytest.mark.skipif(
    sys.platform == "win32", reason="FIFO와 장치 파일은 유닉스에만 있습니다"
)


def make_special(path, kind):
    if kind == "fifo":
        os.mkfifo(path)
        return stat.S_ISFIFO
    try:  # /dev/null과 같은 문자 장치(1, 3). root만 만들 수 있습니다.
        os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    except PermissionError:
        pytest.skip("장치 파일을 만들 권한이 없습니다(root가 아님): FIFO 시험이 같은 길을 봅니다")
    return stat.S_ISCHR


@unix_only
@pytest.mark.parametrize("kind", ["fifo", "device"])
def test_save_checkpoint_refuses_a_special_file_and_writes_no_sidecar(tmp_path, kind):
    target = tmp_path / "null"
    is_kind = make_special(target, kind)
    with pytest.raises(OSError, match="보통 파일이 아닙니다"):
        save_checkpoint(target, KO, init_weights(KO, 0), {"data": "ko"})
    assert is_kind(os.lstat(target).st_mode)
    assert files_in(tmp_path) == ["null"]  # null.json도, 임시 파일도 없습니다


@unix_only
@pytest.mark.parametrize("kind", ["fifo", "device"])
def test_train_out_a_special_file_is_refused_before_training(tmp_path, kind):
    is_kind = make_special(tmp_path / "null", kind)
    result = run("train", "--steps", "2", "--out", "null", cwd=tmp_path)
    assert result.returncode == 1 and "보통 파일이 아닙니다" in result.stderr, result.stderr
    assert "steps/s" not in result.stderr and not ENGLISH.search(result.stderr)
    assert is_kind(os.lstat(tmp_path / "null").st_mode)
    assert files_in(tmp_path) == ["null"]


@unix_only
def test_a_special_sidecar_is_refused_too(tmp_path):
    os.mkfifo(sidecar_path(tmp_path / "w.npz"))
    with pytest.raises(OSError, match="보통 파일이 아닙니다"):
        save_checkpoint(tmp_path / "w.npz", KO, init_weights(KO, 0), {"data": "ko"})
    assert stat.S_ISFIFO(os.lstat(tmp_path / "w.npz.json").st_mode)
    assert files_in(tmp_path) == ["w.npz.json"]


def test_sample_refuses_weights_whose_header_claims_2_to_the_40_elements(tmp_path):
    path = tmp_path / "gpt-ko.npz"
    save_checkpoint(path, KO, init_weights(KO, 0), {"data": "ko"})
    craft(path, {"wte": npy((2**40,))})
    assert path.stat().st_size < 400
    result = run("sample", "--weights", path.name, "--n", "1", cwd=tmp_path)
    assert result.returncode == 1 and "가중치 파일(.npz)로 읽을 수 없습니다" in result.stderr
    assert path.name in result.stderr and "MemoryError" not in result.stderr
    assert not ENGLISH.search(result.stderr), result.stderr


# --- 설정 파일이 터무니없는 크기를 말할 때 -------------------------------------------------------
def test_weight_count_is_the_number_of_weight_shapes():
    for n_layer in (1, 2, 5):
        config = GPTConfig(KO.vocab_size, n_layer=n_layer)
        assert weight_count(config) == len(weight_shapes(config))


def _limited_memory(limit):
    """자식 프로세스의 주소 공간을 limit바이트로 묶습니다(고치기 전의 코드가 기계의 메모리를 다 쓰지 않게)."""
    import resource

    def apply():
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    return apply


@unix_only
@pytest.mark.parametrize("n_layer", [3_000_000, 30_000_000])
def test_a_sidecar_claiming_millions_of_layers_is_refused_before_building_them(tmp_path, n_layer):
    path = tmp_path / "gpt-ko.npz"
    save_checkpoint(path, KO, init_weights(KO, 0), {"data": "ko"})
    edit_meta(path, lambda info: info["config"].update(n_layer=n_layer))
    assert sidecar_path(path).stat().st_size < 400
    # 1.5 GB면 NumPy를 가져오고 이 작은 모델로 이름을 뽑기에 넉넉합니다. 고치기 전에는 이름과 모양을 층마다
    # 만들다 이 한도에서 MemoryError로 끝났습니다(이슈 35의 측정: 한도 없이 147초, 5.9 GB).
    result = run(
        "sample",
        "--weights",
        path.name,
        "--n",
        "1",
        cwd=tmp_path,
        preexec_fn=_limited_memory(1_500_000_000),
    )
    assert result.returncode == 1, result.stderr
    assert "맞지 않습니다" in result.stderr and f"n_layer={n_layer:,}" in result.stderr
    assert path.name in result.stderr and not ENGLISH.search(result.stderr), result.stderr


# --- 발산한 학습은 예전 체크포인트를 덮어쓰지 않습니다 ----------------------------------------------
def _pair_bytes(path):
    return path.read_bytes(), sidecar_path(path).read_bytes()


@pytest.mark.parametrize("lr", ["1e300", "1e308"])
def test_a_diverging_training_stops_and_keeps_the_previous_pair(tmp_path, lr):
    path = tmp_path / "gpt-ko.npz"
    save_checkpoint(path, KO, init_weights(KO, 0), {"data": "ko", "steps": 0, "losses": []})
    before = _pair_bytes(path)
    result = run("train", "--steps", "3", "--lr", lr, "--out", path.name, cwd=tmp_path)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "손실" in result.stderr and "--lr" in result.stderr, result.stderr
    assert not ENGLISH.search(result.stderr), result.stderr
    assert "저장했습니다" not in result.stdout
    assert _pair_bytes(path) == before  # 고치기 전: NaN 가중치로 덮어쓰고 종료 코드 0
    assert files_in(tmp_path) == ["gpt-ko.npz", "gpt-ko.npz.json"]


def test_train_stops_at_the_first_non_finite_loss():
    from tinygrad_ko.gpt.training import train

    class Diverging:
        def __init__(self):
            self.calls = 0

        def step(self, ids, lr):
            self.calls += 1
            return [2.5, float("inf"), float("nan")][self.calls - 1]

    engine = Diverging()
    with pytest.raises(FloatingPointError, match="2번째 스텝의 손실이 inf") as info:
        train(engine, ["가"], korean_tokenizer(), 3, lr=0.5)
    assert engine.calls == 2 and "lr" in str(info.value)


# --- 체크포인트가 아닌 파일은 덮어쓰지 않습니다 ------------------------------------------------------
@pytest.mark.parametrize("name", ["package", "config", "data"])
def test_train_out_refuses_to_overwrite_a_json_that_is_not_a_checkpoints(tmp_path, name):
    other = tmp_path / f"{name}.json"
    other.write_text('{"name": "my-app", "version": "1.0.0"}\n', "utf-8")
    result = run("train", "--steps", "2", "--out", name, cwd=tmp_path)
    assert result.returncode == 1, result.stdout + result.stderr
    assert f"{name}.json" in result.stderr and "체크포인트" in result.stderr, result.stderr
    assert "steps/s" not in result.stderr and not ENGLISH.search(result.stderr)
    assert other.read_text("utf-8") == '{"name": "my-app", "version": "1.0.0"}\n'
    assert files_in(tmp_path) == [f"{name}.json"]


def test_train_out_refuses_to_overwrite_a_file_that_is_not_weights(tmp_path):
    notes = tmp_path / "notes.txt"
    notes.write_text("지우면 안 되는 메모\n", "utf-8")
    result = run("train", "--steps", "2", "--out", "notes.txt", cwd=tmp_path)
    assert result.returncode == 1 and "notes.txt" in result.stderr, result.stderr
    assert notes.read_text("utf-8") == "지우면 안 되는 메모\n"
    assert files_in(tmp_path) == ["notes.txt"]


def test_save_checkpoint_refuses_too_and_still_replaces_its_own_pair(tmp_path):
    (tmp_path / "config.json").write_text("[1, 2, 3]", "utf-8")
    with pytest.raises(FileExistsError, match="체크포인트"):
        save_checkpoint(tmp_path / "config", KO, init_weights(KO, 0), {"data": "ko"})
    assert (tmp_path / "config.json").read_text("utf-8") == "[1, 2, 3]"
    path = tmp_path / "gpt-ko.npz"
    save_checkpoint(path, KO, init_weights(KO, 0), {"data": "ko", "steps": 0})
    save_checkpoint(
        path, KO, init_weights(KO, 1), {"data": "ko", "steps": 1}
    )  # 자기 짝은 덮어씁니다
    assert '"steps": 1' in sidecar_path(path).read_text("utf-8")


# --- 읽을 수 없는 설정 파일 ----------------------------------------------------------------------
HOSTILE_SIDECARS = {
    "nested 100,000 deep": "[" * 100_000 + "]" * 100_000,
    "nested dicts": '{"a":' * 100_000 + "1" + "}" * 100_000,
    "100,000-digit number": '{"config": {"vocab_size": 68, "n_layer": '
    + "9" * 100_000
    + '}, "data": "ko"}',
    "100,000-digit meta": '{"config": {"vocab_size": 68}, "data": "ko", "steps": '
    + "1" * 100_000
    + "}",
}


@pytest.mark.parametrize("text", HOSTILE_SIDECARS.values(), ids=HOSTILE_SIDECARS.keys())
def test_a_hostile_sidecar_gets_the_korean_cannot_read_error(tmp_path, text):
    path = tmp_path / "gpt-ko.npz"
    save_checkpoint(path, KO, init_weights(KO, 0), {"data": "ko"})
    sidecar_path(path).write_text(text, "utf-8")
    result = run("sample", "--weights", path.name, "--n", "1", cwd=tmp_path)
    assert result.returncode == 1, result.stdout
    assert result.stderr.startswith("오류: ") and "읽지 못했습니다" in result.stderr, result.stderr
    assert sidecar_path(path).name in result.stderr
    assert "RecursionError" not in result.stderr and not ENGLISH.search(result.stderr)
    assert "digits" not in result.stderr and "limit" not in result.stderr


def test_train_out_over_a_hostile_sidecar_is_refused_not_crashed(tmp_path):
    sidecar_path(tmp_path / "w.npz").write_text("[" * 100_000 + "]" * 100_000, "utf-8")
    result = run("train", "--steps", "2", "--out", "w.npz", cwd=tmp_path)
    assert result.returncode == 1 and "체크포인트의 설정 파일이 아닌데" in result.stderr, (
        result.stderr
    )
    assert not ENGLISH.search(result.stderr)


# --- 같은 경로에 동시에 저장하고 읽기 ---------------------------------------------------------------
def _pause_between_the_two_replaces(monkeypatch, paused, resume):
    """스레드 "A"의 저장이 가중치를 바꿔 넣은 뒤, 설정을 바꿔 넣기 전에 멈추게 합니다(다른 스레드가 끼어들 틈).

    자물쇠가 있으면 끼어든 스레드는 A가 끝나기를 기다리므로 resume은 오지 않고, A는 1초 뒤에 계속합니다.
    """
    from tinygrad_ko.gpt import checkpoint as checkpoint_module

    real_replace = os.replace

    def replace(source, target):
        real_replace(source, target)
        if threading.current_thread().name == "A" and str(target).endswith(".npz"):
            paused.set()
            resume.wait(timeout=1.0)

    monkeypatch.setattr(checkpoint_module.os, "replace", replace)


def _save(path, seed):
    save_checkpoint(path, KO, init_weights(KO, seed), {"data": "ko", "steps": seed})


def _matches_its_own_meta(path):
    _, weights, info = load_checkpoint(path)
    expected = init_weights(KO, info["steps"])
    return all(np.array_equal(weights[name], expected[name]) for name in expected)


@unix_only
def test_two_saves_to_the_same_path_leave_one_whole_pair(tmp_path, monkeypatch):
    path = tmp_path / "w.npz"
    paused, resume = threading.Event(), threading.Event()
    _pause_between_the_two_replaces(monkeypatch, paused, resume)
    first = threading.Thread(target=_save, args=(path, 1), name="A")
    first.start()
    assert paused.wait(timeout=60)
    second = threading.Thread(target=lambda: (_save(path, 2), resume.set()), name="B")
    second.start()
    first.join(timeout=60)
    second.join(timeout=60)
    monkeypatch.undo()
    # 고치기 전: 가중치는 B(시드 2), 설정은 A(steps 1)인 짝이 남았습니다.
    assert _matches_its_own_meta(path)
    assert files_in(tmp_path) == ["w.npz", "w.npz.json"]  # 임시 파일과 예비 파일도 남지 않았습니다


@unix_only
def test_loading_while_a_save_replaces_the_pair_reads_one_whole_pair(tmp_path, monkeypatch):
    path = tmp_path / "w.npz"
    _save(path, 1)
    paused, resume = threading.Event(), threading.Event()
    _pause_between_the_two_replaces(monkeypatch, paused, resume)
    saving = threading.Thread(target=_save, args=(path, 2), name="A")
    saving.start()
    assert paused.wait(timeout=60)
    seen = []
    reading = threading.Thread(
        target=lambda: (seen.append(_matches_its_own_meta(path)), resume.set())
    )
    reading.start()
    saving.join(timeout=60)
    reading.join(timeout=60)
    assert seen == [True]  # 고치기 전: 새 가중치(시드 2)와 예전 설정(steps 1)을 함께 읽었습니다


@unix_only
def test_a_filesystem_without_flock_still_saves_and_loads(tmp_path, monkeypatch):
    # 일부 NFS는 flock에 ENOLCK를 돌려줍니다. 자물쇠는 덤이므로, 걸 수 없으면 걸지 않고 저장합니다.
    import errno
    import fcntl

    def no_locks(fd, operation):
        raise OSError(errno.ENOLCK, "No locks available")

    monkeypatch.setattr(fcntl, "flock", no_locks)
    path = tmp_path / "w.npz"
    _save(path, 3)  # 고치기 전: OSError [Errno 37](영어)
    assert _matches_its_own_meta(path)
