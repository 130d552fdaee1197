"""Binary arithmetic: forward on arrays and VJPs side by side, one block per primitive.

Each VJP returns the gradient in the *output's* shape; the engine sums it back down to
a broadcast input's shape (backprop.unbroadcast), so no VJP here worries about that.
"""

from eagerkit.backends.fusion import elementwise
from eagerkit.dtypes import COMPLEX, FLOATING, NUMERIC, TRUEDIV
from eagerkit.ops.compare import _where
from eagerkit.registry import defop

# Holomorphic: complex numbers take the same VJPs (backprop.py, _conjugated).
NUMERIC_OR_COMPLEX = NUMERIC + COMPLEX
# where's forward: on numpy it chooses by bit masks, faster than np.where (compare.py).
_choose = _where.op.forward


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


@elementwise("truediv_grad_y")
def _truediv_grad_y(xp, g, ans, y):
    return -g * ans / y


truediv.defvjp(
    lambda ops, g, ans, x, y: g / y,
    lambda ops, g, ans, x, y: ops.truediv_grad_y(g, ans, y),
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


# On a GPU the comparison and the choice are one kernel; numpy chooses by bit masks.
@elementwise("maximum_grad", host=lambda xp, g, x, y: _choose(xp, x >= y, g, 0))
def _maximum_grad(xp, g, x, y):
    return xp.where(x >= y, g, 0)


@elementwise("maximum_grad_y", host=lambda xp, g, x, y: _choose(xp, x >= y, 0, g))
def _maximum_grad_y(xp, g, x, y):
    return xp.where(x >= y, 0, g)


maximum.defvjp(
    lambda ops, g, ans, x, y: ops.maximum_grad(g, x, y),
    lambda ops, g, ans, x, y: ops.maximum_grad_y(g, x, y),
)


@defop("minimum", dtypes=NUMERIC)
def minimum(xp, x, y):
    """The smaller of x and y, elementwise (ties send the gradient to x)."""
    return xp.minimum(x, y)


@elementwise("minimum_grad", host=lambda xp, g, x, y: _choose(xp, x <= y, g, 0))
def _minimum_grad(xp, g, x, y):
    return xp.where(x <= y, g, 0)


@elementwise("minimum_grad_y", host=lambda xp, g, x, y: _choose(xp, x <= y, 0, g))
def _minimum_grad_y(xp, g, x, y):
    return xp.where(x <= y, 0, g)


minimum.defvjp(
    lambda ops, g, ans, x, y: ops.minimum_grad(g, x, y),
    lambda ops, g, ans, x, y: ops.minimum_grad_y(g, x, y),
)


@defop("squared_difference", dtypes=FLOATING)
def squared_difference(xp, x, y):
    """(x - y) ** 2, elementwise."""
    difference = x - y
    return difference * difference


@elementwise("squared_difference_grad")
def _squared_difference_grad(xp, g, x, y):
    return 2 * g * (x - y)


@elementwise("squared_difference_grad_y")
def _squared_difference_grad_y(xp, g, x, y):
    return -2 * g * (x - y)


squared_difference.defvjp(
    lambda ops, g, ans, x, y: ops.squared_difference_grad(g, x, y),
    lambda ops, g, ans, x, y: ops.squared_difference_grad_y(g, x, y),
)
