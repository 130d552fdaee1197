"""TF's guarded and less common elementwise functions: ``reciprocal``, the ``*_no_nan`` ops,
``xlogy``/``xdivy``/``xlog1py``, ``softsign``, ``log_sigmoid`` and the ``is_*`` tests.

Each follows ``tf.math``'s documented values, its special cases included (``divide_no_nan``
is 0 wherever the divisor is 0, even 0/0; ``xlogy`` is 0 wherever x is 0, even at y = 0),
and its gradient follows TF's registered gradient. The VJPs that divide never divide by the
guarded 0, not even in a branch ``where`` discards: ``safe`` puts a 1 there first, so the
second derivative has no nan either.
"""

from eagerkit.dtypes import FLOATING
from eagerkit.registry import defop


def _safe(ops, divisor):
    """``divisor`` with its zeros replaced by ones (what the guarded ops divide by)."""
    return ops.where(divisor == 0, divisor * 0 + 1, divisor)


def _nonzero(ops, x):
    """1 where x is not 0, else 0, in x's own float dtype (arrays and Tensors alike)."""
    zeros = x * 0
    return ops.where(x == 0, zeros, zeros + 1)


@defop("reciprocal", dtypes=FLOATING)
def reciprocal(xp, x):
    """1 / x (``tf.math.reciprocal``); derivative -1 / x² = -ans².

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.math.reciprocal([2.0, -4.0])
    <ek.Tensor: shape=(2,), dtype=float32, numpy=array([ 0.5 , -0.25], dtype=float32)>
    """
    return 1 / x


reciprocal.defvjp(lambda ops, g, ans, x: -g * ans * ans)


@defop("reciprocal_no_nan", dtypes=FLOATING)
def reciprocal_no_nan(xp, x):
    """1 / x, and 0 where x is 0 (``tf.math.reciprocal_no_nan``).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.math.reciprocal_no_nan([2.0, 0.0])
    <ek.Tensor: shape=(2,), dtype=float32, numpy=array([0.5, 0. ], dtype=float32)>
    """
    return xp.where(x == 0, 0, 1 / xp.where(x == 0, 1, x)).astype(x.dtype)


reciprocal_no_nan.defvjp(lambda ops, g, ans, x: -g * ans * ans)


@defop("divide_no_nan", dtypes=FLOATING)
def divide_no_nan(xp, x, y):
    """x / y, and 0 where y is 0 (``tf.math.divide_no_nan``, as TF's ``DivNoNan``).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.math.divide_no_nan([3.0, 1.0, 0.0], [2.0, 0.0, 0.0])
    <ek.Tensor: shape=(3,), dtype=float32, numpy=array([1.5, 0. , 0. ], dtype=float32)>
    """
    return xp.where(y == 0, 0, x / xp.where(y == 0, 1, y)).astype(ans_dtype(x, y))


divide_no_nan.defvjp(
    lambda ops, g, ans, x, y: ops.where(y == 0, 0, g / _safe(ops, y)),
    lambda ops, g, ans, x, y: ops.where(y == 0, 0, -g * x / (_safe(ops, y) * _safe(ops, y))),
)


@defop("multiply_no_nan", dtypes=FLOATING)
def multiply_no_nan(xp, x, y):
    """x * y, and 0 where y is 0 even if x is inf or nan (``tf.math.multiply_no_nan``).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.math.multiply_no_nan([float("inf"), 2.0], [0.0, 3.0])
    <ek.Tensor: shape=(2,), dtype=float32, numpy=array([0., 6.], dtype=float32)>
    """
    return xp.where(y == 0, 0, x * y).astype(ans_dtype(x, y))


multiply_no_nan.defvjp(
    lambda ops, g, ans, x, y: ops.multiply_no_nan(g, y),  # TF's MulNoNan gradient
    lambda ops, g, ans, x, y: ops.multiply_no_nan(x, g),
)


@defop("xlogy", dtypes=FLOATING)
def xlogy(xp, x, y):
    """x * log(y), and 0 where x is 0 (``tf.math.xlogy``: 0 * log(0) is 0).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.math.xlogy([0.0, 2.0], [0.0, 1.0])
    <ek.Tensor: shape=(2,), dtype=float32, numpy=array([0., 0.], dtype=float32)>
    """
    return xp.where(x == 0, 0, x * xp.log(xp.where(x == 0, 1, y))).astype(ans_dtype(x, y))


xlogy.defvjp(  # TF's _XLogyGrad: d/dx = log(y) where x != 0, d/dy = x / y (xdivy)
    lambda ops, g, ans, x, y: g * ops.xlogy(_nonzero(ops, x), y),
    lambda ops, g, ans, x, y: g * ops.xdivy(x, y),
)


@defop("xdivy", dtypes=FLOATING)
def xdivy(xp, x, y):
    """x / y, and 0 where x is 0 (``tf.math.xdivy``: 0 / 0 is 0).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.math.xdivy([0.0, 3.0], [0.0, 2.0])
    <ek.Tensor: shape=(2,), dtype=float32, numpy=array([0. , 1.5], dtype=float32)>
    """
    return xp.where(x == 0, 0, x / xp.where(x == 0, 1, y)).astype(ans_dtype(x, y))


xdivy.defvjp(  # TF's _XDivyGrad: d/dx = 1 / y where x != 0, d/dy = -x / y²
    lambda ops, g, ans, x, y: g * ops.xdivy(_nonzero(ops, x), y),
    lambda ops, g, ans, x, y: g * ops.xdivy(-x, y * y),
)


@defop("xlog1py", dtypes=FLOATING)
def xlog1py(xp, x, y):
    """x * log(1 + y), and 0 where x is 0 (``tf.math.xlog1py``).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.math.xlog1py([0.0, 1.0], [-1.0, 0.0])
    <ek.Tensor: shape=(2,), dtype=float32, numpy=array([0., 0.], dtype=float32)>
    """
    return xp.where(x == 0, 0, x * xp.log1p(xp.where(x == 0, 0, y))).astype(ans_dtype(x, y))


xlog1py.defvjp(  # TF's _XLog1pyGrad: d/dx = log1p(y) where x != 0, d/dy = x / (1 + y)
    lambda ops, g, ans, x, y: g * ops.xlog1py(_nonzero(ops, x), y),
    lambda ops, g, ans, x, y: g * ops.xdivy(x, y + 1),
)


@defop("softsign", dtypes=FLOATING)
def softsign(xp, x):
    """x / (1 + |x|) (``tf.nn.softsign``); derivative 1 / (1 + |x|)².

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.nn.softsign([-3.0, 0.0, 1.0])
    <ek.Tensor: shape=(3,), dtype=float32, numpy=array([-0.75,  0.  ,  0.5 ], dtype=float32)>
    """
    return x / (1 + xp.abs(x))


softsign.defvjp(lambda ops, g, ans, x: g / ops.square(1 + ops.abs(x)))


@defop("log_sigmoid", dtypes=FLOATING)
def log_sigmoid(xp, x):
    """log(1 / (1 + e^-x)) = -softplus(-x), without overflow (``tf.math.log_sigmoid``);
    derivative sigmoid(-x).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.math.log_sigmoid([0.0, -200.0])
    <ek.Tensor: shape=(2,), dtype=float32, numpy=array([  -0.6931472, -200.       ], dtype=float32)>
    """
    return -xp.logaddexp(xp.zeros_like(x), -x)


log_sigmoid.defvjp(lambda ops, g, ans, x: g * ops.sigmoid(-x))


def _test(name, kernel, doc):
    @defop(name, dtypes=FLOATING, differentiable=False)
    def test(xp, x):
        return kernel(xp, x)

    test.__doc__ = doc
    return test


is_nan = _test("is_nan", lambda xp, x: xp.isnan(x), "True where x is nan (``tf.math.is_nan``).")
is_inf = _test("is_inf", lambda xp, x: xp.isinf(x), "True where x is ±inf (``tf.math.is_inf``).")
is_finite = _test(
    "is_finite", lambda xp, x: xp.isfinite(x), "True where x is neither nan nor ±inf."
)


def ans_dtype(x, y):
    """The dtype of a result made from x and y (the float both already share)."""
    return getattr(x, "dtype", None) or y.dtype
