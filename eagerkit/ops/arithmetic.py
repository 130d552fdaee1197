"""Binary arithmetic: forward on arrays and VJPs side by side, one block per primitive.

Each VJP returns the gradient in the *output's* shape; the engine sums it back down to
a broadcast input's shape (backprop.unbroadcast), so no VJP here worries about that.
"""

from eagerkit.dtypes import COMPLEX, FLOATING, NUMERIC, TRUEDIV
from eagerkit.registry import defop

# Holomorphic: complex numbers take the same VJPs (backprop.py, _conjugated).
NUMERIC_OR_COMPLEX = NUMERIC + COMPLEX


@defop("add", dtypes=NUMERIC_OR_COMPLEX)
def add(xp, x, y):
    """x + y, elementwise with broadcasting; strings are joined, as TF's ``+`` does (the
    string case is ``ek.strings.join``, reached through type_dispatch.py).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.add([1.0, 2.0], 1.0)
    <ek.Tensor: shape=(2,), dtype=float32, numpy=array([2., 3.], dtype=float32)>
    >>> ek.constant(["a", "b"]) + "!"
    <ek.Tensor: shape=(2,), dtype=string, numpy=array([b'a!', b'b!'], dtype=object)>
    """
    return x + y


add.defvjp(
    lambda ops, g, ans, x, y: g,
    lambda ops, g, ans, x, y: g,
)


@defop("subtract", dtypes=NUMERIC_OR_COMPLEX)
def subtract(xp, x, y):
    """x - y, elementwise."""
    return x - y


subtract.defvjp(
    lambda ops, g, ans, x, y: g,
    lambda ops, g, ans, x, y: -g,
)


@defop("multiply", dtypes=NUMERIC_OR_COMPLEX)
def multiply(xp, x, y):
    """x * y, elementwise.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.multiply(3.0, 3.0)
    <ek.Tensor: shape=(), dtype=float32, numpy=9.0>
    """
    return x * y


multiply.defvjp(
    lambda ops, g, ans, x, y: g * y,
    lambda ops, g, ans, x, y: g * x,
)


@defop("truediv", dtypes=NUMERIC_OR_COMPLEX)
def truediv(xp, x, y):
    """x / y. Integers divide in floating point as in TF: int32 / int32 gives float64.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.constant(7) / 2
    <ek.Tensor: shape=(), dtype=float64, numpy=3.5>
    """
    wanted = TRUEDIV.get(x.dtype)
    if wanted is not None:  # TF's truediv table
        return xp.true_divide(x, y, dtype=wanted)
    return x / y


truediv.defvjp(
    lambda ops, g, ans, x, y: g / y,
    lambda ops, g, ans, x, y: -g * ans / y,
)
divide = truediv


@defop("floordiv", dtypes=NUMERIC, differentiable=False)
def floordiv(xp, x, y):
    """x // y, rounding toward minus infinity (-7 // 2 == -4). Has no gradient."""
    return x // y


@defop("mod", dtypes=NUMERIC)
def mod(xp, x, y):
    """x % y with the sign of y, like Python (-7 % 2 == 1); TF's floormod."""
    return x % y


mod.defvjp(
    lambda ops, g, ans, x, y: g,
    lambda ops, g, ans, x, y: -g * ops.floor(x / y),
)
floormod = mod


@defop("pow", dtypes=NUMERIC_OR_COMPLEX)
def pow(xp, x, y):  # noqa: A001 - TF's name
    """x ** y. Integers to negative integer powers are an error, as in TF.

    Derivatives: y * x**(y-1) for x, and x**y * log(x) for y (0 where x <= 0; complex x
    takes the principal log).
    """
    return xp.power(x, y)


def _pow_vjp_y(ops, g, ans, x, y):
    if x.dtype.kind == "c":  # holomorphic in y: the formula as it is (backprop._conjugated)
        return g * ans * ops.log(x)
    return ops.where(x > 0, g * ans * ops.log(ops.where(x > 0, x, 1)), 0)


pow.defvjp(lambda ops, g, ans, x, y: g * y * x ** (y - 1), _pow_vjp_y)


@defop("maximum", dtypes=NUMERIC)
def maximum(xp, x, y):
    """The larger of x and y, elementwise (ties send the gradient to x)."""
    return xp.maximum(x, y)


maximum.defvjp(
    lambda ops, g, ans, x, y: ops.where(x >= y, g, 0),
    lambda ops, g, ans, x, y: ops.where(x >= y, 0, g),
)


@defop("minimum", dtypes=NUMERIC)
def minimum(xp, x, y):
    """The smaller of x and y, elementwise (ties send the gradient to x)."""
    return xp.minimum(x, y)


minimum.defvjp(
    lambda ops, g, ans, x, y: ops.where(x <= y, g, 0),
    lambda ops, g, ans, x, y: ops.where(x <= y, 0, g),
)


@defop("squared_difference", dtypes=FLOATING)
def squared_difference(xp, x, y):
    """(x - y) ** 2, elementwise."""
    difference = x - y
    return difference * difference


squared_difference.defvjp(
    lambda ops, g, ans, x, y: 2 * g * (x - y),
    lambda ops, g, ans, x, y: -2 * g * (x - y),
)
