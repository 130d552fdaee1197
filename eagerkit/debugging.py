"""Finding where NaN and Inf come from: a guard on every op, and an explicit check.

``enable_check_numerics()`` adds a callback to ``recording.execution_callbacks``, the list of
functions the engine calls after every op. The callback looks at the op's output and, at
the first NaN or Inf, raises an error naming the op and the line of *your* code that ran it
(it walks up the call stack past eagerkit's own files). When the guard is off the list is
empty and the engine does not even look at it, so it costs nothing.

Ops recorded for a gradient are checked as they run; the backward pass itself is checked
only when an outer tape records it (otherwise it runs on raw arrays, see backprop.py).
"""

import linecache
import os
import sys

from eagerkit import boundary, recording
from eagerkit.asserts import (
    assert_equal,
    assert_greater,
    assert_greater_equal,
    assert_less,
    assert_less_equal,
    assert_near,
    assert_negative,
    assert_non_negative,
    assert_non_positive,
    assert_none_equal,
    assert_positive,
    assert_rank,
)
from eagerkit.errors import InvalidArgumentError
from eagerkit.shape_asserts import assert_shapes
from eagerkit.tensor import Tensor, convert_to_tensor

# What ek.debugging exports: its own functions and the assertions (asserts.py,
# shape_asserts.py); listing them puts them at the error boundary and in the property test.
__all__ = [
    "assert_equal",
    "assert_greater",
    "assert_greater_equal",
    "assert_less",
    "assert_less_equal",
    "assert_near",
    "assert_negative",
    "assert_non_negative",
    "assert_non_positive",
    "assert_none_equal",
    "assert_positive",
    "assert_rank",
    "assert_shapes",
    "check_numerics",
    "disable_check_numerics",
    "disable_traceback_filtering",
    "enable_check_numerics",
    "enable_traceback_filtering",
    "is_traceback_filtering_enabled",
]

_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__)) + os.sep


def enable_check_numerics():
    """Raise ``InvalidArgumentError`` at the first op whose output holds NaN or Inf.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.debugging.enable_check_numerics()
    >>> ek.log(ek.constant([1.0, 0.0]))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    eagerkit.errors.InvalidArgumentError: check_numerics: op 'log' produced Inf ...
    >>> ek.debugging.disable_check_numerics()
    >>> ek.log(ek.constant([1.0, 0.0]))
    <ek.Tensor: shape=(2,), dtype=float32, numpy=array([  0., -inf], dtype=float32)>
    """
    if _check_output not in recording.execution_callbacks:
        recording.add_callback(_check_output)


def disable_check_numerics():
    """Turn the guard off again (ops cost nothing extra afterwards)."""
    while _check_output in recording.execution_callbacks:
        recording.remove_callback(_check_output)


def disable_traceback_filtering():
    """Show eagerkit's own frames (and the numpy error behind an op error) in tracebacks.

    By default, as in TensorFlow 2.7+, an error's traceback ends at your own line and
    eagerkit's internal frames are hidden; turn this on to debug eagerkit itself.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.debugging.disable_traceback_filtering()
    >>> ek.debugging.is_traceback_filtering_enabled()
    False
    >>> ek.debugging.enable_traceback_filtering()
    """
    boundary.set_filtering(False)


def enable_traceback_filtering():
    """Hide eagerkit's own frames from tracebacks again (the default)."""
    boundary.set_filtering(True)


def is_traceback_filtering_enabled():
    """Whether tracebacks hide eagerkit's own frames (True unless you turned it off)."""
    return boundary.is_filtering()


def check_numerics(tensor, message):
    """``tensor`` unchanged if it is finite, else ``InvalidArgumentError`` with ``message``.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.debugging.check_numerics(ek.constant([1.0, 2.0]), "weights")
    <ek.Tensor: shape=(2,), dtype=float32, numpy=array([1., 2.], dtype=float32)>
    >>> ek.debugging.check_numerics(ek.constant([1.0]) / 0.0, "weights")
    Traceback (most recent call last):
    ...
    eagerkit.errors.InvalidArgumentError: weights : Tensor had Inf values
    """
    tensor = convert_to_tensor(tensor)
    problem = _non_finite(tensor)
    if problem:
        raise InvalidArgumentError(f"{message} : Tensor had {problem} values", op="CheckNumerics")
    return tensor


def _non_finite(tensor):
    """``''`` when every value is finite, else ``'NaN'``, ``'Inf'`` or ``'NaN and Inf'``."""
    data = tensor._data
    if data.dtype.kind not in "fc":
        return ""
    xp = tensor._device.xp
    if bool(xp.all(xp.isfinite(data))):
        return ""
    has_nan = bool(xp.any(xp.isnan(data)))
    has_inf = bool(xp.any(xp.isinf(data)))
    return " and ".join(word for word, found in (("NaN", has_nan), ("Inf", has_inf)) if found)


def _check_output(op, inputs, output):
    problem = _non_finite(output)
    if not problem:
        return
    frame = _user_frame()
    if frame is None:
        where = "(called from eagerkit itself)"
    else:
        filename, line = frame.f_code.co_filename, frame.f_lineno
        source = linecache.getline(filename, line).strip()
        where = f"at {filename}:{line} in {frame.f_code.co_name}" + (
            f"\n    {source}" if source else ""
        )
    described = ", ".join(_describe(x) for x in inputs)
    raise InvalidArgumentError(
        f"check_numerics: op '{op.name}' produced {problem} (output {output.dtype.name} shape "
        f"{output.shape}; inputs: {described}) {where}\nCheck that line's inputs: log or "
        "division of 0, sqrt of a negative number, or values that overflow (a learning rate "
        "too large?). ek.debugging.disable_check_numerics() turns this check off.",
        op=op.name,
    )


def _user_frame():
    """The innermost stack frame outside the eagerkit package (the user's line)."""
    frame = sys._getframe(1)
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE_DIR):
        frame = frame.f_back
    return frame


def _describe(value):
    if isinstance(value, Tensor):
        return f"{value.dtype.name}{list(value.shape)}"
    return repr(value)
