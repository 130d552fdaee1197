"""The checks a Dataset step makes on its arguments when it is built, before any element.

Sizes are whole numbers (``batch(2.5)`` is refused, never cut to 2), flags are bools (TF's
may be bool tensors), functions are callable: a mistake shows at the call that made it,
not later while the dataset is read.
"""

import numpy as np

from eagerkit import dtypes
from eagerkit.arguments import whole_number
from eagerkit.data import structure
from eagerkit.errors import InvalidArgumentError, type_error
from eagerkit.tensor import Tensor

AUTOTUNE = -1  # TF's tf.data.AUTOTUNE: let the runtime pick (eagerkit reads one at a time)


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


def same_state(state, new_state, op, function="reduce_func"):
    """``reduce``'s (and ``scan``'s) rule: the new state keeps the initial state's structure
    and dtypes."""
    old = [leaf.dtype for leaf in structure.flatten(state)]
    new = [leaf.dtype for leaf in structure.flatten(new_state)]
    if not structure.same_structure(state, new_state) or old != new:
        raise type_error(
            f"{op}: {function} must return a state like the initial state: expected "
            f"{[d.name for d in old]} laid out as {_layout(state)}, got "
            f"{[d.name for d in new]} laid out as {_layout(new_state)}. Cast the new state "
            "(e.g. ek.cast(total + x, ek.int64)) or start from a matching initial_state",
            op=op,
        )


def _layout(element):
    if isinstance(element, dict):
        return "{" + ", ".join(f"{k!r}: {_layout(v)}" for k, v in element.items()) + "}"
    if isinstance(element, tuple):
        return "(" + ", ".join(_layout(v) for v in element) + ")"
    return "tensor"


def tuning(num_parallel_calls, deterministic, op):
    """TF's parallelism knobs, which eagerkit runs without (one element at a time, in order),
    still checked as TF checks them: a count >= 1 or -1 (``AUTOTUNE``), a bool or None."""
    if num_parallel_calls is not None:
        calls = whole_number(num_parallel_calls, "num_parallel_calls", op)
        if calls < 1 and calls != AUTOTUNE:
            raise InvalidArgumentError(
                f"{op}: num_parallel_calls must be >= 1, or ek.data.AUTOTUNE (-1), got {calls}",
                op=op,
            )
    if deterministic is not None:
        flag(deterministic, op, "deterministic")
