"""The checks of ek.keras.constraints' arguments and the weights they project: numbers,
norm bounds and axes when a constraint is made, floating weights and their norms when it
is applied, each refused with an error naming the constraint and the fix.
"""

import math
import numbers

from eagerkit.arguments import describe
from eagerkit.errors import InvalidArgumentError
from eagerkit.ops.math import sqrt, square
from eagerkit.ops.reduce import reduce_sum
from eagerkit.tensor import convert_to_tensor


def number(value, name, caller, wanted):
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not math.isfinite(value):
        raise InvalidArgumentError(
            f"{caller}: {name} must be {wanted}, got {describe(value)}", op=caller
        )
    return float(value)


def norm_bound(value, name, caller):
    """A bound on a norm: a finite number >= 0, as a float."""
    bound = number(value, name, caller, f"a number >= 0, e.g. {caller}({name}=2.0)")
    if bound < 0:
        raise InvalidArgumentError(
            f"{caller}: {name} bounds a norm and must be >= 0, got {bound}; pass e.g. "
            f"{caller}({name}=2.0)",
            op=caller,
        )
    return bound


def axes(axis, caller):
    """``axis``: an int, or a list of distinct ints (kept as a list: JSON has no tuples)."""
    each = list(axis) if isinstance(axis, (list, tuple)) else [axis]
    if not each or any(isinstance(a, bool) or not isinstance(a, numbers.Integral) for a in each):
        raise InvalidArgumentError(
            f"{caller}: axis must be an int or a list of ints (the axes a norm is taken over), "
            f"got {describe(axis)}; pass e.g. axis=0 for a Dense kernel, axis=[0, 1, 2] for a "
            "Conv2D kernel",
            op=caller,
        )
    return [int(a) for a in each] if isinstance(axis, (list, tuple)) else int(axis)


def floating_weights(w, caller):
    """``w`` as a floating tensor: a constraint projects weights, which are floating."""
    w = convert_to_tensor(w)
    if not w.dtype.is_floating:
        raise InvalidArgumentError(
            f"{caller}: a constraint projects floating weights, got {describe(w)}; pass a "
            "layer's weights, or cast first: ek.cast(w, ek.float32)",
            op=caller,
        )
    return w


def weights_and_norms(w, axis, caller):
    """``w`` as a tensor, and its Euclidean norms over ``axis`` (kept as size-1 axes)."""
    w = floating_weights(w, caller)
    listed = axis if isinstance(axis, list) else [axis]
    normalized = [a + w.ndim if a < 0 else a for a in listed]
    if any(not 0 <= a < w.ndim for a in normalized) or len(set(normalized)) != len(listed):
        raise InvalidArgumentError(
            f"{caller}: axis={axis} does not name distinct axes of the weights, of shape "
            f"{w.shape} (rank {w.ndim}); pass axes in [-{w.ndim}, {w.ndim}), e.g. axis=0 for "
            "a Dense kernel [inputs, units]",
            op=caller,
        )
    return w, sqrt(reduce_sum(square(w), axis=normalized, keepdims=True))
