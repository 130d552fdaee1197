"""Dataset methods that regroup elements by key or size: ``group_by_window``,
``bucket_by_sequence_length`` and ``rebatch``, and the ``random`` source (TF 2's).

A mixin of ``Dataset``, as ``combining.py`` (the buckets are ``bucketing.py``'s, the stream
of ``group_by_window`` is ``window_groups.py``'s).
``group_by_window`` follows TF's kernel: each element goes to the group of its key; a group
that reaches its window size is handed, as a Dataset, to ``reduce_func``, whose elements come
out next; when the input ends, the groups left over are handed on in increasing key order
(TF keeps them in an ordered map).

Examples
--------
>>> import eagerkit as ek
>>> ds = ek.data.Dataset.range(10).group_by_window(
...     key_func=lambda x: x % 2, reduce_func=lambda key, window: window.batch(3), window_size=3)
>>> [b.numpy().tolist() for b in ds]
[[0, 2, 4], [1, 3, 5], [6, 8], [7, 9]]
>>> [b.numpy().tolist() for b in ek.data.Dataset.range(7).batch(4).rebatch(3)]
[[0, 1, 2], [3, 4, 5], [6]]
"""

import itertools

import numpy as np

from eagerkit import dtypes
from eagerkit.arguments import describe, positive
from eagerkit.data import bucketing, checks, shuffle, specs, steps, structure
from eagerkit.data import cardinality as counts
from eagerkit.data.steps import Failed
from eagerkit.data.window_groups import (
    element_key,
    grouped,
    reduced_dataset,
    window_of,
    window_sizes,
)
from eagerkit.errors import InvalidArgumentError, ResourceExhaustedError, type_error
from eagerkit.tensor import convert_to_tensor


class Grouping:
    """``Dataset``'s grouping steps (a mixin: ``self`` is a Dataset)."""

    _shown_as = "Dataset"  # errors name its static methods as users call them

    def group_by_window(self, key_func, reduce_func, window_size=None, window_size_func=None):
        """Group elements by ``key_func`` (an int64 scalar per element) into windows of
        ``window_size`` (or ``window_size_func(key)``) and replace each window by the
        elements of ``reduce_func(key, window_dataset)``.

        >>> import eagerkit as ek
        >>> words = ek.data.Dataset.from_tensor_slices([3, 1, 4, 1, 5, 9, 2, 6])
        >>> by_parity = words.group_by_window(
        ...     lambda x: ek.cast(x % 2, ek.int64), lambda key, w: w.batch(2), window_size=2)
        >>> [b.numpy().tolist() for b in by_parity]
        [[3, 1], [1, 5], [4, 2], [6], [9]]
        """
        op = "Dataset.group_by_window"
        checks.check_callable(key_func, op, "key_func")
        checks.check_callable(reduce_func, op, "reduce_func")
        size_of = window_sizes(window_size, window_size_func, op)

        def make_iterator():
            return grouped(self._make_iterator(), key_func, reduce_func, size_of, self, op)

        def spec():  # the spec of reduce_func's dataset for a window of the first element
            first = specs.first_elements(self, "element_spec", count=1)[0]
            key = element_key(key_func, first, op)
            return reduced_dataset(reduce_func, key, window_of([first], self), op).element_spec

        name = getattr(reduce_func, "__name__", "function")
        return self._then(make_iterator, f"group_by_window({name})", _unknown(self), spec)

    def bucket_by_sequence_length(
        self,
        element_length_func,
        bucket_boundaries,
        bucket_batch_sizes,
        padded_shapes=None,
        padding_values=None,
        pad_to_bucket_boundary=False,
        no_padding=False,
        drop_remainder=False,
    ):
        """Batches of elements of similar length: an element of length ``n`` goes to bucket
        ``i`` where ``bucket_boundaries[i - 1] <= n < bucket_boundaries[i]``, and each bucket
        is batched (``bucket_batch_sizes[i]`` elements, padded as ``padded_batch`` pads).

        >>> import eagerkit as ek
        >>> lengths = ek.data.Dataset.from_tensor_slices([1, 5, 2, 6, 1])
        >>> rows = lengths.map(lambda n: ek.fill([n], n))
        >>> ds = rows.bucket_by_sequence_length(lambda x: ek.size(x), [3], [2, 2])
        >>> [b.numpy().tolist() for b in ds]
        [[[1, 0], [2, 2]], [[5, 5, 5, 5, 5, 0], [6, 6, 6, 6, 6, 6]], [[1]]]
        """
        op = "Dataset.bucket_by_sequence_length"
        checks.check_callable(element_length_func, op, "element_length_func")
        boundaries, sizes = bucketing.checked_buckets(bucket_boundaries, bucket_batch_sizes, op)
        to_boundary = checks.flag(pad_to_bucket_boundary, op, "pad_to_bucket_boundary")
        drop = checks.flag(drop_remainder, op, "drop_remainder")
        mode = "none" if checks.flag(no_padding, op, "no_padding") else "pad"
        mode = "boundary" if to_boundary and mode == "pad" else mode

        def bucket_size(bucket):
            return convert_to_tensor(sizes[int(bucket)], dtype=dtypes.int64)

        return self.group_by_window(
            bucketing.bucket_key(element_length_func, boundaries, to_boundary, op),
            bucketing.bucket_batcher(
                boundaries, sizes, padded_shapes, padding_values, mode, drop, op
            ),
            window_size_func=bucket_size,
        )

    def rebatch(self, batch_size, drop_remainder=False):
        """The rows of the (batched) elements regrouped into batches of ``batch_size``: as
        ``unbatch().batch(batch_size)``. A list of sizes is cycled through, batch by batch.

        >>> import eagerkit as ek
        >>> [b.numpy().tolist() for b in ek.data.Dataset.range(8).batch(4).rebatch([2, 1, 1])]
        [[0, 1], [2], [3], [4, 5], [6], [7]]
        """
        op = "Dataset.rebatch"
        sizes = [positive(s, "batch_size", op) for s in bucketing.listed(batch_size)]
        if not sizes:
            raise InvalidArgumentError(f"{op}: batch_size must hold at least one size", op=op)
        drop = checks.flag(drop_remainder, op, "drop_remainder")
        rows = self.unbatch()

        def make_iterator():
            return _rebatched(rows._make_iterator(), itertools.cycle(sizes), max(sizes), drop)

        fixed = sizes[0] if drop and len(set(sizes)) == 1 else None
        spec = lambda: specs.batched(rows.element_spec, fixed)  # noqa: E731
        label = sizes[0] if isinstance(batch_size, int) else sizes
        return self._then(make_iterator, f"rebatch({label})", _unknown(self), spec)

    @staticmethod
    def random(seed=None, rerandomize_each_iteration=None):
        """Random int64 scalars, uniform in [0, 2**32) as TF's kernel draws them, forever.

        The same ``seed`` gives the same numbers (numpy's seeded generator: not TF's own
        numbers); without one, the global seed (``ek.random.set_seed``), else a new one. Each
        pass over the dataset repeats them, unless ``rerandomize_each_iteration``.

        >>> import eagerkit as ek
        >>> a = [int(x) for x in ek.data.Dataset.random(seed=4).take(3)]
        >>> a == [int(x) for x in ek.data.Dataset.random(seed=4).take(3)]
        True
        >>> all(0 <= x < 2**32 for x in a)
        True
        """
        op = "Dataset.random"
        base = shuffle.base_seed(seed)
        fresh = checks.flag(bool(rerandomize_each_iteration), op, "rerandomize_each_iteration")
        passes = itertools.count()

        def make_iterator():
            rng = np.random.default_rng([base, next(passes)] if fresh else base)
            while True:
                yield convert_to_tensor(int(rng.integers(2**32)), dtype=dtypes.int64)

        from eagerkit.data.combining import _source

        return _source(
            make_iterator,
            f"random({seed})",
            counts.INFINITE_CARDINALITY,
            specs.scalar(dtypes.int64),
        )


def group_by_window(key_func, reduce_func, window_size=None, window_size_func=None):
    """TF's ``tf.data.experimental.group_by_window``: the transformation for ``Dataset.apply``
    (the same as ``dataset.group_by_window(...)``).

    >>> import eagerkit as ek
    >>> grouping = ek.data.experimental.group_by_window(
    ...     lambda x: x % 3, lambda key, w: w.batch(5), window_size=5)
    >>> [b.numpy().tolist() for b in ek.data.Dataset.range(7).apply(grouping)]
    [[0, 3, 6], [1, 4], [2, 5]]
    """
    op = "group_by_window"
    checks.check_callable(key_func, op, "key_func")
    checks.check_callable(reduce_func, op, "reduce_func")
    window_sizes(window_size, window_size_func, op)  # refused now, not when applied

    def step(dataset):
        return dataset.group_by_window(key_func, reduce_func, window_size, window_size_func)

    return _transformation(op, step)


def bucket_by_sequence_length(
    element_length_func,
    bucket_boundaries,
    bucket_batch_sizes,
    padded_shapes=None,
    padding_values=None,
    pad_to_bucket_boundary=False,
    no_padding=False,
    drop_remainder=False,
):
    """TF's ``tf.data.experimental.bucket_by_sequence_length``: the transformation for
    ``Dataset.apply`` (the same as ``dataset.bucket_by_sequence_length(...)``).

    >>> import eagerkit as ek
    >>> rows = ek.data.Dataset.from_tensor_slices([1, 4, 2]).map(lambda n: ek.fill([n], n))
    >>> bucketing = ek.data.experimental.bucket_by_sequence_length(ek.size, [3], [2, 2])
    >>> [b.numpy().tolist() for b in rows.apply(bucketing)]
    [[[1, 0], [2, 2]], [[4, 4, 4, 4]]]
    """
    op = "bucket_by_sequence_length"
    checks.check_callable(element_length_func, op, "element_length_func")
    bucketing.checked_buckets(bucket_boundaries, bucket_batch_sizes, op)  # refused now
    arguments = (element_length_func, bucket_boundaries, bucket_batch_sizes, padded_shapes)
    options = (padding_values, pad_to_bucket_boundary, no_padding, drop_remainder)

    def step(dataset):
        return dataset.bucket_by_sequence_length(*arguments, *options)

    return _transformation(op, step)


def _transformation(op, step):
    """``step`` as a function of a dataset, for ``Dataset.apply`` (anything else refused)."""

    def apply(dataset):
        if not isinstance(dataset, Grouping):
            raise type_error(
                f"{op}: the transformation takes an ek.data.Dataset, got {describe(dataset)}; "
                "pass it to dataset.apply(...)",
                op=op,
            )
        return step(dataset)

    return apply


def _rebatched(rows, sizes, largest, drop_remainder):
    """Rows regrouped into batches of the sizes ``sizes`` gives in turn."""
    checked = False
    while True:
        size, batch = next(sizes), []
        for row in itertools.islice(rows, size):  # (lazily: checked before reading on)
            if not checked and type(row) is not Failed:
                checked = True  # the first row tells how much the largest batch would hold
                try:
                    steps.fits(largest, row, "Dataset.rebatch", "batch_size")
                except ResourceExhaustedError as error:
                    yield Failed(error)
                    return
            batch.append(row)
        failed = next((row for row in batch if type(row) is Failed), None)
        if failed is not None:  # (the rows of that batch are lost with it, as in batch)
            yield failed
            continue
        if not batch or (drop_remainder and len(batch) < size):
            return
        try:
            yield structure.stack(batch, what="Dataset.rebatch")
        except Exception as error:
            yield Failed(error)


def _unknown(dataset):
    """The count of a regrouped dataset: infinite for an infinite input, else unknown."""
    infinite = dataset._cardinality == counts.INFINITE_CARDINALITY
    return counts.INFINITE_CARDINALITY if infinite else counts.UNKNOWN_CARDINALITY
