"""``reduce_logsumexp`` (one primitive) gives what ``reference_reduce_logsumexp`` (the same
steps written with ops, as TF writes it) gives: the same bits forward, the same gradients
to rounding (softmax computed once instead of through nine recorded ops), the same
infinities and nans, to second order."""

import math

import hypothesis.extra.numpy as hnp
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import eagerkit as ek
from eagerkit.ops.reduce import reference_reduce_logsumexp

RTOL = {np.float32: 2e-6, np.float64: 1e-13}


@st.composite
def logsumexp_calls(draw):
    """An array (floats from -50 to 50, a few infinities or nans at times), an axis and
    keepdims, as users pass them: None, an int, a negative int, a list."""
    dtype = draw(st.sampled_from([np.float32, np.float64]))
    shape = draw(hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=4))
    special = draw(st.sampled_from([[], [math.inf], [-math.inf], [math.nan]]))
    values = st.one_of(st.floats(-50, 50, width=32), *[st.just(v) for v in special])
    x = draw(hnp.arrays(dtype, shape, elements=values))
    ndim = len(shape)
    axis = draw(
        st.one_of(
            st.none(),
            st.integers(-ndim, ndim - 1),
            st.lists(st.integers(0, ndim - 1), min_size=1, max_size=ndim, unique=True),
        )
    )
    return x, axis, draw(st.booleans())


def _value_and_gradient(function, x, axis, keepdims, weights_seed):
    x = ek.constant(x)
    with ek.GradientTape() as tape:
        tape.watch(x)
        y = function(x, axis=axis, keepdims=keepdims)
        weights = np.random.default_rng(weights_seed).uniform(0.5, 2.0, y.shape)
        loss = ek.reduce_sum(y * ek.constant(weights.astype(y.numpy().dtype)))
    return y.numpy(), tape.gradient(loss, x).numpy()


@settings(max_examples=150, deadline=None)
@given(logsumexp_calls(), st.integers(0, 1000))
def test_the_primitive_gives_the_references_values_and_gradients(call, seed):
    x, axis, keepdims = call
    value, gradient = _value_and_gradient(ek.reduce_logsumexp, x, axis, keepdims, seed)
    want_value, want_gradient = _value_and_gradient(
        reference_reduce_logsumexp, x, axis, keepdims, seed
    )
    assert value.dtype == want_value.dtype and value.shape == want_value.shape
    assert value.tobytes() == want_value.tobytes()  # the same steps: the same bits
    np.testing.assert_array_equal(np.isnan(gradient), np.isnan(want_gradient))
    # The gradient is a softmax times weights <= 2, whose entries sum to at most 2 per slice:
    # a few ulps of 1 is rounding, however small an entry (exp(-40) in float32 is one).
    atol = 4 * np.finfo(x.dtype).eps
    np.testing.assert_allclose(gradient, want_gradient, rtol=RTOL[x.dtype.type], atol=atol)


@pytest.mark.parametrize("axis", [None, 0, 1, -1, [0, 1]])
def test_second_order_gradients_match_the_reference(axis):
    x = ek.constant(np.random.default_rng(3).normal(size=(3, 4)))
    results = []
    for function in (ek.reduce_logsumexp, reference_reduce_logsumexp):
        with ek.GradientTape() as outer:
            outer.watch(x)
            with ek.GradientTape() as inner:
                inner.watch(x)
                y = ek.reduce_sum(function(x, axis=axis) ** 2)
            g = inner.gradient(y, x)
            gg = ek.reduce_sum(g * ek.sin(x))
        results.append((g.numpy(), outer.gradient(gg, x).numpy()))
    for got, want in zip(results[0], results[1], strict=True):
        np.testing.assert_allclose(got, want, rtol=1e-12)


def test_it_is_one_record_on_the_tape():
    x = ek.constant([[1.0, 2.0], [3.0, 4.0]])
    with ek.GradientTape() as tape:
        tape.watch(x)
        ek.reduce_logsumexp(x, axis=1)
    assert [r.op.name for r in tape.records] == ["reduce_logsumexp"]


def test_over_no_elements_it_is_minus_infinity_as_in_tf():
    got = ek.reduce_logsumexp(ek.zeros([0, 3]), axis=0)
    np.testing.assert_array_equal(got.numpy(), [-np.inf] * 3)
    assert got.dtype == ek.float32


def test_an_int_tensor_is_refused_naming_the_call_and_the_fix():
    with pytest.raises(ek.errors.InvalidArgumentError, match=r"reduce_logsumexp: .*int32.*cast"):
        ek.reduce_logsumexp(ek.constant([1, 2]))


def test_a_bad_axis_is_refused_naming_the_call():
    with pytest.raises(ek.errors.InvalidArgumentError, match="reduce_logsumexp: axis 2 is out"):
        ek.reduce_logsumexp(ek.ones([2, 2]), axis=2)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_the_max_down_the_columns_gives_the_same_bits(dtype):
    """More rows than columns take reduce.py's _shift down the transposed copy: ties of
    -0.0 and 0.0, rows of infinities and nans give the reference's bits too."""
    rows = [
        [-0.0, 0.0, -0.0],
        [0.0, -0.0, 0.0],
        [-0.0, -0.0, -0.0],
        [-math.inf, -math.inf, -math.inf],
        [math.inf, 1.0, 2.0],
        [math.nan, 1.0, -0.0],
        [-5.0, 3.0, 3.0],
    ]
    x = np.array(rows * 3, dtype)
    for keepdims in (False, True):
        got = ek.reduce_logsumexp(x, axis=1, keepdims=keepdims).numpy()
        want = reference_reduce_logsumexp(ek.constant(x), axis=1, keepdims=keepdims).numpy()
        assert got.tobytes() == want.tobytes()
