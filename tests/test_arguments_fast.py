"""The fast answers of arguments.py equal its step-by-step ones, errors included.

``normalize_axis`` answers one int axis in range at once and hands everything else to
``normalize_axes`` (the reference); ``whole_number`` answers a Python int at once. Hypothesis
draws axis arguments of every kind users pass (ints in and out of range, bools, floats,
numpy ints, lists, tuples, None, integer tensors) and both paths must agree.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import eagerkit as ek
from eagerkit.arguments import normalize_axes, normalize_axis, whole_number
from eagerkit.errors import InvalidArgumentError


def _outcome(function, *args):
    """What ``function(*args)`` gives: its answer, or its error's type and message."""
    try:
        return function(*args)
    except InvalidArgumentError as error:
        return type(error), str(error)


_ONE_AXIS = st.one_of(
    st.integers(-6, 6),
    st.booleans(),
    st.floats(-3, 3),
    st.integers(-3, 3).map(np.int64),
)
_AXIS = st.one_of(
    st.none(),
    _ONE_AXIS,
    st.lists(_ONE_AXIS, max_size=3),
    st.lists(st.integers(-3, 3), max_size=3).map(tuple),
    st.integers(-3, 3).map(ek.constant),
)


@settings(max_examples=300, deadline=None)
@given(axis=_AXIS, ndim=st.integers(0, 4))
def test_normalize_axis_answers_as_its_reference(axis, ndim):
    got = _outcome(normalize_axis, axis, ndim, "reduce_sum")
    assert got == _outcome(normalize_axes, axis, ndim, "reduce_sum")
    if type(axis) is int and -ndim <= axis < ndim:  # the fast answer itself
        assert got == (axis % ndim,)


@pytest.mark.parametrize("ndim", [0, 1, 3])
def test_an_int_axis_out_of_range_gets_the_reference_error(ndim):
    with pytest.raises(InvalidArgumentError, match=r"reduce_sum: axis 3 is out of range"):
        normalize_axis(3, ndim, "reduce_sum")


@settings(max_examples=200, deadline=None)
@given(value=st.one_of(st.integers(), st.booleans(), st.floats(allow_nan=False)))
def test_whole_number_takes_ints_at_once_and_refuses_bools_and_fractions(value):
    if type(value) is int:
        assert whole_number(value, "axis", "cumsum") is value
    else:
        with pytest.raises(InvalidArgumentError, match=r"cumsum: axis must be an integer"):
            whole_number(value, "axis", "cumsum")
