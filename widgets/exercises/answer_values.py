"""An answer's values as numbers, for the lessons' ``explain`` functions: they compare what
the student returned with a known mistake (a reshape for a transpose, 1 - cos, ...)."""

import numpy as np

from eagerkit.tensor import Tensor


def float_values(value):
    """``value`` (a tensor on any device, a numpy array, a number, a nested list) as a float64
    numpy array, or None where it holds no numbers (a string, a function, a ragged list).

    Examples
    --------
    >>> import eagerkit as ek
    >>> float_values(ek.constant([1, 2])), float_values("sqrt")
    (array([1., 2.]), None)
    """
    try:
        return np.asarray(value.numpy() if isinstance(value, Tensor) else value, np.float64)
    except (TypeError, ValueError):
        return None


def matches(value, expected):
    """Whether ``value`` holds ``expected``'s numbers: the same shape and equal within
    float32's rounding (as compare.isclose: a sum of float32 products is off by ~1e-6).

    Examples
    --------
    >>> import eagerkit as ek
    >>> matches(ek.constant([0.1, 0.2]) * 3, np.array([0.3, 0.6])), matches([1.0], [1.0, 1.0])
    (True, False)
    """
    mine = float_values(value)
    expected = np.asarray(expected, np.float64)
    return (
        mine is not None
        and mine.shape == expected.shape
        and np.allclose(mine, expected, 1e-4, 1e-5)
    )
