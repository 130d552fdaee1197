"""Comparisons, logic and ``where``. Comparisons give bool tensors and pass no gradient."""

import numpy as np

from eagerkit.dtypes import COMPLEX, NUMERIC, string
from eagerkit.dtypes import bool as bool_
from eagerkit.errors import InvalidArgumentError
from eagerkit.graph.dynamic_ops import follows_inputs
from eagerkit.registry import defop
from eagerkit.tensor import Tensor, convert_to_tensor


def _comparison(name, compare, doc, extra=()):
    def forward(xp, x, y):
        return compare(x, y)

    forward.__name__ = name
    forward.__doc__ = doc
    return defop(name, dtypes=NUMERIC + (bool_, *extra), differentiable=False)(forward)


# Strings and complex numbers compare for equality, not for order, as in TF.
equal = _comparison("equal", lambda x, y: x == y, "x == y elementwise (bool).", (string, *COMPLEX))
not_equal = _comparison(
    "not_equal", lambda x, y: x != y, "x != y elementwise (bool).", (string, *COMPLEX)
)
less = _comparison("less", lambda x, y: x < y, "x < y elementwise (bool).")
less_equal = _comparison("less_equal", lambda x, y: x <= y, "x <= y elementwise (bool).")
greater = _comparison("greater", lambda x, y: x > y, "x > y elementwise (bool).")
greater_equal = _comparison("greater_equal", lambda x, y: x >= y, "x >= y elementwise (bool).")


@defop("logical_and", dtypes=(bool_,), differentiable=False)
def logical_and(xp, x, y):
    """x and y, elementwise on bool tensors."""
    return xp.logical_and(x, y)


@defop("logical_or", dtypes=(bool_,), differentiable=False)
def logical_or(xp, x, y):
    """x or y, elementwise on bool tensors."""
    return xp.logical_or(x, y)


@defop("logical_xor", dtypes=(bool_,), differentiable=False)
def logical_xor(xp, x, y):
    """x xor y, elementwise on bool tensors."""
    return xp.logical_xor(x, y)


@defop("logical_not", dtypes=(bool_,), differentiable=False)
def logical_not(xp, x):
    """not x, elementwise on a bool tensor."""
    return xp.logical_not(x)


@defop("where", dtype_args=(1, 2))
def _where(xp, condition, x, y):
    # where(c, g, 0) and where(c, 0, g) are what relu's and maximum's VJPs ask for, on every
    # backward pass: an integer product with the mask takes two quick passes, where
    # xp.where chooses element by element (ten times slower on a random mask).
    if _is_zero(y) and _masks(x, condition):
        return _masked(xp, x, condition)
    if _is_zero(x) and _masks(y, condition):
        return _masked(xp, y, xp.logical_not(condition))
    if _selects(condition, x, y):
        return _selected(xp, condition, x, y)
    return xp.where(condition, x, y)


def _is_zero(value):
    # Only a number on the host: asking a GPU array whether it is 0 would wait for the GPU.
    host = isinstance(value, (int, float, np.ndarray, np.generic))
    return host and getattr(value, "ndim", 0) == 0 and value == 0


def _masks(values, condition):
    """True when ``_masked`` can take ``values``: a float array the shape of ``condition``."""
    dtype = getattr(values, "dtype", None)
    return (
        dtype is not None
        and dtype.kind == "f"
        and values.ndim > 0
        and values.shape == getattr(condition, "shape", None)
    )


def _masked(xp, values, keep):
    """``values`` where ``keep``, else 0: ``xp.where(keep, values, 0)`` bit for bit.

    The float's bits, read as an unsigned integer, times 1 are the float itself and times 0
    are the bits of +0.0: an exact choice, inf, nan and -0.0 included, in two quick passes.
    """
    bits = f"u{values.dtype.itemsize}"  # the unsigned integer as wide as the float
    chosen = keep.astype(bits)
    chosen *= values.view(bits)
    return chosen.view(values.dtype)


def _selects(condition, x, y):
    """True when ``_selected`` can take them: big float numpy arrays of one dtype, shaped
    like the bool ``condition`` (smaller ones: numpy's where is quicker)."""
    return (
        type(x) is np.ndarray
        and type(y) is np.ndarray
        and type(condition) is np.ndarray
        and condition.dtype == np.bool_
        and x.dtype is y.dtype
        and x.dtype.kind == "f"
        and x.shape == y.shape == condition.shape
        and x.size >= _SELECT_FROM
    )


_SELECT_FROM = 1 << 12  # elements


def _selected(xp, condition, x, y):
    """``np.where(condition, x, y)`` bit for bit, without a branch per element.

    numpy's where branches on each element, which a random condition makes slow: on a
    (1437, 128) batch it takes 3 times as long as this in float32 (690 against 223 us), 1.2
    times in float64. Here the condition becomes a mask of all ones or all zeros as wide as
    the float, and integer ops on the floats' bits choose:
    ``y ^ ((x ^ y) & mask)`` is x's bits where the mask is all ones and y's where it is 0,
    inf, nan and -0.0 included.
    """
    bits = f"u{x.dtype.itemsize}"  # the unsigned integer as wide as the float
    mask = condition.astype(bits)
    xp.negative(mask, out=mask)  # 1 -> all ones (wraps around), 0 -> 0
    chosen = xp.bitwise_xor(x.view(bits), y.view(bits))
    chosen &= mask
    chosen ^= y.view(bits)
    return chosen.view(x.dtype)


_where.defvjp(
    None,  # the condition gets no gradient
    lambda ops, g, ans, condition, x, y: ops.where(condition, g, 0),
    lambda ops, g, ans, condition, x, y: ops.where(condition, 0, g),
)


def where(condition, x=None, y=None, name=None):
    """Elementwise choice: x where condition is true, else y (broadcasting all three).

    The gradient goes to x where the condition holds and to y elsewhere; this is how to
    write "if" on whole batches (``if t > 0`` only works on a single element).

    With ``condition`` alone, TF's other ``where``: the coordinates of its true (nonzero)
    elements, one row each, as int64 of shape ``[number true, rank]``.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.where([True, False], [1.0, 2.0], [10.0, 20.0])
    <ek.Tensor: shape=(2,), dtype=float32, numpy=array([ 1., 20.], dtype=float32)>
    >>> ek.where([[True, False], [False, True]])
    <ek.Tensor: shape=(2, 2), dtype=int64, numpy=
    array([[0, 0],
           [1, 1]])>
    """
    if x is None and y is None:
        return _true_indices(convert_to_tensor(condition))
    if x is None or y is None:
        raise InvalidArgumentError(
            "where: x and y must both be given (choose elementwise) or both be left out "
            "(the indices of the true elements); got only "
            f"{'y' if x is None else 'x'}",
            op="where",
        )
    if getattr(condition, "dtype", None) not in (None, bool_):
        raise TypeError(
            f"where: the condition must be a bool tensor, got {condition.dtype.name}; "
            "compare first, e.g. ek.where(x > 0, ...)"
        )
    return _where(condition, x, y)


@follows_inputs  # inside ek.function: found again in each call's condition
def _true_indices(condition):
    """The coordinates of ``condition``'s true (nonzero) elements: int64 ``[n, rank]``.

    >>> import eagerkit as ek
    >>> _true_indices(ek.constant([0, 3, 0, 5])).numpy().tolist()
    [[1], [3]]
    """
    if condition.dtype not in NUMERIC + (bool_,):
        raise InvalidArgumentError(
            f"where: the condition must be bool or numeric, got {condition.dtype.name}; "
            "compare first, e.g. ek.where(x > 0)",
            op="where",
        )
    xp = condition._device.xp
    return Tensor(xp.argwhere(condition._data).astype(xp.int64), condition._device)
