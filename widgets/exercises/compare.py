"""Compare a student's value with the expected one and say, in words, what differs.

The order of the checks is the order a student can act on: the kind of thing, its shape,
its dtype, its device (form.py), then the values.

No sentence shows an expected value: the student's own value, where it is off, and how
(too large, too small, off by one, the wrong sign, off by one factor everywhere, 0
everywhere, nan).
"""

import numpy as np

from eagerkit.tensor import Tensor

from .form import ANY, Expect, as_array, describe, form_problem, none_problem, with_article
from .text import number, short

__all__ = [  # Expect, ANY and describe live in form.py; lessons import them from here
    "ANY",
    "Expect",
    "describe",
    "differences",
    "form_problem",
    "isclose",
    "same_values",
    "short_value",
    "value_differences",
]


def differences(
    answer, expected, *, what="your answer", expect=ANY, items=None, close=None, inputs_dtype=None
):
    """Sentences saying how ``answer`` differs from ``expected`` (empty: they agree).

    ``items`` names the items of a list answer (``["df/da", "df/db"]``); ``close(got, want)``
    says which elements agree (default: ``np.isclose`` with rtol 1e-4, atol 1e-5);
    ``inputs_dtype``: the float dtype of the inputs, which a float result must keep where the
    expected one keeps it (a float64 result of float32 inputs breaks the next float32 op).

    Examples
    --------
    >>> import eagerkit as ek
    >>> differences(ek.constant([1.0, 2.0]), ek.constant([1.0, 3.0]))
    ['your answer differs at element [1]: its value there is 2.0, too small']
    >>> differences(ek.constant([[1.0], [2.0]]), ek.constant([1.0, 2.0]))  # doctest: +ELLIPSIS
    ['your answer has shape (2, 1) but shape (2,) is expected: axis 1, of size 1, is extra...']
    >>> x = ek.constant(2.0)
    >>> differences(ek.cast(x, ek.float64), x, inputs_dtype="float32")  # doctest: +ELLIPSIS
    ["your answer has dtype float64 but float32 is expected (the dtype of its inputs)..."]
    >>> differences([ek.constant(2.0)], ek.constant(2.0))  # doctest: +ELLIPSIS
    ['your answer is a list of one ek.Tensor; one tensor is expected, not a list holding it...']
    """
    if isinstance(expected, (tuple, list)):
        return _sequence_differences(answer, expected, what, expect, items, close, inputs_dtype)
    if answer is ...:
        return [f"{what} is still ..., the placeholder"]
    form = form_problem(answer, expected, what=what, expect=expect, inputs_dtype=inputs_dtype)
    if form:
        return [form]
    got, want = as_array(answer), as_array(expected)
    return value_differences(got.reshape(want.shape), want, what, close)


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
    got, want = as_array(answer), as_array(expected)
    if got.shape != want.shape or got.dtype.kind not in "biuf" or want.dtype.kind not in "biuf":
        return False
    return bool(np.all(isclose(got, want)))


def _sequence_differences(answer, expected, what, expect, items, close, inputs_dtype=None):
    if not isinstance(answer, (tuple, list)):
        told = f"{what} is {with_article(describe(answer))}; "
        if items:  # the prompt's names for them: (new_weight, new_velocity)
            names = ", ".join(items)
            return [told + f"{len(items)} items ({names}) are expected: return them all, together"]
        return [told + f"a list of {len(expected)} items is expected"]
    if len(answer) != len(expected):
        return [f"{what} has {len(answer)} items but {len(expected)} are expected"]
    nones = [i for i, got in enumerate(answer) if got is None]
    if len(nones) > 1:  # one sentence for all: the reason is the same
        names = " and ".join(items[i] if items else f"item {i}" for i in nones)
        return [none_problem(f"{names} in {what}", plural=True)]
    problems = []
    for i, (got, want) in enumerate(zip(answer, expected, strict=True)):
        item = f"{items[i]} in {what}" if items else f"item {i} of {what}"
        problems += differences(
            got, want, what=item, expect=expect, close=close, inputs_dtype=inputs_dtype
        )
    if problems and swapped(answer, expected, close):
        return [f"{what} has the right items in the wrong order (swap them)"]
    return problems


def swapped(answer, expected, close=None):
    """Whether ``answer`` has the two items of ``expected`` in the wrong order."""
    pair = isinstance(answer, (tuple, list)) and isinstance(expected, (tuple, list))
    if not pair or len(answer) != 2 or len(expected) != 2:
        return False
    return _in_order(answer[::-1], expected, close) and not _in_order(answer, expected, close)


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
    if got.size > 1 and not np.any(got):  # not a factor: nothing of the input got through
        return [f"{what} is 0 at every element"]
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
    return short(_listed(as_array(value).tolist()), 60)


def _listed(value):
    if isinstance(value, list):
        return "[" + ", ".join(_listed(v) for v in value) + "]"
    return number(value)
