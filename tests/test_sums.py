"""backends/sums.py: the sums every reduction kernel takes, through BLAS where numpy's is slow,
against numpy's own ``x.sum`` (the plain reference): the same bits where every partial sum is
exact, within numpy's error bound everywhere else, and numpy's own sum off the BLAS path."""

import math
from contextlib import contextmanager, nullcontext
from unittest import mock

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import eagerkit as ek
from eagerkit.backends import sums
from eagerkit.backends.sums import MIN_SIZE, sum_over
from eagerkit.backprop import reference_sweep

FLOATS = [np.float32, np.float64]


@contextmanager
def products_with_ones():
    """Count the vectors of ones sum_over asks for: one per sum taken through BLAS."""
    with mock.patch.object(sums, "shared_vector", wraps=sums.shared_vector) as ones:
        yield ones


@st.composite
def blocks(draw):
    """A shape of 2 to 4 axes, big enough for BLAS, and a leading or trailing block of them."""
    ndim = draw(st.integers(2, 4))
    shape = draw(st.lists(st.integers(1, 6), min_size=ndim, max_size=ndim))
    shape[draw(st.integers(0, ndim - 1))] = draw(st.integers(MIN_SIZE // 8, MIN_SIZE // 2))
    count = draw(st.integers(1, ndim - 1))
    axis = tuple(range(count)) if draw(st.booleans()) else tuple(range(ndim - count, ndim))
    return tuple(shape), axis


@settings(max_examples=150, deadline=None)
@given(blocks(), st.sampled_from(FLOATS), st.booleans(), st.integers(0, 2**32 - 1))
def test_exact_sums_have_numpys_bits(block, dtype, keepdims, seed):
    # Small whole numbers: every partial sum is exact, so any order of adding gives one answer.
    shape, axis = block
    x = np.random.default_rng(seed).integers(-50, 50, shape).astype(dtype)
    with products_with_ones() as ones:
        got = sum_over(x, axis, keepdims)
    want = x.sum(axis=axis, keepdims=keepdims, dtype=dtype)
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(got, want)
    terms = math.prod(shape[a] for a in axis)
    assert ones.called == (x.size >= MIN_SIZE and 2 <= terms <= x.size // 2)  # rows, columns


@settings(max_examples=150, deadline=None)
@given(blocks(), st.sampled_from(FLOATS), st.integers(0, 2**32 - 1))
def test_sums_are_within_numpys_error_bound(block, dtype, seed):
    # A sum of n terms in any order is within (n - 1) * eps * sum|x| of the exact sum
    # (Higham, "Accuracy and Stability of Numerical Algorithms", 4.2): numpy's bound too.
    shape, axis = block
    x = np.random.default_rng(seed).normal(0, 10, shape).astype(dtype)
    got = sum_over(x, axis)
    table = _summed_axes_last(x, axis)
    exact = np.apply_along_axis(math.fsum, -1, table)
    magnitude = np.apply_along_axis(math.fsum, -1, np.abs(table))
    bound = (table.shape[-1] - 1) * np.finfo(dtype).eps * magnitude
    assert np.all(np.abs(got.astype(np.float64) - exact) <= bound)
    assert np.all(np.abs(x.sum(axis=axis).astype(np.float64) - exact) <= bound)


def _summed_axes_last(x, axis):
    """``x`` in float64 with the summed axes moved to the end and flattened into one."""
    kept = [a for a in range(x.ndim) if a not in axis]
    moved = np.transpose(x, kept + list(axis)).astype(np.float64)
    return moved.reshape(*[x.shape[a] for a in kept], -1)


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("axis", [(0,), (1,)])
def test_infinities_and_nans_come_out_as_numpys(dtype, axis):
    x = np.ones((3000, 4), dtype)
    x[5, 0], x[7, 1] = np.inf, -np.inf  # a column (and a row) with +inf, one with -inf
    x[9, 2] = np.nan
    x[11, 3], x[12, 3] = np.inf, -np.inf  # inf - inf: nan
    with products_with_ones() as ones, np.errstate(invalid="ignore"):
        got = sum_over(x, axis)
        want = x.sum(axis=axis)
    np.testing.assert_array_equal(got, want)
    assert ones.called


@pytest.mark.parametrize(
    "x, axis",
    [
        (np.ones((6000, 3), np.float32), (0, 1)),  # every axis: numpy's pairwise sum
        (np.ones((6000, 3), np.float32).T, (0,)),  # not C-ordered
        (np.ones((300, 20, 3), np.float32), (1,)),  # a middle axis
        (np.ones((20, 3), np.float32), (0,)),  # smaller than MIN_SIZE
        (np.ones((20000, 1), np.float64), (0,)),  # one column
        (np.ones((1, 20000), np.float64), (1,)),  # one row
        (np.ones((6000, 3), np.float16), (0,)),  # no BLAS for float16
        (np.ones((6000, 3), np.complex64), (0,)),  # nor for complex numbers
        (np.ones((6000, 3), np.int32), (0,)),  # nor for integers
    ],
)
def test_every_other_sum_is_numpys_own(x, axis):
    with products_with_ones() as ones:
        got = sum_over(x, axis)
    np.testing.assert_array_equal(got, x.sum(axis=axis, dtype=x.dtype))
    assert got.dtype == x.dtype and not ones.called


@pytest.mark.parametrize("dtype", FLOATS)
def test_reductions_and_broadcast_gradients_take_these_sums(dtype):
    # reduce_sum, reduce_logsumexp and a bias's gradient over a batch (the
    # reference sweep's unbroadcast and the fast one's) each take one sum through BLAS.
    logits = np.random.default_rng(0).normal(size=(3000, 4)).astype(dtype)
    want = {
        "reduce_sum": logits.sum(1),
        "reduce_logsumexp": np.log(np.exp(logits).sum(1)),
    }
    for name, value in want.items():
        with products_with_ones() as ones:
            got = getattr(ek, name)(logits, axis=1).numpy()
        np.testing.assert_allclose(got, value, rtol=1e-5, atol=1e-5)
        assert ones.call_count == 1, name
    bias = ek.Variable(np.zeros(4, dtype))
    for reference in (False, True):
        with ek.GradientTape() as tape:
            total = ek.reduce_sum((logits + bias) * logits, axis=1)
        with products_with_ones() as ones, reference_sweep() if reference else nullcontext():
            gradient = tape.gradient(total, bias).numpy()
        np.testing.assert_allclose(gradient, logits.sum(0), rtol=1e-5, atol=1e-5)
        assert ones.call_count == 1
