"""Running sums and products along an axis: cumsum and cumprod.

Both take TF's ``exclusive`` (leave each element out of its own total) and ``reverse`` (run
from the end). The gradient of a running sum is a running sum the other way round: element
i is counted in every total after it, so its gradient adds up the incoming g from there on.
"""

from eagerkit.arguments import axis_index
from eagerkit.dtypes import NUMERIC
from eagerkit.registry import defop
from eagerkit.tensor import convert_to_tensor


def _scan(xp, running, identity, x, axis, exclusive, reverse):
    """``running`` (xp.cumsum or xp.cumprod) with TF's exclusive and reverse options."""
    if reverse:
        x = xp.flip(x, axis)
    out = running(x, axis=axis, dtype=x.dtype)
    if exclusive and x.shape[axis]:
        # Shift one place along the axis and start from the identity (0 or 1).
        head = xp.full_like(xp.take(out, xp.arange(1), axis=axis), identity)
        body = xp.take(out, xp.arange(x.shape[axis] - 1), axis=axis)
        out = xp.concatenate([head, body], axis=axis)
    return xp.flip(out, axis) if reverse else out


@defop("cumsum", dtypes=NUMERIC)
def _cumsum(xp, x, *, axis, exclusive, reverse):
    return _scan(xp, xp.cumsum, 0, x, axis, exclusive, reverse)


_cumsum.defvjp(
    lambda ops, g, ans, x, axis, exclusive, reverse: ops.cumsum(
        g, axis=axis, exclusive=exclusive, reverse=not reverse
    )
)


@defop("cumprod", dtypes=NUMERIC)
def _cumprod(xp, x, *, axis, exclusive, reverse):
    return _scan(xp, xp.cumprod, 1, x, axis, exclusive, reverse)


# d ans_j / d x_i = ans_j / x_i for every total j that contains x_i: a reversed running sum of
# g * ans, divided by x. As in TF, this needs x != 0.
_cumprod.defvjp(
    lambda ops, g, ans, x, axis, exclusive, reverse: (
        ops.cumsum(g * ans, axis=axis, exclusive=exclusive, reverse=not reverse) / x
    )
)


def _options(x, axis, exclusive, reverse, op):
    """The primitive's parameters, checked: one whole-number axis, two flags."""
    return {
        "axis": axis_index(axis, max(x.ndim, 1), op),
        "exclusive": bool(exclusive),
        "reverse": bool(reverse),
    }


def cumsum(x, axis=0, exclusive=False, reverse=False, name=None):
    """Running sum along ``axis``; ``exclusive`` leaves each element out of its total.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.cumsum([1, 2, 3])
    <ek.Tensor: shape=(3,), dtype=int32, numpy=array([1, 3, 6], dtype=int32)>
    >>> ek.cumsum([1, 2, 3], exclusive=True, reverse=True)
    <ek.Tensor: shape=(3,), dtype=int32, numpy=array([5, 3, 0], dtype=int32)>
    """
    x = convert_to_tensor(x)
    return _cumsum(x, **_options(x, axis, exclusive, reverse, "cumsum"))


def cumprod(x, axis=0, exclusive=False, reverse=False, name=None):
    """Running product along ``axis`` (its gradient needs non-zero inputs, as in TF).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.cumprod([1.0, 2.0, 3.0])
    <ek.Tensor: shape=(3,), dtype=float32, numpy=array([1., 2., 6.], dtype=float32)>
    """
    x = convert_to_tensor(x)
    return _cumprod(x, **_options(x, axis, exclusive, reverse, "cumprod"))
