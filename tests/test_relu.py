"""``ek.nn.relu`` on the CPU takes numpy's maximum against an array of zeros (faster than
against the number 0): it gives ``reference_relu``'s bits for every float dtype, shape and
layout, with nans of either sign, infinities, signed zeros and subnormals, and the
shared vector of zeros stays zeros."""

import hypothesis.extra.numpy as hnp
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import eagerkit as ek
from eagerkit.backends.shared_vectors import _SHARED
from eagerkit.devices import CPU
from eagerkit.ops.nn import reference_relu

SPECIALS = [0.0, -0.0, np.inf, -np.inf, np.nan, -np.nan, 5e-324, -5e-324, 1e-40, -1e-40]


@st.composite
def relu_inputs(draw):
    """A float array of any rank (0 to 3, empty sides too), maybe a strided or transposed
    view, with special values among ordinary ones."""
    dtype = draw(st.sampled_from([np.float16, np.float32, np.float64]))
    shape = draw(hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=6))
    values = st.one_of(st.floats(-1e4, 1e4, width=16), st.sampled_from(SPECIALS))
    x = draw(hnp.arrays(dtype, shape, elements=values))
    view = draw(st.sampled_from(["as is", "transposed", "every other"]))
    if view == "transposed":
        x = x.T
    elif view == "every other" and x.ndim:
        x = x[..., ::2]
    return x


def _bits(a):
    return np.ascontiguousarray(a).view(f"u{a.dtype.itemsize}")


@settings(max_examples=300, deadline=None)
@given(relu_inputs())
def test_relu_gives_the_reference_bits(x):
    got = ek.nn.relu(ek.constant(x)).numpy()
    want = reference_relu(CPU.xp, x)
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(_bits(got), _bits(want))


@settings(max_examples=50, deadline=None)
@given(relu_inputs())
def test_relu_gradient_and_shared_zeros_unchanged(x):
    t = ek.constant(x)
    with ek.GradientTape() as tape:
        tape.watch(t)
        y = ek.nn.relu(t)
    g = tape.gradient(y, t).numpy()
    np.testing.assert_array_equal(_bits(g), _bits(np.where(x > 0, 1, 0).astype(x.dtype)))
    upstream = np.full_like(x, np.inf)  # TF's ReluGrad multiplies: 0 * inf is nan
    with ek.GradientTape() as tape:
        tape.watch(t)
        y = ek.nn.relu(t)
    g = tape.gradient(y, t, output_gradients=ek.constant(upstream)).numpy()
    np.testing.assert_array_equal(g, np.where(x > 0, np.inf, np.nan).astype(x.dtype))
    for (value, _), vector in _SHARED.items():
        assert not vector.flags.writeable
        assert (vector == value).all() and (value or not _bits(vector).any())  # never written
