"""``cast``: the same values in another dtype (the one primitive that changes dtypes)."""

import numpy as np

from eagerkit import dtypes
from eagerkit.errors import UnimplementedError
from eagerkit.registry import defop
from eagerkit.tensor import Tensor


@defop("cast")
def _cast(xp, x, *, dtype):
    target = dtypes.as_dtype(dtype).as_numpy_dtype
    if x.dtype.kind == "c" and target.kind != "c":
        x = xp.real(x)  # TF keeps the real part (numpy would too, with a warning)
    return x.astype(target)


# Gradients flow only between floating and complex dtypes (the sweep skips integer inputs).
# Complex to float keeps the real part, so its gradient is g + 0j; float to complex, the
# real part of g (TF's CastGrad, unchanged by the sweep's conjugate: backprop._conjugated).
_cast.defvjp(lambda ops, g, ans, x, dtype: ops.cast(g, dtype=x.dtype))


def cast(x, dtype, name=None):
    """Convert to another dtype (floats to ints truncate toward zero, like TF).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.cast([1.7, -1.7], ek.int32)
    <ek.Tensor: shape=(2,), dtype=int32, numpy=array([ 1, -1], dtype=int32)>
    """
    dtype = dtypes.as_dtype(dtype)
    source = x.dtype if isinstance(x, Tensor) else (dtypes.string if _is_text(x) else None)
    if (dtype.is_string or (source is not None and source.is_string)) and dtype != source:
        raise UnimplementedError(
            f"cast: cannot cast {getattr(source, 'name', type(x).__name__)} to {dtype.name}: "
            "TF does not cast between text and numbers. Parse text with "
            "ek.strings.to_number(x, out_type=...), format numbers with ek.strings.as_string(x)",
            op="cast",
        )
    return _cast(x, dtype=dtype.as_numpy_dtype)


def _is_text(value):
    """Whether a host value (not a Tensor) holds text: ``'3'``, ``[b'a', b'b']``, an array."""
    if isinstance(value, (str, bytes)):
        return True
    if isinstance(value, np.ndarray):
        return value.dtype.kind in "SU"
    return isinstance(value, (list, tuple)) and any(_is_text(v) for v in value)
