"""Ops that move elements around without computing new values: reshape, transpose, concat...

This module has tile, broadcast_to, identity, stop_gradient and the shape queries (shape,
rank, size); reshape, transpose, expand_dims and squeeze are in reshaping.py, concat, stack,
unstack and split in concat_split.py, all re-exported here. Their gradients move the
incoming gradient back the same way (sum the tiled copies, reshape back, ...).
"""

import numpy as np

from eagerkit import arguments, dtypes
from eagerkit.errors import InvalidArgumentError
from eagerkit.graph.dynamic_ops import follows_inputs
from eagerkit.limits import check_tensor
from eagerkit.ops.concat_split import concat, split, stack, unstack  # noqa: F401 - re-exported
from eagerkit.ops.reshaping import (  # noqa: F401 - re-exported: ek.reshape, ...
    expand_dims,
    reshape,
    squeeze,
    squeeze_axes,
    transpose,
)
from eagerkit.registry import defop
from eagerkit.tensor import convert_to_tensor


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
    if size >= _VIEW_FROM or xp.kernels.fused:
        # A view: no copy of a big gradient (reduce_sum's VJP), and on a GPU no launch.
        return xp.broadcast_to(x, shape)
    # On the CPU a fresh array rather than the view: ten times cheaper for the small
    # gradients that reductions broadcast back.
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
