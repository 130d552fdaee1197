"""Row partitions: how a ragged tensor's rows are cut, as int64 numpy arrays on the host.

Splits, lengths, row ids and starts are four spellings of one partition; these turn each
into splits and check them, naming what is wrong as TF's validation does.

Examples
--------
>>> splits_from_lengths([2, 0, 1]).tolist(), rowids(np.array([0, 2, 2, 3])).tolist()
([0, 2, 2, 3], [0, 0, 2])
"""

import numpy as np

from eagerkit.errors import InvalidArgumentError


def int64_vector(value, what):
    """``value`` (a list, array or Tensor) as a 1-D int64 numpy array; whole numbers only."""
    if hasattr(value, "numpy") and not isinstance(value, np.ndarray):
        value = value.numpy()
    try:
        array = np.asarray(value)
    except (ValueError, TypeError):  # a ragged list: no vector
        array = np.empty((0, 0))
    if array.ndim != 1 or (array.size and array.dtype.kind not in "iu"):
        raise InvalidArgumentError(
            f"RaggedTensor: {what} must be a vector of integers (e.g. [0, 2, 3]), got "
            f"{_shown(value)}",
            op="RaggedTensor",
        )
    return array.astype(np.int64)


def count(value, what):
    """A non-negative Python int (a row length, a number of rows)."""
    if hasattr(value, "numpy"):
        value = value.numpy()
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 0:
        raise InvalidArgumentError(
            f"RaggedTensor: {what} must be a whole number >= 0, got {_shown(value)}",
            op="RaggedTensor",
        )
    return int(value)


def checked_splits(row_splits, nvals, given="row_splits", values="values"):
    """``row_splits`` as int64, checked: starts at 0, never falls, ends at ``nvals``.
    ``given`` names what the user passed that the splits were made from (``row_lengths``),
    ``values`` the argument holding the values (``flat_values``, ``new_values``)."""
    splits = int64_vector(row_splits, given)
    subject = "row_splits" if given == "row_splits" else f"the row splits made from {given}"
    if splits.size == 0 or splits[0] != 0:
        raise InvalidArgumentError(
            f"RaggedTensor: {subject} must start with 0, got {_shown(splits.tolist())}",
            op="RaggedTensor",
        )
    if np.any(np.diff(splits) < 0):
        raise InvalidArgumentError(
            f"RaggedTensor: {subject} must never decrease, got {_shown(splits.tolist())} "
            f"(with {nvals} {values}); check {given} against {values}",
            op="RaggedTensor",
        )
    if splits[-1] != nvals:
        raise InvalidArgumentError(
            f"RaggedTensor: the last row split ({splits[-1]}, from {given}) must equal the "
            f"number of values ({nvals} in {values}); give {given} and {values} that agree",
            op="RaggedTensor",
        )
    return splits


def splits_from_lengths(row_lengths, given="row_lengths"):
    lengths = int64_vector(row_lengths, given)
    if np.any(lengths < 0):
        raise InvalidArgumentError(
            f"RaggedTensor: {given} must be >= 0, got {_shown(lengths.tolist())}",
            op="RaggedTensor",
        )
    return np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64)


def splits_from_rowids(value_rowids, nrows, nvals):
    ids = int64_vector(value_rowids, "value_rowids")
    if ids.size != nvals:
        raise InvalidArgumentError(
            f"RaggedTensor: value_rowids has {ids.size} entries for {nvals} values; give one "
            "row id per value",
            op="RaggedTensor",
        )
    if np.any(np.diff(ids) < 0) or (ids.size and ids[0] < 0):
        raise InvalidArgumentError(
            f"RaggedTensor: value_rowids must be sorted and >= 0, got {ids.tolist()}",
            op="RaggedTensor",
        )
    rows = (int(ids[-1]) + 1 if ids.size else 0) if nrows is None else count(nrows, "nrows")
    if ids.size and ids[-1] >= rows:
        raise InvalidArgumentError(
            f"RaggedTensor: value_rowids reaches row {ids[-1]} but nrows is {rows}; give "
            "nrows above the largest row id, or leave it out",
            op="RaggedTensor",
        )
    return splits_from_lengths(np.bincount(ids, minlength=rows))


def rowids(splits):
    """The row of each value: row ``i`` repeated ``splits[i + 1] - splits[i]`` times."""
    return np.repeat(np.arange(len(splits) - 1, dtype=np.int64), np.diff(splits))


def _shown(value):
    text = repr(value)
    return text if len(text) < 60 else text[:57] + "..."
