"""DataLoader: 배치 크기, 시드로 섞기, 마지막 배치, 가장자리 경우."""

import numpy as np
import pytest
from oracle import import_torch

from tinygrad_ko.data.datasets import ArrayDataset, Dataset
from tinygrad_ko.data.loaders import DataLoader


def numbers(n, **options):
    return ArrayDataset(np.arange(n) * 10.0, np.arange(n), **options)


def collect(loader):
    return [(x.tolist(), None if t is None else t.tolist()) for x, t in loader]


def test_batches_in_order_without_shuffle_and_last_partial_batch():
    loader = DataLoader(numbers(7), batch_size=3, shuffle=False)
    assert len(loader) == 3
    assert collect(loader) == [
        ([0.0, 10.0, 20.0], [0, 1, 2]),
        ([30.0, 40.0, 50.0], [3, 4, 5]),
        ([60.0], [6]),
    ]


def test_drop_last():
    loader = DataLoader(numbers(7), batch_size=3, shuffle=False, drop_last=True)
    assert len(loader) == 2
    assert [t for _, t in collect(loader)] == [[0, 1, 2], [3, 4, 5]]


def test_batch_larger_than_dataset():
    assert collect(DataLoader(numbers(2), batch_size=5, shuffle=False)) == [([0.0, 10.0], [0, 1])]
    assert len(DataLoader(numbers(2), batch_size=5, drop_last=True)) == 0
    assert collect(DataLoader(numbers(2), batch_size=5, drop_last=True)) == []


def test_empty_dataset_gives_no_batch():
    loader = DataLoader(ArrayDataset(np.zeros((0, 3)), np.zeros(0)), batch_size=4)
    assert len(loader) == 0 and collect(loader) == []


def test_shuffle_covers_everything_once_per_epoch_and_changes_between_epochs():
    loader = DataLoader(numbers(10), batch_size=4, seed=0)
    first = [t for _, t in collect(loader)]
    second = [t for _, t in collect(loader)]
    for epoch in (first, second):
        assert [len(b) for b in epoch] == [4, 4, 2]
        assert sorted(sum(epoch, [])) == list(range(10))
    # 에포크마다 같은 생성기에서 순열을 새로 뽑습니다. 두 순열이 같을 수도 있으나(10!분의 1) 시드 0에서는 다릅니다.
    rng = np.random.default_rng(0)
    assert [sum(first, []), sum(second, [])] == [rng.permutation(10).tolist() for _ in range(2)]
    assert first != second


def test_same_seed_same_order_for_every_epoch():
    a = DataLoader(numbers(10), batch_size=3, seed=42)
    b = DataLoader(numbers(10), batch_size=3, seed=42)
    assert [collect(a) for _ in range(3)] == [collect(b) for _ in range(3)]
    assert collect(DataLoader(numbers(10), batch_size=3, seed=1)) != collect(
        DataLoader(numbers(10), batch_size=3, seed=2)
    )


def test_inputs_and_labels_stay_paired():
    for x, t in DataLoader(numbers(50), batch_size=7, seed=3):
        np.testing.assert_array_equal(x, t * 10.0)


def test_transforms_are_applied_per_sample():
    data = numbers(5, transform=lambda x: np.array([x, -x]), target_transform=lambda t: t + 100)
    (x, t), *_ = list(DataLoader(data, batch_size=5, shuffle=False))
    assert x.shape == (5, 2)
    np.testing.assert_array_equal(x[:, 1], -x[:, 0])
    assert t.tolist() == [100, 101, 102, 103, 104]


def test_dataset_without_labels_gives_none():
    loader = DataLoader(ArrayDataset(np.ones((3, 2))), batch_size=2, shuffle=False)
    assert [t for _, t in loader] == [None, None]


def test_custom_getitem_is_respected():
    class Squares(Dataset):
        def prepare(self):
            self.data = np.arange(4)
            self.label = np.arange(4)

        def __getitem__(self, index):
            return index * index, index

    (x, t), *_ = list(DataLoader(Squares(), batch_size=4, shuffle=False))
    assert x.tolist() == [0, 1, 4, 9]


def test_any_sequence_of_pairs_works():
    pairs = [(np.array([i, i]), i) for i in range(3)]
    x, t = next(iter(DataLoader(pairs, batch_size=3, shuffle=False)))
    assert x.shape == (3, 2) and t.tolist() == [0, 1, 2]


@pytest.mark.parametrize("size", [0, -2])
def test_bad_batch_size(size):
    with pytest.raises(ValueError, match="1 이상"):
        DataLoader(numbers(3), batch_size=size)


@pytest.mark.parametrize("size", [2.0, True, "2"])
def test_batch_size_must_be_an_integer(size):
    with pytest.raises(TypeError, match="정수"):
        DataLoader(numbers(3), batch_size=size)


def test_not_a_dataset():
    with pytest.raises(TypeError, match="데이터셋"):
        DataLoader(42, batch_size=2)


def test_batch_transforms_give_the_same_batches_as_sample_by_sample():
    from tinygrad_ko.data import transforms as T

    images = np.random.default_rng(0).integers(0, 256, size=(11, 4, 4)).astype(np.uint8)
    pipeline = T.Compose([T.Flatten(), T.ToFloat(), T.Normalize(0.5, 2.0)])
    fast = ArrayDataset(images, np.arange(11), transform=pipeline)
    slow = ArrayDataset(images, np.arange(11), transform=lambda x: pipeline(x))  # batch가 없는 변환
    assert hasattr(pipeline, "batch") and not hasattr(slow.transform, "batch")
    for (xf, tf), (xs, ts) in zip(
        DataLoader(fast, 4, seed=1), DataLoader(slow, 4, seed=1), strict=True
    ):
        assert xf.dtype == xs.dtype == np.float32 and xf.shape == xs.shape
        np.testing.assert_array_equal(xf, xs)
        np.testing.assert_array_equal(tf, ts)


def _stacked(dataset, indices):
    """샘플마다 dataset[i]로 꺼내 쌓은 배치: 한 번에 뽑은 배치가 이것과 같아야 합니다."""
    pairs = [dataset[int(i)] for i in indices]
    xs = np.stack([np.asarray(x) for x, _ in pairs])
    ts = None if pairs[0][1] is None else np.stack([np.asarray(t) for _, t in pairs])
    return xs, ts


def _pipelines(sample_shape):
    from tinygrad_ko.data import transforms as T

    rng = np.random.default_rng(1)
    last = sample_shape[-1] if sample_shape else 1
    yield T.Normalize(0.5, 2.0)
    yield T.Normalize(1, 3)
    yield T.Normalize(rng.normal(size=last), 2.0)
    keepdims = (1, last)  # X.mean(axis=0, keepdims=True)의 모양
    yield T.Normalize(rng.normal(size=keepdims), rng.uniform(1, 2, size=keepdims))
    yield T.Normalize(rng.normal(size=(1, 1, 1, last)), 2.0)  # 샘플보다 차원이 많은 통계
    yield T.Normalize(0.0, rng.uniform(1, 2, size=(2, 1) + (1,) * len(sample_shape)))
    yield T.Flatten()
    yield T.ToFloat()
    yield T.AsType(np.float16)
    yield T.Compose([])
    yield T.Compose([T.Flatten(), T.ToFloat(), T.Normalize(0.5, 255.0)])
    yield T.Compose([T.ToFloat(), T.Normalize(rng.normal(size=keepdims), 2.0), T.Flatten()])
    yield T.Compose(
        [T.Normalize(rng.normal(size=keepdims), 2.0), T.Normalize(0.0, np.ones((3, 1, 1)))]
    )


@pytest.mark.parametrize("sample_shape", [(), (3,), (2, 3)])
@pytest.mark.parametrize("dtype", [np.uint8, np.int64, np.float32, np.float64])
def test_one_shot_batches_equal_stacked_samples_for_every_pipeline(sample_shape, dtype):
    # 한 번에 뽑아 배치째 변환한 배치는 dataset[i]를 쌓은 것과 모양, dtype, 값이 같아야 합니다.
    from tinygrad_ko.data import transforms as T

    data = np.random.default_rng(0).integers(0, 200, size=(9, *sample_shape)).astype(dtype)
    indices = np.array([4, 0, 7, 2])
    for pipeline in _pipelines(sample_shape):
        dataset = ArrayDataset(data, np.arange(9), transform=pipeline, target_transform=T.ToFloat())
        x, t = DataLoader(dataset, 4).batch(indices)
        xs, ts = _stacked(dataset, indices)
        assert (x.shape, x.dtype) == (xs.shape, xs.dtype), pipeline
        np.testing.assert_array_equal(x, xs)
        assert t.dtype == ts.dtype and np.array_equal(t, ts)


def test_keepdims_statistics_keep_the_sample_shape_in_the_batch():
    from tinygrad_ko.data import transforms as T

    X = np.random.default_rng(0).normal(size=(10, 3))
    norm = T.Normalize(X.mean(axis=0, keepdims=True), X.std(axis=0, keepdims=True))
    dataset = ArrayDataset(X, np.arange(10), transform=norm)
    x, _ = next(iter(DataLoader(dataset, 4, shuffle=False)))
    assert dataset[0][0].shape == (1, 3) and x.shape == (4, 1, 3)
    np.testing.assert_array_equal(x, _stacked(dataset, range(4))[0])


def test_loader_stacks_samples_when_a_batch_method_is_not_its_own():
    # 라이브러리 밖의 batch 메서드는 샘플마다 한 결과와 같다고 보장할 수 없으므로 쌓습니다.
    class Doubler:
        def __call__(self, x):
            return np.asarray(x) * 2

        def batch(self, xs):
            return np.asarray(xs) * 3  # 약속을 어기는 batch

    from tinygrad_ko.data import transforms as T

    class Shifted(T.Normalize):
        def __call__(self, x):
            return super().__call__(x) + 1

    for transform in (Doubler(), T.Compose([T.ToFloat(), Doubler()]), Shifted(0.0, 1.0)):
        dataset = ArrayDataset(np.arange(6.0), np.arange(6), transform=transform)
        x, _ = next(iter(DataLoader(dataset, 6, shuffle=False)))
        np.testing.assert_array_equal(x, _stacked(dataset, range(6))[0])


def test_object_arrays_are_stacked_like_samples():
    data = np.empty(3, dtype=object)
    for i in range(3):
        data[i] = np.full(2, float(i))
    x, t = next(iter(DataLoader(ArrayDataset(data, np.arange(3)), 3, shuffle=False)))
    assert x.dtype == np.float64 and x.shape == (3, 2) and t.tolist() == [0, 1, 2]


def test_object_array_as_the_dataset_stacks_rows_or_reports_shapes():
    """배열 자체가 object 배열이어도 샘플(원소)을 첫 축으로 쌓고, 모양이 다르면 알려 줍니다
    (고치기 전: 쌓지 않은 object 배열 (3,)을 내주고, 모양이 달라도 오류 없이 지나갔습니다)."""
    rows = np.empty(3, dtype=object)
    for i in range(3):
        rows[i] = np.full(2, float(i))
    x, t = next(iter(DataLoader(rows, 3, shuffle=False)))
    assert x.dtype == np.float64 and x.shape == (3, 2) and t is None
    wrapped, _ = next(iter(DataLoader(ArrayDataset(rows, np.arange(3)), 3, shuffle=False)))
    np.testing.assert_array_equal(x, wrapped)
    ragged = np.empty(3, dtype=object)
    for i in range(3):
        ragged[i] = np.zeros(i + 1)
    with pytest.raises(ValueError, match=r"모양이 같아야.*\(1,\), \(2,\), \(3,\)"):
        next(iter(DataLoader(ragged, 3, shuffle=False)))


def test_compose_has_batch_only_when_every_transform_has_it():
    from tinygrad_ko.data import transforms as T

    assert not hasattr(T.Compose([T.Flatten(), lambda x: x]), "batch")
    assert hasattr(T.Compose([]), "batch")


# --- 샘플이 (x, t) 튜플이 아닐 때: 행을 쌓습니다(배열의 행은 PyTorch와 같고, 리스트는 다름) ---------
def test_plain_array_rows_are_samples():
    data = np.arange(6.0).reshape(3, 2)
    batches = list(DataLoader(data, 3, shuffle=False))
    assert len(batches) == 1
    x, t = batches[0]
    np.testing.assert_array_equal(x, data)  # 예전에는 x = [0, 2, 4], t = [1, 3, 5]
    assert t is None


def test_plain_array_batches_match_torch():
    torch = import_torch(__name__)
    data = np.arange(21.0).reshape(7, 3)
    ours = [x for x, _ in DataLoader(data, 3, shuffle=False)]
    theirs = [b.numpy() for b in torch.utils.data.DataLoader(data, batch_size=3, shuffle=False)]
    assert len(ours) == len(theirs) == 3
    for a, b in zip(ours, theirs, strict=True):
        np.testing.assert_array_equal(a, b)


def test_shuffled_plain_array_keeps_whole_rows():
    data = np.arange(30.0).reshape(10, 3)
    rows = np.concatenate([x for x, _ in DataLoader(data, 4, seed=0)])
    assert rows.shape == (10, 3)
    np.testing.assert_array_equal(rows[:, 1:] - rows[:, :1], [[1.0, 2.0]] * 10)
    np.testing.assert_array_equal(np.sort(rows[:, 0]), data[:, 0])


def test_list_of_feature_vectors_stacks_rows():
    # PyTorch의 기본 collate는 리스트 샘플을 열별로 나누지만([tensor([0, 3]), ...]), 이 로더는
    # (x, t)를 내주므로 리스트 샘플도 특징 벡터 하나로 보고 행으로 쌓습니다(세 번째 원소를 잃지 않음).
    x, t = next(iter(DataLoader([[0, 1, 2], [3, 4, 5]], 2, shuffle=False)))
    assert x.tolist() == [[0, 1, 2], [3, 4, 5]] and t is None


def test_list_of_arrays_stacks_like_torch():
    torch = import_torch(__name__)
    rows = [np.array([1.0, 2.0]), np.array([3.0, 4.0]), np.array([5.0, 6.0])]
    (x, t), theirs = next(iter(DataLoader(rows, 3, shuffle=False))), None
    theirs = next(iter(torch.utils.data.DataLoader(rows, batch_size=3))).numpy()
    np.testing.assert_array_equal(x, theirs)
    assert t is None


def test_tuple_samples_keep_pairs_and_one_tuples_have_no_label():
    pairs = [(np.array([i, -i]), i) for i in range(3)]
    x, t = next(iter(DataLoader(pairs, 3, shuffle=False)))
    assert x.tolist() == [[0, 0], [1, -1], [2, -2]] and t.tolist() == [0, 1, 2]
    singles = [(np.array([i, -i]),) for i in range(3)]  # TensorDataset(X)처럼 원소 하나의 튜플
    x, t = next(iter(DataLoader(singles, 3, shuffle=False)))
    assert x.tolist() == [[0, 0], [1, -1], [2, -2]] and t is None


def test_dataset_returning_bare_inputs_gives_rows():
    class Rows(Dataset):
        def prepare(self):
            self.data = np.arange(6.0).reshape(3, 2)

        def __getitem__(self, index):
            return self.data[index]  # 튜플이 아닌 입력 하나

    x, t = next(iter(DataLoader(Rows(), 3, shuffle=False)))
    np.testing.assert_array_equal(x, np.arange(6.0).reshape(3, 2))
    assert t is None


def test_three_element_tuple_is_refused():
    triples = [(np.zeros(2), 0, 1)] * 2
    with pytest.raises(ValueError, match="원소 3개인 튜플"):
        next(iter(DataLoader(triples, 2)))


def test_ragged_samples_are_refused_in_korean():
    with pytest.raises(ValueError, match=r"모양이 같아야.*\(2,\), \(3,\)"):
        next(iter(DataLoader([[0, 1], [2, 3, 4]], 2, shuffle=False)))
    with pytest.raises(ValueError, match="고르지 않은 리스트"):
        next(iter(DataLoader([[np.zeros(2), 1], [np.zeros(2), 0]], 2, shuffle=False)))


def test_zero_dim_array_is_not_a_dataset():
    with pytest.raises(TypeError, match="0차원 배열"):
        DataLoader(np.array(1.0), batch_size=2)


def test_some_samples_without_a_label_is_an_error_not_a_batch_without_labels():
    """정답이 일부 샘플에만 있으면 배치의 정답을 조용히 None으로 만들지 않고 멈춥니다(고치기 전: t가 None)."""
    samples = [(np.ones(2), 1), (np.ones(2), None), (np.ones(2), 0)]
    with pytest.raises(ValueError, match="정답이 있는 샘플과 없는 샘플") as info:
        next(iter(DataLoader(samples, batch_size=3)))
    assert "3개 가운데 1개" in str(info.value)
