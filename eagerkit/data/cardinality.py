"""How many elements a Dataset holds, known without reading it: TF's cardinality rules.

A source knows its count (``from_tensor_slices``, ``range``) or does not (a generator, the
lines of a file: ``UNKNOWN_CARDINALITY``); each step then works the count out as TF's
kernels do. ``repeat()`` makes it ``INFINITE_CARDINALITY`` (unless the input is empty),
``filter`` makes it unknown (nobody knows what the predicate keeps), ``batch`` divides it.
``fit`` reads it to refuse an infinite dataset without ``steps_per_epoch``, which would run
forever.

Examples
--------
>>> import eagerkit as ek
>>> int(ek.data.Dataset.range(10).batch(3).cardinality())
4
>>> int(ek.data.Dataset.range(10).repeat().cardinality()) == ek.data.INFINITE_CARDINALITY
True
>>> int(ek.data.Dataset.range(10).filter(lambda x: x > 4).cardinality())
-2
"""

from eagerkit.arguments import describe
from eagerkit.errors import type_error

INFINITE_CARDINALITY = -1
UNKNOWN_CARDINALITY = -2
_NOT_A_COUNT = (INFINITE_CARDINALITY, UNKNOWN_CARDINALITY)


def of_range(numbers):
    """``len(numbers)`` (a Python range) without ``len()``, which overflows a C ssize_t past
    2**63 numbers; at most int64's largest, as TF counts in int64."""
    toward = 1 if numbers.step > 0 else -1
    count = max(0, (numbers.stop - numbers.start + numbers.step - toward) // numbers.step)
    return min(count, 2**63 - 1)


def batched(count, batch_size, drop_remainder):
    """Batches of ``batch_size`` out of ``count`` elements (the last one partial unless
    ``drop_remainder``)."""
    if count in _NOT_A_COUNT:
        return count
    return count // batch_size if drop_remainder else -(-count // batch_size)


def repeated(count, times):
    """``count`` elements read ``times`` times (None: forever)."""
    if times is None:
        return 0 if count == 0 else INFINITE_CARDINALITY
    if times == 0:
        return 0
    return count if count in _NOT_A_COUNT else count * times


def taken(count, stop):
    """The first ``stop`` (None: all) of ``count`` elements."""
    if count == UNKNOWN_CARDINALITY or stop is None:
        return count
    return stop if count == INFINITE_CARDINALITY else min(count, stop)


def skipped(count, start):
    """What is left of ``count`` elements after the first ``start`` (None: all).

    ``skip(-1)`` reads nothing in eagerkit, so it leaves 0 even of an infinite input (TF's
    would read that input forever, and says infinite)."""
    if start is None:
        return 0
    if count in _NOT_A_COUNT:
        return count
    return max(count - start, 0)


def zipped(counts):
    """``zip`` of datasets with these counts: the shortest (an infinite one never is)."""
    if UNKNOWN_CARDINALITY in counts:
        return UNKNOWN_CARDINALITY
    finite = [count for count in counts if count != INFINITE_CARDINALITY]
    return min(finite) if finite else INFINITE_CARDINALITY


def concatenated(first, second):
    """``first.concatenate(second)``: both counts added (infinite, then unknown, wins: TF's
    order)."""
    if INFINITE_CARDINALITY in (first, second):
        return INFINITE_CARDINALITY
    if UNKNOWN_CARDINALITY in (first, second):
        return UNKNOWN_CARDINALITY
    return first + second


def cardinality(dataset):
    """``dataset.cardinality()``: TF's ``tf.data.experimental.cardinality``.

    >>> import eagerkit as ek
    >>> ek.data.experimental.cardinality(ek.data.Dataset.range(5).take(2))
    <ek.Tensor: shape=(), dtype=int64, numpy=2>
    """
    from eagerkit.data.dataset import Dataset  # (it imports this module)

    if not isinstance(dataset, Dataset):
        raise type_error(
            f"cardinality: dataset must be an ek.data.Dataset, got {describe(dataset)}; "
            "build one with ek.data.Dataset.from_tensor_slices(...) or call "
            "dataset.cardinality() on it",
            op="cardinality",
        )
    return dataset.cardinality()
