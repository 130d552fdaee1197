"""Indexing a RaggedTensor, as TF documents it: ``rt[1]`` (a row), ``rt[1, 2]``, ``rt[1:]``
(rows), ``rt[:, :2]`` and ``rt[:, -2:]`` (within each row), ``rt[:, 1:3]`` on deeper ones.

Every selection is a ``gather`` of values (whose positions the host works out from the
splits), so gradients reach the flat values.

Examples
--------
>>> import eagerkit as ek
>>> rt = ek.ragged.constant([[3, 1, 4, 1], [], [5, 9, 2], [6], []])
>>> rt[0]
<ek.Tensor: shape=(4,), dtype=int32, numpy=array([3, 1, 4, 1], dtype=int32)>
>>> rt[:, -2:]
<ek.RaggedTensor [[4, 1], [], [9, 2], [6], []]>
"""

import numpy as np

from eagerkit.arguments import describe
from eagerkit.errors import InvalidArgumentError
from eagerkit.ops.indexing import gather
from eagerkit.tensor import Tensor


def getitem(rt, key):
    """``rt[key]``: an int or slice per dimension, outermost first."""
    key = key if isinstance(key, tuple) else (key,)
    for item in key:
        if not (isinstance(item, slice) or _is_int(item)):
            raise InvalidArgumentError(
                f"RaggedTensor indexing takes ints and slices (one per dimension, e.g. rt[0] "
                f"or rt[:, 1:]), got {describe(item)}",
                op="getitem",
            )
    if not key:
        return rt
    first, rest = key[0], key[1:]
    if isinstance(first, slice):
        rows = select_rows(rt, np.arange(rt.nrows_int())[first])
        return _index_inner(rows, rest) if rest else rows
    row = _row(rt, _position(first, rt.nrows_int(), "row"))
    return _index_dense_or_ragged(row, rest)


def _row(rt, i):
    """Row ``i``: a slice of the values (a Tensor, or ragged again)."""
    start, stop = int(rt._row_splits[i]), int(rt._row_splits[i + 1])
    return take_values(rt._values, np.arange(start, stop))


def _index_dense_or_ragged(value, key):
    if not key:
        return value
    if isinstance(value, Tensor):
        return value[key]
    return getitem(value, key)


def _index_inner(rt, key):
    """``key`` applied within each row of ``rt`` (its first ragged dimension), then below."""
    first, rest = key[0], key[1:]
    splits = rt._row_splits
    lengths = np.diff(splits)
    if isinstance(first, slice):
        picks = [
            np.arange(*first.indices(int(n))) + start
            for n, start in zip(lengths, splits[:-1], strict=True)
        ]
        new_lengths = np.array([len(p) for p in picks], dtype=np.int64)
        chosen = np.concatenate(picks).astype(np.int64) if picks else np.zeros(0, np.int64)
        values = take_values(rt._values, chosen)
        values = _index_below(values, rest)
        return type(rt).from_row_lengths(values, new_lengths)
    position = int(first)
    too_short = lengths <= (position if position >= 0 else -position - 1)
    if np.any(too_short):
        raise InvalidArgumentError(
            f"RaggedTensor indexing: index {position} is out of range in row "
            f"{int(np.argmax(too_short))}, of length {int(lengths[np.argmax(too_short)])}; "
            "slice instead (rt[:, i:i+1]) to keep the rows that have it",
            op="getitem",
        )
    chosen = (splits[:-1] + position) if position >= 0 else (splits[1:] + position)
    return _index_below(take_values(rt._values, chosen), rest)


def _index_below(values, rest):
    """``rest`` applied to each of ``values`` (the key's dimensions below a ragged one)."""
    if not rest:
        return values
    if isinstance(values, Tensor):
        return values[(slice(None), *rest)]
    return _index_inner(values, rest)


def select_rows(rt, rows):
    """The rows ``rows`` (numpy ints) of ``rt``, as a RaggedTensor."""
    splits = rt._row_splits
    starts, stops = splits[rows], splits[np.asarray(rows) + 1]
    chosen = [np.arange(a, b) for a, b in zip(starts, stops, strict=True)]
    index = np.concatenate(chosen).astype(np.int64) if chosen else np.zeros(0, np.int64)
    return type(rt).from_row_lengths(take_values(rt._values, index), stops - starts)


def take_values(values, index):
    """``values`` at positions ``index``: a gather for a Tensor, rows for a RaggedTensor."""
    if isinstance(values, Tensor):
        return gather(values, np.asarray(index, dtype=np.int64))
    return select_rows(values, np.asarray(index, dtype=np.int64))


def _position(i, size, what):
    i = int(i)
    if not -size <= i < size:
        raise InvalidArgumentError(
            f"RaggedTensor indexing: {what} {i} is out of range for {size} {what}s; index "
            f"from {-size} to {size - 1}",
            op="getitem",
        )
    return i % size


def _is_int(value):
    """An index: a Python or numpy int, or a 0-d integer tensor (never a bool or a type)."""
    if isinstance(value, Tensor):
        return value.ndim == 0 and value.dtype.is_integer
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))
