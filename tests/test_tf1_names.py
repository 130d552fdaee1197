"""TF 1's shorthands (ek.to_float and kin, ek.reciprocal, ek.nn.xw_plus_b, ek.nn.relu_layer):
the values of the compositions TF 1 defines them as, their gradients, and errors that name
the call. A blind TA's right answers used them (TA D, session 7)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import eagerkit as ek
from eagerkit.errors import InvalidArgumentError, UnimplementedError

FINITE = st.floats(-1e3, 1e3, width=32)


@settings(max_examples=30, deadline=None)
@given(hnp.arrays(np.float32, hnp.array_shapes(max_dims=3, max_side=4), elements=FINITE))
def test_the_casts_are_tf1s_casts(values):
    x = ek.constant(values)
    for function, dtype in (
        (ek.to_float, np.float32),
        (ek.to_double, np.float64),
        (ek.to_int32, np.int32),
        (ek.to_int64, np.int64),
    ):
        got = function(x).numpy()
        assert got.dtype == dtype
        integer = np.dtype(dtype).kind == "i"  # ints truncate toward zero, as cast does
        np.testing.assert_array_equal(got, (np.trunc(values) if integer else values).astype(dtype))


def test_reciprocal_at_the_top_level_is_ek_math_reciprocal():
    assert ek.reciprocal is ek.math.reciprocal
    np.testing.assert_array_equal(ek.reciprocal(ek.constant([2.0, -4.0])).numpy(), [0.5, -0.25])


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 4), st.integers(1, 4), st.integers(1, 4), st.data())
def test_xw_plus_b_and_relu_layer_are_a_dense_layers_forward_pass(batch, inputs, units, data):
    def drawn(shape):
        return data.draw(hnp.arrays(np.float64, shape, elements=st.floats(-3, 3)))

    x, w, b = drawn((batch, inputs)), drawn((inputs, units)), drawn((units,))
    np.testing.assert_allclose(ek.nn.xw_plus_b(x, w, b).numpy(), x @ w + b, rtol=1e-12)
    np.testing.assert_allclose(
        ek.nn.relu_layer(x, w, b).numpy(), np.maximum(x @ w + b, 0), rtol=1e-12
    )


def test_xw_plus_b_differentiates_as_matmul_plus_bias():
    x, w, b = ek.constant([[1.0, 2.0]]), ek.Variable([[3.0], [4.0]]), ek.Variable([0.5])
    with ek.GradientTape() as tape:
        y = ek.nn.xw_plus_b(x, w, b)
    dw, db = tape.gradient(y, [w, b])
    np.testing.assert_array_equal(dw.numpy(), [[1.0], [2.0]])
    np.testing.assert_array_equal(db.numpy(), [1.0])


def test_bad_input_names_the_call():
    with pytest.raises(InvalidArgumentError, match="matmul"):
        ek.nn.xw_plus_b(ek.ones([2, 3]), ek.ones([2, 3]), ek.zeros([3]))
    with pytest.raises(UnimplementedError, match="cast"):  # TF: Cast string to float
        ek.to_float(ek.constant(["a"]))
