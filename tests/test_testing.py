"""check_grads itself: it must catch a wrong VJP, at the order where the VJP goes wrong."""

import numpy as np
import pytest

import eagerkit as ek
from eagerkit import backprop, registry
from eagerkit.devices import CPU
from eagerkit.dtypes import FLOATING
from eagerkit.testing import GradientCheckError, check_grads, first_gradient_error

X = np.array([0.5, -1.2, 2.0])


@pytest.fixture
def throwaway_ops():
    """Two ops registered for one test, removed (with their cached bindings) afterwards.

    ``sloppy_square`` computes x * x but its VJP forgets the factor 2 (wrong at order 1).
    ``cube`` has a VJP with the right value, 3 x^2 g, computed through sloppy_square, so the
    backward pass is recorded with a wrong derivative: only order 2 can see it.
    """

    @registry.defop("sloppy_square", dtypes=FLOATING)
    def sloppy_square(xp, x):
        return x * x

    sloppy_square.defvjp(lambda ops, g, ans, x: g * x)

    @registry.defop("cube", dtypes=FLOATING)
    def cube(xp, x):
        return x * x * x

    cube.defvjp(lambda ops, g, ans, x: g * 3 * ops.sloppy_square(x))
    yield sloppy_square, cube
    for name in ("sloppy_square", "cube"):
        del registry.REGISTRY[name]
        # The namespaces cache an op on first use; drop those bindings too.
        vars(backprop.vjp_ops(CPU, on_tensors=False)).pop(name, None)
        vars(registry.TENSOR_OPS).pop(name, None)


def test_a_wrong_first_derivative_fails_at_order_1(throwaway_ops):
    sloppy_square, _ = throwaway_ops
    with pytest.raises(AssertionError, match="order-1 gradient check failed"):
        check_grads(sloppy_square, X, order=1)


def test_a_wrong_second_derivative_passes_order_1_and_fails_order_2(throwaway_ops):
    _, cube = throwaway_ops
    np.testing.assert_allclose(cube(X).numpy(), X**3)
    check_grads(cube, X, order=1)  # the VJP's value is right
    with pytest.raises(AssertionError, match="order-2 gradient check failed") as info:
        check_grads(cube, X, order=2)
    assert "reverse mode gives" in str(info.value) and "finite differences give" in str(info.value)


def test_the_throwaway_ops_are_gone_afterwards():
    assert "sloppy_square" not in registry.REGISTRY and "cube" not in registry.REGISTRY
    assert not hasattr(ek, "cube")


def test_correct_gradients_pass_to_third_order():
    check_grads(lambda x, y: ek.sin(x) * ek.exp(y) / (1.0 + x * x), X, X[::-1], order=3)


def test_check_grads_needs_a_tensor_result():
    with pytest.raises(TypeError, match="f must return a tensor, got float"):
        check_grads(lambda x: 1.0, X)


def test_check_grads_leaves_the_callers_inputs_alone():
    x = ek.constant([1.0, 2.0])
    check_grads(ek.square, x)
    assert x.dtype == ek.float32 and x.numpy().tolist() == [1.0, 2.0]


def test_a_wrong_vjp_is_located_by_input_and_element(throwaway_ops):
    sloppy_square, _ = throwaway_ops
    with pytest.raises(GradientCheckError) as info:
        check_grads(lambda x, y: x * y + sloppy_square(y), X, X + 1.0, order=1)
    error = info.value
    assert (error.order, error.input, error.element) == (1, 1, (0,))
    # d/dy (x y + y^2) = x + 2y, but the sloppy VJP gives x + y (times a random weight u).
    x, y = X[0], X[0] + 1.0
    assert error.analytic / error.numeric == pytest.approx((x + y) / (x + 2 * y))
    assert "order-1 gradient check failed for input 1, element [0]" in str(error)


def test_a_wrong_second_derivative_is_located_too(throwaway_ops):
    _, cube = throwaway_ops
    error = first_gradient_error(cube, X, order=2)
    assert (error.order, error.input, error.element) == (2, 0, (0,))
    assert first_gradient_error(ek.sin, X, order=2) is None
