"""An element's error inside a Dataset pipeline: raised once, then the iterator goes on (TF).

TF's iterator raises the error of an element whose making failed and, asked again, returns
the next element. eagerkit's steps used to be Python generators that died with the first
error, so the rest of the epoch was silently lost (after a ``shuffle``, all of it). The
property test drives random pipelines against a small reference model of TF's rules.
"""

import collections
import re

import hypothesis.strategies as st
import numpy as np
import pytest
from hypothesis import given, settings

import eagerkit as ek
from eagerkit.data import Dataset
from eagerkit.errors import InvalidArgumentError


def outcomes(dataset, limit=1000):  # (the longest chain drawn below: 12 * 3**4 elements)
    """What an iterator gives until it ends: ("ok", value) or ("error", message) each call."""
    it = iter(dataset)
    found = []
    for _ in range(limit):
        try:
            element = next(it)
        except StopIteration:
            return found
        except ValueError as error:
            found.append(("error", str(error)))
        else:
            found.append(("ok", element.numpy().tolist()))
    raise AssertionError(f"the dataset did not end after {limit} calls")


def failing_map(bad):
    def times_ten(x):
        if int(x) in bad:
            raise ValueError(f"bad element {int(x)}")
        return x * 10

    return times_ten


# --- the reference model: TF's rules on a list of outcomes ----------------------------------
def model_map(items, bad):
    return [("error", f"bad element {v}") if v in bad else ("ok", v * 10) for _, v in items]


def model_filter(items):
    return [(k, v) for k, v in items if k == "error" or v % 20 == 0]


def model_batch(items, size, drop_remainder):
    out, batch = [], []
    for kind, value in items:
        if kind == "error":
            out.append((kind, value))
            batch = []  # the partial batch is lost with the error
            continue
        batch.append(value)
        if len(batch) == size:
            out.append(("ok", batch))
            batch = []
    if batch and not drop_remainder:
        out.append(("ok", batch))
    return out


def model_take(items, count):
    out, kept = [], 0
    for item in items:
        if kept == count:
            break
        out.append(item)
        kept += item[0] == "ok"
    return out


def model_skip(items, count):
    out, skipped = [], 0
    for item in items:
        if item[0] == "ok" and skipped < count:
            skipped += 1
            continue
        out.append(item)
    return out


steps = st.lists(
    st.one_of(
        st.tuples(st.just("filter")),
        st.tuples(st.just("batch"), st.integers(1, 4), st.booleans()),
        st.tuples(st.just("take"), st.integers(0, 12)),
        st.tuples(st.just("skip"), st.integers(0, 5)),
        st.tuples(st.just("repeat"), st.integers(0, 3)),
        st.tuples(st.just("shuffle"), st.integers(1, 8)),
    ),
    max_size=4,
)


@settings(max_examples=150, deadline=None)
@given(size=st.integers(0, 12), bad=st.sets(st.integers(0, 11), max_size=5), chain=steps)
def test_a_failed_element_is_raised_once_and_the_rest_follows(size, bad, chain):
    dataset = Dataset.range(size).map(failing_map(bad))
    expected = model_map([("ok", v) for v in range(size)], bad)
    shuffled = batched = False
    for step, *arguments in chain:
        if batched and step in ("filter", "batch", "shuffle"):
            continue  # they take scalars (a ragged last batch would not stack again)
        if shuffled and step in ("batch", "take", "skip"):
            continue  # the model knows what a shuffle gives out, not in which order
        if step == "filter":
            dataset = dataset.filter(lambda x: x % 20 == 0)
            expected = model_filter(expected)
        elif step == "batch":
            dataset, batched = dataset.batch(*arguments), True
            expected = model_batch(expected, *arguments)
        elif step == "take":
            dataset, expected = dataset.take(*arguments), model_take(expected, *arguments)
        elif step == "skip":
            dataset, expected = dataset.skip(*arguments), model_skip(expected, *arguments)
        elif step == "repeat":
            dataset, expected = dataset.repeat(*arguments), expected * arguments[0]
        else:
            dataset, shuffled = dataset.shuffle(arguments[0], seed=1), True
    got = outcomes(dataset)
    if shuffled:  # the order is the shuffle's; what comes out is not
        key = repr
        assert sorted(got, key=key) == sorted(expected, key=key)
    else:
        assert got == expected


def test_map_error_then_the_rest_of_the_epoch():
    it = iter(Dataset.range(5).map(failing_map({2})))
    assert int(next(it)) == 0 and int(next(it)) == 10
    with pytest.raises(ValueError, match="bad element 2"):
        next(it)
    assert [int(x) for x in it] == [30, 40]


def test_after_shuffle_every_other_element_still_comes():
    got = outcomes(Dataset.range(10).map(failing_map({3})).shuffle(10, seed=0))
    assert got.count(("error", "bad element 3")) == 1
    assert sorted(v for kind, v in got if kind == "ok") == [0, 10, 20, 40, 50, 60, 70, 80, 90]


def test_get_next_raises_the_element_error_then_continues():
    it = Dataset.range(3).map(failing_map({0})).make_one_shot_iterator()
    with pytest.raises(ValueError, match="bad element 0"):
        it.get_next()
    assert int(it.get_next()) == 10 and int(it.get_next()) == 20
    with pytest.raises(ek.errors.OutOfRangeError):
        it.get_next()


def test_a_batch_that_does_not_stack_fails_alone():
    rows = [[1.0], [2.0, 3.0], [4.0], [5.0]]
    it = iter(Dataset.from_generator(lambda: iter(rows), ek.float32).batch(2))
    with pytest.raises(InvalidArgumentError, match="cannot put element 1"):
        next(it)
    assert next(it).numpy().tolist() == [[4.0], [5.0]]


def test_a_raising_generator_ends_after_its_error():
    def numbers():
        yield 1.0
        raise ValueError("the source broke")

    it = iter(Dataset.from_generator(numbers, ek.float32))
    assert float(next(it)) == 1.0
    with pytest.raises(ValueError, match="the source broke"):
        next(it)
    assert list(it) == []  # a Python generator that raised is finished


def test_a_generator_element_of_the_wrong_structure_fails_alone():
    it = iter(Dataset.from_generator(lambda: iter([1.0, (1.0, 2.0), 3.0]), ek.float32))
    assert float(next(it)) == 1.0
    with pytest.raises(InvalidArgumentError, match="element 1 .* does not have the structure"):
        next(it)
    assert float(next(it)) == 3.0


def test_stop_iteration_from_a_map_function_does_not_end_the_loop_silently():
    def stops(x):
        raise StopIteration

    with pytest.raises(RuntimeError, match="a dataset function raised StopIteration"):
        list(Dataset.range(2).map(stops))


def test_filter_predicate_errors_are_element_errors():
    def predicate(x):
        if int(x) == 1:
            raise ValueError("bad element 1")
        return True

    it = iter(Dataset.range(3).filter(predicate))
    assert int(next(it)) == 0
    with pytest.raises(ValueError, match="bad element 1"):
        next(it)
    assert int(next(it)) == 2
    with pytest.raises(InvalidArgumentError, match="must return a bool scalar, got 3"):
        next(iter(Dataset.range(1).filter(lambda x: 3)))


def test_csv_rows_that_do_not_parse_fail_alone(tmp_path):
    path = tmp_path / "rows.csv"
    path.write_text("a,b\n1,2\n3,x\n5,6\n7\n9,10\n")
    dataset = ek.data.experimental.make_csv_dataset(
        str(path), batch_size=1, num_epochs=1, shuffle=False, num_rows_for_inference=1
    )
    it = iter(dataset)
    got = []
    for _ in range(6):
        try:
            got.append(next(it)["a"].numpy().tolist())
        except InvalidArgumentError as error:
            got.append(re.search(r"row \d+", str(error)).group())
        except StopIteration:
            break
    assert got == [[1], "row 2", [5], "row 4", [9]]
    skipping = ek.data.experimental.make_csv_dataset(
        str(path), 1, num_epochs=1, shuffle=False, num_rows_for_inference=1, ignore_errors=True
    )
    assert [int(f["a"][0]) for f in skipping] == [1, 5, 9]


def test_map_and_filter_refuse_what_is_not_a_function():
    for step in ("map", "filter"):
        with pytest.raises(InvalidArgumentError, match=rf"{step}: .* must be a function"):
            getattr(Dataset.range(2), step)(None)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda d: d.batch(ek.constant(2.5)), "batch_size must be an integer, got float32[]"),
        (lambda d: d.batch(2.0), "batch_size must be an integer, got float 2.0"),
        (lambda d: d.batch(2, drop_remainder="yes"), "drop_remainder must be True or False"),
        (lambda d: d.shuffle(2, seed=1.5), "seed must be an integer, got float 1.5"),
        (lambda d: d.shuffle(2.5), "buffer_size must be an integer, got float 2.5"),
        (lambda d: d.shuffle(2, reshuffle_each_iteration=None), "must be True or False"),
    ],
)
def test_fractional_sizes_and_seeds_are_refused(call, message):
    with pytest.raises(InvalidArgumentError, match=re.escape(message)):
        call(Dataset.range(4))


def test_integer_tensor_sizes_and_negative_seeds_are_accepted():
    batches = [b.numpy().tolist() for b in Dataset.range(5).batch(ek.constant(2))]
    assert batches == [[0, 1], [2, 3], [4]]
    order = [int(x) for x in Dataset.range(6).shuffle(6, seed=-3)]
    assert sorted(order) == list(range(6))
    assert order == [int(x) for x in Dataset.range(6).shuffle(6, seed=-3)]
    counts = collections.Counter(int(x) for x in Dataset.range(3).shuffle(np.int64(2)).repeat(4))
    assert counts == {0: 4, 1: 4, 2: 4}
