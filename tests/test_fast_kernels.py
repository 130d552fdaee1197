"""Kernels written for speed give the plain formula's answers (issue 12: fewer temporaries).

- ``where(c, x, 0)`` multiplies by the mask instead of choosing element by element;
- ``sigmoid`` is 1 / (1 + e**-x) in one array written in place;
- ``broadcast_to`` of a big gradient is a read-only view, never handed to the caller.
"""

import warnings

import numpy as np
import pytest

import eagerkit as ek


@pytest.mark.parametrize("zero_first", [False, True])
def test_where_with_a_zero_branch_equals_numpys_where_even_for_inf_nan_and_minus_zero(
    zero_first,
):
    rng = np.random.default_rng(0)
    values = rng.standard_normal(1000).astype(np.float32)
    values[:4] = [np.inf, -np.inf, np.nan, -0.0]
    condition = rng.random(1000) < 0.5
    condition[:4] = [False, True, False, True]
    if zero_first:
        got = ek.where(condition, 0.0, values).numpy()
        expected = np.where(condition, np.float32(0), values)
    else:
        got = ek.where(condition, values, 0.0).numpy()
        expected = np.where(condition, values, np.float32(0))
    np.testing.assert_array_equal(got, expected)
    finite = np.isfinite(values)
    assert not np.signbit(got[finite & (got == 0) & ~(condition ^ zero_first)]).any()


def test_sigmoid_is_the_plain_formula_and_stays_quiet_at_the_extremes():
    x = np.linspace(-30, 30, 121)
    np.testing.assert_allclose(ek.sigmoid(x).numpy(), 1 / (1 + np.exp(-x)), rtol=1e-12)
    with warnings.catch_warnings(record=True) as caught:  # the filters as a user has them
        extremes = ek.sigmoid(ek.constant([-1000.0, 0.0, 1000.0])).numpy()
        scalar = float(ek.sigmoid(-1000.0))
    assert extremes.tolist() == [0.0, 0.5, 1.0] and scalar == 0.0
    assert not caught  # e**1000 overflows to inf inside, as intended, and says nothing


def test_a_big_broadcast_gradient_is_a_view_inside_but_an_array_of_its_own_outside():
    x = ek.constant(np.ones((300, 300)))
    with ek.GradientTape() as tape:
        tape.watch(x)
        total = ek.reduce_sum(x)
    grad = tape.gradient(total, x).numpy()
    assert grad.flags.writeable and grad.shape == (300, 300)
    grad[0, 0] = 5.0  # the caller's own array: nothing else changes
    assert float(ek.reduce_sum(x)) == 90000.0
