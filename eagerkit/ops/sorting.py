"""Sorting: argsort, sort and top_k.

Finding the order is not differentiable (``argsort`` passes no gradient); moving the values
into that order is. So ``sort`` and ``top_k`` are compositions: argsort, then
``take_along_axis``, a primitive whose gradient sends each g back to the position its value
came from (``untake_along_axis``). The two are each other's VJP, so any order works.
"""

import collections
import math

from eagerkit.arguments import axis_index, size
from eagerkit.dtypes import NUMERIC
from eagerkit.errors import InvalidArgumentError
from eagerkit.registry import defop
from eagerkit.tensor import convert_to_tensor

TopKV2 = collections.namedtuple("TopKV2", ["values", "indices"])


@defop("argsort", dtypes=NUMERIC, differentiable=False)
def _argsort(xp, x, *, axis, descending):
    if not descending:
        return xp.argsort(x, axis=axis, kind="stable").astype(xp.int32)
    # Sort the reversed line ascending and map back: equal values keep their order (stable),
    # without negating x (which would wrap unsigned integers).
    last = x.shape[axis] - 1
    flipped = xp.argsort(xp.flip(x, axis), axis=axis, kind="stable")
    return xp.flip(last - flipped, axis).astype(xp.int32)


@defop("take_along_axis", dtype_args=(0,))
def _take_along_axis(xp, x, indices, *, axis):
    return xp.take_along_axis(x, indices, axis=axis)


@defop("untake_along_axis", dtype_args=(0,))
def _untake_along_axis(xp, g, indices, *, shape, axis):
    """Zeros of ``shape`` with each g added where ``take_along_axis`` took its value."""
    moved_g = xp.moveaxis(g, axis, -1)
    moved_indices = xp.moveaxis(indices, axis, -1)
    lines, length = math.prod(moved_g.shape[:-1]), shape[axis]
    # Number every position of the result in one flat run: line * length + index.
    starts = xp.arange(lines, dtype=xp.int64).reshape(moved_g.shape[:-1] + (1,)) * length
    flat = xp.zeros(lines * length, dtype=g.dtype)
    xp.scatter_add(flat, (starts + moved_indices).reshape(-1), moved_g.reshape(-1))
    result = flat.reshape(moved_g.shape[:-1] + (length,))
    return xp.moveaxis(result, -1, axis)


_take_along_axis.defvjp(
    lambda ops, g, ans, x, indices, axis: ops.untake_along_axis(
        g, indices, shape=tuple(x.shape), axis=axis
    ),
    None,  # indices get no gradient
)
_untake_along_axis.defvjp(
    lambda ops, g, ans, h, indices, shape, axis: ops.take_along_axis(g, indices, axis=axis),
    None,
)


def _direction(direction, op):
    if direction not in ("ASCENDING", "DESCENDING"):
        raise InvalidArgumentError(
            f"{op}: direction must be 'ASCENDING' or 'DESCENDING', got {direction!r}", op=op
        )
    return direction == "DESCENDING"


def argsort(values, axis=-1, direction="ASCENDING", stable=False, name=None):
    """The indices (int32) that would sort ``values`` along ``axis``; ties keep their order.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.argsort([3.0, 1.0, 2.0])
    <ek.Tensor: shape=(3,), dtype=int32, numpy=array([1, 2, 0], dtype=int32)>
    """
    values = convert_to_tensor(values)
    axis = axis_index(axis, max(values.ndim, 1), "argsort")
    return _argsort(values, axis=axis, descending=_direction(direction, "argsort"))


def sort(values, axis=-1, direction="ASCENDING", name=None):
    """``values`` sorted along ``axis``; the gradient goes back to where each value was.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.sort([3.0, 1.0, 2.0], direction="DESCENDING")
    <ek.Tensor: shape=(3,), dtype=float32, numpy=array([3., 2., 1.], dtype=float32)>
    """
    values = convert_to_tensor(values)
    axis = axis_index(axis, max(values.ndim, 1), "sort")
    order = _argsort(values, axis=axis, descending=_direction(direction, "sort"))
    return _take_along_axis(values, order, axis=axis)


def top_k(input, k=1, sorted=True, name=None):  # noqa: A002 - TF's argument names
    """The ``k`` largest entries along the last axis and their indices (int32).

    Returns a ``(values, indices)`` named tuple, largest first; of equal values the one
    with the lower index comes first, as in TF.

    Examples
    --------
    >>> import eagerkit as ek
    >>> values, indices = ek.top_k([1.0, 5.0, 3.0], k=2)
    >>> values.numpy(), indices.numpy()
    (array([5., 3.], dtype=float32), array([1, 2], dtype=int32))
    """
    x = convert_to_tensor(input)
    if x.ndim == 0:
        raise InvalidArgumentError(
            "top_k: input must have rank >= 1, got a scalar; wrap it in a list", op="top_k"
        )
    k = size(k, "k", "top_k")
    if k > x.shape[-1]:
        raise InvalidArgumentError(
            f"top_k: k = {k} is more than the {x.shape[-1]} entries along the last axis of "
            f"input with shape {x.shape}; use k <= {x.shape[-1]}",
            op="top_k",
        )
    order = _argsort(x, axis=x.ndim - 1, descending=True)[..., :k]
    return TopKV2(_take_along_axis(x, order, axis=x.ndim - 1), order)
