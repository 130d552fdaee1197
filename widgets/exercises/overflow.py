"""An op that made inf from finite inputs: float32 overflowed there (``exp(95)`` is inf).

A nan in a result is most often an overflow a few ops earlier: ``e^x`` passes float32's
largest value (3.4e38) for x above ~88.7, and then inf / inf, inf - inf or 0 * inf is nan.
The student's formula may be right on paper; the sentence says where it overflows and why,
and the exercise says which form of it stays finite.
"""

import numpy as np

from eagerkit.tensor import Tensor

from ..tape_view.model import host
from .diagnose import known

# Ops whose inf from finite inputs is an overflow (a division by 0 or log(0) is not one).
OVERFLOWING = {
    "exp": "e^x overflows float32 for x above ~88.7",
    "expm1": "e^x overflows float32 for x above ~88.7",
    "pow": "a power overflows float32 past ~3.4e38",
    "square": "a square overflows float32 for |x| above ~1.8e19",
    "multiply": "a product overflows float32 past ~3.4e38",
    "cosh": "cosh overflows float32 for |x| above ~89",
    "sinh": "sinh overflows float32 for |x| above ~89",
}


def first_overflow(ran, pool=None):
    """``(op, output)`` of the first op in ``ran`` (``(op, inputs, output)`` in the order
    they ran) that made inf from finite float inputs, or None. With ``pool`` (the values a
    right computation makes), only an op whose inputs are all known counts: an op fed a
    wrong value overflows because of it."""
    for op, inputs, output in ran:
        name = getattr(op, "name", None)
        if name not in OVERFLOWING or not _floats(output) or not np.any(np.isinf(host(output))):
            continue
        floats = [host(x) for x in inputs if _floats(x)]
        if not all(np.all(np.isfinite(x)) for x in floats):
            continue
        if pool is None or all(known(x, pool) for x in floats):
            return op, output
    return None


def overflow_sentence(op, finite_form=None):
    """Why an overflow of ``op`` gives nan, then how to stay finite.

    Examples
    --------
    >>> class Exp:
    ...     name = "exp"
    >>> overflow_sentence(Exp(), "1 / (1 + e^(-x)) stays finite")[:59]
    'e^x overflows float32 for x above ~88.7, and then inf / inf'
    """
    fix = finite_form or "write the formula so that no value gets that large"
    return f"{OVERFLOWING[op.name]}, and then inf / inf, inf - inf or 0 * inf is nan; {fix}"


def _floats(value):
    return isinstance(value, Tensor) and value.dtype.is_floating
