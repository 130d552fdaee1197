"""Checking the plain-Python arguments of ops: axes, sizes, counts.

TF refuses ``axis=1.5`` and ``depth=2.7``; ``int()`` would quietly truncate them to 1 and 2
and compute something nobody asked for. Every op that takes an axis or a size reads it
through these helpers, so a fractional, boolean or missing value gets one clear error.
"""

import numbers

from eagerkit.errors import InvalidArgumentError


def whole_number(value, what, op):
    """``value`` as a Python int: ints, numpy ints and 0-d integer tensors; nothing fractional.

    Examples
    --------
    >>> whole_number(3, "axis", "cumsum")
    3
    >>> whole_number(2.0, "axis", "cumsum")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    eagerkit.errors.InvalidArgumentError: cumsum: axis must be an integer, got float 2.0...
    """
    if type(value) is int:  # the commonest case, at once (a bool's type is bool, not int)
        return value
    from eagerkit.tensor import Tensor

    if isinstance(value, Tensor) and value.ndim == 0 and value.dtype.is_integer:
        return int(value)
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        return int(value)
    why = (
        "; fractional values are refused rather than truncated (write the whole number you mean)"
        if isinstance(value, (numbers.Number, Tensor))
        else ""
    )
    raise InvalidArgumentError(
        f"{op}: {what} must be an integer, got {type(value).__name__} {value!r}{why}", op=op
    )


def axis_index(axis, ndim, op, what="axis"):
    """One axis as a non-negative int below ``ndim`` (negative axes count from the end).

    Examples
    --------
    >>> axis_index(-1, 3, "roll")
    2
    """
    axis = whole_number(axis, what, op)
    if not -ndim <= axis < ndim:
        raise InvalidArgumentError(
            f"{op}: {what} {axis} is out of range for a tensor of rank {ndim} "
            f"(valid: {-ndim} to {ndim - 1})",
            op=op,
        )
    return axis % ndim


def size(value, what, op):
    """A count or length: a whole number that is not negative.

    Examples
    --------
    >>> size(4, "k", "top_k")
    4
    """
    value = whole_number(value, what, op)
    if value < 0:
        raise InvalidArgumentError(f"{op}: {what} must be >= 0, got {value}", op=op)
    return value


def positive(value, what, op):
    """A count that must be at least 1 (units of a layer, steps between summaries).

    Examples
    --------
    >>> positive(1.5, "units", "Dense")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    eagerkit.errors.InvalidArgumentError: Dense: units must be an integer, got float 1.5...
    """
    value = whole_number(value, what, op)
    if value < 1:
        raise InvalidArgumentError(f"{op}: {what} must be >= 1, got {value}", op=op)
    return value


def count_or_all(value, what, op):
    """A count where -1 means "all", as in TF's take, skip and repeat: None for all.

    Examples
    --------
    >>> count_or_all(-1, "count", "take") is None, count_or_all(3, "count", "take")
    (True, 3)
    """
    value = whole_number(value, what, op)
    if value < -1:
        raise InvalidArgumentError(f"{op}: {what} must be >= 0, or -1 for all, got {value}", op=op)
    return None if value == -1 else value


def normalize_axis(axis, ndim, op_name="axis"):
    """TF's axis argument (None, an int, a list) as a sorted tuple of non-negative axes.

    One int axis in range, the commonest call (``reduce_sum(x, axis=1)``, and every
    reduction's VJP), and None are answered at once; everything else, errors included, by
    ``normalize_axes``, the reference (tests/test_arguments_fast.py proves the two equal).

    Examples
    --------
    >>> normalize_axis(-1, 3), normalize_axis([2, 0], 3), normalize_axis(None, 2)
    ((2,), (0, 2), (0, 1))
    """
    if type(axis) is int and -ndim <= axis < ndim:
        return (axis % ndim,)
    if axis is None:  # every axis (reduce_mean(x)): as the reference's first step
        return tuple(range(ndim))
    return normalize_axes(axis, ndim, op_name)


def normalize_axes(axis, ndim, op_name="axis"):
    """``normalize_axis`` for any axis argument, step by step: each axis a whole number in
    range, negative ones counted from the end, duplicates once, sorted."""
    if axis is None:
        return tuple(range(ndim))
    from eagerkit.tensor import Tensor

    result = set()
    if isinstance(axis, Tensor):
        axis = axis.numpy().tolist()
    for a in axis if isinstance(axis, (list, tuple)) else [axis]:
        a = whole_number(a, "axis", op_name)  # 0.5 is refused, never truncated to 0
        if not -ndim <= a < ndim:
            raise InvalidArgumentError(
                f"{op_name}: axis {a} is out of range for a tensor of rank {ndim} "
                f"(valid axes: {-ndim} to {ndim - 1})",
                op=op_name,
            )
        result.add(a % ndim)
    return tuple(sorted(result))
