"""Scatter and gather by index tuples: scatter_nd, gather_nd, tensor_scatter_nd_update/add/sub.

An index tuple ``[i0, ..., i(K-1)]`` (the last axis of ``indices``) picks one slice
``t[i0, ..., i(K-1)]`` of a tensor: an element when K is its rank, a row or a block when K
is less. Numbered row-major, the tuple is one "flat" index into the tensor seen as
``prod(shape[:K])`` slices (``_flat_indices``). With that number, each op is one the engine
already differentiates:

- ``gather_nd`` is a ``gather`` of those slices (its gradient adds g back: ``scatter_add``);
- ``scatter_nd`` is an ``unsorted_segment_sum`` into them: repeated indices ADD, as in TF,
  and its gradient is ``gather_nd`` of the upstream gradient;
- ``tensor_scatter_nd_add``/``_sub`` add that sum to a tensor;
- ``tensor_scatter_nd_update`` is the one new primitive: it overwrites slices, so the
  tensor's gradient is g with the overwritten slices zeroed, and the updates get
  ``gather_nd(g)``. (With repeated indices TF leaves which update wins undefined, and so
  does eagerkit: numpy keeps the last, a GPU any one.)
"""

import math

from eagerkit import arguments
from eagerkit.dtypes import INTEGER
from eagerkit.errors import InvalidArgumentError
from eagerkit.ops.indexing import gather
from eagerkit.ops.segment import unsorted_segment_sum
from eagerkit.ops.shape import reshape
from eagerkit.registry import defop
from eagerkit.tensor import convert_to_tensor


@defop("flat_nd_indices", dtypes=INTEGER, differentiable=False)
def _flat_indices(xp, indices, *, shape, op):
    """Each index tuple (last axis of ``indices``) as its row-major number among the slices
    ``shape[:K]``; an index outside ``shape`` is refused, naming it, as TF does."""
    depth = indices.shape[-1]
    bounds = xp.asarray(shape[:depth], dtype=xp.int64)
    outside = (indices < 0) | (indices >= bounds)
    if bool(outside.any()):  # one read of a flag: cheap, and TF checks too
        where = tuple(int(i) for i in xp.argwhere(outside.any(axis=-1))[0])
        bad = [int(v) for v in indices[where]]
        raise InvalidArgumentError(
            f"{op}: indices{list(where)} = {bad} does not index into shape {list(shape)} "
            f"(flat_nd_indices checks that 0 <= indices[..., k] < shape[k] for k < {depth}); "
            "fix or drop that index (negative indices do not count from the end, as in TF)",
            op=op,
        )
    strides = [math.prod(shape[k + 1 : depth]) for k in range(depth)]
    return (indices.astype(xp.int64) * xp.asarray(strides, dtype=xp.int64)).sum(axis=-1)


def _index_tuples(indices, shape, op, into):
    """``indices`` as an integer Tensor of index tuples into ``shape`` (the shape of the
    argument named ``into``), checked."""
    indices = convert_to_tensor(indices)
    if not indices.dtype.is_integer or indices.ndim < 1:
        raise InvalidArgumentError(
            f"{op}: indices must be integer index tuples along the last axis (shape "
            f"[..., K]), got {indices.dtype.name} of shape {indices.shape}; e.g. [[0], [2]] "
            "picks rows 0 and 2",
            op=op,
        )
    depth = indices.shape[-1]
    if depth > len(shape):
        raise InvalidArgumentError(
            f"{op}: each index tuple has {depth} entries (indices shape {indices.shape}) but "
            f"{into} has only {len(shape)} axes ({into} shape {list(shape)}); use at most "
            f"{len(shape)} entries per index, or a {into} of higher rank",
            op=op,
        )
    return indices


def _check_updates(updates, indices, shape, op):
    """updates must be one slice ``shape[K:]`` per index tuple."""
    expected = tuple(indices.shape[:-1]) + tuple(shape[indices.shape[-1] :])
    if tuple(updates.shape) != expected:
        raise InvalidArgumentError(
            f"{op}: updates must have shape indices.shape[:-1] + shape[K:] = {list(expected)} "
            f"(indices {indices.shape}, so K = {indices.shape[-1]}; shape {list(shape)}), got "
            f"updates of shape {updates.shape}; give one slice per index tuple",
            op=op,
        )


def scattered(indices, updates, shape, op):
    """Zeros of ``shape`` plus each update added at its index tuple (repeats add up)."""
    depth = indices.shape[-1]
    flat = _flat_indices(indices, shape=shape, op=op)
    slices = reshape(updates, (-1, *shape[depth:]))
    sums = unsorted_segment_sum(slices, reshape(flat, (-1,)), math.prod(shape[:depth]))
    return reshape(sums, shape)


def scatter_nd(indices, updates, shape, name=None):
    """Zeros of ``shape`` with ``updates`` added at ``indices``; repeated indices add up.

    ``indices`` has shape ``[..., K]``: each index tuple picks an element (K = rank) or a
    slice ``shape[K:]``; ``updates`` has shape ``indices.shape[:-1] + shape[K:]``. The
    gradient for ``updates`` is ``gather_nd(g, indices)``.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.scatter_nd([[1], [3], [1]], [10.0, 20.0, 5.0], [4])
    <ek.Tensor: shape=(4,), dtype=float32, numpy=array([ 0., 15.,  0., 20.], dtype=float32)>
    """
    updates = convert_to_tensor(updates)
    shape = arguments.shape(shape, "scatter_nd", updates.dtype.as_numpy_dtype)
    indices = _index_tuples(indices, shape, "scatter_nd", "shape")
    _check_updates(updates, indices, shape, "scatter_nd")
    return scattered(indices, updates, shape, "scatter_nd")


def gather_nd(params, indices, batch_dims=0, name=None):
    """The slices of ``params`` at ``indices``: one ``params[i0, ..., i(K-1)]`` per index tuple.

    ``indices`` has shape ``[..., K]``; the result has shape
    ``indices.shape[:-1] + params.shape[K:]``. Only ``batch_dims=0`` is supported.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.gather_nd([[1.0, 2.0], [3.0, 4.0]], [[1, 0], [0, 1]])
    <ek.Tensor: shape=(2,), dtype=float32, numpy=array([3., 2.], dtype=float32)>
    >>> ek.gather_nd([[1.0, 2.0], [3.0, 4.0]], [[1]])  # K = 1: whole rows
    <ek.Tensor: shape=(1, 2), dtype=float32, numpy=array([[3., 4.]], dtype=float32)>
    """
    if batch_dims != 0:
        raise InvalidArgumentError(
            f"gather_nd: batch_dims={batch_dims!r} is not supported, only 0; for batch "
            "dimensions, put the batch index into each index tuple (indices [..., 1 + K])",
            op="gather_nd",
        )
    params = convert_to_tensor(params)
    shape = tuple(params.shape)
    indices = _index_tuples(indices, shape, "gather_nd", "params")
    depth = indices.shape[-1]
    flat = _flat_indices(indices, shape=shape, op="gather_nd")
    return gather(reshape(params, (-1, *shape[depth:])), flat)


@defop("tensor_scatter_nd_update", dtype_args=(0, 2))
def _overwrite_rows(xp, rows, flat, updates):
    """``rows`` (slices along axis 0) with row ``flat[i]`` replaced by ``updates[i]``."""
    result = rows.copy()
    result[flat] = updates  # a repeated index: numpy keeps the last update, cupy any one
    return result


def _zeros_like_updates(ops, flat, updates):
    """Zeros shaped like ``updates``, made from the integer indices: ``0 * g`` would turn an
    inf in g into nan, and TF writes true zeros (zeros_like) here."""
    zero = ops.cast(flat * 0, dtype=updates.dtype)
    column = ops.reshape(zero, shape=(int(flat.shape[0]),) + (1,) * (len(updates.shape) - 1))
    return ops.broadcast_to(column, shape=tuple(updates.shape))


_overwrite_rows.defvjp(
    # The overwritten rows never reach the answer: their gradient is 0.
    lambda ops, g, ans, rows, flat, updates: ops.tensor_scatter_nd_update(
        g, flat, _zeros_like_updates(ops, flat, updates)
    ),
    None,  # indices get no gradient
    lambda ops, g, ans, rows, flat, updates: ops.gather(g, flat, axis=0),
)


def _tensor_and_updates(tensor, indices, updates, op):
    tensor = convert_to_tensor(tensor)
    updates = convert_to_tensor(updates, dtype=tensor.dtype)
    shape = tuple(tensor.shape)
    indices = _index_tuples(indices, shape, op, "tensor")
    _check_updates(updates, indices, shape, op)
    return tensor, indices, updates, shape


def tensor_scatter_nd_update(tensor, indices, updates, name=None):
    """A copy of ``tensor`` with the slices at ``indices`` replaced by ``updates``.

    Shapes as in ``scatter_nd``, with ``shape = tensor.shape``. The gradient for ``tensor``
    is 0 at the replaced slices; ``updates`` get ``gather_nd(g, indices)``. With repeated
    indices the winner is undefined, as in TF (numpy keeps the last; a GPU may not).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.tensor_scatter_nd_update([1.0, 2.0, 3.0, 4.0], [[0], [2]], [-1.0, -3.0])
    <ek.Tensor: shape=(4,), dtype=float32, numpy=array([-1.,  2., -3.,  4.], dtype=float32)>
    """
    op = "tensor_scatter_nd_update"
    tensor, indices, updates, shape = _tensor_and_updates(tensor, indices, updates, op)
    depth = indices.shape[-1]
    flat = reshape(_flat_indices(indices, shape=shape, op=op), (-1,))
    rows = reshape(tensor, (-1, *shape[depth:]))
    slices = reshape(updates, (-1, *shape[depth:]))
    return reshape(_overwrite_rows(rows, flat, slices), shape)


def tensor_scatter_nd_add(tensor, indices, updates, name=None):
    """``tensor`` plus ``updates`` added at ``indices`` (repeated indices add up).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.tensor_scatter_nd_add([1.0, 2.0, 3.0], [[0], [0]], [10.0, 5.0])
    <ek.Tensor: shape=(3,), dtype=float32, numpy=array([16.,  2.,  3.], dtype=float32)>
    """
    op = "tensor_scatter_nd_add"
    tensor, indices, updates, shape = _tensor_and_updates(tensor, indices, updates, op)
    return tensor + scattered(indices, updates, shape, op)


def tensor_scatter_nd_sub(tensor, indices, updates, name=None):
    """``tensor`` minus ``updates`` at ``indices`` (repeated indices subtract each one).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.tensor_scatter_nd_sub([[1.0, 2.0], [3.0, 4.0]], [[1]], [[1.0, 1.0]])
    <ek.Tensor: shape=(2, 2), dtype=float32, numpy=
    array([[1., 2.],
           [2., 3.]], dtype=float32)>
    """
    op = "tensor_scatter_nd_sub"
    tensor, indices, updates, shape = _tensor_and_updates(tensor, indices, updates, op)
    return tensor - scattered(indices, updates, shape, op)
