"""Dataset methods that regroup elements or mix datasets: ``window``, ``interleave``,
``counter``, ``sample_from_datasets`` and ``choose_from_datasets`` (the tf.data guide's).

A mixin of ``Dataset``, as ``joining.py`` (the streams of the steps that read several
datasets are in ``mixing.py``). Each follows TF's kernel, so the order of the
elements is TF's: ``interleave`` cycles through ``cycle_length`` open datasets taking
``block_length`` elements from each, and opens the next input's dataset in the slot of one
that ended; ``sample_from_datasets`` draws with numpy's seeded generator (deterministic given
the seed, not TF's own random numbers).

Examples
--------
>>> import eagerkit as ek
>>> windows = ek.data.Dataset.range(7).window(3, shift=2)
>>> [[int(x) for x in w] for w in windows]
[[0, 1, 2], [2, 3, 4], [4, 5, 6], [6]]
>>> ds = ek.data.Dataset.range(1, 4).interleave(
...     lambda x: ek.data.Dataset.from_tensors(x).repeat(3), cycle_length=2, block_length=2)
>>> [int(x) for x in ds]
[1, 1, 2, 2, 1, 2, 3, 3, 3]
"""

import collections
import itertools

import numpy as np

from eagerkit import dtypes
from eagerkit.arguments import describe, positive
from eagerkit.data import cardinality as counts
from eagerkit.data import checks, mixing, shuffle, specs, steps, structure
from eagerkit.data.steps import Failed
from eagerkit.errors import ResourceExhaustedError, type_error
from eagerkit.tensor import convert_to_tensor

# interleave's cycle_length when None (TF: AUTOTUNE, the machine's CPU count): a fixed
# number, so that the order is the same on every machine.
DEFAULT_CYCLE_LENGTH = 4
_UNKNOWN = counts.UNKNOWN_CARDINALITY


class Combining:
    """``Dataset``'s regrouping and mixing steps (a mixin: ``self`` is a Dataset)."""

    _shown_as = "Dataset"  # errors name its static methods as users call them

    def window(self, size, shift=None, stride=1, drop_remainder=False):
        """Windows of ``size`` elements, each a Dataset: window ``i`` holds the elements at
        ``i * shift + k * stride`` (``shift`` defaults to ``size``); the last ones may be
        shorter unless ``drop_remainder``. Elements that are tuples or dicts give windows of
        the same structure, a dataset per part (TF's).

        >>> import eagerkit as ek
        >>> ds = ek.data.Dataset.range(6).window(3, shift=1, drop_remainder=True)
        >>> [b.numpy().tolist() for b in ds.flat_map(lambda w: w.batch(3))]
        [[0, 1, 2], [1, 2, 3], [2, 3, 4], [3, 4, 5]]
        """
        op = "Dataset.window"
        size = positive(size, "size", op)
        shift = size if shift is None else positive(shift, "shift", op)
        stride = positive(stride, "stride", op)
        drop_remainder = checks.flag(drop_remainder, op, "drop_remainder")
        reach = (size - 1) * stride + 1  # input elements a full window spans

        def make_iterator():
            return _windows(self._make_iterator(), size, shift, stride, drop_remainder, reach)

        def spec():
            inner = self.element_spec
            return structure.pack(
                inner, [specs.DatasetSpec(leaf) for leaf in structure.flatten(inner)]
            )

        count = _window_count(self._cardinality, shift, reach, drop_remainder)
        return self._then(make_iterator, f"window({size}, {shift}, {stride})", count, spec)

    def interleave(
        self,
        map_func,
        cycle_length=None,
        block_length=None,
        num_parallel_calls=None,
        deterministic=None,
    ):
        """The datasets ``map_func`` makes of the elements, read in turn: ``block_length``
        (default 1) elements from each of ``cycle_length`` open ones (None: 4, a fixed
        default, where TF's depends on the machine's CPUs).

        >>> import eagerkit as ek
        >>> lines = ek.data.Dataset.range(2).interleave(
        ...     lambda x: ek.data.Dataset.range(3).map(lambda y: 10 * x + y), cycle_length=2)
        >>> [int(v) for v in lines]
        [0, 10, 1, 11, 2, 12]
        """
        op = "Dataset.interleave"
        checks.check_callable(map_func, op, "map_func")
        checks.tuning(num_parallel_calls, deterministic, op)
        cycle = _optional_count(cycle_length, "cycle_length", op, DEFAULT_CYCLE_LENGTH)
        block = _optional_count(block_length, "block_length", op, 1)

        def make_iterator():
            return mixing.interleaved(self._make_iterator(), map_func, cycle, block, op)

        name = getattr(map_func, "__name__", "function")
        spec = lambda: specs.of_datasets(self, map_func, op)  # noqa: E731
        return self._then(
            make_iterator, f"interleave({name}, {cycle})", counts.UNKNOWN_CARDINALITY, spec
        )

    @staticmethod
    def counter(start=0, step=1, dtype=dtypes.int64):
        """``start``, ``start + step``, ... forever (int64 unless told otherwise).

        >>> import eagerkit as ek
        >>> [int(x) for x in ek.data.Dataset.counter(10, step=5).take(3)]
        [10, 15, 20]
        """
        dtype = dtypes.as_dtype(dtype)
        first = convert_to_tensor(start, dtype=dtype)  # refuses what the dtype cannot hold
        delta = convert_to_tensor(step, dtype=dtype)

        def make_iterator():
            value = first
            while True:
                yield value
                value = value + delta

        return _source(
            make_iterator,
            f"counter({start}, {step})",
            counts.INFINITE_CARDINALITY,
            specs.scalar(dtype),
        )

    @staticmethod
    def sample_from_datasets(datasets, weights=None, seed=None, stop_on_empty_dataset=False):
        """Elements of ``datasets`` mixed at random: each comes from dataset ``i`` with
        probability ``weights[i]`` (default: equal); a dataset that ends drops out (with
        ``stop_on_empty_dataset``, the first to end ends it all). The same ``seed`` gives the
        same order.

        >>> import eagerkit as ek
        >>> a, b = ek.data.Dataset.range(3), ek.data.Dataset.range(10, 13)
        >>> mixed = ek.data.Dataset.sample_from_datasets([a, b], seed=7)
        >>> sorted(int(x) for x in mixed)
        [0, 1, 2, 10, 11, 12]
        """
        op = "Dataset.sample_from_datasets"
        datasets = mixing.checked_datasets(datasets, op)
        probabilities = mixing.normalized_weights(weights, len(datasets), op)
        base = shuffle.base_seed(seed)
        stop = checks.flag(stop_on_empty_dataset, op, "stop_on_empty_dataset")
        passes = itertools.count()

        def make_iterator():
            rng = np.random.default_rng([base, next(passes)])
            return mixing.sampled([d._make_iterator() for d in datasets], probabilities, rng, stop)

        spec = lambda: specs.common([d.element_spec for d in datasets], op)  # noqa: E731
        return _source(make_iterator, f"sample_from_datasets({len(datasets)})", _UNKNOWN, spec)

    @staticmethod
    def choose_from_datasets(datasets, choice_dataset, stop_on_empty_dataset=True):
        """Element ``k`` comes from ``datasets[c]``, ``c`` the ``k``-th element of
        ``choice_dataset`` (int64 scalars). A choice of a dataset that has ended stops it all
        (with ``stop_on_empty_dataset``, TF's default) or is skipped.

        >>> import eagerkit as ek
        >>> a, b = ek.data.Dataset.range(3), ek.data.Dataset.range(10, 13)
        >>> choice = ek.data.Dataset.from_tensor_slices(ek.constant([0, 1, 1, 0], ek.int64))
        >>> [int(x) for x in ek.data.Dataset.choose_from_datasets([a, b], choice)]
        [0, 10, 11, 1]
        """
        op = "Dataset.choose_from_datasets"
        datasets = mixing.checked_datasets(datasets, op)
        from eagerkit.data.dataset import Dataset

        if not isinstance(choice_dataset, Dataset):
            raise type_error(
                f"{op}: choice_dataset must be an ek.data.Dataset of int64 scalars, got "
                f"{describe(choice_dataset)}",
                op=op,
            )
        chosen = choice_dataset.element_spec
        if chosen != specs.scalar(dtypes.int64):
            raise type_error(
                f"{op}: choice_dataset must be a dataset of scalar int64 tensors, its elements "
                f"are {chosen!r}; e.g. .map(lambda c: ek.cast(c, ek.int64))",
                op=op,
            )
        stop = checks.flag(stop_on_empty_dataset, op, "stop_on_empty_dataset")

        def make_iterator():
            sources = [d._make_iterator() for d in datasets]
            return mixing.chosen(sources, choice_dataset._make_iterator(), stop, op)

        spec = lambda: specs.common([d.element_spec for d in datasets], op)  # noqa: E731
        return _source(make_iterator, f"choose_from_datasets({len(datasets)})", _UNKNOWN, spec)


def _source(make_iterator, description, cardinality, spec):
    from eagerkit.data.dataset import Dataset  # (it imports this module)

    return Dataset(
        make_iterator, description, cardinality, spec if callable(spec) else lambda: spec
    )


def _optional_count(value, what, op, default):
    if value is None or (isinstance(value, int) and value == checks.AUTOTUNE):
        return default
    return positive(value, what, op)


# --- window ----------------------------------------------------------------------------------
def _windows(source, size, shift, stride, drop_remainder, reach):
    """The windows of ``source`` (each a Dataset of its elements, or their structure)."""
    buffer = collections.deque()  # the input from the current window's start on
    ended = False
    while True:
        while not ended and len(buffer) < reach:
            element = next(source, None)
            if element is None:
                ended = True
            elif type(element) is Failed:  # the window it falls in fails (TF: its error)
                yield element
                return
            else:
                if not buffer:  # memory for a whole window's reach of elements like this one
                    try:
                        steps.fits(reach, element, "Dataset.window", "size")
                    except ResourceExhaustedError as error:
                        yield Failed(error)
                        return
                buffer.append(element)
        picked = list(itertools.islice(buffer, 0, reach, stride))
        if not picked or (drop_remainder and len(picked) < size):
            return
        yield _window(picked)
        for _ in range(shift):  # on to the next window's start (reading past this one's)
            if buffer:
                buffer.popleft()
            elif not ended and next(source, None) is None:  # input between two windows
                ended = True


def _window(elements):
    """One window: a Dataset of ``elements``, or per part of their structure (TF's)."""
    first = elements[0]
    columns = list(zip(*(structure.flatten(e) for e in elements), strict=True))
    parts = [
        _source(lambda c=c: iter(c), "window", len(c), lambda c=c: specs.of_tensor(c[0]))
        for c in columns
    ]
    return structure.pack(first, parts)


def _window_count(count, shift, reach, drop_remainder):
    if count in (counts.INFINITE_CARDINALITY, counts.UNKNOWN_CARDINALITY):
        return count
    if drop_remainder:
        return 0 if count < reach else (count - reach) // shift + 1
    return -(-count // shift)
