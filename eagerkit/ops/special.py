"""Special functions: lgamma, digamma, polygamma and erfinv (``tf.math``'s), with TF's gradients.

numpy has none of them; scipy.special has them for numpy arrays and cupyx.scipy.special
for cupy arrays, under the same names (``_special`` picks the one for the tensor's device,
as the backends pick ``xp.erf``). Each gradient is the next function of the family:
lgamma' = digamma, digamma' = polygamma(1, .), polygamma(n, .)' = polygamma(n + 1, .), so
gradients of any order work; erfinv' is written with its own answer.
"""

import math

from eagerkit.dtypes import FLOATING
from eagerkit.registry import defop


def _special(xp):
    """The special-function module for ``xp``'s arrays (imported on first use)."""
    if xp.__name__ == "cupy":
        import cupyx.scipy.special as special
    else:  # numpy, and /sim:0's arrays (scipy's ufuncs reach them through __array_ufunc__)
        import scipy.special as special
    return special


@defop("lgamma", dtypes=FLOATING)
def lgamma(xp, x):
    """log |Gamma(x)|; its derivative is digamma(x). Gamma(n) = (n - 1)! for whole n.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.math.lgamma([1.0, 5.0])  # log 0!, log 4! = log 24
    <ek.Tensor: shape=(2,), dtype=float32, numpy=array([0.       , 3.1780539], dtype=float32)>
    """
    return _special(xp).gammaln(x).astype(x.dtype)


lgamma.defvjp(lambda ops, g, ans, x: g * ops.digamma(x))


@defop("digamma", dtypes=FLOATING)
def digamma(xp, x):
    """The derivative of lgamma, psi(x); its own derivative is polygamma(1, x).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.math.digamma(1.0)  # minus the Euler-Mascheroni constant
    <ek.Tensor: shape=(), dtype=float32, numpy=-0.5772157>
    """
    return _special(xp).psi(x).astype(x.dtype)


digamma.defvjp(lambda ops, g, ans, x: g * ops.polygamma(1.0 + 0.0 * x, x))


@defop("polygamma", dtypes=FLOATING)
def polygamma(xp, a, x):
    """The a-th derivative of digamma at x (a a whole number >= 0; nan otherwise, as TF).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.math.polygamma(1.0, 1.0)  # pi² / 6
    <ek.Tensor: shape=(), dtype=float32, numpy=1.644934>
    """
    special = _special(xp)
    # psi^(a)(x) = (-1)^(a+1) a! zeta(a + 1, x) for a >= 1 (Hurwitz zeta); psi itself at 0.
    # Arithmetic on a only: a Python number reaches here as a host scalar, which must not
    # meet a device array inside an xp call (the simulated GPU and cupy refuse that).
    sign = 1.0 - 2.0 * ((a + 1) % 2)
    higher = sign * special.gamma(a + 1) * special.zeta(a + 1, x)
    whole = (a >= 0) & (a % 1 == 0)
    return xp.where(whole, xp.where(a == 0, special.psi(x), higher), xp.nan).astype(x.dtype)


polygamma.defvjp(
    None,  # the order a gets no gradient (TF's Polygamma gradient has none either)
    lambda ops, g, ans, a, x: g * ops.polygamma(a + 1.0, x),
)


@defop("erfinv", dtypes=FLOATING)
def erfinv(xp, x):
    """The inverse of erf on (-1, 1) (±inf at ±1); derivative sqrt(pi)/2 * exp(erfinv(x)²).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.math.erfinv([0.0, 0.5])
    <ek.Tensor: shape=(2,), dtype=float32, numpy=array([0.        , 0.47693628], dtype=float32)>
    """
    return _special(xp).erfinv(x).astype(x.dtype)


erfinv.defvjp(lambda ops, g, ans, x: g * (math.sqrt(math.pi) / 2) * ops.exp(ans * ans))


def lbeta(x, name=None):
    """The log of the multivariate Beta function along the last axis:
    ``sum(lgamma(x), -1) - lgamma(sum(x, -1))`` (``tf.math.lbeta``); its gradient comes
    from lgamma's (digamma).

    Examples
    --------
    >>> import eagerkit as ek
    >>> round(float(ek.math.lbeta([2.0, 3.0])), 5)  # log(1! 2! / 4!) = log(1 / 12)
    -2.48491
    """
    from eagerkit.errors import InvalidArgumentError
    from eagerkit.ops.reduce import reduce_sum
    from eagerkit.tensor import convert_to_tensor

    x = convert_to_tensor(x)
    if x.ndim < 1 or not x.dtype.is_floating:
        raise InvalidArgumentError(
            f"lbeta: x must be floats with at least one axis (the last is reduced), got "
            f"{x.dtype.name}{list(x.shape)}; e.g. ek.math.lbeta([2.0, 3.0])",
            op="lbeta",
        )
    return reduce_sum(lgamma(x), axis=-1) - lgamma(reduce_sum(x, axis=-1))
