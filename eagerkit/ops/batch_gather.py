"""``ek.gather(params, indices, axis, batch_dims=b)``: TF's batched gather.

The first ``b`` axes of ``params`` and ``indices`` are batch axes of equal sizes; batch
element ``β`` gathers ``params[β]`` along ``axis - b`` by ``indices[β]``. The result has shape
``params.shape[:axis] + indices.shape[b:] + params.shape[axis + 1:]``.

It is a composition, so gradients and ``ek.function`` come with it: the indices are
flattened past the batch axes, broadcast over the axes of ``params`` beside ``axis``, and
``take_along_axis`` (a primitive with a gradient) picks the values; a reshape gives the
indices' own axes back. No step bakes the traced batch size in (inside ``ek.function``
with relaxed shapes each call uses its own): new axes come from ``expand_dims``, the
broadcast from adding zeros, the reshapes (several picked axes only) use -1 for the batch.
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
    """The gather by ops whose parameters are axes, not the traced sizes, so that inside
    ``ek.function`` with relaxed shapes every call's own batch size is used."""
    from eagerkit.ops.cast import cast
    from eagerkit.ops.creation import zeros_like
    from eagerkit.ops.reshaping import _expand_dims, reshape
    from eagerkit.ops.shape import shape
    from eagerkit.ops.sorting import _take_along_axis

    after = params.ndim - axis - 1
    picked = tuple(indices.shape[b:])
    if params.shape[axis]:  # -1 is the last position (a gradient adds up positions >= 0)
        length = cast(shape(params)[axis], indices.dtype)  # (each call's own length)
        indices = indices % length
    # (-1 for the first axis, where the batch may vary; an empty tensor needs its sizes)
    first = -1 if indices.size else indices.shape[0]
    if len(picked) != 1:  # the picked axes as one
        indices = reshape(indices, (first, *indices.shape[1:b], math.prod(picked)))
    # The indices as batch + (1,) * middle + (count,) + (1,) * after, broadcast over params
    # (zeros of params' shape with one position at `axis`): take_along_axis then picks along
    # `axis` elementwise.
    inserted = (*range(b, axis), *range(axis + 1, axis + 1 + after))
    spread = _expand_dims(indices, axis=inserted)
    one_position = params[(slice(None),) * axis + (slice(0, 1),)]
    spread = spread + zeros_like(one_position, dtype=spread.dtype)
    taken = _take_along_axis(params, spread, axis=axis)
    if len(picked) == 1:
        return taken
    first = -1 if taken.size else params.shape[0]
    return reshape(taken, (first, *params.shape[1:axis], *picked, *params.shape[axis + 1 :]))
