"""Clipping: compositions of maximum, minimum and a norm (no gradient code of their own)."""

from eagerkit.ops import arithmetic, math, reduce
from eagerkit.tensor import convert_to_tensor


def clip_by_value(t, clip_value_min, clip_value_max, name=None):
    """Limit every element to [min, max]; the gradient passes only where nothing was clipped.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.clip_by_value([-2.0, 0.5, 3.0], -1.0, 1.0)
    <ek.Tensor: shape=(3,), dtype=float32, numpy=array([-1. ,  0.5,  1. ], dtype=float32)>
    """
    return arithmetic.minimum(arithmetic.maximum(t, clip_value_min), clip_value_max)


def clip_by_norm(t, clip_norm, axes=None, name=None):
    """Scale ``t`` down so its L2 norm (over ``axes``) is at most ``clip_norm``.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.clip_by_norm([3.0, 4.0], 1.0)
    <ek.Tensor: shape=(2,), dtype=float32, numpy=array([0.6, 0.8], dtype=float32)>
    """
    t = convert_to_tensor(t)
    norm = math.sqrt(reduce.reduce_sum(t * t, axis=axes, keepdims=True))
    # Divide by max(norm, clip_norm): unchanged when short enough, scaled to clip_norm if not.
    return t * clip_norm / arithmetic.maximum(norm, clip_norm)
