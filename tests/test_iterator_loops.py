"""Loops over a tf.data iterator passed into ``ek.function`` (the tf.function guide).

TF's AutoGraph makes ``for x in iterator`` a loop that ends where the iterator does, so a
call on an exhausted iterator runs it zero times; ``next(iterator)`` past the end raises
OutOfRangeError (eagerly, ``next`` raises StopIteration and ``get_next`` OutOfRangeError).
"""

import pytest

import eagerkit as ek
from eagerkit.errors import OutOfRangeError


def summing():
    """A new ek.function per test (each iterator is a new trace, as a Python argument)."""

    @ek.function
    def total(elements):
        s = ek.constant(0, ek.int64)
        for x in elements:
            s += x
        return s

    return total


def test_a_loop_over_an_exhausted_iterator_runs_zero_times():
    total = summing()
    iterator = iter(ek.data.Dataset.range(4))
    assert int(total(iterator)) == 6
    assert int(total(iterator)) == 0
    assert int(total(iterator)) == 0
    with pytest.raises(OutOfRangeError, match="End of sequence"):
        iterator.get_next()  # the calls took nothing more


def test_eagerly_too():
    iterator = iter(ek.data.Dataset.range(3))
    assert [int(x) for x in iterator] == [0, 1, 2]
    assert [int(x) for x in iterator] == []
    with pytest.raises(StopIteration):
        next(iterator)
    with pytest.raises(OutOfRangeError, match="End of sequence"):
        iterator.get_next()


def test_a_loop_reads_what_is_left_whatever_the_trace_read():
    total = summing()
    iterator = iter(ek.data.Dataset.range(6))
    assert int(next(iterator)) == 0
    assert int(total(iterator)) == 15  # 1 + ... + 5
    fresh = iter(ek.data.Dataset.range(6))
    for _ in range(4):
        next(fresh)
    assert int(total(fresh)) == 9  # 4 + 5
    assert int(total(fresh)) == 0


def test_a_loop_runs_its_effects_once_per_element_left():
    seen = ek.Variable(0, dtype=ek.int64)

    @ek.function
    def count(iterator):
        for x in iterator:
            seen.assign_add(x)
        return seen.read_value()

    iterator = iter(ek.data.Dataset.range(1, 4))
    assert int(count(iterator)) == 6
    assert int(count(iterator)) == 6  # nothing left: no assign ran


def test_next_past_the_end_raises_out_of_range_and_keeps_the_position():
    @ek.function
    def take(iterator):
        return next(iterator)

    iterator = iter(ek.data.Dataset.range(2))
    assert [int(take(iterator)), int(take(iterator))] == [0, 1]
    with pytest.raises(OutOfRangeError, match="End of sequence"):
        take(iterator)
    empty = iter(ek.data.Dataset.range(0))
    with pytest.raises(OutOfRangeError, match="End of sequence"):
        take(empty)  # while tracing: TF's error, not Python's StopIteration
    with pytest.raises(OutOfRangeError):
        take(empty)
    two = iter(ek.data.Dataset.range(5, 7))
    with pytest.raises(OutOfRangeError):
        take_three(two)  # the third next fails while tracing: nothing was taken
    assert int(two.get_next()) == 5


@ek.function
def take_three(iterator):
    return next(iterator) + next(iterator) + next(iterator)
