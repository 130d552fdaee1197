"""relu's second derivative is zeros, as in TF, on every path that takes one.

relu's gradient is the op ``relu_grad(gradients, features)`` (TF's ``ReluGrad``). TF's
``_ReluGradGrad`` passes the gradient on to ``gradients`` where the features are positive
and gives the features ``zeros_like(features)``: so a gradient of relu's gradient is zeros
(the slope of a step), never None. These tests take that second derivative through nested
tapes, a persistent tape, the tfe function API, jacobians and ``ek.function``.
"""

import hypothesis.extra.numpy as hnp
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import eagerkit as ek
from eagerkit.registry import REGISTRY

SPECIALS = [0.0, -0.0, np.inf, -np.inf, 1e-40, -1e-40]


def relu_inputs():
    """Float arrays of rank 0 to 2 (empty sides too), infinities and subnormals among them."""
    dtype = st.sampled_from([np.float16, np.float32, np.float64])
    shape = hnp.array_shapes(min_dims=0, max_dims=2, min_side=0, max_side=5)
    values = st.one_of(st.floats(-1e3, 1e3, width=16), st.sampled_from(SPECIALS))
    return dtype.flatmap(lambda d: hnp.arrays(d, shape, elements=values))


def _second_derivative_nested(x):
    with ek.GradientTape() as outer:
        outer.watch(x)
        with ek.GradientTape() as inner:
            inner.watch(x)
            y = ek.nn.relu(x)
        slope = inner.gradient(y, x)
    return slope, outer.gradient(slope, x)


def _check_zeros(second, x):
    assert second is not None  # before TF's ReluGradGrad: None
    assert second.dtype == x.dtype and second.shape == x.shape
    np.testing.assert_array_equal(second.numpy(), np.zeros(x.shape, x.dtype.as_numpy_dtype))


@settings(max_examples=60, deadline=None)
@given(relu_inputs())
def test_nested_tapes_give_zeros_not_none(values):
    x = ek.constant(values)
    slope, second = _second_derivative_nested(x)
    np.testing.assert_array_equal(slope.numpy(), (values > 0).astype(values.dtype))
    _check_zeros(second, x)


def test_a_persistent_tape_gives_zeros_twice():
    x = ek.constant([-2.0, 0.0, 3.0])
    with ek.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = ek.nn.relu(x)
        with pytest.warns(UserWarning, match="persistent tape inside its context"):
            slope = tape.gradient(y, x)  # recorded by the same tape, which is still open
    for _ in range(2):  # a persistent tape gives the same answer again
        _check_zeros(tape.gradient(slope, x), x)


def test_the_tfe_function_api_gives_zeros():
    slope = ek.gradients_function(lambda x: ek.reduce_sum(ek.nn.relu(x)))
    second = ek.gradients_function(lambda x: ek.reduce_sum(slope(x)[0]))
    x = ek.constant([-1.0, 0.5, 4.0])
    _check_zeros(second(x)[0], x)


def test_the_hessian_of_a_relu_network_has_only_the_linear_parts():
    # y = sum(w2 * relu(w1 * x)): piecewise linear in x, so its hessian in x is zeros
    x = ek.constant([[1.0, -2.0, 0.5]])
    w1 = ek.constant([[2.0, 1.0, -1.0], [0.5, -3.0, 1.0], [1.0, 1.0, 1.0]])
    w2 = ek.constant([[1.0], [-2.0], [3.0]])
    with ek.GradientTape() as outer:
        outer.watch(x)
        with ek.GradientTape() as inner:
            inner.watch(x)
            y = ek.reduce_sum(ek.matmul(ek.nn.relu(ek.matmul(x, w1)), w2))
        slope = inner.gradient(y, x)
    hessian = outer.jacobian(slope, x)
    assert hessian.shape == (1, 3, 1, 3)
    np.testing.assert_array_equal(hessian.numpy(), np.zeros((1, 3, 1, 3), np.float32))


def test_batch_jacobian_of_relu_slopes_is_zeros():
    x = ek.constant([[-1.0, 2.0], [3.0, -4.0]])
    with ek.GradientTape() as outer:
        outer.watch(x)
        with ek.GradientTape() as inner:
            inner.watch(x)
            y = ek.nn.relu(x)
        slope = inner.gradient(y, x)
    hessian = outer.batch_jacobian(slope, x)
    np.testing.assert_array_equal(hessian.numpy(), np.zeros((2, 2, 2), np.float32))


def test_third_derivative_is_zeros_too():
    x = ek.constant([-1.0, 2.0])
    with ek.GradientTape() as third:
        third.watch(x)
        slope, second = _second_derivative_nested(x)
    _check_zeros(third.gradient(second, x), x)


@pytest.mark.parametrize("relaxed", [False, True])
def test_ek_function_gives_zeros(relaxed):
    @ek.function(reduce_retracing=relaxed)
    def second_derivative(x):
        return _second_derivative_nested(x)[1]

    for values in ([-1.0, 0.0, 2.0], [3.0, -3.0, 0.5, 7.0]):  # a second length: a second run
        x = ek.constant(values)
        _check_zeros(second_derivative(x), x)


def test_relu_grad_passes_the_gradient_where_features_are_positive():
    # the other half of ReluGradGrad, unchanged: d relu_grad / d gradients = relu_grad
    relu_grad = REGISTRY["relu_grad"].call
    upstream = ek.constant([1.0, 2.0, 3.0])
    features = ek.constant([5.0, -1.0, 0.0])
    with ek.GradientTape() as tape:
        tape.watch([upstream, features])
        out = relu_grad(upstream, features)
    d_upstream, d_features = tape.gradient(out, [upstream, features], ek.constant([4.0, 5.0, 6.0]))
    np.testing.assert_array_equal(d_upstream.numpy(), [4.0, 0.0, 0.0])
    np.testing.assert_array_equal(d_features.numpy(), [0.0, 0.0, 0.0])


def test_features_of_a_broadcast_relu_grad_get_zeros_of_their_own_shape():
    relu_grad = REGISTRY["relu_grad"].call
    upstream = ek.constant([1.0, 2.0, 3.0])  # broadcast over the features' rows
    features = ek.constant([[1.0, -1.0, 2.0], [-3.0, 4.0, 0.0]])
    with ek.GradientTape() as tape:
        tape.watch([upstream, features])
        out = relu_grad(upstream, features)
    d_upstream, d_features = tape.gradient(out, [upstream, features])
    np.testing.assert_array_equal(d_upstream.numpy(), [1.0, 1.0, 1.0])
    assert d_features.shape == (2, 3)
    np.testing.assert_array_equal(d_features.numpy(), np.zeros((2, 3), np.float32))
