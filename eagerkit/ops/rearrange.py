"""Moving and copying elements: pad, roll and repeat.

Each is linear in its input, so each gradient moves g back the way the values came:
padding is undone by slicing, a roll by rolling back, and a repeat by adding up the copies
(``unrepeat``, whose own gradient is the repeat again).
"""

import numpy as np

from eagerkit.arguments import axis_index, size, whole_number
from eagerkit.errors import InvalidArgumentError
from eagerkit.limits import check_tensor
from eagerkit.ops import shape as shape_ops
from eagerkit.ops.indexing import getitem
from eagerkit.registry import defop
from eagerkit.tensor import Tensor, convert_to_tensor


# --- pad -------------------------------------------------------------------------------------
@defop("pad")
def _pad(xp, x, *, paddings, constant_values):
    return xp.pad(x, paddings, constant_values=constant_values)


def _unpad_key(paddings, shape):
    return tuple(slice(before, before + n) for (before, _), n in zip(paddings, shape, strict=True))


_pad.defvjp(
    lambda ops, g, ans, x, paddings, constant_values: ops.getitem(
        g, key=_unpad_key(paddings, x.shape)
    )
)


def _checked_paddings(paddings, x):
    """paddings as one (before, after) pair of non-negative ints per axis of ``x``."""
    rows = paddings.numpy() if isinstance(paddings, Tensor) else paddings
    rows = rows.tolist() if hasattr(rows, "tolist") else rows
    if (
        not isinstance(rows, (list, tuple))
        or len(rows) != x.ndim
        or any(not isinstance(row, (list, tuple)) or len(row) != 2 for row in rows)
    ):
        raise InvalidArgumentError(
            f"pad: paddings must be a [rank, 2] list of non-negative integers, one [before, "
            f"after] pair per axis; the tensor has shape {x.shape}, got {paddings!r}",
            op="pad",
        )
    return tuple((size(a, "padding", "pad"), size(b, "padding", "pad")) for a, b in rows)


def _mirror(x, axis, before, after, mode):
    """REFLECT / SYMMETRIC padding along one axis: reversed slices, concatenated."""
    n, skip = x.shape[axis], 1 if mode == "REFLECT" else 0  # REFLECT leaves the edge out
    if before + skip > n or after + skip > n:
        raise InvalidArgumentError(
            f"pad: {mode} padding of {max(before, after)} along axis {axis} needs at most "
            f"{n - skip} (the axis has {n} entries); pad less or use mode='CONSTANT'",
            op="pad",
        )

    def part(start, stop):  # x[..., start:stop:-1, ...] along axis (stop -1: to the front)
        key = (slice(None),) * axis + (slice(start, stop if stop >= 0 else None, -1),)
        return getitem(x, key)

    head = part(before - 1 + skip, skip - 1)
    tail = part(n - 1 - skip, n - 1 - skip - after)
    pieces = [head] * bool(before) + [x] + [tail] * bool(after)
    return shape_ops.concat(pieces, axis) if len(pieces) > 1 else x


def pad(tensor, paddings, mode="CONSTANT", constant_values=0, name=None):
    """Pad each axis with ``paddings[axis] = [before, after]`` entries.

    ``mode`` is 'CONSTANT' (fill with ``constant_values``), 'REFLECT' (mirror, leaving the
    edge out) or 'SYMMETRIC' (mirror, edge included), all case-insensitive as in TF.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.pad([1, 2, 3], [[1, 2]])
    <ek.Tensor: shape=(6,), dtype=int32, numpy=array([0, 1, 2, 3, 0, 0], dtype=int32)>
    >>> ek.pad([1, 2, 3], [[2, 2]], mode="REFLECT")
    <ek.Tensor: shape=(7,), dtype=int32, numpy=array([3, 2, 1, 2, 3, 2, 1], dtype=int32)>
    """
    x = convert_to_tensor(tensor)
    pairs = _checked_paddings(paddings, x)
    padded = [n + before + after for n, (before, after) in zip(x.shape, pairs, strict=True)]
    check_tensor(padded, _itemsize(x), "pad")  # before numpy allocates
    mode = str(mode).upper()
    if mode == "CONSTANT":
        return _pad(x, paddings=pairs, constant_values=_fill_value(constant_values, x))
    if mode not in ("REFLECT", "SYMMETRIC"):
        raise InvalidArgumentError(
            f"pad: mode must be 'CONSTANT', 'REFLECT' or 'SYMMETRIC', got {mode!r}", op="pad"
        )
    for axis, (before, after) in enumerate(pairs):
        x = _mirror(x, axis, before, after, mode)
    return x


def _fill_value(constant_values, x):
    """The pad value as a scalar of ``x``'s dtype: None and 1.5 for an int tensor are refused
    (TF converts it to the tensor's dtype); 0, the default, is b'' for strings."""
    if x.dtype.is_string and isinstance(constant_values, int) and constant_values == 0:
        return b""
    if constant_values is None:
        raise InvalidArgumentError(
            f"pad: constant_values must be a number of the tensor's dtype ({x.dtype.name}), "
            "got None; leave it out to pad with zeros",
            op="pad",
        )
    value = convert_to_tensor(constant_values, dtype=x.dtype)
    if value.ndim != 0:
        raise InvalidArgumentError(
            f"pad: constant_values must be a scalar, got shape {value.shape}", op="pad"
        )
    return value.numpy()[()]


# --- roll ------------------------------------------------------------------------------------
@defop("roll")
def _roll(xp, x, *, shift, axis):
    return xp.roll(x, shift, axis)


_roll.defvjp(
    lambda ops, g, ans, x, shift, axis: ops.roll(g, shift=tuple(-s for s in shift), axis=axis)
)


def roll(input, shift, axis, name=None):  # noqa: A002 - TF's argument name
    """Shift elements along ``axis`` by ``shift`` places, wrapping around (lists allowed).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.roll([1, 2, 3, 4], shift=1, axis=0)
    <ek.Tensor: shape=(4,), dtype=int32, numpy=array([4, 1, 2, 3], dtype=int32)>
    """
    x = convert_to_tensor(input)
    shifts = shift if isinstance(shift, (list, tuple)) else [shift]
    axes = axis if isinstance(axis, (list, tuple)) else [axis]
    if len(shifts) != len(axes):
        raise InvalidArgumentError(
            f"roll: shift and axis must have the same length, got {len(shifts)} shifts and "
            f"{len(axes)} axes",
            op="roll",
        )
    shifts = tuple(whole_number(s, "shift", "roll") for s in shifts)
    axes = tuple(axis_index(a, x.ndim, "roll") for a in axes)
    return _roll(x, shift=shifts, axis=axes)


# --- repeat ----------------------------------------------------------------------------------
@defop("repeat")
def _repeat(xp, x, *, repeats, axis):
    return xp.repeat(x, repeats, axis=axis)


@defop("unrepeat")
def _unrepeat(xp, g, *, repeats, axis, length):
    """The gradient of a repeat: each of the ``length`` entries gets the sum of its copies."""
    moved = xp.moveaxis(g, axis, 0)
    owner = xp.repeat(xp.arange(length), repeats)  # which entry each copy came from
    result = xp.zeros((length,) + tuple(moved.shape[1:]), dtype=g.dtype)
    xp.scatter_add(result, owner, moved)
    return xp.moveaxis(result, 0, axis)


_repeat.defvjp(
    lambda ops, g, ans, x, repeats, axis: ops.unrepeat(
        g, repeats=repeats, axis=axis, length=x.shape[axis]
    )
)
_unrepeat.defvjp(
    lambda ops, g, ans, h, repeats, axis, length: ops.repeat(g, repeats=repeats, axis=axis)
)


def repeat(input, repeats, axis=None, name=None):  # noqa: A002 - TF's argument name
    """Repeat each entry along ``axis`` ``repeats`` times (one count, or one per entry).

    With ``axis=None`` the tensor is flattened first, as in TF and numpy.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.repeat([1, 2], repeats=[2, 3], axis=0)
    <ek.Tensor: shape=(5,), dtype=int32, numpy=array([1, 1, 2, 2, 2], dtype=int32)>
    """
    x = convert_to_tensor(input)
    if axis is None:
        x, axis = shape_ops.reshape(x, [-1]), 0
    if x.ndim == 0 and axis not in (0, -1):
        raise InvalidArgumentError(
            f"repeat: a scalar input has only axis 0 (it repeats as a 1-d tensor), got "
            f"axis={axis!r} for input {x.dtype.name}[]; use axis=0 or axis=None",
            op="repeat",
        )
    axis = axis_index(axis, max(x.ndim, 1), "repeat")  # a scalar repeats as a 1-d tensor
    if x.ndim == 0:
        x = shape_ops.reshape(x, [1])
    counts = repeats.numpy().tolist() if hasattr(repeats, "numpy") else repeats
    if isinstance(counts, (list, tuple)):
        counts = tuple(size(r, "repeats", "repeat") for r in counts)
        if len(counts) not in (1, x.shape[axis]):
            raise InvalidArgumentError(
                f"repeat: repeats has {len(counts)} counts but axis {axis} of the input "
                f"(shape {x.shape}) has {x.shape[axis]} entries; give one count or one per entry",
                op="repeat",
            )
        counts = counts[0] if len(counts) == 1 else counts
    else:
        counts = size(counts, "repeats", "repeat")
    dims = tuple(x.shape)  # a plain tuple: a TensorShape's slices are checked again
    total = sum(counts) if isinstance(counts, tuple) else counts * dims[axis]
    check_tensor((*dims[:axis], total, *dims[axis + 1 :]), _itemsize(x), "repeat")
    return _repeat(x, repeats=counts, axis=axis)


def _itemsize(x):
    return np.dtype(x.dtype.as_numpy_dtype).itemsize
