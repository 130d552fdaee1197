"""tf.data guide steps: ``element_spec``, ``window``, ``interleave``, ``counter``,
``sample_from_datasets`` and ``choose_from_datasets`` (rows 34 and 35b of the TF2 scan),
with TF's values (its API pages' examples) and a reference for window's arithmetic."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import eagerkit as ek
from eagerkit.data.specs import DatasetSpec
from eagerkit.errors import InvalidArgumentError

D = ek.data.Dataset
Spec = ek.TensorSpec


def values(dataset):
    return [x.numpy().tolist() for x in dataset]


# --- element_spec ------------------------------------------------------------------------------
def test_element_spec_of_sources_and_steps():
    assert D.range(5).element_spec == Spec((), ek.int64)
    assert D.range(5).batch(2).element_spec == Spec((None,), ek.int64)  # TF: batch size varies
    assert D.range(5).batch(2, drop_remainder=True).element_spec == Spec((2,), ek.int64)
    x, y = D.from_tensor_slices(([[1.0, 2.0]], [3])).element_spec
    assert (x, y) == (Spec((2,), ek.float32), Spec((), ek.int32))
    named = D.from_tensor_slices({"a": [1, 2], "b": [[1.0], [2.0]]}).element_spec
    assert named == {"a": Spec((), ek.int32), "b": Spec((1,), ek.float32)}
    assert D.range(4).enumerate().element_spec == (Spec((), ek.int64), Spec((), ek.int64))
    assert D.range(4).batch(3).unbatch().element_spec == Spec((), ek.int64)
    assert D.range(9).shuffle(3).repeat().skip(2).take(4).element_spec == Spec((), ek.int64)
    assert D.zip(D.range(2), D.range(3).batch(2)).element_spec == (
        Spec((), ek.int64),
        Spec((None,), ek.int64),
    )
    joined = D.from_tensors([1, 2]).concatenate(D.from_tensors([1, 2, 3]))
    assert joined.element_spec == Spec((None,), ek.int32)
    rows = D.range(1, 4).map(lambda n: ek.fill([n], n))
    assert rows.padded_batch(2, padded_shapes=[4]).element_spec == Spec((None, 4), ek.int64)


def test_element_spec_of_a_generator_is_its_declared_one():
    def pairs():
        yield 1, [2.0, 3.0]

    untyped = D.from_generator(pairs, output_types=(ek.int32, ek.float32))
    assert [s.shape for s in untyped.element_spec] == [None, None]  # TF: unknown shapes
    signature = (Spec((), ek.int32), Spec((None,), ek.float32))
    assert D.from_generator(pairs, output_signature=signature).element_spec == signature


def test_map_runs_its_function_only_when_the_spec_is_asked_for():
    calls = []

    def double(x):
        calls.append(int(x))
        return ek.cast(x, ek.float32) * 2.0

    mapped = D.range(10).map(double)
    assert calls == []  # building the pipeline runs nothing
    assert mapped.element_spec == Spec((), ek.float32)
    assert calls == [0, 1]  # the first two elements, once
    assert mapped.element_spec == Spec((), ek.float32) and calls == [0, 1]
    # sizes that differ between elements, or that the input leaves open, are None
    assert D.range(1, 4).map(lambda n: ek.fill([n], n)).element_spec == Spec((None,), ek.int64)
    assert D.range(5).batch(2).map(lambda b: b * 2).element_spec == Spec((None,), ek.int64)


def test_element_spec_of_an_empty_map_input_says_why_there_is_none():
    with pytest.raises(InvalidArgumentError, match="element_spec runs the function"):
        D.range(0).map(lambda x: x).element_spec  # noqa: B018


# --- window ------------------------------------------------------------------------------------
def test_window_as_the_api_pages_show_it():
    windows = D.range(7).window(3, shift=2)
    assert [values(w) for w in windows] == [[0, 1, 2], [2, 3, 4], [4, 5, 6], [6]]
    strided = D.range(7).window(3, shift=1, stride=2, drop_remainder=True)
    assert [values(w) for w in strided] == [[0, 2, 4], [1, 3, 5], [2, 4, 6]]
    batches = D.range(6).window(3, shift=1, drop_remainder=True).flat_map(lambda w: w.batch(3))
    assert values(batches) == [[0, 1, 2], [1, 2, 3], [2, 3, 4], [3, 4, 5]]
    assert windows.element_spec == DatasetSpec(Spec((), ek.int64))


def test_window_of_pairs_is_a_pair_of_windows():
    pairs = D.from_tensor_slices(([1, 2, 3], [4.0, 5.0, 6.0])).window(2)
    assert [(values(a), values(b)) for a, b in pairs] == [([1, 2], [4.0, 5.0]), ([3], [6.0])]
    zipped = pairs.flat_map(lambda a, b: D.zip(a.batch(2), b.batch(2)))
    assert [(a.numpy().tolist(), b.numpy().tolist()) for a, b in zipped][0] == ([1, 2], [4.0, 5.0])


def reference_windows(n, size, shift, stride, drop_remainder):
    found = []
    for start in range(0, n, shift):
        window = [i for i in range(start, start + size * stride, stride) if i < n]
        if drop_remainder and len(window) < size:
            break
        found.append(window)
    return found


@settings(max_examples=120, deadline=None)
@given(
    st.integers(0, 12),
    st.integers(1, 5),
    st.none() | st.integers(1, 5),
    st.integers(1, 4),
    st.booleans(),
)
def test_window_takes_tfs_elements(n, size, shift, stride, drop_remainder):
    windows = D.range(n).window(size, shift, stride, drop_remainder)
    expected = reference_windows(n, size, shift or size, stride, drop_remainder)
    assert [values(w) for w in windows] == expected
    assert int(windows.cardinality()) == len(expected)


def test_window_of_an_endless_dataset_streams():
    firsts = D.counter().window(2, shift=5).take(3)
    assert [values(w) for w in firsts] == [[0, 1], [5, 6], [10, 11]]


@pytest.mark.parametrize("bad", [{"size": 0}, {"size": 2, "shift": 0}, {"size": 2, "stride": -1}])
def test_window_refuses_sizes_below_one(bad):
    with pytest.raises(InvalidArgumentError, match="Dataset.window"):
        D.range(3).window(**bad)


# --- interleave ----------------------------------------------------------------------------------
def test_interleave_as_the_api_page_shows_it():
    ds = D.range(1, 6).interleave(
        lambda x: D.from_tensors(x).repeat(6), cycle_length=2, block_length=4
    )
    expected = [1, 1, 1, 1, 2, 2, 2, 2, 1, 1, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 3, 3, 4, 4]
    assert values(ds) == expected + [5, 5, 5, 5, 5, 5]
    assert ds.element_spec == Spec((), ek.int64)


def test_interleave_default_cycle_length_is_four():
    ds = D.range(1, 6).interleave(lambda x: D.from_tensors(x).repeat(2))
    assert values(ds) == [1, 2, 3, 4, 1, 2, 3, 4, 5, 5]
    auto = D.range(1, 6).interleave(lambda x: D.from_tensors(x).repeat(2), ek.data.AUTOTUNE)
    assert values(auto) == values(ds)


def test_interleave_a_function_without_a_dataset_fails_its_element_alone():
    def lines(x):
        if int(x) == 1:
            return x  # not a dataset
        return D.from_tensors(x).repeat(2)

    iterator = iter(D.range(3).interleave(lines, cycle_length=1))
    assert int(next(iterator)) == 0 and int(next(iterator)) == 0
    with pytest.raises(InvalidArgumentError, match="map_func must return an ek.data.Dataset"):
        next(iterator)
    assert [int(x) for x in iterator] == [2, 2]  # and on with the next element (TF's rule)


# --- counter, sample_from_datasets, choose_from_datasets ---------------------------------------
def test_counter():
    assert values(D.counter().take(3)) == [0, 1, 2]
    assert values(D.counter(10, step=-5, dtype=ek.int32).take(3)) == [10, 5, 0]
    assert D.counter().element_spec == Spec((), ek.int64)
    assert int(D.counter().cardinality()) == ek.data.INFINITE_CARDINALITY


def test_sample_from_datasets_is_seeded_and_takes_everything():
    a, b = D.range(5), D.range(100, 105)
    first = values(D.sample_from_datasets([a, b], seed=3))
    assert first == values(D.sample_from_datasets([a, b], seed=3))
    assert sorted(first) == [0, 1, 2, 3, 4, 100, 101, 102, 103, 104]
    assert [x for x in first if x < 100] == [0, 1, 2, 3, 4]  # each dataset keeps its order
    only_a = values(D.sample_from_datasets([a, b], weights=[1.0, 0.0], seed=3))
    assert only_a == [0, 1, 2, 3, 4]
    stopped = values(D.sample_from_datasets([D.range(1), b], seed=3, stop_on_empty_dataset=True))
    assert 0 in stopped and len(stopped) < 6


@settings(max_examples=30, deadline=None)
@given(st.lists(st.floats(0.05, 1.0), min_size=2, max_size=4), st.integers(0, 2**31))
def test_sample_from_datasets_follows_the_weights(weights, seed):
    sources = [D.from_tensors(np.int64(i)).repeat() for i in range(len(weights))]
    drawn = values(D.sample_from_datasets(sources, weights=weights, seed=seed).take(4000))
    shares = np.bincount(drawn, minlength=len(weights)) / 4000
    np.testing.assert_allclose(shares, np.array(weights) / sum(weights), atol=0.05)


def test_choose_from_datasets():
    a, b = D.range(3), D.range(10, 13)
    choice = D.from_tensor_slices(ek.constant([0, 1, 1, 0, 0, 0, 1], ek.int64))
    assert values(D.choose_from_datasets([a, b], choice)) == [0, 10, 11, 1, 2]  # a ends: stop
    kept_on = D.choose_from_datasets([a, b], choice, stop_on_empty_dataset=False)
    assert values(kept_on) == [0, 10, 11, 1, 2, 12]
    with pytest.raises(TypeError, match="scalar int64"):
        D.choose_from_datasets([a, b], D.from_tensor_slices([0, 1]))
    bad = iter(D.choose_from_datasets([a, b], D.from_tensor_slices(ek.constant([2, 1], ek.int64))))
    with pytest.raises(InvalidArgumentError, match="choice 2 is out of range"):
        next(bad)
    assert int(next(bad)) == 10  # the next choice goes on


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: D.sample_from_datasets([]), "non-empty list"),
        (lambda: D.sample_from_datasets([D.range(2), 3]), "non-empty list"),
        (lambda: D.sample_from_datasets([D.range(2)], weights=[1.0, 2.0]), "weights must be 1"),
        (lambda: D.sample_from_datasets([D.range(2)], weights=[0.0]), "must not all be 0"),
    ],
)
def test_mixing_refuses_bad_arguments(call, message):
    with pytest.raises((InvalidArgumentError, TypeError), match=message):
        call()


def test_a_huge_cycle_length_opens_only_what_there_is():
    ds = D.range(1, 4).interleave(lambda x: D.from_tensors(x).repeat(2), cycle_length=2**40)
    assert values(ds) == [1, 2, 3, 1, 2, 3]


def test_a_huge_window_is_refused_before_reading_forever():
    with pytest.raises(ek.errors.ResourceExhaustedError, match="Dataset.window"):
        next(iter(D.counter().window(2**40)))


def test_mixing_datasets_of_other_dtypes_is_refused_by_the_spec():
    ints, floats = D.range(2), D.from_tensors(1.0)
    for mixed in (ints.concatenate(floats), D.sample_from_datasets([ints, floats])):
        with pytest.raises(InvalidArgumentError, match="the datasets' elements differ"):
            mixed.element_spec  # noqa: B018
