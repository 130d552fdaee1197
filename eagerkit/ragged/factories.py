"""Building a RaggedTensor: the ``from_*`` class methods of ``ek.RaggedTensor``.

Each is a function of the class (``cls``), as a classmethod is; ragged_tensor.py binds them
with ``classmethod(...)``, so ``ek.RaggedTensor.from_row_lengths(...)`` calls the one here.
Every one ends in ``cut``: flat values cut into rows at checked splits.

Examples
--------
>>> import eagerkit as ek
>>> ek.RaggedTensor.from_value_rowids([3, 1, 4], value_rowids=[0, 0, 2], nrows=4)
<ek.RaggedTensor [[3, 1], [], [4], []]>
"""

import numpy as np

from eagerkit.arguments import describe
from eagerkit.errors import InvalidArgumentError
from eagerkit.ragged import partition
from eagerkit.tensor import Tensor, convert_to_tensor


def from_row_splits(cls, values, row_splits, name=None, validate=True):
    """Rows ``values[row_splits[i]:row_splits[i + 1]]``; splits start at 0 and never fall."""
    return cls._cut(values, row_splits, "row_splits")


def cut(cls, values, row_splits, given, values_name="values"):
    """``values`` cut at ``row_splits``, made from the user's argument ``given``."""
    values = _as_values(cls, values)
    splits = partition.checked_splits(row_splits, _nvals(cls, values), given, values_name)
    return cls(values, splits, _internal=True)


def from_row_lengths(cls, values, row_lengths, name=None, validate=True):
    """Rows of the given lengths, taken from ``values`` in order.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.RaggedTensor.from_row_lengths([3, 1, 4, 1, 5, 9, 2], row_lengths=[4, 0, 2, 1])
    <ek.RaggedTensor [[3, 1, 4, 1], [], [5, 9], [2]]>
    """
    return cls._cut(values, partition.splits_from_lengths(row_lengths), "row_lengths")


def from_value_rowids(cls, values, value_rowids, nrows=None, name=None, validate=True):
    """Value ``j`` goes to row ``value_rowids[j]`` (sorted); ``nrows`` adds empty rows."""
    values = _as_values(cls, values)
    splits = partition.splits_from_rowids(value_rowids, nrows, _nvals(cls, values))
    return cls._cut(values, splits, "value_rowids")


def from_row_starts(cls, values, row_starts, name=None, validate=True):
    """Row ``i`` starts at ``values[row_starts[i]]`` and ends where the next starts."""
    values = _as_values(cls, values)
    starts = partition.int64_vector(row_starts, "row_starts")
    return cls._cut(values, np.append(starts, _nvals(cls, values)), "row_starts")


def from_row_limits(cls, values, row_limits, name=None, validate=True):
    """Row ``i`` ends at ``values[row_limits[i]]`` and starts where the previous ended."""
    limits = partition.int64_vector(row_limits, "row_limits")
    return cls._cut(values, np.insert(limits, 0, 0), "row_limits")


def from_uniform_row_length(cls, values, uniform_row_length, nrows=None, name=None):
    """Rows of ``uniform_row_length`` values each."""
    values = _as_values(cls, values)
    length = partition.count(uniform_row_length, "uniform_row_length")
    total = _nvals(cls, values)
    if nrows is None:
        nrows = total // length if length else 0
    nrows = partition.count(nrows, "nrows")
    if length * nrows != total:
        raise InvalidArgumentError(
            f"RaggedTensor: {nrows} rows of uniform_row_length {length} hold "
            f"{length * nrows} values, but values has {total}; give a uniform_row_length "
            "(and nrows) that cover the values exactly",
            op="RaggedTensor",
        )
    return cls._cut(values, partition.splits_from_lengths([length] * nrows), "uniform_row_length")


def from_nested_row_splits(cls, flat_values, nested_row_splits, name=None, validate=True):
    """Several levels of splits, outermost first, around ``flat_values``."""
    if isinstance(nested_row_splits, (Tensor, np.ndarray)) or not nested_row_splits:
        raise InvalidArgumentError(
            "from_nested_row_splits: nested_row_splits must be a list of splits "
            "(one per ragged dimension, outermost first)",
            op="from_nested_row_splits",
        )
    result = flat_values
    for splits in reversed(list(nested_row_splits)):
        result = cls._cut(result, splits, "nested_row_splits", "flat_values")
    return result


def from_nested_row_lengths(cls, flat_values, nested_row_lengths, name=None, validate=True):
    """Several levels of row lengths, outermost first, around ``flat_values``."""
    if isinstance(nested_row_lengths, (Tensor, np.ndarray)) or not nested_row_lengths:
        raise InvalidArgumentError(
            "from_nested_row_lengths: nested_row_lengths must be a list of row lengths "
            "(one per ragged dimension, outermost first)",
            op="from_nested_row_lengths",
        )
    result = flat_values
    for lengths in reversed(list(nested_row_lengths)):
        splits = partition.splits_from_lengths(lengths, "nested_row_lengths")
        result = cls._cut(result, splits, "nested_row_lengths", "flat_values")
    return result


def from_tensor(cls, tensor, lengths=None, padding=None, ragged_rank=1, name=None):
    """A dense tensor's rows, cut at ``lengths`` or where only ``padding`` remains."""
    from eagerkit.ragged import conversion

    return conversion.from_tensor(cls, tensor, lengths, padding, ragged_rank)


def from_sparse(cls, st_input, name=None):
    """A 2-D SparseTensor's rows (its indices in row-major order, each row from 0)."""
    from eagerkit.ragged import conversion

    return conversion.from_sparse(cls, st_input)


def _as_values(cls, values):
    """A RaggedTensor (``cls``) stays one; anything else becomes a Tensor of rank >= 1."""
    if isinstance(values, cls):
        return values
    values = values if isinstance(values, Tensor) else convert_to_tensor(values)
    if values.ndim == 0:
        raise InvalidArgumentError(
            f"RaggedTensor: values must have rank >= 1 (they are cut into rows), got a scalar "
            f"{describe(values)}; pass a list or vector",
            op="RaggedTensor",
        )
    return values


def _nvals(cls, values):
    return values.nrows_int() if isinstance(values, cls) else values.shape[0]
