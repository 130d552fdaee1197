"""``tf.math.bincount``: how often each whole number 0, 1, 2, ... occurs in ``arr`` (or
the sum of the ``weights`` at its places), TF 2's rules for the output's length and dtype.

The counting is a segment sum (segment.py) of ones, or of the weights, into one segment
per value: so the weights get a gradient, each the gradient of its value's bin.

Examples
--------
>>> import eagerkit as ek
>>> ek.math.bincount([1, 1, 3, 0, 1])
<ek.Tensor: shape=(4,), dtype=int32, numpy=array([1, 3, 0, 1], dtype=int32)>
"""

import numpy as np

from eagerkit import dtypes
from eagerkit.arguments import describe, size
from eagerkit.errors import InvalidArgumentError
from eagerkit.ops.cast import cast
from eagerkit.ops.creation import ones_like
from eagerkit.ops.segment import _unsorted_segment_sum
from eagerkit.ops.shape import reshape
from eagerkit.tensor import convert_to_tensor

OP = "bincount"


def _values(arr):
    values = convert_to_tensor(arr)
    if not (values.dtype.is_integer or values.dtype.is_floating or values.dtype.is_bool):
        raise InvalidArgumentError(
            f"bincount: arr must hold whole numbers (int32 or int64), got {values.dtype.name}"
            f"{list(values.shape)}",
            op=OP,
        )
    if not values.dtype.is_integer:  # TF casts (floats are truncated toward 0)
        values = cast(values, dtypes.int32)
    host = values.numpy()
    if host.size and host.min() < 0:
        raise InvalidArgumentError(
            f"bincount: arr must be non-negative, got {int(host.min())}; bincount counts "
            "the values 0, 1, 2, ...",
            op=OP,
        )
    return values, host


def _length(host, minlength, maxlength):
    """TF's output length: max(arr) + 1, at least minlength, at most maxlength."""
    length = int(host.max()) + 1 if host.size else 0
    if minlength is not None:
        length = max(length, size(minlength, "minlength", OP))
    if maxlength is not None:
        length = min(length, size(maxlength, "maxlength", OP))
    return length


def bincount(
    arr,
    weights=None,
    minlength=None,
    maxlength=None,
    dtype=dtypes.int32,
    name=None,
    axis=None,
    binary_output=False,
):
    """Count the occurrences of each value of ``arr`` (``tf.math.bincount``).

    Parameters
    ----------
    arr : int tensor
        Non-negative whole numbers (other numbers are cast to int32 first, as TF does).
    weights : tensor, optional
        Same shape as ``arr``: bin ``i`` is the sum of the weights where ``arr == i``; the
        result has the weights' dtype.
    minlength, maxlength : int, optional
        At least / at most this many bins; values at or beyond the last bin are dropped.
    dtype : DType
        The counts' dtype when there are no weights (int32, as TF).
    axis : None, 0 or -1
        None or 0 counts all of ``arr``; -1 counts each row of a 2-D ``arr`` on its own.
    binary_output : bool
        1 where a value occurs at least once, instead of the count.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.math.bincount([1, 1, 3], weights=[0.5, 2.0, 1.0], minlength=5).numpy()
    array([0. , 2.5, 0. , 1. , 0. ], dtype=float32)
    >>> ek.math.bincount([[0, 2, 2], [1, 1, 1]], axis=-1, maxlength=2).numpy()
    array([[1, 0],
           [0, 3]], dtype=int32)
    """
    if axis not in (None, 0, -1):
        raise InvalidArgumentError(
            f"bincount: axis must be None, 0 or -1, got {describe(axis)}; -1 counts each "
            "row of a 2-D arr, None and 0 count all of it",
            op=OP,
        )
    if weights is not None and binary_output:
        raise InvalidArgumentError(
            "bincount: weights and binary_output=True are mutually exclusive; drop one",
            op=OP,
        )
    values, host = _values(arr)
    if axis == -1 and values.ndim != 2:
        raise InvalidArgumentError(
            f"bincount: axis=-1 needs a 2-D arr (one row per count), got shape "
            f"{list(values.shape)}",
            op=OP,
        )
    length = _length(host, minlength, maxlength)
    if weights is None:
        out_dtype = dtypes.as_dtype(dtype)
        if not (out_dtype.is_integer or out_dtype.is_floating):
            raise InvalidArgumentError(
                f"bincount: dtype must be an integer or float dtype, got {out_dtype.name}",
                op=OP,
            )
        added = ones_like(values, dtype=out_dtype)  # each value adds 1
    else:
        added = convert_to_tensor(weights, device=values._device)
        if tuple(added.shape) != tuple(values.shape):
            raise InvalidArgumentError(
                f"bincount: weights must have arr's shape {list(values.shape)}, got "
                f"{list(added.shape)}: one weight per value",
                op=OP,
            )
    bins = np.where(host < length, host, -1)  # beyond the last bin: dropped (id -1)
    rows = host.shape[0] if axis == -1 else 1
    if axis == -1:  # each row into its own run of bins
        bins = np.where(bins >= 0, bins + length * np.arange(rows)[:, None], -1)
    ids = convert_to_tensor(bins.reshape(-1).astype(np.int64), device=values._device)
    counted = _unsorted_segment_sum(reshape(added, [-1]), ids, num_segments=rows * length)
    if binary_output:
        counted = cast(counted > 0, counted.dtype)
    return reshape(counted, [rows, length]) if axis == -1 else counted
