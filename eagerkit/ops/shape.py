"""Ops that move elements around without computing new values: reshape, transpose, concat...

Their gradients move the incoming gradient back the same way (reshape back, transpose by
the inverse permutation, slice a concat apart).
"""

import numpy as np

from eagerkit import arguments, dtypes
from eagerkit.arguments import normalize_axis
from eagerkit.errors import InvalidArgumentError
from eagerkit.graph.dynamic_ops import follows_inputs
from eagerkit.limits import check_tensor
from eagerkit.registry import defop
from eagerkit.tensor import Tensor, convert_to_tensor


def _shape_tuple(shape, op="reshape"):
    """A shape argument (list, tuple, array, Tensor) as a tuple of Python ints."""
    return arguments.sizes(shape, "the shape", op)


@defop("reshape")
def _reshape(xp, x, shape=None):
    # shape may come by position too: a VJP writes ops.reshape(g, [-1]) as it would ek.reshape.
    if shape is None:
        raise InvalidArgumentError("reshape: a shape is needed, e.g. [-1]", op="reshape")
    try:
        return xp.reshape(x, tuple(shape) if isinstance(shape, list) else shape)
    except ValueError:
        raise InvalidArgumentError(
            f"reshape: cannot reshape a tensor of shape {tuple(x.shape)} ({x.size} elements) "
            f"to shape {shape}; the number of elements must stay the same (use -1 for one "
            "dimension to have it worked out)",
            op="reshape",
        ) from None


_reshape.defvjp(lambda ops, g, ans, x, shape: ops.reshape(g, shape=tuple(x.shape)))


def reshape(tensor, shape, name=None):
    """The same elements in a new shape (-1 means "whatever fits").

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.reshape(ek.range(6), [2, -1]).shape
    TensorShape([2, 3])
    """
    return _reshape(tensor, shape=_shape_tuple(shape))


@defop("transpose")
def _transpose(xp, x, *, perm):
    return xp.transpose(x, perm)


def _inverse(perm):
    inverse = [0] * len(perm)
    for i, p in enumerate(perm):
        inverse[p] = i
    return tuple(inverse)


_transpose.defvjp(lambda ops, g, ans, x, perm: ops.transpose(g, perm=_inverse(perm)))


def transpose(a, perm=None, name=None):
    """Permute the axes (reverse them when ``perm`` is None).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.transpose(ek.zeros([2, 3, 4]), perm=[0, 2, 1]).shape
    TensorShape([2, 4, 3])
    """
    a = convert_to_tensor(a)
    perm = tuple(reversed(range(a.ndim))) if perm is None else _shape_tuple(perm)
    if sorted(perm) != list(range(a.ndim)):
        raise InvalidArgumentError(
            f"transpose: perm {list(perm)} is not a permutation of the {a.ndim} axes (give each "
            f"of 0..{a.ndim - 1} once, e.g. {list(reversed(range(a.ndim)))}) of a "
            f"tensor of shape {a.shape}",
            op="transpose",
        )
    return _transpose(a, perm=perm)


def expand_dims(input, axis, name=None):  # noqa: A002 - TF's argument name
    """Insert a length-1 axis at ``axis``.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.expand_dims([1.0, 2.0], 0).shape
    TensorShape([1, 2])
    """
    x = convert_to_tensor(input)
    axis = arguments.whole_number(axis, "axis", "expand_dims")
    if not -x.ndim - 1 <= axis <= x.ndim:
        raise InvalidArgumentError(
            f"expand_dims: axis {axis} is out of range for a tensor of rank {x.ndim} "
            f"(valid: {-x.ndim - 1} to {x.ndim})",
            op="expand_dims",
        )
    axis %= x.ndim + 1
    return reshape(x, x.shape[:axis] + (1,) + x.shape[axis:])


def squeeze(input, axis=None, name=None):  # noqa: A002 - TF's argument name
    """Drop length-1 axes (only those in ``axis`` when given)."""
    x = convert_to_tensor(input)
    axes = (
        tuple(i for i, n in enumerate(x.shape) if n == 1)
        if axis is None
        else (normalize_axis(axis, x.ndim, "squeeze"))
    )
    for a in axes:
        if x.shape[a] != 1:
            raise InvalidArgumentError(
                f"squeeze: axis {a} has size {x.shape[a]}, not 1 (shape {x.shape})",
                op="squeeze",
            )
    return squeeze_axes(x, axes)


def squeeze_axes(x, axis):
    """Reshape away the (length-1) axes in ``axis`` (None: all of them)."""
    axes = normalize_axis(axis, x.ndim)
    return reshape(x, tuple(n for i, n in enumerate(x.shape) if i not in axes))


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
    """Cut a tensor into pieces along ``axis``: n equal pieces, or pieces of given sizes."""
    x = convert_to_tensor(value)
    axis = arguments.axis_index(axis, x.ndim, "split")
    length = x.shape[axis]
    if isinstance(num_or_size_splits, Tensor):
        num_or_size_splits = num_or_size_splits.numpy().tolist()
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
        what = "each size in num_or_size_splits"
        sizes = [arguments.size(n, what, "split") for n in num_or_size_splits]
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


@defop("tile")
def _tile(xp, x, *, multiples):
    return xp.tile(x, multiples)


def _tile_vjp(ops, g, ans, x, multiples):
    # Output axis d is multiples[d] copies of x's axis d: split it in two and sum the copies.
    split_shape = []
    for m, n in zip(multiples, x.shape, strict=True):
        split_shape += [m, n]
    copies = tuple(range(0, 2 * len(multiples), 2))
    return ops.reduce_sum(ops.reshape(g, shape=tuple(split_shape)), axis=copies)


_tile.defvjp(_tile_vjp)


def tile(input, multiples, name=None):  # noqa: A002 - TF's argument name
    """Repeat a tensor ``multiples[d]`` times along each axis d."""
    x = convert_to_tensor(input)
    multiples = arguments.sizes(multiples, "multiples", "tile")
    for n in multiples:
        arguments.size(n, "each multiple", "tile")  # no negative multiples
    if len(multiples) != x.ndim:
        raise InvalidArgumentError(
            f"tile: multiples {list(multiples)} must have one entry per axis of the "
            f"rank-{x.ndim} input (shape {x.shape})",
            op="tile",
        )
    tiled = [n * m for n, m in zip(x.shape, multiples, strict=True)]
    check_tensor(tiled, np.dtype(x.dtype.as_numpy_dtype).itemsize, "tile")  # before numpy
    return _tile(x, multiples=multiples)


@defop("broadcast_to")
def _broadcast_to(xp, x, *, shape):
    size = 1
    for n in shape:
        size *= n
    if size >= _VIEW_FROM:  # a read-only view: no copy of a big gradient (reduce_sum's VJP)
        return xp.broadcast_to(x, shape)
    # A fresh array rather than the view: ten times cheaper for the small gradients that
    # reductions broadcast back.
    result = xp.empty(shape, dtype=x.dtype)
    result[...] = x
    return result


_VIEW_FROM = 1 << 16  # elements; eagerkit never writes into an array it did not make


# The engine sums g back down to x's shape (unbroadcast), so the VJP just passes it on.
_broadcast_to.defvjp(lambda ops, g, ans, x, shape: g)


def broadcast_to(input, shape, name=None):  # noqa: A002 - TF's argument name
    """Repeat a tensor to ``shape`` by the broadcasting rules."""
    # sizes >= 0, and a result that fits in memory, checked before numpy sees them
    return _broadcast_to(input, shape=arguments.shape(shape, "broadcast_to"))


@defop("identity")
def identity(xp, x):
    """The same value, as a new tensor (recorded: the gradient passes through)."""
    return x


identity.defvjp(lambda ops, g, ans, x: g)


@defop("stop_gradient", differentiable=False)
def stop_gradient(xp, x):
    """The same value, but no gradient flows back through it.

    Examples
    --------
    >>> import eagerkit as ek
    >>> x = ek.constant(3.0)
    >>> with ek.GradientTape() as tape:
    ...     tape.watch(x)
    ...     y = x * ek.stop_gradient(x)
    >>> tape.gradient(y, x)  # only the first factor counts
    <ek.Tensor: shape=(), dtype=float32, numpy=3.0>
    """
    return x


@follows_inputs  # inside ek.function: read from each call's tensor
def shape(input, out_type=None, name=None):  # noqa: A002 - TF's argument name
    """The shape as an int32 tensor (``t.shape`` gives it as a tuple)."""
    x = convert_to_tensor(input)
    return convert_to_tensor(list(x.shape), dtype=out_type or dtypes.int32)


@follows_inputs  # inside ek.function: read from each call's tensor
def rank(input, name=None):  # noqa: A002 - TF's argument name
    """The number of dimensions as an int32 tensor."""
    return convert_to_tensor(convert_to_tensor(input).ndim, dtype=dtypes.int32)


@follows_inputs  # inside ek.function: read from each call's tensor
def size(input, out_type=None, name=None):  # noqa: A002 - TF's argument name
    """The number of elements as an int32 tensor."""
    return convert_to_tensor(convert_to_tensor(input).size, dtype=out_type or dtypes.int32)
