"""Dataset: an input pipeline as a chain of small steps, read with a plain ``for`` loop.

A Dataset is a recipe, not data in flight: it holds a function that starts a fresh Python
iterator over its elements, and each transformation (``map``, ``shuffle``, ``batch``, ...)
returns a new Dataset whose function pulls from the one before. So a Dataset can be read
many times (each epoch starts over) and nothing runs until you iterate. Its elements are
Tensors, or tuples and dicts of them; they leave the tape, as TF's iterators do.

Examples
--------
>>> import eagerkit as ek
>>> ds = ek.data.Dataset.from_tensor_slices([1, 2, 3, 4, 5, 6]).map(ek.square).batch(4)
>>> ds
<ek.data.Dataset from_tensor_slices(shape=(6,)).map(square).batch(4)>
>>> for batch in ds:
...     print(batch.numpy())
[ 1  4  9 16]
[25 36]
"""

import itertools

import numpy as np

from eagerkit import dtypes, errors
from eagerkit.arguments import count_or_all, describe, positive, whole_number
from eagerkit.data import cardinality as counts
from eagerkit.data import checks, file_lists, generator, shuffle, specs, steps, structure
from eagerkit.data.combining import Combining
from eagerkit.data.grouping import Grouping
from eagerkit.data.iterator import Iterator
from eagerkit.data.joining import Joining
from eagerkit.data.reading import Reading
from eagerkit.data.stateful_steps import Stateful
from eagerkit.errors import InvalidArgumentError
from eagerkit.tensor import Tensor, convert_to_tensor

_OP = "Dataset"


class Dataset(Joining, Reading, Combining, Grouping, Stateful):
    """A re-readable stream of elements; build one with ``from_tensor_slices`` & co.

    Its joining steps (``zip``, ``concatenate``, ``enumerate``, ``unbatch``, ...) live in
    ``joining.py``, its reading ones (``cache``, ``reduce``, ``as_numpy_iterator``, ``len``)
    in ``reading.py``, its regrouping and mixing ones (``window``, ``interleave``,
    ``sample_from_datasets``, ...) in ``combining.py``, its grouping ones (``group_by_window``,
    ``rebatch``, ``random``, ...) in ``grouping.py``.
    """

    def __init__(
        self, make_iterator, description, cardinality=counts.UNKNOWN_CARDINALITY, spec=None
    ):
        self._make_iterator = make_iterator  # () -> a fresh Python iterator over elements
        self._description = description
        self._cardinality = cardinality  # a count, or INFINITE/UNKNOWN_CARDINALITY
        self._spec = spec  # () -> the element spec (None: the first element's), see specs.py
        self._spec_found = None

    @property
    def element_spec(self):
        """The TensorSpecs of the elements, in their structure (specs.py says how it is
        known: a function given to ``map`` runs on the first two elements, the first time
        this is asked for, never when the dataset is built).

        >>> import eagerkit as ek
        >>> ek.data.Dataset.range(3).map(lambda x: ek.cast(x, ek.float32)).element_spec
        TensorSpec(shape=(), dtype=ek.float32, name=None)
        """
        if self._spec_found is None:
            if self._spec is not None:
                self._spec_found = (self._spec(),)
            else:
                first = specs.first_elements(self, "element_spec", count=1)[0]
                self._spec_found = (specs.of_element(first),)
        return self._spec_found[0]

    def cardinality(self):
        """The number of elements (int64), known without reading: -1 (INFINITE_CARDINALITY)
        after ``repeat()``, -2 (UNKNOWN_CARDINALITY) when only reading would tell, as TF's.

        >>> import eagerkit as ek
        >>> ek.data.Dataset.from_tensor_slices([1, 2, 3]).batch(2).cardinality()
        <ek.Tensor: shape=(), dtype=int64, numpy=2>
        """
        return convert_to_tensor(self._cardinality, dtype=dtypes.int64)

    # --- reading ------------------------------------------------------------------------------
    def __iter__(self):
        return Iterator(self)

    def __next__(self):
        raise errors.type_error(
            f"next: a {type(self).__name__} is not an iterator: it can be read many times, so "
            "it does not keep a position. Loop over it (for x in dataset), or make an "
            "iterator first: it = iter(dataset) (or ek.Iterator(dataset)), then next(it).",
            op="next",
        )

    def make_one_shot_iterator(self):
        """TF1's spelling of ``iter(dataset)``."""
        return Iterator(self)

    def __repr__(self):
        return f"<ek.data.Dataset {self._description}>"

    def _then(self, make_iterator, step, cardinality=None, spec=None):
        """The next step of the pipeline; ``cardinality``: its count (None: this one's);
        ``spec``: () -> its element spec (None: this one's)."""
        count = self._cardinality if cardinality is None else cardinality
        spec = spec or (lambda: self.element_spec)
        return Dataset(make_iterator, f"{self._description}.{step}", count, spec)

    # --- sources ------------------------------------------------------------------------------
    @staticmethod
    def from_tensor_slices(tensors):
        """One element per row (index along axis 0) of ``tensors``: an array, tuple or dict.

        Numpy arrays keep their dtype (float64 stays float64); Python floats become float32.

        Examples
        --------
        >>> import eagerkit as ek, numpy as np
        >>> ds = ek.data.Dataset.from_tensor_slices((np.array([[1.0, 2.0], [3.0, 4.0]]), [0, 1]))
        >>> x, y = next(iter(ds))
        >>> x
        <ek.Tensor: shape=(2,), dtype=float64, numpy=array([1., 2.])>
        >>> y
        <ek.Tensor: shape=(), dtype=int32, numpy=0>
        """
        element = structure.to_tensors(tensors)
        leaves = structure.flatten(element)
        whole = specs.of_element(element)
        if not leaves or any(leaf.ndim == 0 for leaf in leaves):
            raise InvalidArgumentError(
                "from_tensor_slices: cannot slice a scalar; every part needs a first axis to "
                f"slice along (got tensors={describe(tensors)} with shapes "
                f"{[tuple(leaf.shape) for leaf in leaves]}); pass e.g. [1, 2, 3] or (x, y)",
                op="from_tensor_slices",
            )
        count = leaves[0].shape[0]
        if any(leaf.shape[0] != count for leaf in leaves):
            raise InvalidArgumentError(
                "from_tensor_slices: all parts must have the same size along axis 0, got "
                f"shapes {[tuple(leaf.shape) for leaf in leaves]}",
                op="from_tensor_slices",
            )

        def make_iterator():
            for i in range(count):
                rows = [Tensor(leaf._data[i, ...], leaf._device) for leaf in leaves]
                yield structure.pack(element, rows)

        shapes = [tuple(leaf.shape) for leaf in leaves]
        description = f"from_tensor_slices(shape={_one_or_all(shapes)})"
        return Dataset(make_iterator, description, count, lambda: specs.unbatched(whole))

    from_generator = staticmethod(generator.from_generator)
    list_files = staticmethod(file_lists.list_files)

    @staticmethod
    def range(*args):
        """int64 scalars like Python's ``range(start, stop, step)``.

        >>> import eagerkit as ek
        >>> [int(x) for x in ek.data.Dataset.range(1, 8, 3)]
        [1, 4, 7]
        """
        if not 1 <= len(args) <= 3:
            raise InvalidArgumentError(
                f"range: takes 1 to 3 whole numbers (stop, or start, stop[, step]) as Python's "
                f"range does, got {len(args)}",
                op="range",
            )
        numbers = range(*(whole_number(a, "each argument", "range") for a in args))
        if numbers.step == 0:
            raise InvalidArgumentError("range: step must not be 0, got 0", op="range")

        def make_iterator():
            for n in numbers:
                yield convert_to_tensor(n, dtype=dtypes.int64)

        count = counts.of_range(numbers)
        description = f"range({', '.join(str(a) for a in args)})"
        return Dataset(make_iterator, description, count, lambda: specs.scalar(dtypes.int64))

    # --- transformations --------------------------------------------------------------------
    def map(self, map_func, num_parallel_calls=None, deterministic=None):
        """Apply ``map_func`` to each element (a tuple element is passed as arguments).

        ``num_parallel_calls`` (a count, or ``ek.data.AUTOTUNE``) and ``deterministic`` are
        TF's tuning knobs: checked, then eagerkit maps one element at a time, in order.

        >>> import eagerkit as ek
        >>> pairs = ek.data.Dataset.from_tensor_slices(([1, 2], [10, 20]))
        >>> [int(s) for s in pairs.map(lambda x, y: x + y)]
        [11, 22]
        """
        checks.check_callable(map_func, "map", "map_func")
        checks.tuning(num_parallel_calls, deterministic, "map")
        return self._then(
            lambda: steps.mapped(self._make_iterator(), map_func),
            f"map({getattr(map_func, '__name__', 'function')})",
            spec=lambda: specs.of_function(self, map_func),
        )

    def filter(self, predicate):
        """Keep the elements for which ``predicate`` gives True (a bool scalar or Python bool).

        >>> import eagerkit as ek
        >>> lines = ek.data.Dataset.from_tensor_slices(["# header", "1", "", "2"])
        >>> [x.numpy() for x in lines.filter(lambda s: ek.strings.length(s) > 0).skip(1)]
        [b'1', b'2']
        """
        checks.check_callable(predicate, "filter", "predicate")
        return self._then(
            lambda: steps.filtered(self._make_iterator(), predicate, checks.kept),
            f"filter({getattr(predicate, '__name__', 'function')})",
            counts.UNKNOWN_CARDINALITY,
        )

    def shuffle(self, buffer_size, seed=None, reshuffle_each_iteration=True):
        """Shuffle through a buffer of ``buffer_size`` elements (TF's algorithm).

        The buffer starts with the first ``buffer_size`` elements; each output is a random
        buffer element, replaced by the next input. So an element can move up by at most
        ``buffer_size - 1`` places: a buffer as large as the dataset shuffles fully. With a
        ``seed`` the order is repeatable; ``reshuffle_each_iteration`` gives each pass over
        the dataset (each epoch) a different order.

        >>> import eagerkit as ek
        >>> ds = ek.data.Dataset.range(6).shuffle(6, seed=1)
        >>> sorted(int(x) for x in ds)
        [0, 1, 2, 3, 4, 5]
        >>> [int(x) for x in ek.data.Dataset.range(6).shuffle(1, seed=1)]  # a buffer of 1
        [0, 1, 2, 3, 4, 5]
        """
        buffer_size = positive(buffer_size, "buffer_size", "shuffle")
        base = shuffle.base_seed(seed)
        reshuffle = checks.flag(reshuffle_each_iteration, "shuffle", "reshuffle_each_iteration")
        passes = itertools.count()

        def make_iterator():
            epoch = next(passes) if reshuffle else 0
            rng = np.random.default_rng([base, epoch])
            return shuffle.buffer_shuffle(self._make_iterator(), buffer_size, rng)

        return self._then(make_iterator, f"shuffle({buffer_size})")

    def batch(self, batch_size, drop_remainder=False, num_parallel_calls=None, deterministic=None):
        """Stack ``batch_size`` consecutive elements; the last batch may be smaller unless
        ``drop_remainder`` (``num_parallel_calls``, ``deterministic``: as in ``map``).

        >>> import eagerkit as ek
        >>> [b.numpy().tolist() for b in ek.data.Dataset.range(5).batch(2)]
        [[0, 1], [2, 3], [4]]
        >>> [b.numpy().tolist() for b in ek.data.Dataset.range(5).batch(2, drop_remainder=True)]
        [[0, 1], [2, 3]]
        """
        batch_size = positive(batch_size, "batch_size", "batch")
        drop_remainder = checks.flag(drop_remainder, "batch", "drop_remainder")
        checks.tuning(num_parallel_calls, deterministic, "batch")
        return self._then(
            lambda: steps.batched(self._make_iterator(), batch_size, drop_remainder),
            f"batch({batch_size})",
            counts.batched(self._cardinality, batch_size, drop_remainder),
            lambda: specs.batched(self.element_spec, batch_size if drop_remainder else None),
        )

    def repeat(self, count=None):
        """Read the dataset ``count`` times in a row (``None`` or -1: forever).

        >>> import eagerkit as ek
        >>> [int(x) for x in ek.data.Dataset.range(2).repeat(3)]
        [0, 1, 0, 1, 0, 1]
        """
        times = None if count is None else count_or_all(count, "count", "repeat")  # None: forever
        return self._then(
            lambda: steps.repeated(self._make_iterator, times),
            f"repeat({'' if times is None else count})",
            counts.repeated(self._cardinality, times),
        )

    def take(self, count):
        """The first ``count`` elements (-1: all)."""
        stop = count_or_all(count, "count", "take")
        if stop is None:
            return self._then(self._make_iterator, f"take({count})")
        return self._then(
            lambda: steps.taken(self._make_iterator(), stop),
            f"take({count})",
            counts.taken(self._cardinality, stop),
        )

    def skip(self, count):
        """Everything after the first ``count`` elements (-1: skip all)."""
        start = count_or_all(count, "count", "skip")
        if start is None:
            return self._then(
                lambda: iter(()), f"skip({count})", counts.skipped(self._cardinality, None)
            )
        return self._then(
            lambda: steps.skipped(self._make_iterator(), start),
            f"skip({count})",
            counts.skipped(self._cardinality, start),
        )

    def prefetch(self, buffer_size):
        """Accepted for TF compatibility; eagerkit reads elements when they are asked for."""
        count_or_all(buffer_size, "buffer_size", "prefetch")  # -1 is ek.data.AUTOTUNE
        return self._then(self._make_iterator, f"prefetch({buffer_size})")


def _one_or_all(shapes):
    return shapes[0] if len(shapes) == 1 else tuple(shapes)
