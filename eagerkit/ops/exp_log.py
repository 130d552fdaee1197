"""More exponentials and logarithms: sinh, cosh, expm1, log2, log10, logaddexp, and erf.

Each VJP is written with other primitives (``ops``), so it can be differentiated again.
``expm1`` and ``logaddexp`` exist for accuracy: ``exp(x) - 1`` loses every digit for tiny x,
and ``log(exp(x) + exp(y))`` overflows for large x; numpy computes both without either loss.
"""

import math

from eagerkit.dtypes import FLOATING
from eagerkit.registry import defop


@defop("sinh", dtypes=FLOATING)
def sinh(xp, x):
    """Hyperbolic sine; derivative cosh(x).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.sinh(0.0)
    <ek.Tensor: shape=(), dtype=float32, numpy=0.0>
    """
    return xp.sinh(x)


sinh.defvjp(lambda ops, g, ans, x: g * ops.cosh(x))


@defop("cosh", dtypes=FLOATING)
def cosh(xp, x):
    """Hyperbolic cosine; derivative sinh(x).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.cosh(0.0)
    <ek.Tensor: shape=(), dtype=float32, numpy=1.0>
    """
    return xp.cosh(x)


cosh.defvjp(lambda ops, g, ans, x: g * ops.sinh(x))


@defop("expm1", dtypes=FLOATING)
def expm1(xp, x):
    """e**x - 1, exact for tiny x; its derivative e**x is ans + 1.

    Examples
    --------
    >>> import eagerkit as ek
    >>> float(ek.expm1(1e-10)) > 0.0  # exp(1e-10) - 1 would round to 0 in float32
    True
    """
    return xp.expm1(x)


expm1.defvjp(lambda ops, g, ans, x: g * (ans + 1))


@defop("log2", dtypes=FLOATING)
def log2(xp, x):
    """Base-2 logarithm; derivative 1 / (x ln 2).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.log2(8.0)
    <ek.Tensor: shape=(), dtype=float32, numpy=3.0>
    """
    return xp.log2(x)


log2.defvjp(lambda ops, g, ans, x: g / (x * math.log(2.0)))


@defop("log10", dtypes=FLOATING)
def log10(xp, x):
    """Base-10 logarithm; derivative 1 / (x ln 10).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.log10(10.0)
    <ek.Tensor: shape=(), dtype=float32, numpy=1.0>
    """
    return xp.log10(x)


log10.defvjp(lambda ops, g, ans, x: g / (x * math.log(10.0)))


@defop("logaddexp", dtypes=FLOATING)
def logaddexp(xp, x, y):
    """log(e**x + e**y) without overflow; the gradients are softmax weights of x and y.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.logaddexp(1000.0, 1000.0)
    <ek.Tensor: shape=(), dtype=float32, numpy=1000.6932>
    """
    return xp.logaddexp(x, y)


# d/dx = e**x / (e**x + e**y) = sigmoid(x - y): bounded, so it never overflows either.
logaddexp.defvjp(
    lambda ops, g, ans, x, y: g * ops.sigmoid(x - y),
    lambda ops, g, ans, x, y: g * ops.sigmoid(y - x),
)


@defop("erf", dtypes=FLOATING)
def erf(xp, x):
    """The error function (2/sqrt(pi)) * integral of e**-t**2 from 0 to x; the exact GELU uses it.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.math.erf(0.0)
    <ek.Tensor: shape=(), dtype=float32, numpy=0.0>
    """
    return xp.erf(x).astype(x.dtype)  # the backend's (numpy has no erf: scipy's, cupyx's)


erf.defvjp(lambda ops, g, ans, x: g * (2 / math.sqrt(math.pi)) * ops.exp(-x * x))
