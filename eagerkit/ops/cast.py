"""``cast``: the same values in another dtype (the one primitive that changes dtypes)."""

from eagerkit import dtypes
from eagerkit.registry import defop


@defop("cast")
def _cast(xp, x, *, dtype):
    return x.astype(dtypes.as_dtype(dtype).as_numpy_dtype)


# Gradients flow only between floating dtypes (the sweep skips integer inputs).
_cast.defvjp(lambda ops, g, ans, x, dtype: ops.cast(g, dtype=x.dtype))


def cast(x, dtype, name=None):
    """Convert to another dtype (floats to ints truncate toward zero, like TF).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.cast([1.7, -1.7], ek.int32)
    <ek.Tensor: shape=(2,), dtype=int32, numpy=array([ 1, -1], dtype=int32)>
    """
    return _cast(x, dtype=dtypes.as_dtype(dtype).as_numpy_dtype)
