"""Finding values: unique, unique_with_counts and searchsorted (none has a gradient).

They answer "which" and "where", never "how much", so like argsort they pass no gradient.
``unique`` lists values in the order they first appear (TF's order, not numpy's sorted one),
and treats every NaN as different from every other value, as TF does.
"""

import collections

from eagerkit import dtypes
from eagerkit.dtypes import NUMERIC
from eagerkit.errors import InvalidArgumentError
from eagerkit.registry import defop
from eagerkit.tensor import convert_to_tensor

Unique = collections.namedtuple("Unique", ["y", "idx"])
UniqueWithCounts = collections.namedtuple("UniqueWithCounts", ["y", "idx", "count"])


def _first_appearance(xp, x):
    """``(values, idx, counts)``: the distinct values of ``x`` by first appearance, for each
    element of ``x`` the position of its value among them, and how often each occurs."""
    ordered, first, inverse, counts = xp.unique(
        x, return_index=True, return_inverse=True, return_counts=True, equal_nan=False
    )
    order = xp.argsort(first)  # numpy sorts the values; TF keeps the order they came in
    rank = xp.empty_like(order)
    rank[order] = xp.arange(order.shape[0])
    return ordered[order], rank[inverse.reshape(-1)], counts[order]


@defop("unique", differentiable=False)
def _unique_values(xp, x):
    return _first_appearance(xp, x)[0]


@defop("unique_indices", dtype_args=(0,), differentiable=False)
def _unique_indices(xp, x, *, out_idx):
    return _first_appearance(xp, x)[1].astype(out_idx)


# Counted by a kernel, not by a segment sum over a number of segments read on the host:
# inside ek.function that number would freeze at the traced call's.
@defop("unique_counts", dtype_args=(0,), differentiable=False)
def _unique_counts(xp, x, *, out_idx):
    return _first_appearance(xp, x)[2].astype(out_idx)


def _index_dtype(out_type, what, op):
    dtype = dtypes.as_dtype(out_type)
    if dtype not in (dtypes.int32, dtypes.int64):
        raise InvalidArgumentError(
            f"{op}: {what} must be ek.int32 or ek.int64, got {dtype.name}; pass "
            f"{what}=ek.int64 for long inputs",
            op=op,
        )
    return dtype.as_numpy_dtype


def _vector(x, op):
    x = convert_to_tensor(x)
    if x.ndim != 1:
        raise InvalidArgumentError(
            f"{op}: x must be a vector (rank 1), got shape {x.shape}; flatten it first "
            "(ek.reshape(x, [-1]))",
            op=op,
        )
    return x


def unique(x, out_idx=dtypes.int32, name=None):
    """The distinct values of a vector in order of first appearance, and where each went.

    Returns ``(y, idx)`` with ``x == ek.gather(y, idx)``.

    Examples
    --------
    >>> import eagerkit as ek
    >>> y, idx = ek.unique([4, 1, 4, 7, 1])
    >>> y.numpy(), idx.numpy()
    (array([4, 1, 7], dtype=int32), array([0, 1, 0, 2, 1], dtype=int32))
    """
    x = _vector(x, "unique")
    index_dtype = _index_dtype(out_idx, "out_idx", "unique")
    return Unique(_unique_values(x), _unique_indices(x, out_idx=index_dtype))


def unique_with_counts(x, out_idx=dtypes.int32, name=None):
    """``unique``'s ``(y, idx)`` and how often each value occurs, ``count``.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.unique_with_counts([4, 1, 4, 7, 1]).count
    <ek.Tensor: shape=(3,), dtype=int32, numpy=array([2, 2, 1], dtype=int32)>
    """
    y, idx = unique(x, out_idx)
    index_dtype = idx.dtype.as_numpy_dtype
    return UniqueWithCounts(y, idx, _unique_counts(convert_to_tensor(x), out_idx=index_dtype))


@defop("searchsorted", dtypes=NUMERIC, differentiable=False)
def _searchsorted(xp, sorted_sequence, values, *, side, out_type):
    if values.size == 0:
        return xp.zeros(values.shape, dtype=out_type)
    if sorted_sequence.ndim == 1:
        found = xp.searchsorted(sorted_sequence, values, side=side)
    else:  # one search per row: numpy and cupy search along one vector at a time
        rows = sorted_sequence.reshape(-1, sorted_sequence.shape[-1])
        wanted = values.reshape(-1, values.shape[-1])
        found = xp.stack(
            [xp.searchsorted(rows[i], wanted[i], side=side) for i in range(rows.shape[0])]
        ).reshape(values.shape)
    return found.astype(out_type)


def searchsorted(sorted_sequence, values, side="left", out_type=dtypes.int32, name=None):
    """Where each value would go in a sorted sequence to keep it sorted (along the last axis).

    ``side="left"`` gives the first such place, ``"right"`` the last. For N-D inputs, row
    ``i`` of ``values`` is searched in row ``i`` of ``sorted_sequence`` (the leading
    dimensions must match). ``sorted_sequence`` must be sorted; it is not checked.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.searchsorted([1.0, 2.0, 2.0, 5.0], [2.0, 6.0, 0.0])
    <ek.Tensor: shape=(3,), dtype=int32, numpy=array([1, 4, 0], dtype=int32)>
    >>> ek.searchsorted([1.0, 2.0, 2.0, 5.0], [2.0], side="right")
    <ek.Tensor: shape=(1,), dtype=int32, numpy=array([3], dtype=int32)>
    """
    op = "searchsorted"
    if side not in ("left", "right"):
        raise InvalidArgumentError(f"{op}: side must be 'left' or 'right', got {side!r}", op=op)
    sorted_sequence = convert_to_tensor(sorted_sequence)
    values = convert_to_tensor(values, dtype=sorted_sequence.dtype)
    if sorted_sequence.ndim < 1 or values.ndim < 1:
        raise InvalidArgumentError(
            f"{op}: sorted_sequence and values need rank >= 1, got shapes "
            f"{sorted_sequence.shape} and {values.shape}; wrap a single value in a list",
            op=op,
        )
    if tuple(sorted_sequence.shape[:-1]) != tuple(values.shape[:-1]):
        raise InvalidArgumentError(
            f"{op}: sorted_sequence {sorted_sequence.shape} and values {values.shape} must "
            "have the same leading dimensions (all but the last): row i of values is searched "
            "in row i of sorted_sequence",
            op=op,
        )
    index_dtype = _index_dtype(out_type, "out_type", op)
    return _searchsorted(sorted_sequence, values, side=side, out_type=index_dtype)
