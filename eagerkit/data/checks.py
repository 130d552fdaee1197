"""The checks a Dataset step makes on its arguments when it is built, before any element.

Sizes are whole numbers (``batch(2.5)`` is refused, never cut to 2), flags are bools (TF's
may be bool tensors), functions are callable: a mistake shows at the call that made it,
not later while the dataset is read.
"""

import numpy as np

from eagerkit import dtypes
from eagerkit.errors import InvalidArgumentError
from eagerkit.tensor import Tensor


def _as_bool(value):
    """A Python bool, numpy bool or bool scalar tensor as a bool; None for anything else."""
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, Tensor) and value.dtype == dtypes.bool and value.ndim == 0:
        return bool(value)
    return None


def flag(value, op, what):
    """A flag (TF's may be bool tensors) as a bool, or an error naming it."""
    answer = _as_bool(value)
    if answer is None:
        raise InvalidArgumentError(
            f"{op}: {what} must be True or False, got {type(value).__name__} {value!r}", op=op
        )
    return answer


def kept(keep):
    """A filter predicate's answer as a bool; anything but a bool scalar is refused."""
    answer = _as_bool(keep)
    if answer is None:
        raise InvalidArgumentError(
            f"filter: the predicate must return a bool scalar, got {keep!r}", op="filter"
        )
    return answer


def check_callable(function, op, what):
    if not callable(function):
        raise InvalidArgumentError(
            f"{op}: {what} must be a function of an element, got {type(function).__name__} "
            f"{function!r}; e.g. dataset.{op}(lambda x: ...)",
            op=op,
        )
