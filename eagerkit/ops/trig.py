"""Inverse trigonometric and hyperbolic functions: asin, acos, atan, atan2, asinh, acosh, atanh.

Each VJP is TF's formula (tensorflow/python/ops/math_grad.py) written with other primitives,
so it can be differentiated again. At the edges of a domain the derivative is infinite, and
TF says so: the gradient of asin at x = 1 is ``g / sqrt(0) = inf``, and atan2's at
y = x = 0 is ``0 / 0 = nan``. eagerkit returns the same numbers rather than hiding them.
"""

from eagerkit.dtypes import COMPLEX, FLOATING
from eagerkit.registry import defop

# Holomorphic functions take complex numbers with the same VJP (backprop.py, _conjugated).
FLOATING_OR_COMPLEX = FLOATING + COMPLEX


@defop("asin", dtypes=FLOATING_OR_COMPLEX)
def asin(xp, x):
    """The inverse sine, in [-pi/2, pi/2] (nan outside [-1, 1]); derivative 1 / sqrt(1 - x²).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.math.asin([0.0, 1.0])
    <ek.Tensor: shape=(2,), dtype=float32, numpy=array([0.       , 1.5707964], dtype=float32)>
    """
    return xp.arcsin(x)


asin.defvjp(lambda ops, g, ans, x: g / ops.sqrt(1 - x * x))


@defop("acos", dtypes=FLOATING_OR_COMPLEX)
def acos(xp, x):
    """The inverse cosine, in [0, pi] (nan outside [-1, 1]); derivative -1 / sqrt(1 - x²).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.math.acos([1.0, -1.0])
    <ek.Tensor: shape=(2,), dtype=float32, numpy=array([0.       , 3.1415927], dtype=float32)>
    """
    return xp.arccos(x)


acos.defvjp(lambda ops, g, ans, x: -g / ops.sqrt(1 - x * x))


@defop("atan", dtypes=FLOATING_OR_COMPLEX)
def atan(xp, x):
    """The inverse tangent, in (-pi/2, pi/2); derivative 1 / (1 + x²).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.math.atan(1.0)
    <ek.Tensor: shape=(), dtype=float32, numpy=0.7853982>
    """
    return xp.arctan(x)


atan.defvjp(lambda ops, g, ans, x: g / (1 + x * x))


@defop("atan2", dtypes=FLOATING)
def atan2(xp, y, x):
    """The angle of the point (x, y) in [-pi, pi]: arctan(y / x) with the quadrant from the signs.

    Note the order, as in TF and numpy: ``atan2(y, x)``. The gradients are
    ``x / (x² + y²)`` for y and ``-y / (x² + y²)`` for x (nan at the origin, as in TF).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.math.atan2([1.0, -1.0], [-1.0, -1.0])  # the second and third quadrants
    <ek.Tensor: shape=(2,), dtype=float32, numpy=array([ 2.3561945, -2.3561945], dtype=float32)>
    """
    return xp.arctan2(y, x)


def _atan2_scale(ops, g, y, x):
    """g / (x² + y²): the factor both gradients share."""
    return g / (x * x + y * y)


atan2.defvjp(
    lambda ops, g, ans, y, x: x * _atan2_scale(ops, g, y, x),
    lambda ops, g, ans, y, x: -y * _atan2_scale(ops, g, y, x),
)


@defop("asinh", dtypes=FLOATING_OR_COMPLEX)
def asinh(xp, x):
    """The inverse hyperbolic sine; derivative 1 / cosh(asinh(x)) = 1 / sqrt(1 + x²).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.math.asinh(0.0)
    <ek.Tensor: shape=(), dtype=float32, numpy=0.0>
    """
    return xp.arcsinh(x)


# TF divides by cosh(ans); sqrt(1 + x²) is the same number, and sqrt takes complex x too.
asinh.defvjp(lambda ops, g, ans, x: g / ops.sqrt(1 + x * x))


@defop("acosh", dtypes=FLOATING_OR_COMPLEX)
def acosh(xp, x):
    """The inverse hyperbolic cosine (x >= 1, nan below); derivative 1 / sinh(acosh(x)).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.math.acosh(1.0)
    <ek.Tensor: shape=(), dtype=float32, numpy=0.0>
    """
    return xp.arccosh(x)


# sinh(acosh(x)) = sqrt(x - 1) sqrt(x + 1) on the principal branch (complex x too).
acosh.defvjp(lambda ops, g, ans, x: g / (ops.sqrt(x - 1) * ops.sqrt(x + 1)))


@defop("atanh", dtypes=FLOATING_OR_COMPLEX)
def atanh(xp, x):
    """The inverse hyperbolic tangent on (-1, 1) (±inf at ±1); derivative 1 / (1 - x²).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.math.atanh(0.0)
    <ek.Tensor: shape=(), dtype=float32, numpy=0.0>
    """
    return xp.arctanh(x)


atanh.defvjp(lambda ops, g, ans, x: g / (1 - x * x))
