"""`python -m tinygrad_ko.gpt`를 사용자처럼 따로 프로세스로 띄워, 실수마다 종료 코드, 한국어 문장, 남은
파일을 봅니다(이슈 24). 학습은 2~3스텝만 하고, 체크포인트는 라이브러리로 바로 만들어 빠르게 돕니다.
"""

import json
import os
import re
import stat
import subprocess
import sys
import threading
from pathlib import Path

import numpy as np
import pytest

import tinygrad_ko
from tinygrad_ko.gpt.checkpoint import save_checkpoint, sidecar_path
from tinygrad_ko.gpt.config import GPTConfig, init_weights
from tinygrad_ko.gpt.data import korean_tokenizer

# 이 시험이 import한 것과 같은 코드를 띄웁니다.
SRC = Path(tinygrad_ko.__file__).resolve().parents[1]
# argparse가 영어로 답할 때 나오는 말들. 한국어로 바꾼 출력에는 하나도 없어야 합니다.
ENGLISH = re.compile(
    r"usage:|error:|invalid|unrecognized|required|choose from|show this help|expected|"
    r"positional arguments|options:|Traceback|Errno|Probabilities"
)


def run(*args, cwd, preexec_fn=None):
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(SRC), os.environ.get("PYTHONPATH", "")]),
    }
    return subprocess.run(
        [sys.executable, "-m", "tinygrad_ko.gpt", *map(str, args)],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=120,
        preexec_fn=preexec_fn,
    )


def files_in(folder):
    return sorted(p.name for p in Path(folder).rglob("*"))


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["train", "--bogus"], "알 수 없는 인수입니다: --bogus"),
        (["trian"], "명령에 'trian'은(는) 고를 수 없습니다"),
        ([], "다음 인수가 필요합니다: 명령"),
        (["train", "--data", "fr"], "--data에 'fr'은(는) 고를 수 없습니다"),
        (["train", "--engine", "gpu"], "--engine에 'gpu'은(는) 고를 수 없습니다"),
        (["train", "--steps", "x"], "--steps: 정수가 아닙니다: 'x'"),
        (["train", "--steps", "0"], "--steps: 1 이상이어야"),
        (["train", "--steps"], "--steps 뒤에 값이 하나 있어야"),
        (["train", "--seed", "-1"], "--seed: 0 이상이어야"),
        (["train", "--lr", "-0.01"], "--lr: 0보다 커야"),
        (["train", "--lr", "nan"], "--lr: 유한한 수여야"),
        (["train", "--lr", "inf"], "--lr: 유한한 수여야"),
        (["train", "--s", "3"], "--s은(는) 여러 옵션의 앞부분"),
        (["sample", "--temperature", "abc"], "--temperature: 수가 아닙니다"),
        (["sample", "--temperature", "-1"], "--temperature: 0보다 커야"),
        (["sample", "--n", "-3"], "--n: 0 이상이어야"),
    ],
)
def test_argument_mistakes_get_korean_usage_and_exit_code_2(tmp_path, args, message):
    result = run(*args, cwd=tmp_path)
    assert result.returncode == 2, result.stderr
    assert message in result.stderr
    assert result.stderr.startswith("사용법: python3 -m tinygrad_ko.gpt")
    assert not ENGLISH.search(result.stderr), result.stderr
    assert files_in(tmp_path) == []  # 학습도 저장도 시작하지 않았습니다


@pytest.mark.parametrize("args", [["-h"], ["train", "-h"], ["sample", "--help"]])
def test_help_is_korean(tmp_path, args):
    result = run(*args, cwd=tmp_path)
    assert result.returncode == 0 and result.stderr == ""
    assert (
        result.stdout.startswith("사용법: ") and "이 도움말을 보여 주고 끝냅니다." in result.stdout
    )
    assert not ENGLISH.search(result.stdout), result.stdout
    if args[0] == "train":
        assert "--engine {tensor,value}" in result.stdout and "텐서판" in result.stdout


@pytest.mark.parametrize(
    ("out", "message"),
    [("없는폴더/x.npz", "저장할 폴더"), (".", "폴더입니다"), ("runs", "폴더입니다")],
)
def test_unwritable_out_is_refused_before_training(tmp_path, out, message):
    (tmp_path / "runs").mkdir()
    result = run("train", "--steps", "2", "--out", out, cwd=tmp_path)
    assert result.returncode == 1 and message in result.stderr
    assert "steps/s" not in result.stderr  # 학습 진행 막대가 나오기 전에 멈췄습니다
    assert not ENGLISH.search(result.stderr) and ".tmp" not in result.stderr
    assert files_in(tmp_path) == ["runs"]


def test_short_training_summary_and_file_modes(tmp_path):
    result = run("train", "--data", "en", "--steps", "3", "--out", "short.npz", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "마지막 3스텝의 평균 손실" in result.stdout and "100스텝" not in result.stdout
    assert "설정과 손실: short.npz.json" in result.stdout
    assert files_in(tmp_path) == ["short.npz", "short.npz.json"]
    modes = {name: stat.S_IMODE((tmp_path / name).stat().st_mode) for name in files_in(tmp_path)}
    umask = os.umask(0)
    os.umask(umask)
    if sys.platform != "win32":
        assert modes == {"short.npz": 0o666 & ~umask, "short.npz.json": 0o666 & ~umask}
    losses = json.loads((tmp_path / "short.npz.json").read_text("utf-8"))["losses"]
    assert f"{sum(losses) / 3:.4f}" in result.stdout
    sampled = run("sample", "--weights", "short.npz", "--n", "2", cwd=tmp_path)
    assert sampled.returncode == 0 and len(sampled.stdout.split()) == 2, sampled.stderr


# --- 망가진 체크포인트 -------------------------------------------------------------------
KO = GPTConfig(korean_tokenizer().vocab_size)


@pytest.fixture
def checkpoint(tmp_path):
    path = tmp_path / "gpt-ko.npz"
    save_checkpoint(path, KO, init_weights(KO, 0), {"data": "ko", "steps": 0, "losses": []})
    return path


def edit_meta(path, change):
    info = json.loads(sidecar_path(path).read_text("utf-8"))
    change(info)
    sidecar_path(path).write_text(json.dumps(info, ensure_ascii=False), "utf-8")


def english_metadata(info):
    # 영어 학습의 설정(어휘 27)을 한국어 가중치(어휘 68) 옆에 둔 경우
    info.update(data="en")
    info["config"]["vocab_size"] = 27


def nan_weights(path):
    weights = init_weights(KO, 0)
    weights["lm_head"][:] = np.nan  # 너무 큰 학습률로 망가진 가중치
    save_checkpoint(path, KO, weights, {"data": "ko"})


CASES = {
    "missing": (lambda p: (p.unlink(), sidecar_path(p).unlink()), "모두 없습니다"),
    "only weights": (lambda p: sidecar_path(p).unlink(), "설정 파일"),
    "no config": (lambda p: edit_meta(p, lambda i: i.pop("config")), "'config' 항목"),
    "no data": (lambda p: edit_meta(p, lambda i: i.pop("data")), "'data' 항목"),
    "extra key": (lambda p: edit_meta(p, lambda i: i["config"].update(x=1)), "모르는 키 x"),
    "corrupt": (lambda p: sidecar_path(p).write_text("{", "utf-8"), "망가졌습니다"),
    "english meta": (lambda p: edit_meta(p, english_metadata), "맞지 않습니다"),
    "vocab": (lambda p: edit_meta(p, lambda i: i.update(data="en")), "vocab_size는 68"),
    "nan": (nan_weights, "NaN이나 +inf"),
}


@pytest.mark.parametrize("case", CASES)
def test_damaged_checkpoint_is_explained(checkpoint, case):
    damage, message = CASES[case]
    damage(checkpoint)
    before = files_in(checkpoint.parent)
    result = run("sample", "--weights", checkpoint.name, "--n", "2", cwd=checkpoint.parent)
    assert result.returncode == 1, result.stdout
    assert result.stderr.startswith("오류: ") and message in result.stderr, result.stderr
    assert not ENGLISH.search(result.stderr), result.stderr
    if case != "nan":
        assert checkpoint.name in result.stderr  # 어느 파일인지 말합니다
    assert files_in(checkpoint.parent) == before and result.stdout == ""


@pytest.mark.parametrize("weights", [".", "sub"])
def test_weights_that_are_a_folder(tmp_path, weights):
    (tmp_path / "sub").mkdir()
    result = run("sample", "--weights", weights, cwd=tmp_path)
    assert result.returncode == 1 and "폴더입니다" in result.stderr
    assert not ENGLISH.search(result.stderr), result.stderr


def test_legacy_checkpoint_and_a_tiny_temperature(checkpoint):
    sidecar_path(checkpoint).rename(checkpoint.with_suffix(".json"))  # 예전 이름 gpt-ko.json
    result = run("sample", "--n", "3", "--temperature", "1e-310", cwd=checkpoint.parent)
    assert result.returncode == 0, result.stderr
    names = result.stdout.split()
    assert len(names) == 3 and len(set(names)) == 1  # 온도가 0에 가까우면 늘 같은 이름


@pytest.mark.parametrize("unreadable", ["weights", "sidecar"])
def test_an_unreadable_checkpoint_is_explained_in_korean(
    checkpoint, unreadable, monkeypatch, capsys
):
    """읽을 권한이 없는 파일(root는 chmod 000도 읽으므로 open을 바꿔 흉내 냅니다). 예전에는
    "오류: [Errno 13] Permission denied: '…'"라는 영어 문장이었습니다."""
    from tinygrad_ko.gpt import cli

    target = checkpoint if unreadable == "weights" else sidecar_path(checkpoint)
    real_open = open

    def refusing_open(file, *args, **kwargs):
        if Path(file).resolve() == target.resolve():
            raise PermissionError(13, "Permission denied", str(file))
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr("builtins.open", refusing_open)
    monkeypatch.setattr("io.open", refusing_open)
    with pytest.raises(SystemExit) as caught:
        cli.main(["sample", "--weights", str(checkpoint), "--n", "1"])
    message = str(caught.value.code)
    assert message.startswith("오류: ") and "권한이 없습니다" in message, message
    assert target.name in message and not ENGLISH.search(message), message
    assert capsys.readouterr().out == ""


def test_a_huge_n_streams_names_instead_of_collecting_them_first(checkpoint):
    """--n 10¹¹: 이름이 하나씩 바로 나와야 합니다. 모두 모은 뒤 쓰면 첫 줄이 나오기 전에 메모리가 찹니다."""
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(SRC), os.environ.get("PYTHONPATH", "")]),
    }
    command = [sys.executable, "-m", "tinygrad_ko.gpt", "sample", "--n", "100000000000"]
    lines: list[str] = []
    with subprocess.Popen(
        command, cwd=checkpoint.parent, env=env, stdout=subprocess.PIPE, text=True, encoding="utf-8"
    ) as process:
        reader = threading.Thread(
            target=lambda: lines.extend(process.stdout.readline() for _ in range(3))
        )
        reader.start()
        reader.join(
            timeout=120
        )  # 시간을 재는 것이 아니라, 고장 났을 때 멈춰 있지 않게 하는 한도입니다.
        process.kill()
    assert len(lines) == 3 and all(line.strip() for line in lines), lines
