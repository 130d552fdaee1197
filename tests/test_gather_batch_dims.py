"""``ek.gather(..., batch_dims=b)`` and ``ek.eye(..., batch_shape=...)`` as TF's (row 40 of the
TF2 scan): values against a numpy reference, gradients, ek.function, TF's errors."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import eagerkit as ek
from eagerkit.errors import InvalidArgumentError


def reference_gather(params, indices, axis, b):
    """TF's definition: batch element β gathers params[β] along axis - b by indices[β]."""
    batch = params.shape[:b]
    first = np.take(params[(0,) * b], indices[(0,) * b], axis=axis - b) if batch else None
    out = np.empty(batch + (first.shape if first is not None else ()), params.dtype)
    for where in np.ndindex(*batch):
        out[where] = np.take(params[where], indices[where], axis=axis - b)
    return out


def test_the_api_pages_example():
    params = ek.constant([[0, 0, 1, 0, 2], [3, 0, 0, 0, 4], [0, 5, 0, 6, 0]])
    indices = ek.constant([[2, 4], [0, 4], [1, 3]])
    result = ek.gather(params, indices, axis=1, batch_dims=1)
    np.testing.assert_array_equal(result.numpy(), [[1, 2], [3, 4], [5, 6]])
    assert result.dtype == ek.int32
    # axis defaults to batch_dims; batch_dims=-1 counts from the end of indices' axes
    np.testing.assert_array_equal(ek.gather(params, indices, batch_dims=1).numpy(), result)
    np.testing.assert_array_equal(ek.gather(params, indices, batch_dims=-1).numpy(), result)
    # batch_dims = -rank(indices) is no batch at all: a plain gather
    np.testing.assert_array_equal(
        ek.gather(params, indices, axis=1, batch_dims=-2).numpy(),
        np.take(params.numpy(), indices.numpy(), axis=1),
    )


@st.composite
def _batched_gathers(draw):
    b = draw(st.integers(1, 2))
    batch = tuple(draw(st.lists(st.integers(1, 3), min_size=b, max_size=b)))
    middle = tuple(draw(st.lists(st.integers(1, 3), max_size=2)))
    n = draw(st.integers(1, 4))
    after = tuple(draw(st.lists(st.integers(1, 3), max_size=2)))
    picked = tuple(draw(st.lists(st.integers(0, 3), max_size=2)))
    params = np.arange(np.prod(batch + middle + (n,) + after), dtype=np.float64)
    params = params.reshape(batch + middle + (n,) + after)
    indices = np.array(
        draw(
            st.lists(
                st.integers(-n, n - 1),
                min_size=int(np.prod(batch + picked)),
                max_size=int(np.prod(batch + picked)),
            )
        ),
        np.int32,
    )
    indices = indices.reshape(batch + picked)
    negative = draw(st.booleans())  # batch_dims as a count from the end of indices' axes
    batch_dims = b - indices.ndim if negative and indices.ndim > b else b
    return params, indices, b + len(middle), batch_dims, b


@settings(max_examples=120, deadline=None)
@given(_batched_gathers())
def test_values_are_tf_definition(case):
    params, indices, axis, batch_dims, b = case
    result = ek.gather(params, indices, axis=axis, batch_dims=batch_dims)
    expected = reference_gather(params, indices, axis, b)
    assert (
        result.shape
        == expected.shape
        == (params.shape[:axis] + indices.shape[b:] + params.shape[axis + 1 :])
    )
    np.testing.assert_array_equal(result.numpy(), expected)


@settings(max_examples=40, deadline=None)
@given(_batched_gathers())
def test_the_gradient_adds_up_where_each_value_was_picked(case):
    params, indices, axis, batch_dims, b = case
    x = ek.constant(params)
    weights = np.random.default_rng(0).normal(size=reference_gather(params, indices, axis, b).shape)
    with ek.GradientTape() as tape:
        tape.watch(x)
        y = ek.reduce_sum(ek.gather(x, indices, axis=axis, batch_dims=batch_dims) * weights)
    expected = np.zeros_like(params)
    for where in np.ndindex(*params.shape[:b]):
        part = np.moveaxis(expected[where], axis - b, 0)  # a view into expected
        w = np.moveaxis(
            weights[where],
            tuple(range(axis - b, axis - b + indices[where].ndim)),
            tuple(range(indices[where].ndim)),
        )
        np.add.at(part, indices[where] % params.shape[axis], w)
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), expected, atol=1e-12)


def test_inside_a_function_each_call_gathers_its_own_indices():
    @ek.function
    def pick(params, indices):
        return ek.gather(params, indices, axis=1, batch_dims=1)

    params = ek.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    np.testing.assert_array_equal(pick(params, ek.constant([[0], [2]])).numpy(), [[1.0], [6.0]])
    np.testing.assert_array_equal(pick(params, ek.constant([[2], [1]])).numpy(), [[3.0], [5.0]])
    assert pick.trace_count == 1


@pytest.mark.parametrize(
    ("params_shape", "indices", "kwargs", "message"),
    [
        (
            (2, 3),
            [[0], [1]],
            {"axis": 0, "batch_dims": 1},
            r"batch_dims \(1\) must be less than or equal to axis \(0\)",
        ),
        (
            (2, 3),
            [[0], [1]],
            {"batch_dims": 3},
            r"Expected batch_dims in the range \[-2, 2\], but got 3",
        ),
        ((2, 3), [[0], [1]], {"batch_dims": 2}, r"batch_dims \(2\) must be less than rank"),
        (
            (2, 3),
            [[0], [1], [1]],
            {"batch_dims": 1},
            r"params.shape\[0\]: 2 should be equal to indices.shape\[0\]: 3",
        ),
        ((2, 3), [[0], [3]], {"batch_dims": 1}, r"indices must lie in \[0, 3\)"),
        ((2, 3), [[0.0], [1.0]], {"batch_dims": 1}, "indices must be integers"),
        ((2, 3), [[0], [1]], {"batch_dims": 0.5}, "batch_dims"),
    ],
)
def test_tf_errors(params_shape, indices, kwargs, message):
    with pytest.raises(InvalidArgumentError, match=message):
        ek.gather(np.zeros(params_shape, np.float32), indices, **kwargs)


def test_eye_batch_shape_and_num_columns():
    np.testing.assert_array_equal(ek.eye(2, batch_shape=[3]).numpy(), np.stack([np.eye(2)] * 3))
    both = ek.eye(2, num_columns=3, batch_shape=[2, 1], dtype=ek.int32)
    assert both.shape == (2, 1, 2, 3) and both.dtype == ek.int32
    np.testing.assert_array_equal(both.numpy(), np.broadcast_to(np.eye(2, 3), (2, 1, 2, 3)))
    assert ek.eye(3, batch_shape=[]).shape == (3, 3)
    assert ek.eye(2, batch_shape=ek.constant([4])).shape == (4, 2, 2)


@pytest.mark.parametrize("bad", [3, [2.5], [-1], "a", [[2]]])
def test_eye_refuses_a_bad_batch_shape(bad):
    with pytest.raises(InvalidArgumentError, match="eye: .*batch_shape"):
        ek.eye(2, batch_shape=bad)
