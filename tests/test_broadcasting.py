"""Broadcasting, driven by hypothesis: values and gradients agree with numpy for any shapes.

The gradient of a broadcast input is the output gradient summed over the axes that
broadcasting stretched; ``_sum_to`` computes that in numpy, independently of the engine.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays, mutually_broadcastable_shapes

import eagerkit as ek
from eagerkit.testing import check_grads

SETTINGS = settings(max_examples=40, deadline=None)
TWO_SHAPES = mutually_broadcastable_shapes(num_shapes=2, min_dims=0, max_dims=4, max_side=3)
THREE_SHAPES = mutually_broadcastable_shapes(num_shapes=3, min_dims=0, max_dims=3, max_side=3)

# op, numpy forward, numpy (d/dx, d/dy) as functions of x, y
BINARY = {
    "add": (ek.add, np.add, lambda x, y: (np.ones_like(x + y), np.ones_like(x + y))),
    "subtract": (
        ek.subtract,
        np.subtract,
        lambda x, y: (np.ones_like(x + y), -np.ones_like(x + y)),
    ),
    "multiply": (ek.multiply, np.multiply, lambda x, y: (y + 0 * x, x + 0 * y)),
    "truediv": (ek.truediv, np.divide, lambda x, y: (1 / y + 0 * x, -x / y**2)),
    "maximum": (
        ek.maximum,
        np.maximum,
        lambda x, y: ((x >= y).astype(x.dtype), (x < y).astype(x.dtype)),
    ),
}


def _sum_to(g, shape):
    """numpy's own unbroadcast: sum the stretched axes of ``g`` away."""
    while g.ndim > len(shape):
        g = g.sum(axis=0)
    for axis, n in enumerate(shape):
        if n == 1 and g.shape[axis] != 1:
            g = g.sum(axis=axis, keepdims=True)
    return g


def _values(draw, shape, low=-2.0, high=2.0):
    return draw(arrays(np.float64, shape, elements=st.floats(low, high, allow_subnormal=False)))


@pytest.mark.parametrize("name", sorted(BINARY))
@SETTINGS
@given(data=st.data(), shapes=TWO_SHAPES)
def test_binary_op_values_and_gradients_match_numpy(name, data, shapes):
    op, forward, partials = BINARY[name]
    (x_shape, y_shape), out_shape = shapes
    x = _values(data.draw, x_shape)
    # Keep divisors away from zero, and max() away from ties.
    y = (
        _values(data.draw, y_shape, 0.5, 2.0)
        if name == "truediv"
        else _values(data.draw, y_shape) + 0.001
    )
    x_t, y_t = ek.constant(x), ek.constant(y)
    with ek.GradientTape() as tape:
        tape.watch([x_t, y_t])
        z = op(x_t, y_t)
    assert z.shape == out_shape
    np.testing.assert_allclose(z.numpy(), forward(x, y), rtol=1e-12)

    u = _values(data.draw, out_shape)  # a random output gradient: a VJP, not just a sum
    gx, gy = tape.gradient(z, [x_t, y_t], output_gradients=ek.constant(u))
    dx, dy = (np.broadcast_to(d, out_shape) for d in partials(x, y))
    assert gx.shape == x_shape and gy.shape == y_shape
    np.testing.assert_allclose(gx.numpy(), _sum_to(u * dx, x_shape), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(gy.numpy(), _sum_to(u * dy, y_shape), rtol=1e-10, atol=1e-12)


@SETTINGS
@given(data=st.data(), shapes=THREE_SHAPES)
def test_where_broadcasts_condition_and_both_branches(data, shapes):
    (c_shape, x_shape, y_shape), out_shape = shapes
    condition = data.draw(arrays(np.bool_, c_shape))
    x, y = _values(data.draw, x_shape), _values(data.draw, y_shape)
    x_t, y_t = ek.constant(x), ek.constant(y)
    with ek.GradientTape() as tape:
        tape.watch([x_t, y_t])
        z = ek.where(condition, x_t, y_t)
    np.testing.assert_array_equal(z.numpy(), np.where(condition, x, y))
    gx, gy = tape.gradient(z, [x_t, y_t])
    chosen = np.broadcast_to(condition, out_shape).astype(np.float64)
    np.testing.assert_array_equal(gx.numpy(), _sum_to(chosen, x_shape))
    np.testing.assert_array_equal(gy.numpy(), _sum_to(1 - chosen, y_shape))


@settings(max_examples=15, deadline=None)
@given(data=st.data(), shapes=TWO_SHAPES)
def test_broadcast_gradients_pass_check_grads_to_second_order(data, shapes):
    (x_shape, y_shape), _ = shapes
    x, y = _values(data.draw, x_shape), _values(data.draw, y_shape, 0.5, 2.0)
    check_grads(lambda a, b: a * b / (b + a * a + 3.0) - ek.exp(a - b), x, y, order=2)


@SETTINGS
@given(data=st.data(), shapes=mutually_broadcastable_shapes(num_shapes=1, max_dims=3, max_side=3))
def test_broadcast_to_sums_its_gradient_back(data, shapes):
    (x_shape,), target = shapes
    target = (2,) + tuple(target)  # always stretch at least one new leading axis
    x = _values(data.draw, x_shape)
    x_t = ek.constant(x)
    with ek.GradientTape() as tape:
        tape.watch(x_t)
        z = ek.broadcast_to(x_t, target)
    np.testing.assert_array_equal(z.numpy(), np.broadcast_to(x, target))
    np.testing.assert_array_equal(tape.gradient(z, x_t).numpy(), _sum_to(np.ones(target), x_shape))


@SETTINGS
@given(shapes=TWO_SHAPES)
def test_incompatible_shapes_name_the_op_and_both_shapes(shapes):
    (x_shape, _), _ = shapes
    bad = tuple(x_shape) + (2,)  # a trailing 2 against ...
    other = tuple(x_shape) + (3,)  # ... a trailing 3 never broadcasts
    with pytest.raises(ek.errors.InvalidArgumentError) as info:
        ek.add(ek.zeros(bad), ek.zeros(other))
    message = str(info.value)
    assert message.startswith("add: ")
    assert f"float32{bad}" in message and f"float32{other}" in message
    assert "ek.expand_dims" in message
