"""Ops that join tensors or cut one apart: concat, stack, unstack and split (ek.concat,
...; re-exported by ops/shape.py).

concat's gradient slices the incoming gradient apart again; unstack and split are indexing,
whose gradient is recorded with it.
"""

import numpy as np

from eagerkit import arguments
from eagerkit.errors import InvalidArgumentError
from eagerkit.ops.reshaping import expand_dims
from eagerkit.registry import defop
from eagerkit.tensor import Tensor, convert_to_tensor


@defop("concat")
def _concat(xp, *values, axis):
    return xp.concatenate(values, axis=axis)


def _concat_vjp(i, ops, g, ans, *values, axis):
    # Input i occupies a slab of the output along ``axis``: hand it that slab of g.
    start = sum(v.shape[axis] for v in values[:i])
    key = (slice(None),) * axis + (slice(start, start + values[i].shape[axis]),)
    return ops.getitem(g, key=key)


_concat.defvjp_variadic(_concat_vjp)


def concat(values, axis, name=None):
    """Join tensors along an existing axis.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.concat([ek.ones([2, 1]), ek.zeros([2, 2])], axis=1).shape
    TensorShape([2, 3])
    """
    if not isinstance(values, (list, tuple)) and values is not None:
        values = [values]  # TF: a single tensor is the only piece (not a list of its rows)
    if not values:
        raise InvalidArgumentError(
            f"concat: values must be a non-empty list of tensors, got {values!r}; pass e.g. [a, b]",
            op="concat",
        )
    first = convert_to_tensor(values[0])
    if first.ndim == 0:
        raise InvalidArgumentError(
            f"concat: values[0] is a scalar ({first.dtype.name}[]); concat joins tensors along "
            "an existing axis, so use ek.stack to join scalars",
            op="concat",
        )
    return _concat(*values, axis=arguments.axis_index(axis, first.ndim, "concat"))


def stack(values, axis=0, name=None):
    """Join tensors of one shape along a new axis.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.stack([[1.0, 2.0], [3.0, 4.0]], axis=1)
    <ek.Tensor: shape=(2, 2), dtype=float32, numpy=
    array([[1., 3.],
           [2., 4.]], dtype=float32)>
    """
    return concat([expand_dims(v, axis) for v in values], axis=axis)


def unstack(value, num=None, axis=0, name=None):
    """Split a tensor into a list of slices along ``axis`` (each is recorded as indexing).

    ``num``, when given, must be the size of that axis (TF checks it too).
    """
    x = convert_to_tensor(value)
    axis = arguments.axis_index(axis, x.ndim, "unstack")  # None is refused, as in TF
    if num is not None and arguments.size(num, "num", "unstack") != x.shape[axis]:
        raise InvalidArgumentError(
            f"unstack: num={num} but axis {axis} of the value (shape {x.shape}) has size "
            f"{x.shape[axis]}; pass num={x.shape[axis]} or leave num out",
            op="unstack",
        )
    lead = (slice(None),) * axis
    return [x[lead + (i,)] for i in range(x.shape[axis])]


def split(value, num_or_size_splits, axis=0, name=None):
    """Cut a tensor into pieces along ``axis``: n equal pieces, or pieces of given sizes
    (one size may be -1: what the others leave, as in TF).

    >>> import eagerkit as ek
    >>> [p.numpy().tolist() for p in ek.split(ek.range(6), [1, -1, 2])]
    [[0], [1, 2, 3], [4, 5]]
    """
    x = convert_to_tensor(value)
    axis = arguments.axis_index(axis, x.ndim, "split")
    length = x.shape[axis]
    if isinstance(num_or_size_splits, Tensor):
        num_or_size_splits = num_or_size_splits.numpy()  # sizes, read on the host
    if isinstance(num_or_size_splits, np.ndarray):
        num_or_size_splits = num_or_size_splits.tolist()
    if not isinstance(num_or_size_splits, (list, tuple)):
        pieces = arguments.whole_number(num_or_size_splits, "num_or_size_splits", "split")
        if pieces < 1 or length % pieces:
            raise InvalidArgumentError(
                f"split: axis {axis} of value {x.dtype.name}{list(x.shape)} has size {length}, "
                f"which num_or_size_splits={pieces} does not divide; pass a list of sizes "
                "instead (or a number of pieces >= 1 that divides it)",
                op="split",
            )
        sizes = [length // pieces] * pieces
    else:
        sizes = _sizes_with_one_inferred(num_or_size_splits, length, axis, x)
        if sum(sizes) != length:
            raise InvalidArgumentError(
                f"split: num_or_size_splits {sizes} add up to {sum(sizes)}, not to the size "
                f"{length} of axis {axis} of value {x.dtype.name}{list(x.shape)}; pass sizes "
                f"that add up to {length}",
                op="split",
            )
    pieces, start = [], 0
    for size in sizes:
        pieces.append(x[(slice(None),) * axis + (slice(start, start + size),)])
        start += size
    return pieces


def _sizes_with_one_inferred(num_or_size_splits, length, axis, x):
    """The sizes of ``split``'s pieces; a single -1 becomes what the others leave."""
    unknown = [i for i, n in enumerate(num_or_size_splits) if _is_minus_one(n)]
    if len(unknown) > 1:
        raise InvalidArgumentError(
            f"split: num_or_size_splits {list(num_or_size_splits)} has {len(unknown)} sizes of "
            "-1; give at most one (-1 takes what the other sizes leave)",
            op="split",
        )
    what = "each size in num_or_size_splits"
    sizes = [
        arguments.size(n, what, "split")
        for i, n in enumerate(num_or_size_splits)
        if i not in unknown
    ]
    if unknown:
        rest = length - sum(sizes)
        if rest < 0:
            raise InvalidArgumentError(
                f"split: num_or_size_splits {list(num_or_size_splits)} asks for more than the "
                f"size {length} of axis {axis} of value {x.dtype.name}{list(x.shape)}; pass "
                f"sizes that add up to at most {length}",
                op="split",
            )
        sizes.insert(unknown[0], rest)
    return sizes


def _is_minus_one(size):
    """A size of -1 (an int or numpy int; True is no size)."""
    return isinstance(size, (int, np.integer)) and not isinstance(size, bool) and size == -1
