"""Dataset methods that join datasets or reshape their stream: ``from_tensors``, ``zip``,
``concatenate``, ``enumerate``, ``unbatch``, ``padded_batch`` and ``flat_map``.

They are a mixin of ``Dataset`` (it inherits them), kept apart so that each file holds one
kind of step. An element whose making failed (a ``Failed``, see ``steps``) goes down the
stream as TF's kernels pass an error on: ``zip`` fails its element when a part failed,
``unbatch``, ``enumerate``, ``concatenate`` and ``flat_map`` pass it on.

Examples
--------
>>> import eagerkit as ek
>>> letters = ek.data.Dataset.from_tensor_slices(["a", "b", "c"])
>>> [(int(i), s.numpy()) for i, s in letters.enumerate(start=1)]
[(1, b'a'), (2, b'b'), (3, b'c')]
>>> pairs = ek.data.Dataset.zip(ek.data.Dataset.range(3), letters)
>>> [(int(n), s.numpy()) for n, s in pairs.concatenate(pairs.take(1))]
[(0, b'a'), (1, b'b'), (2, b'c'), (0, b'a')]
"""

import itertools

from eagerkit import dtypes
from eagerkit.arguments import describe, positive, whole_number
from eagerkit.data import cardinality as counts
from eagerkit.data import checks, padding, specs, steps, structure
from eagerkit.data.steps import Failed
from eagerkit.errors import InvalidArgumentError
from eagerkit.tensor import Tensor, convert_to_tensor


class Joining:
    """``Dataset``'s joining steps (a mixin: ``self`` is a Dataset)."""

    _shown_as = "Dataset"  # errors name its static methods as users call them: Dataset.zip

    @staticmethod
    def from_tensors(tensors):
        """A dataset of one element: ``tensors`` whole (a tensor, tuple or dict).

        >>> import eagerkit as ek
        >>> [x.numpy().tolist() for x in ek.data.Dataset.from_tensors([1, 2])]
        [[1, 2]]
        """
        element = structure.to_tensors(tensors)
        spec = lambda: specs.of_element(element)  # noqa: E731
        return _dataset(lambda: iter((element,)), "from_tensors()", 1, spec)

    @staticmethod
    def zip(*datasets):
        """Elements of several datasets side by side, until the shortest ends.

        Pass the datasets as arguments (a tuple comes out) or one tuple or dict of them
        (its structure comes out), as TF's ``Dataset.zip``.

        >>> import eagerkit as ek
        >>> a, b = ek.data.Dataset.range(3), ek.data.Dataset.range(10, 12)
        >>> [(int(x), int(y)) for x, y in ek.data.Dataset.zip(a, b)]
        [(0, 10), (1, 11)]
        >>> [sorted(d) for d in ek.data.Dataset.zip({"x": a, "y": b}).take(1)]
        [['x', 'y']]
        """
        nested = datasets[0] if len(datasets) == 1 else datasets
        parts = structure.flatten(nested)
        if not parts or not all(isinstance(part, Joining) for part in parts):
            raise InvalidArgumentError(
                "Dataset.zip: expects datasets, as arguments (zip(a, b)) or in one tuple or "
                f"dict (zip((a, b)), zip({{'x': a, 'y': b}})); got {describe(datasets)} holding "
                f"{[type(part).__name__ for part in parts]}",
                op="Dataset.zip",
            )

        def make_iterator():
            for elements in zip(*(part._make_iterator() for part in parts), strict=False):
                failed = next((e for e in elements if type(e) is Failed), None)
                yield failed if failed is not None else structure.pack(nested, elements)

        count = counts.zipped([part._cardinality for part in parts])
        spec = lambda: structure.pack(nested, [part.element_spec for part in parts])  # noqa: E731
        return _dataset(make_iterator, f"zip({len(parts)} datasets)", count, spec)

    def concatenate(self, dataset):
        """This dataset's elements, then ``dataset``'s (the same structure and dtypes).

        >>> import eagerkit as ek
        >>> [int(x) for x in ek.data.Dataset.range(2).concatenate(ek.data.Dataset.range(5, 7))]
        [0, 1, 5, 6]
        """
        if not isinstance(dataset, Joining):
            raise InvalidArgumentError(
                f"Dataset.concatenate: dataset must be an ek.data.Dataset, got {describe(dataset)}",
                op="Dataset.concatenate",
            )
        count = counts.concatenated(self._cardinality, dataset._cardinality)
        return self._then(
            lambda: itertools.chain(self._make_iterator(), dataset._make_iterator()),
            "concatenate()",
            count,
            lambda: specs.common([self.element_spec, dataset.element_spec], "Dataset.concatenate"),
        )

    def enumerate(self, start=0):
        """Pairs ``(index, element)``, the index an int64 scalar counting from ``start``.

        >>> import eagerkit as ek
        >>> [(int(i), int(x)) for i, x in ek.data.Dataset.range(5, 7).enumerate()]
        [(0, 5), (1, 6)]
        """
        first = whole_number(start, "start", "Dataset.enumerate")

        def make_iterator():
            for index, element in enumerate(self._make_iterator(), start=first):
                if type(element) is not Failed:  # the index moves on past a failed one (TF's)
                    element = (convert_to_tensor(index, dtype=dtypes.int64), element)
                yield element

        spec = lambda: (specs.scalar(dtypes.int64), self.element_spec)  # noqa: E731
        return self._then(make_iterator, f"enumerate({first})", spec=spec)

    def unbatch(self):
        """Split each element into its rows (along axis 0): ``batch``'s inverse.

        >>> import eagerkit as ek
        >>> [int(x) for x in ek.data.Dataset.range(5).batch(2).unbatch()]
        [0, 1, 2, 3, 4]
        """
        return self._then(
            lambda: _unbatched(self._make_iterator()),
            "unbatch()",
            counts.UNKNOWN_CARDINALITY,
            lambda: specs.unbatched(self.element_spec),
        )

    def padded_batch(
        self, batch_size, padded_shapes=None, padding_values=None, drop_remainder=False
    ):
        """``batch`` for elements of different shapes: each is padded to one shape first.

        ``padded_shapes`` (the element's structure; default: all sizes ``None``) gives each
        tensor's shape, ``None`` for "the longest in this batch"; ``padding_values`` (a
        scalar, or the element's structure) fills the gap (default 0, or b'' for strings).

        >>> import eagerkit as ek
        >>> rows = ek.data.Dataset.range(1, 4).map(lambda n: ek.fill([n], n))
        >>> [b.numpy().tolist() for b in rows.padded_batch(2)]
        [[[1, 0], [2, 2]], [[3, 3, 3]]]
        >>> [b.numpy().tolist() for b in rows.padded_batch(3, padded_shapes=[4], padding_values=-1)]
        [[[1, -1, -1, -1], [2, 2, -1, -1], [3, 3, 3, -1]]]
        """
        op = "Dataset.padded_batch"
        batch_size = positive(batch_size, "batch_size", op)
        drop_remainder = checks.flag(drop_remainder, op, "drop_remainder")

        def pad_and_stack(elements):
            padded = padding.padded(elements, padded_shapes, padding_values, op)
            return structure.stack(padded, what=op)

        return self._then(
            lambda: steps.batched(self._make_iterator(), batch_size, drop_remainder, pad_and_stack),
            f"padded_batch({batch_size})",
            counts.batched(self._cardinality, batch_size, drop_remainder),
            lambda: specs.batched(
                padding.padded_spec(self.element_spec, padded_shapes, op),
                batch_size if drop_remainder else None,
            ),
        )

    def flat_map(self, map_func):
        """Each element through ``map_func``, which returns a Dataset; their elements in turn.

        >>> import eagerkit as ek
        >>> def twice(x):
        ...     return ek.data.Dataset.from_tensors(x).repeat(2)
        >>> [int(x) for x in ek.data.Dataset.range(2).flat_map(twice)]
        [0, 0, 1, 1]
        """
        checks.check_callable(map_func, "flat_map", "map_func")

        def make_iterator():
            for element in self._make_iterator():
                if type(element) is Failed:
                    yield element
                    continue
                try:
                    inner = steps.call(map_func, element)
                    if not isinstance(inner, Joining):
                        raise InvalidArgumentError(
                            "Dataset.flat_map: map_func must return an ek.data.Dataset, got "
                            f"{describe(inner)}; for one value per element use .map",
                            op="Dataset.flat_map",
                        )
                except Exception as error:  # the element's error, raised when it comes out
                    yield Failed(error)
                    continue
                yield from inner._make_iterator()

        name = getattr(map_func, "__name__", "function")
        spec = lambda: specs.of_datasets(self, map_func, "Dataset.flat_map")  # noqa: E731
        return self._then(make_iterator, f"flat_map({name})", counts.UNKNOWN_CARDINALITY, spec)


def _dataset(make_iterator, description, cardinality, spec):
    """A new source Dataset (a plain one, also when called on a TextLineDataset)."""
    from eagerkit.data.dataset import Dataset  # (it imports this module)

    return Dataset(make_iterator, description, cardinality, spec)


def _unbatched(source):
    """``unbatch``: the rows of each element; an element that has no rows to give fails."""
    for element in source:
        if type(element) is Failed:
            yield element
            continue
        leaves = structure.flatten(element)
        sizes = {leaf.shape[0] if leaf.ndim else None for leaf in leaves}
        if len(sizes) != 1 or None in sizes:
            shapes = [tuple(leaf.shape) for leaf in leaves]
            yield Failed(
                InvalidArgumentError(
                    "Dataset.unbatch: every tensor of an element needs a first axis of one "
                    f"size to split along; got shapes {shapes}",
                    op="Dataset.unbatch",
                )
            )
            continue
        for i in range(sizes.pop()):
            rows = [Tensor(leaf._data[i, ...], leaf._device) for leaf in leaves]
            yield structure.pack(element, rows)
