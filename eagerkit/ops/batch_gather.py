"""``ek.gather(params, indices, axis, batch_dims=b)``: TF's batched gather.

The first ``b`` axes of ``params`` and ``indices`` are batch axes of equal sizes; batch
element ``β`` gathers ``params[β]`` along ``axis - b`` by ``indices[β]``. The result has shape
``params.shape[:axis] + indices.shape[b:] + params.shape[axis + 1:]``.

It is a composition, so gradients and ``ek.function`` come with it: the indices are
flattened past the batch axes, broadcast over the axes of ``params`` beside ``axis``, and
``take_along_axis`` (a primitive with a gradient) picks the values; a reshape gives the
indices' own axes back.
"""

import math

from eagerkit.arguments import axis_index, whole_number
from eagerkit.errors import InvalidArgumentError
from eagerkit.tensor import convert_to_tensor


def gather_in_batches(params, indices, axis, batch_dims):
    """``gather`` with ``batch_dims`` (``params`` a tensor of rank >= 1): TF's checks first."""
    from eagerkit.ops.indexing import _gather

    indices = convert_to_tensor(indices)
    if not indices.dtype.is_integer:
        raise InvalidArgumentError(
            f"gather: indices must be integers, got {indices.dtype.name} (shape {indices.shape})",
            op="gather",
        )
    b = _batch_axes(batch_dims, indices)
    axis = b if axis is None else axis_index(axis, params.ndim, "gather")
    _check_batches(params, indices, axis, b)
    if b == 0:  # batch_dims=-rank(indices): no batch axes
        return _gather(params, indices, axis=axis)
    _check_range(params, indices, axis)
    return _batched(params, indices, axis, b)


def _batch_axes(batch_dims, indices):
    """``batch_dims`` as a count of leading axes (a negative one counts from the end)."""
    rank = indices.ndim
    b = whole_number(batch_dims, "batch_dims", "gather")
    if not -rank <= b <= rank:
        raise InvalidArgumentError(
            f"gather: Expected batch_dims in the range [{-rank}, {rank}], but got {b} "
            f"(indices have shape {indices.shape}; batch_dims counts their leading axes)",
            op="gather",
        )
    return b + rank if b < 0 else b


def _check_batches(params, indices, axis, b):
    if b >= params.ndim:
        raise InvalidArgumentError(
            f"gather: batch_dims ({b}) must be less than rank(params) ({params.ndim}); "
            f"params have shape {params.shape}",
            op="gather",
        )
    if b > axis:
        raise InvalidArgumentError(
            f"gather: batch_dims ({b}) must be less than or equal to axis ({axis}); gather "
            f"along an axis after the batch axes, e.g. axis={b}",
            op="gather",
        )
    for i in range(b):
        if params.shape[i] != indices.shape[i]:
            raise InvalidArgumentError(
                f"gather: params.shape[{i}]: {params.shape[i]} should be equal to "
                f"indices.shape[{i}]: {indices.shape[i]} (batch_dims={b}: params have shape "
                f"{params.shape}, indices {indices.shape})",
                op="gather",
            )


def _check_range(params, indices, axis):
    """Each index within the gathered axis (as ``gather``: -size up to size - 1)."""
    size, values = params.shape[axis], indices._device.backend.to_host(indices._data)
    if values.size and (values.min() < -size or values.max() >= size):
        raise InvalidArgumentError(
            f"gather: indices must lie in [0, {size}) for axis {axis} of params with shape "
            f"{params.shape}; got values from {int(values.min())} to {int(values.max())}",
            op="gather",
        )


def _batched(params, indices, axis, b):
    from eagerkit.ops.reshaping import reshape
    from eagerkit.ops.shape import broadcast_to
    from eagerkit.ops.sorting import _take_along_axis

    batch, middle = tuple(params.shape[:b]), tuple(params.shape[b:axis])
    after, picked = tuple(params.shape[axis + 1 :]), tuple(indices.shape[b:])
    count = math.prod(picked)
    if params.shape[axis]:  # -1 is the last position (a gradient adds up positions >= 0)
        indices = indices % params.shape[axis]
    # The indices as batch + (1,) * middle + (count,) + (1,) * after, then broadcast to
    # params' shape with `count` at `axis`: take_along_axis picks along `axis` elementwise.
    spread = reshape(indices, batch + (1,) * len(middle) + (count,) + (1,) * len(after))
    spread = broadcast_to(spread, batch + middle + (count,) + after)
    taken = _take_along_axis(params, spread, axis=axis)
    return reshape(taken, batch + middle + picked + after)
