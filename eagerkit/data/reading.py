"""Dataset methods that read a dataset or keep what was read: ``cache``,
``as_numpy_iterator``, ``reduce``, ``get_single_element``, ``take_while``, ``apply`` and
``len()``.

They are a mixin of ``Dataset`` (it inherits them), kept apart so that each file holds one
kind of step.

Examples
--------
>>> import eagerkit as ek
>>> ds = ek.data.Dataset.range(1, 5)
>>> list(ds.as_numpy_iterator()), len(ds)
([np.int64(1), np.int64(2), np.int64(3), np.int64(4)], 4)
>>> ds.reduce(ek.constant(0, ek.int64), lambda total, x: total + x)
<ek.Tensor: shape=(), dtype=int64, numpy=10>
"""

from eagerkit.arguments import describe
from eagerkit.data import cardinality as counts
from eagerkit.data import checks, steps, structure
from eagerkit.data.iterator import Iterator
from eagerkit.data.steps import Failed
from eagerkit.errors import InvalidArgumentError, type_error


class Reading:
    """``Dataset``'s reading steps (a mixin: ``self`` is a Dataset)."""

    def cache(self, filename=""):
        """Keep the elements of the first whole pass; later passes (epochs) replay them.

        Steps before ``cache`` (a slow ``map``, reading files) run once. A pass that stops
        early keeps nothing, as in TF. eagerkit keeps the elements in memory, also when a
        ``filename`` is given (TF would write them to files there).

        >>> import eagerkit as ek
        >>> calls = []
        >>> ds = ek.data.Dataset.range(3).map(lambda x: calls.append(1) or x).cache()
        >>> [int(x) for x in ds], [int(x) for x in ds], len(calls)
        ([0, 1, 2], [0, 1, 2], 3)
        """
        if not isinstance(filename, str):
            raise type_error(
                f"Dataset.cache: filename must be a string ('' keeps the elements in memory), "
                f"got {describe(filename)}",
                op="Dataset.cache",
            )
        kept = []  # the elements of the first pass that reached the end (empty until then)

        def make_iterator():
            if kept:
                yield from kept[0]
                return
            read = []
            for element in self._make_iterator():
                read.append(element)
                yield element
            if not kept:  # this pass read everything: keep it
                kept.append(read)

        return self._then(make_iterator, f"cache({filename!r})" if filename else "cache()")

    def as_numpy_iterator(self):
        """An iterator over the elements as numpy values (tuples and dicts kept).

        >>> import eagerkit as ek
        >>> pairs = ek.data.Dataset.from_tensor_slices(([1, 2], ["a", "b"]))
        >>> list(pairs.as_numpy_iterator())
        [(np.int32(1), b'a'), (np.int32(2), b'b')]
        """
        for element in Iterator(self):
            leaves = [leaf.numpy() for leaf in structure.flatten(element)]
            yield structure.pack(element, leaves)

    def reduce(self, initial_state, reduce_func):
        """Fold the elements into one state: ``state = reduce_func(state, element)``.

        ``initial_state`` is a tensor (or a tuple or dict of them); the state keeps its
        structure and dtypes. The result is the last state.

        >>> import eagerkit as ek
        >>> squares = ek.data.Dataset.range(4).map(lambda x: x * x)
        >>> squares.reduce(ek.constant(0, ek.int64), lambda total, x: total + x)
        <ek.Tensor: shape=(), dtype=int64, numpy=14>
        """
        checks.check_callable(reduce_func, "reduce", "reduce_func")
        state = structure.to_tensors(initial_state)
        for element in Iterator(self):
            new_state = structure.to_tensors(reduce_func(state, element))
            checks.same_state(state, new_state, "Dataset.reduce")
            state = new_state
        return state

    def get_single_element(self):
        """The one element of a dataset that has exactly one (an error otherwise, as TF).

        >>> import eagerkit as ek
        >>> ek.data.Dataset.from_tensors([1, 2]).get_single_element()
        <ek.Tensor: shape=(2,), dtype=int32, numpy=array([1, 2], dtype=int32)>
        """
        elements = Iterator(self)
        first = next(elements, None)
        if first is None or next(elements, None) is not None:
            raise InvalidArgumentError(
                "Dataset.get_single_element: the dataset must have exactly one element, it "
                f"has {'none' if first is None else 'more than one'}; use take(1) for the "
                "first one",
                op="Dataset.get_single_element",
            )
        return first

    def take_while(self, predicate):
        """The elements up to (not including) the first for which ``predicate`` is False.

        >>> import eagerkit as ek
        >>> [int(x) for x in ek.data.Dataset.range(10).take_while(lambda x: x < 3)]
        [0, 1, 2]
        """
        checks.check_callable(predicate, "take_while", "predicate")

        def make_iterator():
            for element in self._make_iterator():
                if type(element) is not Failed:
                    try:
                        keep = checks.kept(steps.call(predicate, element))
                    except Exception as error:  # the element's error, raised when it comes out
                        element, keep = Failed(error), True
                    if not keep:
                        return
                yield element

        name = getattr(predicate, "__name__", "function")
        return self._then(make_iterator, f"take_while({name})", counts.UNKNOWN_CARDINALITY)

    def apply(self, transformation_func):
        """``transformation_func(self)``: a whole pipeline step written as a function.

        >>> import eagerkit as ek
        >>> def evens(ds):
        ...     return ds.filter(lambda x: x % 2 == 0)
        >>> [int(x) for x in ek.data.Dataset.range(5).apply(evens)]
        [0, 2, 4]
        """
        checks.check_callable(transformation_func, "apply", "transformation_func")
        result = transformation_func(self)
        if not isinstance(result, Reading):
            raise InvalidArgumentError(
                "Dataset.apply: transformation_func must return an ek.data.Dataset, got "
                f"{describe(result)}; e.g. dataset.apply(lambda ds: ds.batch(2))",
                op="Dataset.apply",
            )
        return result

    def __len__(self):
        """The number of elements, when known without reading (``cardinality()``).

        >>> import eagerkit as ek
        >>> len(ek.data.Dataset.range(10).batch(3))
        4
        >>> len(ek.data.Dataset.range(10).repeat())  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        eagerkit.errors.InvalidArgumentError: The dataset is infinite. ...
        """
        if self._cardinality == counts.INFINITE_CARDINALITY:
            raise type_error(
                "The dataset is infinite. (len: after repeat() it has no end; use "
                "take(n) for a finite part, or cardinality(), which says -1)",
                op="len",
            )
        if self._cardinality == counts.UNKNOWN_CARDINALITY:
            raise type_error(
                "The dataset length is unknown. (len: a filter, a generator or a text file "
                "hides it; count the elements by reading them, or use cardinality())",
                op="len",
            )
        return self._cardinality

    def __bool__(self):
        """A dataset is true, even an empty one (``len`` must not decide: it may raise)."""
        return True
