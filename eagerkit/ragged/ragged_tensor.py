"""RaggedTensor: rows of different lengths, as TF's ``tf.RaggedTensor``.

A ragged tensor is a flat Tensor of ``values`` cut into rows by ``row_splits``: row ``i`` is
``values[row_splits[i]:row_splits[i + 1]]``. ``values`` may itself be ragged (a ragged
tensor of rank 3 has two levels of splits); the innermost Tensor is ``flat_values``. Every
op on a ragged tensor is an op on its flat values, so a tape watching them sees it and
gradients flow (the splits are integers: no gradient).

Examples
--------
>>> import eagerkit as ek
>>> rt = ek.RaggedTensor.from_row_splits([3, 1, 4, 1, 5, 9, 2], row_splits=[0, 4, 4, 6, 7])
>>> rt
<ek.RaggedTensor [[3, 1, 4, 1], [], [5, 9], [2]]>
>>> rt.shape, rt.row_lengths().numpy().tolist()
(TensorShape([4, None]), [4, 0, 2, 1])
"""

import numpy as np

from eagerkit import arguments, dtypes, errors
from eagerkit.errors import InvalidArgumentError
from eagerkit.ragged import factories, partition
from eagerkit.tensor import Tensor, convert_to_tensor
from eagerkit.tensor_shape import TensorShape


class RaggedTensor:
    """Nested rows of different lengths: ``values`` (a Tensor or RaggedTensor) and
    ``row_splits`` (int64). Build one with ``ek.ragged.constant`` or a ``from_*`` method."""

    _dispatch_kind = "ragged"  # type_dispatch.py: ops given one come to ragged/ops.py
    __array_priority__ = 200  # numpy arrays defer to it: ndarray + rt is rt's __radd__
    __hash__ = None

    def __init__(self, values, row_splits, _internal=False):
        if not _internal:  # as TF: the constructor is not for users
            raise InvalidArgumentError(
                "RaggedTensor: build one with ek.ragged.constant(...) or "
                "ek.RaggedTensor.from_row_splits / from_row_lengths / from_value_rowids",
                op="RaggedTensor",
            )
        self._values = values
        self._row_splits = row_splits

    # --- building (ragged/factories.py: each takes the class, as a classmethod) -------
    from_row_splits = classmethod(factories.from_row_splits)
    _cut = classmethod(factories.cut)
    from_row_lengths = classmethod(factories.from_row_lengths)
    from_value_rowids = classmethod(factories.from_value_rowids)
    from_row_starts = classmethod(factories.from_row_starts)
    from_row_limits = classmethod(factories.from_row_limits)
    from_uniform_row_length = classmethod(factories.from_uniform_row_length)
    from_nested_row_splits = classmethod(factories.from_nested_row_splits)
    from_nested_row_lengths = classmethod(factories.from_nested_row_lengths)
    from_tensor = classmethod(factories.from_tensor)
    from_sparse = classmethod(factories.from_sparse)

    # --- what it is -------------------------------------------------------------------------
    @property
    def values(self):
        """The values the outermost rows are cut from (a Tensor, or ragged again)."""
        return self._values

    @property
    def row_splits(self):
        """Where each row starts and ends in ``values`` (int64, length ``nrows() + 1``)."""
        return Tensor(self._row_splits)

    @property
    def flat_values(self):
        """The innermost Tensor: every value, in order."""
        values = self._values
        while isinstance(values, RaggedTensor):
            values = values._values
        return values

    @property
    def nested_row_splits(self):
        """The splits of each ragged dimension, outermost first."""
        found, rt = [], self
        while isinstance(rt, RaggedTensor):
            found.append(rt.row_splits)
            rt = rt._values
        return tuple(found)

    @property
    def ragged_rank(self):
        """How many dimensions are ragged (cut into rows by splits)."""
        return len(self.nested_row_splits)

    @property
    def dtype(self):
        return self.flat_values.dtype

    @property
    def shape(self):
        """The static shape: ``nrows`` first, None for each ragged dimension."""
        inner = tuple(self.flat_values.shape[1:])
        return TensorShape((self.nrows_int(),) + (None,) * self.ragged_rank + inner)

    @property
    def ndim(self):
        return len(self.shape)

    def get_shape(self):
        return self.shape

    def nrows_int(self):
        return len(self._row_splits) - 1

    def nrows(self, out_type=dtypes.int64, name=None):
        """The number of rows, a scalar Tensor."""
        return convert_to_tensor(self.nrows_int(), dtype=out_type)

    def row_lengths(self, axis=1, name=None):
        """The length of each row (int64)."""
        axis = arguments.whole_number(axis, "axis", "row_lengths")
        if not 1 <= axis <= self.ragged_rank:
            raise InvalidArgumentError(
                f"row_lengths: axis must name a ragged dimension (1 to {self.ragged_rank}), "
                f"got {axis}",
                op="row_lengths",
            )
        if axis != 1:
            return self.with_values(self._values.row_lengths(axis - 1))
        return Tensor(np.diff(self._row_splits))

    def row_starts(self, name=None):
        return Tensor(self._row_splits[:-1].copy())

    def row_limits(self, name=None):
        return Tensor(self._row_splits[1:].copy())

    def value_rowids(self, name=None):
        """The row of each value (int64)."""
        return Tensor(partition.rowids(self._row_splits))

    def nested_value_rowids(self, name=None):
        found, rt = [], self
        while isinstance(rt, RaggedTensor):
            found.append(rt.value_rowids())
            rt = rt._values
        return tuple(found)

    def bounding_shape(self, axis=None, out_type=dtypes.int64, name=None):
        """The smallest dense shape that holds every row (int64)."""
        from eagerkit.ragged.conversion import bounding_shape

        shape = convert_to_tensor(bounding_shape(self), dtype=out_type)
        if axis is None:
            return shape
        return shape[arguments.axis_index(axis, shape.shape[0], "bounding_shape")]

    # --- making new ones ----------------------------------------------------------------------
    def with_values(self, new_values):
        """The same outermost rows around ``new_values``."""
        return RaggedTensor._cut(new_values, self._row_splits, "row_splits", "new_values")

    def with_flat_values(self, new_values):
        """The same nested rows around new flat values (of as many rows)."""
        if isinstance(self._values, RaggedTensor):
            return self.with_values(self._values.with_flat_values(new_values))
        return self.with_values(new_values)

    def with_row_splits_dtype(self, dtype):
        """The same tensor: TF lets splits be int32 or int64; eagerkit's are always int64."""
        if dtypes.as_dtype(dtype) not in (dtypes.int32, dtypes.int64):
            raise InvalidArgumentError(
                f"with_row_splits_dtype: dtype must be ek.int32 or ek.int64, got {dtype!r}",
                op="with_row_splits_dtype",
            )
        return self

    # --- leaving ----------------------------------------------------------------------------
    def to_tensor(self, default_value=None, name=None, shape=None):
        """A dense Tensor: rows padded with ``default_value`` (zeros), to ``shape`` if given."""
        from eagerkit.ragged.conversion import to_tensor

        return to_tensor(self, default_value, shape)

    def to_sparse(self, name=None):
        """A SparseTensor of the values at their (row, column, ...) indices."""
        from eagerkit.ragged.conversion import to_sparse

        return to_sparse(self)

    def to_list(self):
        """Nested Python lists of the values."""
        return _rows(self, lambda flat: flat.numpy().tolist())

    def numpy(self):
        """numpy's view of it, as TF gives: an object array of rows (a plain array when
        the rows happen to have one length)."""
        values = self._values.numpy()
        splits = self._row_splits
        rows = [values[splits[i] : splits[i + 1]] for i in range(len(splits) - 1)]
        if not rows:
            return np.zeros((0, 0) + values.shape[1:], dtype=values.dtype)
        uneven = any(len(row) != len(rows[0]) for row in rows)
        if uneven:
            array = np.empty(len(rows), dtype=object)
            array[:] = rows
            return array
        return np.array(rows)

    def __repr__(self):
        from eagerkit.ragged.printing import text

        return f"<ek.RaggedTensor {text(self)}>"

    __str__ = __repr__

    def __bool__(self):
        raise errors.type_error(
            "bool: a RaggedTensor has no truth value; compare its values instead "
            "(ek.reduce_any(rt), ek.reduce_all(rt))",
            op="bool",
        )

    def __array__(self, dtype=None, copy=None):
        raise errors.type_error(
            "array: a RaggedTensor is not a rectangular array: use rt.to_tensor() for a "
            "padded Tensor, rt.numpy() for numpy's object array of rows, or an op that takes "
            "ragged tensors (ek.ragged)",
            op="array",
        )

    def __len__(self):
        return self.nrows_int()

    def __iter__(self):
        return (self[i] for i in range(self.nrows_int()))

    def __getitem__(self, key):
        from eagerkit.ragged.indexing import getitem

        return getitem(self, key)


def _rows(rt, leaf):
    """``rt``'s nested rows as lists, ``leaf(flat Tensor)`` giving the innermost values."""
    inner = _rows(rt._values, leaf) if isinstance(rt._values, RaggedTensor) else leaf(rt._values)
    splits = rt._row_splits
    return [inner[splits[i] : splits[i + 1]] for i in range(len(splits) - 1)]
