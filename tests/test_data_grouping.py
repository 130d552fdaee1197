"""Dataset.group_by_window / ek.data.experimental.group_by_window, bucket_by_sequence_length,
rebatch and Dataset.random with TF's semantics: TF's documented examples, a Python
reference of TF's kernel for random inputs, TF's refusals, and the iterator's position kept
after an element fails."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import eagerkit as ek
from eagerkit.errors import InvalidArgumentError

Dataset = ek.data.Dataset


def _rows(dataset):
    return [b.numpy().tolist() for b in dataset]


def grouped_reference(values, modulus, window):
    """TF's GroupByWindow with reduce_func = batch(window): full windows as they fill, then
    what is left in increasing key order."""
    groups, out = {}, []
    for v in values:
        group = groups.setdefault(v % modulus, [])
        group.append(v)
        if len(group) == window:
            out.append(groups.pop(v % modulus))
    return out + [groups[k] for k in sorted(groups)]


@settings(max_examples=50, deadline=None)
@given(
    st.lists(st.integers(0, 50), max_size=30), st.integers(1, 4), st.integers(1, 5), st.booleans()
)
def test_group_by_window_follows_tfs_kernel(values, modulus, window, by_function):
    ds = Dataset.from_tensor_slices(np.array(values, np.int64))
    sizes = {"window_size_func": lambda key: ek.constant(window, ek.int64)}
    got = ds.group_by_window(
        lambda x: x % modulus,
        lambda key, w: w.batch(window),
        **(sizes if by_function else {"window_size": window}),
    )
    assert _rows(got) == grouped_reference(values, modulus, window)


def test_tf_docs_example_and_the_experimental_transformation():
    ds = Dataset.range(10)
    window_size = 5
    key_func = lambda x: x % 2  # noqa: E731
    reduce_func = lambda key, dataset: dataset.batch(window_size)  # noqa: E731
    expected = [[0, 2, 4, 6, 8], [1, 3, 5, 7, 9]]
    assert _rows(ds.group_by_window(key_func, reduce_func, window_size=window_size)) == expected
    grouping = ek.data.experimental.group_by_window(key_func, reduce_func, window_size)
    assert _rows(ds.apply(grouping)) == expected
    # reduce_func sees the key, an int64 scalar, and the window as a Dataset of the elements
    seen = []

    def record(key, window):
        seen.append((key.dtype, int(key), int(window.cardinality())))
        return window.map(lambda x: x * 10)

    assert [int(x) for x in Dataset.range(5).group_by_window(key_func, record, window_size=2)] == [
        0,
        20,
        10,
        30,
        40,
    ]
    assert seen == [(ek.int64, 0, 2), (ek.int64, 1, 2), (ek.int64, 0, 1)]


def test_group_by_window_element_spec_is_reduce_funcs():
    ds = Dataset.range(6).group_by_window(lambda x: x % 2, lambda k, w: w.batch(3), window_size=3)
    assert ds.element_spec == ek.TensorSpec([None], ek.int64)
    assert int(ds.cardinality()) == ek.data.experimental.UNKNOWN_CARDINALITY


@pytest.mark.parametrize(
    "kwargs, error, message",
    [
        ({"window_size": None}, InvalidArgumentError, "either window_size or window_size_func"),
        (
            {"window_size": 2, "window_size_func": lambda k: k},
            InvalidArgumentError,
            r"\(one, not both\)",
        ),
        ({"window_size": 0}, InvalidArgumentError, "window_size"),
    ],
)
def test_window_size_arguments_are_refused_at_once(kwargs, error, message):
    with pytest.raises(error, match=message):
        Dataset.range(3).group_by_window(lambda x: x, lambda k, w: w, **kwargs)
    with pytest.raises(error, match=message):
        ek.data.experimental.group_by_window(lambda x: x, lambda k, w: w, **kwargs)


def test_bad_key_and_reduce_results_fail_their_element_and_the_iterator_goes_on():
    int32 = Dataset.from_tensor_slices([1, 2]).group_by_window(
        lambda x: x % 2, lambda k, w: w, window_size=1
    )
    with pytest.raises(
        InvalidArgumentError, match=r"key_func must return an int64 scalar.*ek.cast"
    ):
        list(int32)
    not_a_dataset = Dataset.range(2).group_by_window(lambda x: x, lambda k, w: 5, window_size=1)
    with pytest.raises(TypeError, match="reduce_func must return an ek.data.Dataset, got 5"):
        list(not_a_dataset)

    # an element that fails comes out as its error; the iterator keeps its place (TF's rule)
    def check(x):
        return ek.debugging.assert_less(x, ek.constant(3, ek.int64)) or x

    grouped = (
        Dataset.range(6)
        .map(check)
        .group_by_window(lambda x: x % 2, lambda k, w: w.batch(2), window_size=2)
    )
    it = iter(grouped)
    assert next(it).numpy().tolist() == [0, 2]
    with pytest.raises(InvalidArgumentError):
        next(it)  # element 3
    with pytest.raises(InvalidArgumentError):
        next(it)  # element 4
    with pytest.raises(InvalidArgumentError):
        next(it)  # element 5
    assert next(it).numpy().tolist() == [1]  # what is left: the group of key 1
    with pytest.raises(StopIteration):
        next(it)


def test_bucket_by_sequence_length_batches_similar_lengths():
    lengths = Dataset.from_tensor_slices([1, 5, 2, 6, 1, 3])
    rows = lengths.map(lambda n: ek.fill([n], n))
    by_length = rows.bucket_by_sequence_length(lambda x: ek.size(x), [3], [2, 2])
    assert _rows(by_length) == [
        [[1, 0], [2, 2]],
        [[5, 5, 5, 5, 5, 0], [6, 6, 6, 6, 6, 6]],
        [[1]],
        [[3, 3, 3]],
    ]
    short = Dataset.from_tensor_slices([1, 2, 1]).map(lambda n: ek.fill([n], n))
    padded = short.bucket_by_sequence_length(
        lambda x: ek.size(x), [3, 5], [2, 2, 2], pad_to_bucket_boundary=True
    )
    assert _rows(padded) == [[[1, 0], [2, 2]], [[1, 0]]]  # padded to boundary - 1 = 2
    pairs = Dataset.from_tensor_slices([1, 2, 4]).map(lambda n: (ek.fill([n], n), n))
    by_boundary = pairs.bucket_by_sequence_length(
        lambda x, label: ek.size(x), [3, 6], [2, 2, 2], pad_to_bucket_boundary=True
    )
    assert [(x.numpy().tolist(), y.numpy().tolist()) for x, y in by_boundary] == [
        ([[1, 0], [2, 2]], [1, 2]),
        ([[4, 4, 4, 4, 0]], [4]),  # bucket 1 pads to its boundary 6, minus 1
    ]
    bucketing = ek.data.experimental.bucket_by_sequence_length(lambda x: ek.size(x), [3], [2, 2])
    assert _rows(rows.apply(bucketing)) == _rows(by_length)
    with pytest.raises(InvalidArgumentError, match=r"len\(bucket_batch_sizes\) must equal"):
        ek.data.experimental.bucket_by_sequence_length(lambda x: ek.size(x), [3], [2])
    with pytest.raises(TypeError, match="the transformation takes an ek.data.Dataset, got"):
        bucketing([1, 2])
    same = Dataset.range(4).map(lambda x: ek.fill([2], x))
    unpadded = same.bucket_by_sequence_length(lambda x: ek.size(x), [3], [3, 1], no_padding=True)
    assert _rows(unpadded) == [[[0, 0], [1, 1], [2, 2]], [[3, 3]]]
    with pytest.raises(InvalidArgumentError, match=r"len\(bucket_batch_sizes\) must equal"):
        rows.bucket_by_sequence_length(lambda x: ek.size(x), [3], [2])
    with pytest.raises(InvalidArgumentError, match="bucket_boundaries must increase"):
        rows.bucket_by_sequence_length(lambda x: ek.size(x), [3, 2], [2, 2, 2])
    too_long = rows.bucket_by_sequence_length(
        lambda x: ek.size(x), [3], [2, 2], pad_to_bucket_boundary=True
    )
    with pytest.raises(InvalidArgumentError, match="shorter than max\\(bucket_boundaries\\) = 3"):
        list(too_long)


@settings(max_examples=50, deadline=None)
@given(
    st.integers(0, 20),
    st.integers(1, 5),
    st.lists(st.integers(1, 4), min_size=1, max_size=3),
    st.booleans(),
)
def test_rebatch_is_unbatch_then_batch_with_sizes_cycled(count, first, sizes, drop):
    ds = Dataset.range(count).batch(first)
    flat = list(range(count))
    expected, start, cycle = [], 0, 0
    while start < count:
        size = sizes[cycle % len(sizes)]
        chunk = flat[start : start + size]
        if len(chunk) == size or not drop:
            expected.append(chunk)
        start, cycle = start + size, cycle + 1
    assert _rows(ds.rebatch(sizes, drop_remainder=drop)) == expected
    if len(sizes) == 1:
        assert _rows(ds.rebatch(sizes[0], drop)) == _rows(ds.unbatch().batch(sizes[0], drop))


def test_rebatch_tf_docs_examples_and_refusals():
    assert _rows(Dataset.range(6).batch(2).rebatch(3)) == [[0, 1, 2], [3, 4, 5]]
    assert _rows(Dataset.range(7).batch(4).rebatch(3)) == [[0, 1, 2], [3, 4, 5], [6]]
    assert _rows(Dataset.range(7).batch(2).rebatch(3, drop_remainder=True)) == [
        [0, 1, 2],
        [3, 4, 5],
    ]
    assert _rows(Dataset.range(8).batch(4).rebatch([2, 1, 1])) == [
        [0, 1],
        [2],
        [3],
        [4, 5],
        [6],
        [7],
    ]
    assert Dataset.range(8).batch(4).rebatch(3, drop_remainder=True).element_spec == ek.TensorSpec(
        [3], ek.int64
    )
    with pytest.raises(InvalidArgumentError, match="batch_size"):
        Dataset.range(4).batch(2).rebatch(0)
    with pytest.raises(InvalidArgumentError, match="first axis"):
        list(Dataset.range(4).rebatch(2))  # scalars have no rows (TF's unbatch error)


def test_random_is_deterministic_given_the_seed():
    first = [int(x) for x in Dataset.random(seed=4).take(10)]
    assert first == [int(x) for x in Dataset.random(seed=4).take(10)]
    assert first != [int(x) for x in Dataset.random(seed=5).take(10)]
    assert all(0 <= x < 2**32 for x in first) and len(set(first)) == 10
    ds = Dataset.random(seed=4)
    assert ds.element_spec == ek.TensorSpec([], ek.int64)
    assert int(ds.cardinality()) == ek.data.experimental.INFINITE_CARDINALITY
    assert [int(x) for x in ds.take(3)] == [int(x) for x in ds.take(3)]  # each pass the same
    fresh = Dataset.random(seed=4, rerandomize_each_iteration=True).take(5)
    assert [int(x) for x in fresh] != [int(x) for x in fresh]
    ek.random.set_seed(7)
    a = [int(x) for x in Dataset.random().take(3)]
    ek.random.set_seed(7)
    assert a == [int(x) for x in Dataset.random().take(3)]
    with pytest.raises(InvalidArgumentError, match="seed"):
        Dataset.random(seed=1.5)
