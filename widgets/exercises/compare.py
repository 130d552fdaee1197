"""Compare a student's value with the expected one and say, in words, what differs.

Tolerant where the prompt is silent: a tensor, a numpy array and a Python number are the same
answer; any float dtype will do for floats; a shape that differs only by axes of size 1 (a
``keepdims=True`` left in) is the same shape. What the prompt *does* state (``Expect``) is
enforced, and the message quotes the prompt. The order of the checks is the order a student
can act on: the kind of thing, its shape, its dtype, its device, then the values.

No sentence shows an expected value: the student's own value, where it is off, and how
(too large, too small, off by one, the wrong sign, off by one factor everywhere, nan).
"""

import numpy as np

from eagerkit.tensor import Tensor

from .text import number, short


class Expect:
    """What the prompt states about the answer; each is enforced only when given.

    kind : ``"tensor"`` (an ek.Tensor), ``"int"`` or ``"float"`` (a Python number of that
        type), else any number-like.
    dtype : a dtype name such as ``"float32"``.
    device : a device name such as ``"/sim:0"``.
    exact_shape : True to refuse size-1 axes the expected shape lacks.
    quote : the prompt's words, shown when one of these is not met.
    """

    def __init__(self, kind=None, dtype=None, device=None, exact_shape=False, quote=""):
        self.kind, self.dtype, self.device = kind, dtype, device
        self.exact_shape, self.quote = exact_shape, quote

    def said(self):
        return f' (the exercise says: "{self.quote}")' if self.quote else ""


ANY = Expect()


def describe(value):
    """A short description of a value's kind: ``ek.Tensor of shape (3,) ...``, ``float``."""
    if isinstance(value, Tensor):
        return f"ek.Tensor of shape {tuple(value.shape)} and dtype {value.dtype.name}"
    if isinstance(value, np.ndarray):
        return f"numpy array of shape {value.shape} and dtype {value.dtype}"
    return type(value).__name__


def differences(answer, expected, *, what="your answer", expect=ANY, items=None, close=None):
    """Sentences saying how ``answer`` differs from ``expected`` (empty: they agree).

    ``items`` names the items of a list answer (``["df/da", "df/db"]``); ``close(got, want)``
    says which elements agree (default: ``np.isclose`` with rtol 1e-4, atol 1e-5).

    Examples
    --------
    >>> import eagerkit as ek
    >>> differences(ek.constant([1.0, 2.0]), ek.constant([1.0, 3.0]))
    ['your answer differs at element [1]: its value there is 2.0, too small']
    >>> differences([[1.0], [2.0]], ek.constant([1.0, 2.0]))  # keepdims left in: the same
    []
    """
    if isinstance(expected, (tuple, list)):
        return _sequence_differences(answer, expected, what, expect, items, close)
    if answer is ...:
        return [f"{what} is still ..., the placeholder"]
    kind = _kind_problem(answer, expected, what, expect)
    if kind:
        return [kind]
    got, want = _array(answer), _array(expected)
    if not _same_shape(got.shape, want.shape, expect.exact_shape):
        return [
            f"{what} has shape {got.shape} but shape {want.shape} is expected{expect.said()}: "
            + _shape_reason(got.shape, want.shape)
        ]
    dtype = _dtype_problem(answer, got, want, what, expect)
    if dtype:
        return [dtype]
    if expect.device and isinstance(answer, Tensor) and answer._device.name != expect.device:
        return [
            f"{what} is on {answer._device.name} but is expected on {expect.device}{expect.said()}"
        ]
    return value_differences(got.reshape(want.shape), want, what, close)


def _kind_problem(answer, expected, what, expect):
    if isinstance(expected, str):
        return (
            None
            if isinstance(answer, str)
            else f"{what} is a {describe(answer)}; a string is expected"
        )
    if answer is None:
        return _none_problem(what)
    numberlike = (Tensor, np.ndarray, np.number, int, float, bool, np.bool_)
    if not isinstance(answer, numberlike) and not _nested_numbers(answer):
        return f"{what} is a {describe(answer)}; a number or a tensor is expected"
    if expect.kind == "tensor" and not isinstance(answer, Tensor):
        return f"{what} is a {describe(answer)}; an ek.Tensor is expected{expect.said()}"
    if expect.kind == "int" and (isinstance(answer, bool) or not isinstance(answer, int)):
        return f"{what} is a {describe(answer)}; a Python int is expected{expect.said()}"
    if expect.kind == "float" and (isinstance(answer, bool) or not isinstance(answer, float)):
        return f"{what} is a {describe(answer)}; a Python float is expected{expect.said()}"
    return None


def _none_problem(what, plural=False):
    """None where a value belongs: most often a gradient with no path back to its source."""
    they = "are they gradients" if plural else "is it a gradient"
    return (
        f"{what} {'are' if plural else 'is'} None: is a return missing, or {they} that came "
        "out None (was the source watched, and did every op on the way run inside the tape's "
        "with block, with ek ops?)"
    )


def _nested_numbers(value):
    """A (nested) list of numbers, as ``[[1.0, 2.0]]``: a tensor written in Python."""
    try:
        array = np.asarray(value)
    except (ValueError, TypeError):
        return False
    return isinstance(value, (list, tuple)) and array.dtype.kind in "biuf"


def _dtype_problem(answer, got, want, what, expect):
    name = answer.dtype.name if isinstance(answer, Tensor) else str(got.dtype)
    if expect.dtype:
        if name != expect.dtype:
            return f"{what} has dtype {name} but {expect.dtype} is expected{expect.said()}"
        return None
    if want.dtype.kind == "f" and got.dtype.kind not in "biuf":
        return f"{what} has dtype {name}; numbers are expected"
    return None


def _shape_reason(got, want):
    """What a wrong shape usually means, in words a student can act on."""
    if want and not got:
        return (
            "one value per element or row is expected, not one number for all (a mean or a "
            "sum over every axis?)"
        )
    if len(got) < len(want):
        return (
            "an axis that must stay was reduced or squeezed away: check the axis of each reduction"
        )
    if want and tuple(got) == tuple(want) * 2:
        return (
            "one value for each pair of elements (a full Jacobian, or a column broadcast "
            "against a row?) where one value per element is expected"
        )
    if len(got) > len(want):
        return "an axis is left over: check the axis of each reduction (or a keepdims)"
    if sorted(got) == sorted(want):
        return "the same sizes in another order: the axes are swapped (a transpose?)"
    return "check the axis each reduction or product runs over"


def _same_shape(got, want, exact):
    if got == want:
        return True
    if exact or len(got) < len(want):  # an axis squeezed away is a mistake; one kept is not
        return False
    return tuple(n for n in got if n != 1) == tuple(n for n in want if n != 1)


def _array(value):
    return np.asarray(value.numpy() if isinstance(value, Tensor) else value)


def isclose(got, want, rtol=1e-4, atol=1e-5):
    """Elementwise agreement, nan agreeing with nan (float64, so float16 answers compare)."""
    return np.isclose(got.astype(np.float64), want.astype(np.float64), rtol, atol, equal_nan=True)


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
    return bool(np.all(isclose(got, want)))


def _sequence_differences(answer, expected, what, expect, items, close):
    if not isinstance(answer, (tuple, list)):
        return [f"{what} is a {describe(answer)}; a list of {len(expected)} items is expected"]
    if len(answer) != len(expected):
        return [f"{what} has {len(answer)} items but {len(expected)} are expected"]
    nones = [i for i, got in enumerate(answer) if got is None]
    if len(nones) > 1:  # one sentence for all: the reason is the same
        names = " and ".join(items[i] if items else f"item {i}" for i in nones)
        return [_none_problem(f"{names} in {what}", plural=True)]
    problems = []
    for i, (got, want) in enumerate(zip(answer, expected, strict=True)):
        item = f"{items[i]} in {what}" if items else f"item {i} of {what}"
        problems += differences(got, want, what=item, expect=expect, close=close)
    if problems and len(expected) == 2 and _in_order(answer[::-1], expected, close):
        return [f"{what} has the right items in the wrong order (swap them)"]
    return problems


def _in_order(answer, expected, close):
    return all(
        not differences(got, want, close=close) for got, want in zip(answer, expected, strict=True)
    )


def value_differences(got, want, what, close=None):
    """One sentence for the first element that is off, or none; never the expected value."""
    if got.dtype.kind in "biu" and want.dtype.kind in "biu":
        wrong = got != want
    else:
        wrong = ~(close or isclose)(got, want)
    if not np.any(wrong):
        return []
    element = tuple(int(i) for i in np.argwhere(wrong)[0])
    at = f" at element {list(element)}" if got.ndim else ""
    value, target = np.asarray(got[element]), np.asarray(want[element])
    if np.isnan(value.astype(np.float64)) or np.isinf(value.astype(np.float64)):
        return [f"{what} is {number(value)}{at}"]
    if _one_factor(got, want, wrong):
        how = "every element is off by the same factor"
        return [f"{what} is {number(value)}{at}: {how} (a constant factor missing or extra)"]
    if np.sign(value) == -np.sign(target) and np.isclose(abs(value), abs(target), 1e-4, 1e-5):
        return [f"{what} has the wrong sign{at} (it is {number(value)})"]
    direction = "too large" if value > target else "too small"
    if got.dtype.kind in "iu" and want.dtype.kind in "iu" and abs(int(value) - int(target)) == 1:
        direction = f"one {direction} (off by one: a count that starts or stops one early?)"
    if not got.ndim:
        return [f"{what} is {number(value)}, which is {direction}"]
    return [f"{what} differs{at}: its value there is {number(value)}, {direction}"]


def _one_factor(got, want, wrong):
    """True when got = c * want for one c != 1 (and at least two nonzero elements agree on
    it): the mistake is a factor, not a formula."""
    if got.size < 2 or not np.all(np.isfinite(got)) or not np.all(np.isfinite(want)):
        return False
    nonzero = np.abs(want) > 1e-6
    if nonzero.sum() < 2 or np.any(np.abs(got[~nonzero]) > 1e-6):
        return False
    ratios = got[nonzero].astype(np.float64) / want[nonzero]
    c = ratios[0]
    return abs(c - 1) > 1e-3 and abs(c + 1) > 1e-3 and np.allclose(ratios, c, rtol=1e-3)


def short_value(value):
    """The value as the message shows it (4 significant digits, a few elements at most).

    Examples
    --------
    >>> short_value(np.float32(-2.06)), short_value([[1.0, 2.5]])
    ('-2.06', '[[1.0, 2.5]]')
    """
    return short(_listed(_array(value).tolist()), 60)


def _listed(value):
    if isinstance(value, list):
        return "[" + ", ".join(_listed(v) for v in value) + "]"
    return number(value)
