"""Elementwise functions of one tensor: forward and VJP side by side.

Several VJPs reuse the forward's answer ``ans`` (exp, sqrt, tanh, sigmoid): the value is
already computed, so the gradient costs one multiply.
"""

from eagerkit.dtypes import COMPLEX, FLOATING, NUMERIC
from eagerkit.registry import defop

# Holomorphic functions take complex numbers with the same VJP (backprop.py, _conjugated).
FLOATING_OR_COMPLEX = FLOATING + COMPLEX
NUMERIC_OR_COMPLEX = NUMERIC + COMPLEX


@defop("negative", dtypes=NUMERIC_OR_COMPLEX)
def negative(xp, x):
    """-x."""
    return -x


negative.defvjp(lambda ops, g, ans, x: -g)


@defop("abs", dtypes=NUMERIC_OR_COMPLEX)
def abs(xp, x):  # noqa: A001 - TF's name
    """|x|; its derivative is sign(x). For a complex x, the modulus (a float).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.abs(ek.constant([[-2.25 + 4.75j], [-3.25 + 5.75j]]))
    <ek.Tensor: shape=(2, 1), dtype=float64, numpy=
    array([[5.25594901],
           [6.60492241]])>
    """
    return xp.abs(x)


def _abs_vjp(ops, g, ans, x):
    if x.dtype.kind == "c":  # |z| is not holomorphic: its own formula (ops/complex.py)
        from eagerkit.ops.complex import complex_abs_vjp

        return complex_abs_vjp(ops, g, ans, x)
    return g * ops.sign(x)


abs.defvjp(_abs_vjp)


@defop("sign", dtypes=NUMERIC, differentiable=False)
def sign(xp, x):
    """-1, 0 or 1 by the sign of x (no gradient)."""
    return xp.sign(x)


@defop("square", dtypes=NUMERIC_OR_COMPLEX)
def square(xp, x):
    """x * x; derivative 2x."""
    return x * x


square.defvjp(lambda ops, g, ans, x: g * 2 * x)


@defop("sqrt", dtypes=FLOATING_OR_COMPLEX)
def sqrt(xp, x):
    """Square root; derivative 1 / (2 sqrt(x)), reusing the answer."""
    return xp.sqrt(x)


sqrt.defvjp(lambda ops, g, ans, x: g * 0.5 / ans)


@defop("rsqrt", dtypes=FLOATING)
def rsqrt(xp, x):
    """1 / sqrt(x); derivative -x**-1.5 / 2 = -ans**3 / 2."""
    return 1 / xp.sqrt(x)


rsqrt.defvjp(lambda ops, g, ans, x: -0.5 * g * ans * ans * ans)


@defop("exp", dtypes=FLOATING_OR_COMPLEX)
def exp(xp, x):
    """e**x; its derivative is itself, so the VJP reuses the answer.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.exp(0.0)
    <ek.Tensor: shape=(), dtype=float32, numpy=1.0>
    """
    return xp.exp(x)


exp.defvjp(lambda ops, g, ans, x: g * ans)


@defop("log", dtypes=FLOATING_OR_COMPLEX)
def log(xp, x):
    """Natural logarithm; derivative 1/x."""
    return xp.log(x)


log.defvjp(lambda ops, g, ans, x: g / x)


@defop("log1p", dtypes=FLOATING)
def log1p(xp, x):
    """log(1 + x), accurate for small x; derivative 1 / (1 + x)."""
    return xp.log1p(x)


log1p.defvjp(lambda ops, g, ans, x: g / (1 + x))


@defop("sin", dtypes=FLOATING_OR_COMPLEX)
def sin(xp, x):
    """Sine; derivative cos(x)."""
    return xp.sin(x)


sin.defvjp(lambda ops, g, ans, x: g * ops.cos(x))


@defop("cos", dtypes=FLOATING_OR_COMPLEX)
def cos(xp, x):
    """Cosine; derivative -sin(x)."""
    return xp.cos(x)


cos.defvjp(lambda ops, g, ans, x: -g * ops.sin(x))


@defop("tan", dtypes=FLOATING_OR_COMPLEX)
def tan(xp, x):
    """Tangent; derivative 1 + tan(x)**2."""
    return xp.tan(x)


tan.defvjp(lambda ops, g, ans, x: g * (1 + ans * ans))


@defop("tanh", dtypes=FLOATING_OR_COMPLEX)
def tanh(xp, x):
    """Hyperbolic tangent; derivative 1 - tanh(x)**2."""
    return xp.tanh(x)


tanh.defvjp(lambda ops, g, ans, x: g * (1 - ans * ans))


@defop("sigmoid", dtypes=FLOATING)
def sigmoid(xp, x):
    """1 / (1 + e**-x); its derivative is s * (1 - s).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.sigmoid(0.0)
    <ek.Tensor: shape=(), dtype=float32, numpy=0.5>
    """
    if x.ndim == 0:
        return 1 / (1 + xp.exp(-x))
    # e**-x overflows to inf for very negative x, and 1 / (1 + inf) is 0, the right answer
    # (numpy's overflow warning is silenced in ops/). One new array, written in place.
    s = xp.negative(x)
    xp.exp(s, out=s)
    s += 1
    return xp.reciprocal(s, out=s)


sigmoid.defvjp(lambda ops, g, ans, x: g * ans * (1 - ans))


@defop("round", dtypes=NUMERIC, differentiable=False)
def round(xp, x):  # noqa: A001 - TF's name
    """Round half to even, like TF and numpy (no gradient)."""
    return x if x.dtype.kind in "iub" else xp.round(x)  # ints are already whole


@defop("floor", dtypes=NUMERIC, differentiable=False)
def floor(xp, x):
    """Largest integer <= x (no gradient)."""
    return x if x.dtype.kind in "iub" else xp.floor(x)  # ints are already whole


@defop("ceil", dtypes=NUMERIC, differentiable=False)
def ceil(xp, x):
    """Smallest integer >= x (no gradient)."""
    return x if x.dtype.kind in "iub" else xp.ceil(x)  # ints are already whole
