"""ek.linspace follows tf.linspace (math_ops.linspace_nd): dtypes, endpoints of any shape,
``axis``, and what it refuses."""

import hypothesis.extra.numpy as hnp
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import eagerkit as ek

# start's dtype -> the result's, as TF divides (stop - start) / (num - 1) in start's dtype
RESULT_DTYPES = {
    "float16": "float16",
    "float32": "float32",
    "float64": "float64",
    "int8": "float32",
    "int16": "float32",
    "uint8": "float32",
    "int32": "float64",
    "int64": "float64",
}


@pytest.mark.parametrize(
    ("start", "stop", "dtype"),
    [(10.0, 12.0, "float32"), (0, 100, "float64"), (0.0, 250, "float32"), (-3, 3, "float64")],
)
def test_python_numbers_take_tfs_dtypes(start, stop, dtype):
    """A Python float is float32 and a Python int int32, whose division TF does in float64."""
    got = ek.linspace(start, stop, 5)
    assert got.dtype.name == dtype
    np.testing.assert_array_equal(got.numpy(), np.linspace(start, stop, 5).astype(dtype))


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from(sorted(RESULT_DTYPES)),
    hnp.array_shapes(min_dims=0, max_dims=2, max_side=3),
    st.integers(0, 7),
    st.integers(-3, 2),
    st.data(),
)
def test_endpoints_of_any_dtype_and_shape(dtype, shape, num, axis, data):
    """Endpoint tensors broadcast together; values run along ``axis``; the result's dtype is
    TF's, its values numpy's float64 linspace rounded once."""
    stop_shape = data.draw(hnp.broadcastable_shapes(shape, max_dims=2, max_side=3))
    info = np.iinfo(dtype) if np.dtype(dtype).kind in "iu" else None
    bounds = (max(info.min, -100), min(info.max, 100)) if info else (-100, 100)
    elements = st.integers(*bounds) if info else st.floats(*bounds, width=16)
    start = data.draw(hnp.arrays(dtype, shape, elements=elements))
    stop = data.draw(hnp.arrays(dtype, stop_shape, elements=elements))
    ndim = max(len(shape), len(stop_shape)) + 1
    if not -ndim <= axis < ndim:
        with pytest.raises(ek.errors.InvalidArgumentError, match="linspace: axis .* out of range"):
            ek.linspace(ek.constant(start), ek.constant(stop), num, axis=axis)
        return
    got = ek.linspace(ek.constant(start), ek.constant(stop), num, axis=axis)
    want = np.linspace(start.astype(np.float64), stop.astype(np.float64), num, axis=axis)
    assert got.dtype.name == RESULT_DTYPES[dtype]
    np.testing.assert_array_equal(got.numpy(), want.astype(RESULT_DTYPES[dtype]))


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ((0, 1.5, 3), "stop 1.5 does not fit start's dtype int32"),
        (("a", 1.0, 5), "start must be a number"),
        ((True, 2, 3), "start must be a number"),
        ((0.0, ek.constant([True]), 3), "stop must be a number"),
        ((0.0, 1.0, -1), "num"),
        ((ek.constant(1 + 2j), 2.0, 3), "start and stop must be numbers, got complex128"),
    ],
)
def test_what_linspace_refuses_it_names(arguments, message):
    with pytest.raises(ek.errors.InvalidArgumentError, match=message) as raised:
        ek.linspace(*arguments)
    assert "linspace" in str(raised.value)
