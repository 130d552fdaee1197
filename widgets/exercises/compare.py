"""Compare a student's value with the expected one and say, in words, what differs.

The order of the checks is the order a student can act on: the kind of thing (a tensor,
a number, a list), then its shape, then its dtype, then the values, naming the first
element that is off. Each problem is one sentence; no problems means equal.
"""

import numpy as np

from eagerkit.tensor import Tensor

from .text import short


def describe(value):
    """A short description of a value's kind: ``ek.Tensor (3,) float32``, ``float``, ..."""
    if isinstance(value, Tensor):
        return f"ek.Tensor of shape {tuple(value.shape)} and dtype {value.dtype.name}"
    if isinstance(value, np.ndarray):
        return f"numpy array of shape {value.shape} and dtype {value.dtype}"
    return type(value).__name__


def differences(
    answer, expected, *, what="your answer", items=None, reveal=True, rtol=1e-4, atol=1e-5
):
    """Sentences saying how ``answer`` differs from ``expected`` (empty: they agree).

    ``reveal=False`` says only whether a wrong number is too large or too small, for
    exercises whose answer *is* the number. ``items`` names the items of a list or tuple
    (``["dz/dx", "dy/dx"]``), which are otherwise called item 0, item 1, ...

    Examples
    --------
    >>> import eagerkit as ek
    >>> differences(ek.constant([1.0, 2.0]), ek.constant([1.0, 3.0]))
    ['your answer differs at element [1]: it is 2.0 where 3.0 is expected']
    >>> differences(ek.constant(1.0), ek.constant([1.0]))
    ['your answer has shape () but shape (1,) is expected']
    """
    if isinstance(expected, (tuple, list)):
        return _sequence_differences(answer, expected, what, items, reveal, rtol, atol)
    if isinstance(expected, (str, bool)) or expected is None:
        if answer == expected:
            return []
        shown = repr(expected) if reveal else "something else"
        return [f"{what} is {short(repr(answer))}, but {shown} is expected"]
    if isinstance(expected, Tensor) and not isinstance(answer, Tensor):
        return [f"{what} is a {describe(answer)}; an ek.Tensor is expected"]
    if not isinstance(answer, (Tensor, np.ndarray, int, float, np.number)):
        return [f"{what} is a {describe(answer)}; a number or a tensor is expected"]
    got, want = _array(answer), _array(expected)
    if got.shape != want.shape:
        return [f"{what} has shape {got.shape} but shape {want.shape} is expected"]
    if isinstance(expected, Tensor) and answer.dtype != expected.dtype:
        return [f"{what} has dtype {answer.dtype.name} but {expected.dtype.name} is expected"]
    if isinstance(expected, Tensor) and answer.device != expected.device:
        return [f"{what} is on {_place(answer)} but is expected on {_place(expected)}"]
    return _value_differences(got, want, what, reveal, rtol, atol)


def _place(tensor):
    """The device's short name, /cpu:0, rather than TF's full /job:localhost/... name."""
    return tensor._device.name


def _array(value):
    return np.asarray(value.numpy() if isinstance(value, Tensor) else value)


def same_values(answer, expected):
    """True when the values agree, whatever the dtype or device (so the tape is no help).

    Examples
    --------
    >>> import eagerkit as ek
    >>> same_values(ek.constant([1, 2]), ek.constant([1.0, 2.0]))
    True
    """
    if isinstance(expected, (tuple, list)) or not isinstance(answer, (Tensor, np.ndarray)):
        return False
    got, want = _array(answer), _array(expected)
    if got.shape != want.shape or got.dtype.kind not in "biuf" or want.dtype.kind not in "biuf":
        return False
    return bool(np.allclose(got.astype(np.float64), want.astype(np.float64), rtol=1e-4, atol=1e-5))


def _sequence_differences(answer, expected, what, items, reveal, rtol, atol):
    if not isinstance(answer, (tuple, list)):
        return [f"{what} is a {describe(answer)}; a list of {len(expected)} items is expected"]
    if len(answer) != len(expected):
        return [f"{what} has {len(answer)} items but {len(expected)} are expected"]
    problems = []
    for i, (got, want) in enumerate(zip(answer, expected, strict=True)):
        item = f"{items[i]} in {what}" if items else f"item {i} of {what}"
        problems += differences(got, want, what=item, reveal=reveal, rtol=rtol, atol=atol)
    return problems


def _value_differences(got, want, what, reveal, rtol, atol):
    if got.dtype.kind in "biu" and want.dtype.kind in "biu":
        wrong = got != want
    else:
        close = np.isclose(got.astype(np.float64), want.astype(np.float64), rtol=rtol, atol=atol)
        wrong = ~close
    if not np.any(wrong):
        return []
    element = tuple(int(i) for i in np.argwhere(wrong)[0])
    at = f" at element {list(element)}" if got.ndim else ""
    value, target = got[element], want[element]
    if reveal:
        return [f"{what} differs{at}: it is {_number(value)} where {_number(target)} is expected"]
    if np.isnan(value):
        return [f"{what} is nan{at}"]
    direction = "too large" if value > target else "too small"
    return [f"{what} is {direction}{at} ({_number(value)})"]


def _number(value):
    value = np.asarray(value).item()
    if isinstance(value, float):
        text = f"{value:.4g}"
        return text if any(c in text for c in ".ein") else text + ".0"
    return str(value)
