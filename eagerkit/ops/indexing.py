"""Indexing: ``t[...]`` (basic numpy indexing), gather and one_hot.

Slicing out part of a tensor has a gradient that puts g back in place among zeros; a
gather's gradient does the same but adds up rows picked more than once (scatter-add).
"""

import re

import numpy as np

from eagerkit import dtypes, recording
from eagerkit.arguments import axis_index, size, whole_number
from eagerkit.errors import InvalidArgumentError
from eagerkit.graph.dynamic_ops import follows_inputs
from eagerkit.limits import check_tensor
from eagerkit.registry import defop
from eagerkit.tensor import Tensor, convert_to_tensor


def _basic_key(key, shape):
    """Check a ``t[key]`` index is basic (ints, slices, ..., None) and make it plain Python."""
    items = key if isinstance(key, tuple) else (key,)
    plain = []
    for item in items:
        if _is_whole(item):  # numpy ints and 0-d int tensors index as Python ints do
            item = int(item)
        elif isinstance(item, slice):
            item = slice(*(None if v is None else _slice_bound(v, shape) for v in _parts(item)))
        if item is None or item is Ellipsis or isinstance(item, (int, slice)):
            plain.append(item)
            continue
        raise InvalidArgumentError(
            f"index: only basic indexing works on tensors (ints, slices, ..., None); got "
            f"{type(item).__name__} {item!r} for a tensor of shape {shape}. To pick several "
            "positions use ek.gather(t, indices); to select by a mask use ek.boolean_mask.",
            op="getitem",
        )
    return tuple(plain)


def _is_mask(key):
    """A bool numpy array or bool tensor (TF's ``t[mask]`` rule: the whole key, not a part)."""
    if isinstance(key, Tensor):
        return key.dtype == dtypes.bool
    return isinstance(key, np.ndarray) and key.dtype == np.bool_


def _is_whole(item):
    """An int, a numpy int or a 0-d integer tensor (but not a bool, which numpy reads as a mask)."""
    if isinstance(item, Tensor):
        return item.ndim == 0 and item.dtype.is_integer
    return isinstance(item, (int, np.integer)) and not isinstance(item, (bool, np.bool_))


def _parts(piece):
    return piece.start, piece.stop, piece.step


def _slice_bound(value, shape):
    if not _is_whole(value):
        raise InvalidArgumentError(
            f"index: slice bounds must be integers, got {type(value).__name__} {value!r} for a "
            f"tensor of shape {shape}; fractional bounds are refused rather than truncated",
            op="getitem",
        )
    return int(value)


def _index_problem(message, shape):
    """numpy's IndexError, in words that say which index and what fits."""
    bounds = re.search(r"index (-?\d+) is out of bounds for axis (\d+) with size (\d+)", message)
    if bounds:
        index, axis, size = (int(n) for n in bounds.groups())
        return (
            f"index {index} is out of range for axis {axis} of size {size} "
            f"(valid: {-size} to {size - 1})"
        )
    if "too many indices" in message:
        return f"the index has more entries than the tensor's {len(shape)} axes; index fewer"
    return message


@defop("getitem")
def _getitem(xp, x, *, key):
    try:
        item = x[key]
    except IndexError as error:
        raise InvalidArgumentError(
            f"index: {_index_problem(str(error), x.shape)} (tensor shape {tuple(x.shape)}, "
            f"index {key!r})",
            op="getitem",
        ) from None
    # One element of a string tensor is a bytes object: keep it a 0-d array, as numbers are.
    return item if hasattr(item, "ndim") else xp.array(item, dtype=object)


_getitem.defvjp(lambda ops, g, ans, x, key: ops.unslice(g, shape=tuple(x.shape), key=key))


@defop("unslice")
def _unslice(xp, g, *, shape, key):
    """Zeros of ``shape`` with ``g`` written at ``key``: the gradient of ``x[key]``."""
    result = xp.zeros(shape, dtype=g.dtype)
    result[key] = g  # basic indexing never repeats a position, so assignment is exact
    return result


_unslice.defvjp(lambda ops, g, ans, x, shape, key: ops.getitem(g, key=key))


def getitem(tensor, key):
    """``tensor[key]`` with numpy's basic indexing (recorded on the tape).

    Examples
    --------
    >>> import eagerkit as ek
    >>> x = ek.constant([[1.0, 2.0], [3.0, 4.0]])
    >>> x[1, ::-1]
    <ek.Tensor: shape=(2,), dtype=float32, numpy=array([4., 3.], dtype=float32)>

    A bool array or tensor as the whole index is a mask, as in TF: ``boolean_mask(x, key)``.

    >>> x[x[:, 0] > 2.0].numpy().tolist()
    [[3.0, 4.0]]
    """
    if _is_mask(key):
        return boolean_mask(tensor, key)
    items = key if isinstance(key, tuple) else (key,)
    if recording.graph_tracers and any(_is_whole(k) and isinstance(k, Tensor) for k in items):
        return _getitem_by_tensors(tensor, items)
    return _getitem(tensor, key=_basic_key(key, tensor.shape))


def _getitem_by_tensors(tensor, items):
    """``tensor[items]`` inside ek.function, where some items are int tensors: those become
    gathers, so the graph reads the index at every run (``x[i]`` in a loop over ``i``)."""
    if any(k is Ellipsis for k in items):  # axes not known item by item: this trace's values
        return _getitem(tensor, key=_basic_key(items, tensor.shape))
    dynamic = [isinstance(k, Tensor) and _is_whole(k) for k in items]
    plain = tuple(slice(None) if d else k for k, d in zip(items, dynamic, strict=True))
    result = _getitem(tensor, key=_basic_key(plain, tensor.shape))
    axes, axis = [], 0  # the axis of the result each tensor index picks along
    for item, is_dynamic in zip(items, dynamic, strict=True):
        if is_dynamic:
            axes.append((axis, item))
        if is_dynamic or item is None or isinstance(item, slice):
            axis += 1  # an int drops its axis; a slice, None or a gathered axis keep one
    for axis, index in reversed(axes):  # the last first: earlier axes keep their numbers
        result = _gather(result, index, axis=axis)
    return result


@defop("gather", dtype_args=(0,))
def _gather(xp, params, indices, *, axis):
    if indices.dtype.kind not in "iu":
        raise InvalidArgumentError(
            f"gather: indices must be integers, got {indices.dtype}", op="gather"
        )
    size = params.shape[axis]
    if indices.size and (indices.min() < -size or indices.max() >= size):
        raise InvalidArgumentError(
            f"gather: indices must lie in [0, {size}) for axis {axis} of params with shape "
            f"{tuple(params.shape)}; got values from {int(indices.min())} to "
            f"{int(indices.max())}",
            op="gather",
        )
    picked = xp.take(params, indices, axis=axis)
    # One element of a string tensor is a bytes object: keep it a 0-d array, as getitem does.
    return picked if hasattr(picked, "ndim") else xp.array(picked, dtype=object)


_gather.defvjp(
    lambda ops, g, ans, params, indices, axis: ops.scatter_add(
        g, indices, shape=tuple(params.shape), axis=axis
    ),
    None,  # indices get no gradient
)


@defop("scatter_add", dtype_args=(0,))
def _scatter_add(xp, updates, indices, *, shape, axis):
    """Zeros of ``shape`` plus each update added at its index (repeats add up)."""
    result = xp.zeros(shape, dtype=updates.dtype)
    # Bring the gathered axis to the front so the backend's scatter_add works along axis 0.
    front = xp.moveaxis(result, axis, 0)  # a view: adding into it adds into result
    moved = xp.moveaxis(
        updates, tuple(range(axis, axis + indices.ndim)), tuple(range(indices.ndim))
    )
    xp.scatter_add(front, indices, moved)
    return result


_scatter_add.defvjp(
    lambda ops, g, ans, updates, indices, shape, axis: ops.gather(g, indices, axis=axis),
    None,
)


def gather(params, indices, axis=None, batch_dims=0, name=None):
    """Pick slices of ``params`` along ``axis`` by integer ``indices`` (repeats allowed).

    With ``batch_dims=b`` (TF's semantics), the first ``b`` axes of ``params`` and
    ``indices`` are batch axes of equal sizes, and each batch element gathers from its own
    part of ``params``: the result has shape ``params.shape[:axis] + indices.shape[b:] +
    params.shape[axis + 1:]``. A negative ``b`` counts from the end of ``indices``' axes;
    ``axis`` defaults to ``b`` and may not be smaller.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.gather([10.0, 20.0, 30.0], [2, 0, 2])
    <ek.Tensor: shape=(3,), dtype=float32, numpy=array([30., 10., 30.], dtype=float32)>
    >>> ek.gather([[1, 2, 3], [4, 5, 6]], [[2, 0], [1, 1]], axis=1, batch_dims=1).numpy()
    array([[3, 1],
           [5, 5]], dtype=int32)
    """
    params = convert_to_tensor(params)
    if params.ndim == 0:
        raise InvalidArgumentError(
            "gather: params must have rank >= 1, got a scalar; there is nothing to pick from",
            op="gather",
        )
    if isinstance(batch_dims, int) and batch_dims == 0:  # (True counts as 1: checked there)
        axis = 0 if axis is None else axis
        return _gather(params, indices, axis=axis_index(axis, params.ndim, "gather"))
    from eagerkit.ops.batch_gather import gather_in_batches

    return gather_in_batches(params, indices, axis, batch_dims)


@defop("one_hot", dtype_args=(), differentiable=False)
def _one_hot(xp, indices, *, depth, on_value, off_value, dtype, axis=-1):
    if indices.dtype.kind not in "iu":
        raise InvalidArgumentError(
            f"one_hot: indices must be integers, got {indices.dtype} (shape "
            f"{tuple(indices.shape)}); pass integer labels (ek.cast(labels, ek.int32) is "
            "exact only when every label is a whole number)",
            op="one_hot",
        )
    np_dtype = dtypes.as_dtype(dtype).as_numpy_dtype
    hot = xp.arange(depth) == indices[..., None]  # out-of-range indices give all-off rows
    table = xp.where(hot, on_value, off_value).astype(np_dtype)
    return table if axis == -1 else xp.moveaxis(table, -1, axis)


def one_hot(indices, depth, on_value=None, off_value=None, axis=None, dtype=None, name=None):
    """Integer labels to rows with a 1 at the label: one_hot([1], 3) is [[0, 1, 0]].

    As in TF: ``on_value``/``off_value`` (scalars) default to 1 and 0; ``dtype`` defaults
    to theirs when they are given, else float32; the new axis of size ``depth`` goes at
    ``axis`` (-1, the default, puts it last; 0 first).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.one_hot([0, 2], depth=3)
    <ek.Tensor: shape=(2, 3), dtype=float32, numpy=
    array([[1., 0., 0.],
           [0., 0., 1.]], dtype=float32)>
    >>> ek.one_hot([0, 2], depth=3, axis=0, on_value=5).numpy()  # dtype from on_value: int32
    array([[5, 0],
           [0, 0],
           [0, 5]], dtype=int32)
    """
    depth = size(depth, "depth", "one_hot")  # TF: "depth must be non-negative"
    indices = convert_to_tensor(indices)
    rank = indices.ndim
    axis = -1 if axis is None else whole_number(axis, "axis", "one_hot")
    if not -1 <= axis <= rank:
        raise InvalidArgumentError(
            f"one_hot: Expected axis to be -1 or between [0, {rank}] for indices of shape "
            f"{indices.shape}, but received: axis = {axis}",
            op="one_hot",
        )
    on, off, dtype = _on_off_values(on_value, off_value, dtype)
    check_tensor((*indices.shape, depth), 8, "one_hot")  # the table, before its dtype
    axis = -1 if axis == rank else axis
    return _one_hot(indices, depth=depth, on_value=on, off_value=off, dtype=dtype, axis=axis)


def _on_off_values(on_value, off_value, dtype):
    """TF's rules: None means 1 and 0; the dtype comes from ``dtype``, else from the values
    given, else float32; values given must be scalars of that dtype."""
    given = {
        what: convert_to_tensor(value, dtype=dtype)
        for what, value in (("on_value", on_value), ("off_value", off_value))
        if value is not None
    }
    for what, value in given.items():
        if value.ndim != 0:
            raise InvalidArgumentError(
                f"one_hot: {what} must be a scalar, got shape {value.shape}", op="one_hot"
            )
    kinds = {value.dtype for value in given.values()}
    if len(kinds) > 1:
        raise InvalidArgumentError(
            f"one_hot: dtype {given['on_value'].dtype.name} of on_value does not match dtype "
            f"{given['off_value'].dtype.name} of off_value; give both the same dtype",
            op="one_hot",
        )
    dtype = dtypes.as_dtype(dtype) if dtype is not None else (kinds.pop() if kinds else None)
    dtype = dtype or dtypes.float32
    on = given["on_value"].numpy() if "on_value" in given else 1
    off = given["off_value"].numpy() if "off_value" in given else 0
    return on, off, dtype


def boolean_mask(tensor, mask, name=None):
    """The elements of ``tensor`` where ``mask`` is true, flattened along the masked axes.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.boolean_mask([1.0, 2.0, 3.0], [True, False, True])
    <ek.Tensor: shape=(2,), dtype=float32, numpy=array([1., 3.], dtype=float32)>
    """
    tensor = convert_to_tensor(tensor)
    mask = convert_to_tensor(mask, device=tensor._device)
    if not mask.dtype.is_bool or mask.ndim == 0 or mask.shape != tensor.shape[: mask.ndim]:
        raise InvalidArgumentError(
            f"boolean_mask: the mask must be a bool tensor of rank >= 1 whose shape matches the "
            f"tensor's leading dimensions: tensor shape {tensor.shape}, mask {mask.dtype.name} "
            f"shape {mask.shape}. A mask of shape {tensor.shape[:1]} picks rows.",
            op="boolean_mask",
        )
    flat = tensor if mask.ndim == 1 else _flatten_lead(tensor, mask.ndim)
    # The kept positions, found where the mask lives (a gather of them has a gradient).
    return gather(flat, _kept_positions(mask), axis=0)


@follows_inputs  # inside ek.function: found again in each call's mask, not the first one's
def _kept_positions(mask):
    """The flat positions of ``mask``'s true elements (int64)."""
    xp = mask._device.xp
    return Tensor(xp.flatnonzero(mask._data).astype(xp.int64), mask._device)


def _flatten_lead(tensor, lead):
    from eagerkit.ops.shape import reshape

    return reshape(tensor, (-1,) + tuple(tensor.shape[lead:]))
