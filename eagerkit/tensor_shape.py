"""TensorShape: a tensor's shape, printed and compared as TensorFlow's.

It *is* a tuple of ints, so everything that takes a shape (numpy, ``ek.reshape``, indexing,
unpacking) takes it. On top of the tuple it speaks TF: ``str`` is ``(2, 3)`` and ``repr`` is
``TensorShape([2, 3])``, it equals lists as well as tuples, a slice of it is a TensorShape,
and ``as_list()``, ``rank``, ``num_elements()`` and ``concatenate`` work as in TF. A
dimension may be None (unknown), as in the shapes Keras prints for the batch axis.

Examples
--------
>>> import eagerkit as ek
>>> shape = ek.zeros([2, 3]).shape
>>> shape
TensorShape([2, 3])
>>> print(shape), shape == [2, 3], shape == (2, 3), shape.as_list()
(2, 3)
(None, True, True, [2, 3])
"""

import math

from eagerkit import errors


class TensorShape(tuple):
    """The shape of a tensor: a tuple of ints (or None for an unknown size).

    Examples
    --------
    >>> import eagerkit as ek
    >>> s = ek.TensorShape([4, None, 3])
    >>> s[1:], s.rank, s.is_fully_defined(), s.num_elements()
    (TensorShape([None, 3]), 3, False, None)
    """

    __slots__ = ()

    def __new__(cls, dims=()):
        if isinstance(dims, TensorShape):
            return dims
        try:
            values = tuple(_dimension(d, dims) for d in dims)
        except TypeError:
            values = (_dimension(dims, dims),)  # TensorShape(3) is the shape [3], as in TF
        return super().__new__(cls, values)

    # --- TF's accessors ---------------------------------------------------------------------
    @property
    def rank(self):
        """Number of dimensions."""
        return len(self)

    ndims = rank

    @property
    def dims(self):
        """The dimensions as a list (TF2 gives ints, or None where unknown)."""
        return list(self)

    def as_list(self):
        """The dimensions as a list, e.g. ``[2, 3]``."""
        return list(self)

    def num_elements(self):
        """How many elements a tensor of this shape holds (None if a size is unknown)."""
        return math.prod(self) if self.is_fully_defined() else None

    def is_fully_defined(self):
        """True when no dimension is None."""
        return None not in self

    def is_compatible_with(self, other):
        """True when the ranks match and each pair of sizes is equal or unknown."""
        other = TensorShape(other)
        return len(self) == len(other) and all(
            a is None or b is None or a == b for a, b in zip(self, other, strict=True)
        )

    def concatenate(self, other):
        """This shape followed by ``other``: ``[2].concatenate([3])`` is ``[2, 3]``."""
        return TensorShape(tuple(self) + tuple(TensorShape(other)))

    # --- tuple behaviour, TF's way ----------------------------------------------------------
    def __getitem__(self, key):
        try:
            item = tuple.__getitem__(self, key)
        except (TypeError, IndexError) as error:  # shape[1.5], shape[5] of a 2-d shape
            from eagerkit.arguments import describe

            raise errors.converted_class(type(error))(  # still a TypeError, an IndexError
                f"TensorShape[{describe(key)}]: index a shape of rank {len(self)} with an int "
                f"from {-len(self)} to {len(self) - 1}, or a slice",
                op="TensorShape",
            ) from None
        return TensorShape(item) if isinstance(key, slice) else item

    def __add__(self, other):
        return self.concatenate(other)

    def __radd__(self, other):
        return TensorShape(other).concatenate(self)

    def __eq__(self, other):
        if isinstance(other, (tuple, list)):
            return tuple.__eq__(self, tuple(other))
        return False  # as TF: a shape equals only a shape (a list or tuple of sizes)

    def __ne__(self, other):
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    __hash__ = tuple.__hash__

    def __str__(self):
        return tuple.__repr__(self)  # (2, 3), (2,), ()

    def __repr__(self):
        return f"TensorShape({list(self)})"

    def __reduce__(self):
        return TensorShape, (tuple(self),)


def _dimension(value, dims):
    """One size of ``dims``: a non-negative int, or None; 2.0 passes, 2.5 and -1 do not."""
    if value is None:
        return None
    from eagerkit.errors import InvalidArgumentError

    try:
        number = int(value)
        whole = number == value
    except (TypeError, ValueError):
        number, whole = None, False
    if not whole or number < 0 or isinstance(value, bool):
        raise InvalidArgumentError(
            f"TensorShape: a dimension must be a whole number >= 0 or None, got {value!r} in "
            f"dims={dims!r:.60}; pass e.g. [2, None]",
            op="TensorShape",
        )
    return number


def from_array_shape(shape):
    """Wrap an array's shape tuple (ints already) without checking each one: the fast path."""
    return tuple.__new__(TensorShape, shape)
