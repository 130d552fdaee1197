"""Kernels written for speed give the plain formula's answers (issue 12: fewer temporaries).

- ``where(c, x, 0)`` ands the float's bits with a mask instead of choosing element by element;
- ``reduce_mean`` of floats is numpy's sum and division without ``np.mean``'s Python wrapper;
- ``sigmoid`` is 1 / (1 + e**-x) in one array written in place;
- ``broadcast_to`` of a big gradient is a read-only view, never handed to the caller.
"""

import warnings

import numpy as np
import pytest

import eagerkit as ek


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
@pytest.mark.parametrize("zero_first", [False, True])
def test_where_with_a_zero_branch_is_numpys_where_bit_for_bit_even_for_inf_nan_and_signed_zeros(
    zero_first, dtype
):
    rng = np.random.default_rng(0)
    values = rng.standard_normal((50, 20)).astype(dtype)
    values[0, :6] = [np.inf, -np.inf, np.nan, -0.0, -0.0, -1.0]
    condition = rng.random((50, 20)) < 0.5
    condition[0, :6] = [False, True, False, True, False, False]
    zero = dtype(0)
    if zero_first:
        got = ek.where(condition, zero, values).numpy()
        expected = np.where(condition, zero, values)
    else:
        got = ek.where(condition, values, zero).numpy()
        expected = np.where(condition, values, zero)
    assert got.dtype == expected.dtype and got.tobytes() == expected.tobytes()


def test_where_with_a_zero_branch_still_broadcasts_the_condition():
    values = np.array([[-1.0, 2.0], [3.0, -4.0]], np.float32)
    got = ek.where(np.array([True, False]), values, 0.0).numpy()
    np.testing.assert_array_equal(got, [[-1.0, 0.0], [3.0, 0.0]])


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize(
    ("shape", "axis", "keepdims"),
    [
        ((64,), None, False),
        ((1437, 10), 0, False),
        ((1437, 10), 1, True),
        ((3, 5, 7), (0, 2), False),
        ((), None, False),
        ((100_003,), None, True),
        ((2000, 37), 1, False),  # 2000 divisions, each rounded as np.mean rounds it
        ((37, 3000), 0, False),
    ],
)
def test_reduce_mean_of_floats_is_np_mean_bit_for_bit(dtype, shape, axis, keepdims):
    x = (np.random.default_rng(1).standard_normal(shape) * 1000).astype(dtype)
    got = ek.reduce_mean(x, axis=axis, keepdims=keepdims).numpy()
    expected = np.mean(x, axis=axis, keepdims=keepdims)
    assert got.dtype == expected.dtype and got.shape == np.shape(expected)
    assert got.tobytes() == np.asarray(expected).tobytes()


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


@pytest.mark.parametrize("on_tensors", [False, True], ids=["arrays", "tensors"])
def test_relus_gradient_read_from_its_answer_is_the_gradient_where_x_is_positive(on_tensors):
    # relu's VJP masks by ans > 0 (as TF's ReluGrad reads the output): the same mask as x > 0
    x = ek.constant([-2.0, -0.0, 0.0, 1e-30, 3.0, np.inf, -np.inf, np.nan])
    g = ek.constant([1.0, 2.0, 3.0, 4.0, -5.0, 6.0, 7.0, 8.0])
    with ek.GradientTape() as tape:
        tape.watch(x)
        y = ek.nn.relu(x)
    if on_tensors:
        with ek.backprop.tensor_vjps():
            got = tape.gradient(y, x, output_gradients=g)
    else:
        got = tape.gradient(y, x, output_gradients=g)
    expected = np.where(x.numpy() > 0, g.numpy(), np.float32(0))
    assert got.numpy().tobytes() == expected.tobytes()
