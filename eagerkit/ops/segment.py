"""Segment sums: add up the rows of ``data`` that share a segment id.

``unsorted_segment_sum`` is the primitive: row i of data is added into row ``ids[i]`` of the
result (rows with a negative id are dropped, as in TF). Its gradient is a gather: each row
of data gets the gradient of the segment it went into. ``segment_sum`` is the same sum for
sorted ids, with as many segments as the largest id needs.
"""

from eagerkit.arguments import size
from eagerkit.dtypes import NUMERIC
from eagerkit.errors import InvalidArgumentError
from eagerkit.registry import defop
from eagerkit.tensor import convert_to_tensor


@defop("unsorted_segment_sum", dtypes=NUMERIC, dtype_args=(0,))
def _unsorted_segment_sum(xp, data, segment_ids, *, num_segments):
    rest = tuple(data.shape[segment_ids.ndim :])
    result = xp.zeros((num_segments,) + rest, dtype=data.dtype)
    ids = segment_ids.reshape(-1)
    kept = ids >= 0  # TF drops rows whose id is negative
    xp.scatter_add(result, ids[kept], data.reshape((-1,) + rest)[kept])
    return result


def _unsorted_segment_sum_vjp(ops, g, ans, data, segment_ids, num_segments):
    rows = ops.gather(g, ops.maximum(segment_ids, 0), axis=0)
    # Dropped rows (negative ids) went into no segment, so they get no gradient.
    kept = ops.reshape(segment_ids >= 0, shape=tuple(segment_ids.shape) + (1,) * (g.ndim - 1))
    return ops.where(kept, rows, 0)


_unsorted_segment_sum.defvjp(_unsorted_segment_sum_vjp, None)


def _checked_ids(data, segment_ids, op):
    """The ids as a Tensor on data's device, checked against data's shape and dtype."""
    data = convert_to_tensor(data)
    ids = convert_to_tensor(segment_ids, device=data._device)
    if not ids.dtype.is_integer:
        raise InvalidArgumentError(
            f"{op}: segment_ids must be integers, got {ids.dtype.name}; pass integer ids "
            "(ek.cast(ids, ek.int32) is exact only when every id is a whole number)",
            op=op,
        )
    if tuple(data.shape[: ids.ndim]) != tuple(ids.shape):
        raise InvalidArgumentError(
            f"{op}: segment_ids of shape {ids.shape} must match the leading dimensions of data "
            f"with shape {data.shape}: one id per row of data",
            op=op,
        )
    return data, ids


def unsorted_segment_sum(data, segment_ids, num_segments, name=None):
    """Sum the rows of ``data`` by segment id, ids in any order; negative ids are dropped.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.unsorted_segment_sum([1.0, 2.0, 3.0, 4.0], [1, 0, 1, -1], num_segments=3)
    <ek.Tensor: shape=(3,), dtype=float32, numpy=array([2., 4., 0.], dtype=float32)>
    """
    data, ids = _checked_ids(data, segment_ids, "unsorted_segment_sum")
    num_segments = size(num_segments, "num_segments", "unsorted_segment_sum")
    host = ids.numpy()
    largest = int(host.max()) if host.size else -1
    if largest >= num_segments:
        raise InvalidArgumentError(
            f"unsorted_segment_sum: segment id {largest} is out of range for num_segments = "
            f"{num_segments}; ids must be below num_segments (or negative, to drop a row) "
            f"(segment_ids: {host.dtype}{list(host.shape)})",
            op="unsorted_segment_sum",
        )
    return _unsorted_segment_sum(data, ids, num_segments=num_segments)


def segment_sum(data, segment_ids, name=None):
    """Sum the rows of ``data`` by sorted segment id; ids must be sorted and non-negative.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.segment_sum([[1, 2], [3, 4], [5, 6]], [0, 0, 2])
    <ek.Tensor: shape=(3, 2), dtype=int32, numpy=
    array([[4, 6],
           [0, 0],
           [5, 6]], dtype=int32)>
    """
    data, ids, host = sorted_ids(
        data,
        segment_ids,
        "segment_sum",
        "for ids in any order use ek.math.unsorted_segment_sum(data, ids, num_segments)",
    )
    num_segments = int(host[-1]) + 1 if host.size else 0
    return _unsorted_segment_sum(data, ids, num_segments=num_segments)


def sorted_ids(data, segment_ids, op, fix):
    """``_checked_ids``, then the ids checked sorted and non-negative (the sorted segment ops'
    rule, ``fix`` saying what to do otherwise): ``(data, ids, the ids on the host)``."""
    data, ids = _checked_ids(data, segment_ids, op)
    host = ids.numpy().reshape(-1)
    if ids.ndim != 1 or (host.size and (host[0] < 0 or (host[1:] < host[:-1]).any())):
        raise InvalidArgumentError(
            f"{op}: segment_ids must be a sorted vector of non-negative ids, got "
            f"{host.tolist()[:8]} (shape {ids.shape}); {fix}",
            op=op,
        )
    return data, ids, host
