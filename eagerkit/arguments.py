"""Checking the plain-Python arguments of ops: axes, sizes, counts.

TF refuses ``axis=1.5`` and ``depth=2.7``; ``int()`` would quietly truncate them to 1 and 2
and compute something nobody asked for. Every op that takes an axis or a size reads it
through these helpers, so a fractional, boolean or missing value gets one clear error.
"""

import math
import numbers
import os

import numpy as np

from eagerkit.errors import InvalidArgumentError, type_error


def describe(value):
    """``value`` in a few words for an error message: ``float32[2, 3]``, ``np.float32``,
    ``'abc'``, ``list of 2``.

    Examples
    --------
    >>> import numpy as np
    >>> describe(np.float32), describe(np.dtype("int8")), describe(1.5), describe([1, 2])
    ('np.float32', "np.dtype('int8')", '1.5', 'list of 2')
    """
    from eagerkit.tensor import Tensor

    if isinstance(value, type):  # a class given as a value: dtype=np.float32
        module = {"numpy": "np", "builtins": ""}.get(value.__module__, value.__module__)
        return f"{module}.{value.__qualname__}".lstrip(".")
    if isinstance(value, np.dtype):
        return f"np.dtype('{value}')"
    if isinstance(value, Tensor):
        where = "" if value._device.name == "/cpu:0" else f" on {value._device.name}"
        kind = "Variable " if value._is_variable else ""
        return f"{kind}{value.dtype.name}{list(value.shape)}{where}"
    if isinstance(value, np.generic):
        return repr(value)  # numpy 2 writes np.float32(1.5)
    if hasattr(value, "dtype") and hasattr(value, "shape"):  # a numpy array
        return f"{type(value).__name__} {value.dtype}{list(value.shape)}"
    if isinstance(value, (list, tuple)):
        return f"{type(value).__name__} of {len(value)}"
    if value is None or isinstance(value, (bool, int, float, complex, str, bytes)):
        text = repr(value)
        if len(text) <= 24:
            return text
        if isinstance(value, str) and os.sep in value.strip(os.sep):
            return _path_tail(value)
        return text[:21] + "..."
    return type(value).__name__


def _path_tail(path):
    """``'.../broken/ckpt-3'``: the end of a long path, the parts that name the file (its
    start is a folder that differs from machine to machine, a temporary one's name too).

    Examples
    --------
    >>> _path_tail("/tmp/tmpk2j4z9x1/broken/ckpt-3")
    "'.../broken/ckpt-3'"
    """
    parts = path.split(os.sep)
    kept = parts[-1]
    for part in reversed(parts[:-1]):
        if len(part) + 1 + len(kept) > 20:  # about what a short value shows
            break
        kept = part + os.sep + kept
    return repr("..." + os.sep + kept)


def host_array(value, op):
    """``np.asarray(value)``, refusing in our words what numpy cannot make one array of.

    Examples
    --------
    >>> host_array([[1.0, 2.0], [3.0]], "constant")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    eagerkit.errors.InvalidArgumentError: constant: Can't convert non-rectangular Python ...
    """
    if value is None:  # TF too: None is no value (it would become a float nan)
        raise InvalidArgumentError(
            f"{op}: got None where a value is needed; pass a number, a list or a tensor",
            op=op,
        )
    if isinstance(value, type):  # dtype=np.float32 put where a value goes
        raise type_error(
            f"{op}: got {describe(value)}, a type, not a value; pass a value such as "
            f"{describe(value)}(1), or give the type as dtype=",
            op=op,
        )
    try:
        return np.asarray(value)
    except InvalidArgumentError:  # the value's own __array__ said why (a RaggedTensor)
        raise
    except (ValueError, TypeError):
        if isinstance(value, (list, tuple)):  # TF's words for rows of different lengths
            raise InvalidArgumentError(
                f"{op}: Can't convert non-rectangular Python sequence to Tensor: "
                f"{describe(value)} has rows of different lengths. Pad them to one length, "
                "or make a ragged tensor with ek.ragged.constant",
                op=op,
            ) from None
        raise InvalidArgumentError(
            f"{op}: cannot make a tensor from {describe(value)}: numpy cannot make one array "
            "of it; pass numbers, bools or strings",
            op=op,
        ) from None


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
    raise InvalidArgumentError(f"{op}: {what} must be an integer, got {_given(value)}{why}", op=op)


def _given(value):
    """``float 2.0``, ``np.float32 (a type, not a value)``: what was passed, for a message."""
    if isinstance(value, (type, np.dtype)):
        return f"{describe(value)} (a type, not a value)"
    if isinstance(value, (bool, int, float, complex, str, bytes)) or value is None:
        return f"{type(value).__name__} {describe(value)}"
    return describe(value)


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


def sizes(value, what, op, minimum=None):
    """A list of whole numbers (a shape, a permutation, multiples, a window) as a tuple of ints.

    Takes what TF takes: a list or tuple, a number alone, numpy ints, a 1-D integer array or
    tensor, a TensorShape. Entries are never truncated (``[2, 1.5]`` is refused); with
    ``minimum``, smaller entries are refused too.

    Examples
    --------
    >>> import numpy as np
    >>> sizes(np.array([2, 3]), "the shape", "zeros"), sizes(4, "the shape", "zeros")
    ((2, 3), (4,))
    >>> sizes([2, -1], "the shape", "zeros", minimum=0)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    eagerkit.errors.InvalidArgumentError: zeros: each dimension of the shape must be >= 0, ...
    """
    from eagerkit.tensor import Tensor

    given = value
    if isinstance(value, Tensor):
        value = value.numpy()  # a host copy of the sizes
    if isinstance(value, np.ndarray) and value.dtype.kind in "iub":
        value = value.tolist()
    elif hasattr(value, "as_list") and not isinstance(value, np.ndarray):  # a TensorShape
        value = value.as_list()
    if isinstance(value, (numbers.Number, np.generic)):
        value = [value]
    if not isinstance(value, (list, tuple)):
        raise InvalidArgumentError(
            f"{op}: {what} must be a list of whole numbers (e.g. [2, 3]), got {describe(given)}",
            op=op,
        )
    found = tuple(whole_number(n, f"each dimension of {what}", op) for n in value)
    if minimum is not None and any(n < minimum for n in found):
        raise InvalidArgumentError(
            f"{op}: each dimension of {what} must be >= {minimum}, got {list(found)}", op=op
        )
    return found


def shape(value, op, np_dtype=np.float32, what="the shape"):
    """A shape for a new tensor: ``sizes`` of at least 0, refused (before any work) when a
    tensor of that shape and dtype would not fit in this machine's memory.

    Examples
    --------
    >>> shape([2, 3], "zeros")
    (2, 3)
    >>> shape([2**40, 2**40], "zeros")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    eagerkit.errors.ResourceExhaustedError: zeros: a float32 tensor of shape (1099511627776, ...
    """
    from eagerkit import limits

    found = sizes(value, what, op, minimum=0)
    needed = math.prod(found) * np.dtype(np_dtype).itemsize  # Python ints: no overflow
    kind = f"a {np.dtype(np_dtype).name} tensor of shape {found}"
    limits.check_memory(needed, kind, op, "ask for a smaller shape")
    return found


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
