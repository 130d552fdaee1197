"""Iterator: one pass over a Dataset, with a position (TF1's ``tfe.Iterator``).

``for x in dataset`` makes one behind the scenes; ``ek.Iterator(dataset)`` is the TF 1.5
spelling from the CS20 lecture-4 code (``for x_i, y_i in tfe.Iterator(dataset)``).
"""

from eagerkit.data.steps import Failed
from eagerkit.errors import OutOfRangeError


class Iterator:
    """A Python iterator over the elements of ``dataset``, from the start.

    Examples
    --------
    >>> import eagerkit as ek
    >>> it = ek.Iterator(ek.data.Dataset.range(2))
    >>> it.get_next()
    <ek.Tensor: shape=(), dtype=int64, numpy=0>
    >>> next(it)
    <ek.Tensor: shape=(), dtype=int64, numpy=1>
    >>> it.get_next()
    Traceback (most recent call last):
    ...
    eagerkit.errors.OutOfRangeError: End of sequence: the dataset has no more elements ...
    """

    def __init__(self, dataset):
        from eagerkit.data.dataset import Dataset

        if not isinstance(dataset, Dataset):
            raise TypeError(
                f"Iterator expects an ek.data.Dataset, got {type(dataset).__name__}; make one "
                "with ek.data.Dataset.from_tensor_slices(...)"
            )
        self._elements = dataset._make_iterator()

    def __iter__(self):
        return self

    def __next__(self):
        element = next(self._elements)
        if type(element) is Failed:  # an element's error; the next call goes on after it
            raise element.error
        return element

    def next(self):
        """The next element (``StopIteration`` at the end, like ``next(iterator)``)."""
        return self.__next__()

    def get_next(self):
        """The next element; at the end ``OutOfRangeError``, as TF's ``get_next()`` raises.

        An element whose making failed (its ``map`` function raised) raises that error;
        the iterator then goes on with the next element, as TF's does.
        """
        try:
            return self.__next__()
        except StopIteration:
            raise OutOfRangeError(
                "End of sequence: the dataset has no more elements (use .repeat() to read it "
                "again, or make a new iterator)",
                op="IteratorGetNext",
            ) from None
