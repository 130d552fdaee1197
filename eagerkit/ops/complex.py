"""Complex numbers (``ek.complex``, ``ek.math.real`` / ``imag`` / ``conj`` / ``angle``).

A complex64 tensor holds pairs of float32s, as in TF. Arithmetic, exp, log, sqrt, matmul and
the reductions take complex tensors as they are; these ops go between complex and real.

Their VJPs follow the sweep's convention (backprop.py, ``_conjugated``): for a complex
input the sweep carries the conjugate of TF's gradient, so each VJP here returns
conj(what TF's math_grad.py returns). Each says what TF returns beside it.
"""

import numpy as np

from eagerkit import dtypes
from eagerkit.dtypes import COMPLEX, FLOATING
from eagerkit.registry import defop

_COMPLEX_OF = {"float32": "complex64", "float64": "complex128"}


@defop("complex", dtypes=(dtypes.float32, dtypes.float64))
def complex(xp, real, imag):  # noqa: A001 - TF's name
    """``real + i * imag``: float32 parts give complex64, float64 parts complex128.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.complex([2.25, 3.25], [4.75, 5.75])
    <ek.Tensor: shape=(2,), dtype=complex64, numpy=array([2.25+4.75j, 3.25+5.75j], dtype=complex64)>
    """
    shape = np.broadcast_shapes(real.shape, imag.shape)  # shapes only: host tuples
    out = xp.empty(shape, dtype=_COMPLEX_OF[real.dtype.name])
    # Written part by part, through views: real + imag * 1j would make inf * 1j nan + inf j.
    xp.real(out)[...] = real
    xp.imag(out)[...] = imag
    return out


# TF: real(g) and imag(g); the sweep's g is conj(TF's), whose imaginary part is negated.
complex.defvjp(
    lambda ops, g, ans, real, imag: ops.real(g),
    lambda ops, g, ans, real, imag: -ops.imag(g),
)


@defop("real", dtypes=COMPLEX + FLOATING)
def real(xp, input):  # noqa: A002 - TF's argument name
    """The real part (a real input comes back as it is).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.math.real(ek.constant([-2.25 + 4.75j, 3.25 + 5.75j]))
    <ek.Tensor: shape=(2,), dtype=float64, numpy=array([-2.25,  3.25])>
    """
    return xp.real(input)  # a real input is its own real part


# TF: complex(g, 0), the same conjugated; for a real input, g.
real.defvjp(lambda ops, g, ans, z: ops.cast(g, dtype=z.dtype))


@defop("imag", dtypes=COMPLEX + FLOATING)
def imag(xp, input):  # noqa: A002 - TF's argument name
    """The imaginary part (zeros for a real input).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.math.imag(ek.constant([-2.25 + 4.75j, 3.25 + 5.75j]))
    <ek.Tensor: shape=(2,), dtype=float64, numpy=array([4.75, 5.75])>
    """
    return xp.imag(input) if input.dtype.kind == "c" else xp.zeros_like(input)


def _imag_vjp(ops, g, ans, z):
    if z.dtype.kind != "c":
        return None  # zeros whatever the input: no gradient
    return ops.complex(0 * g, -g)  # TF: complex(0, g), conjugated


imag.defvjp(_imag_vjp)


@defop("conj", dtypes=COMPLEX + dtypes.NUMERIC)
def conj(xp, x):
    """The complex conjugate, ``re - i * im`` (a real input comes back as it is).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.math.conj(ek.constant([-2.25 + 4.75j, 3.25 + 5.75j]))
    <ek.Tensor: shape=(2,), dtype=complex128, numpy=array([-2.25-4.75j,  3.25-5.75j])>
    """
    return xp.conj(x) if x.dtype.kind == "c" else x


conj.defvjp(lambda ops, g, ans, x: ops.conj(g))  # TF: conj(g); so is its conjugate


@defop("angle", dtypes=COMPLEX + FLOATING)
def angle(xp, input):  # noqa: A002 - TF's argument name
    """The argument of each number, ``atan2(imag, real)``, in radians (pi for a negative real).

    Examples
    --------
    >>> import eagerkit as ek
    >>> z = ek.constant([-2.25 + 4.75j, 3.25 + 5.75j], dtype=ek.complex64)
    >>> ek.math.angle(z).numpy().round(5)
    array([2.01317, 1.05635], dtype=float32)
    """
    return xp.angle(input)  # float32 for complex64 and float32, float64 for the others


def _angle_vjp(ops, g, ans, z):
    if z.dtype.kind != "c":
        return None  # 0 or pi: flat
    # TF: -g / complex(imag, real); conjugated, -g / complex(imag, -real).
    turned = ops.complex(ops.imag(z), -ops.real(z))
    return -ops.cast(g, dtype=z.dtype) / turned


angle.defvjp(_angle_vjp)


def complex_abs_vjp(ops, g, ans, x):
    """abs's VJP for a complex ``x``: TF's g * x / |x| (0 at 0), conjugated."""
    safe = ops.where(ans == 0, 1, ans)  # conj(x) is 0 there too, so the gradient is 0
    return ops.cast(g / safe, dtype=x.dtype) * ops.conj(x)
