"""Inverse trig (asin ... atanh, atan2) and the scatter_nd family, against numpy and TF's rules.

Values are compared with numpy on inputs hypothesis draws; gradients at the edges of each
domain are TF's (inf at asin's ±1, nan at atan2's origin); scatter_nd adds repeated indices
as TF does; bad indices and shapes raise eagerkit errors that name the call and the fix.
(Central-difference checks to second order live in the op census, tests/op_cases_prims.py.)
"""

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import eagerkit as ek
from eagerkit.errors import InvalidArgumentError

# name -> (eagerkit function, numpy function, the open interval its inputs come from)
TRIG = {
    "asin": (ek.math.asin, np.arcsin, (-1.0, 1.0)),
    "acos": (ek.math.acos, np.arccos, (-1.0, 1.0)),
    "atan": (ek.math.atan, np.arctan, (-50.0, 50.0)),
    "asinh": (ek.math.asinh, np.arcsinh, (-50.0, 50.0)),
    "acosh": (ek.math.acosh, np.arccosh, (1.0, 50.0)),
    "atanh": (ek.math.atanh, np.arctanh, (-1.0, 1.0)),
}
SETTINGS = settings(max_examples=25, deadline=None, database=None)


def _gradient(function, *values):
    variables = [ek.Variable(ek.constant(v, dtype=ek.float64)) for v in values]
    with ek.GradientTape() as tape:
        y = function(*variables)
    return [g.numpy() for g in tape.gradient(y, variables)]


@pytest.mark.parametrize("name", sorted(TRIG))
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@SETTINGS
@given(data=st.data())
def test_inverse_trig_matches_numpy_inside_its_domain(name, dtype, data):
    function, reference, (low, high) = TRIG[name]
    elements = st.floats(low, high, exclude_min=True, exclude_max=True, width=32)
    x = data.draw(hnp.arrays(dtype, hnp.array_shapes(min_dims=0, max_dims=2), elements=elements))
    result = function(x)
    assert result.dtype == ek.as_dtype(dtype)
    np.testing.assert_allclose(result.numpy(), reference(x), rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("name", ["asin", "acos", "atanh"])
def test_outside_the_domain_is_nan_as_in_tf(name):
    function, _, _ = TRIG[name]
    assert np.isnan(function([1.5, -1.5]).numpy()).all()


@pytest.mark.parametrize(
    ("name", "x", "expected"),
    [
        ("asin", [1.0, -1.0, 0.0], [np.inf, np.inf, 1.0]),
        ("acos", [1.0, -1.0, 0.0], [-np.inf, -np.inf, -1.0]),
        ("atanh", [1.0, -1.0, 0.0], [np.inf, np.inf, 1.0]),
        ("acosh", [1.0], [np.inf]),
        ("atan", [0.0, 1.0], [1.0, 0.5]),
        ("asinh", [0.0], [1.0]),
    ],
)
def test_gradients_at_the_domain_edges_are_tfs(name, x, expected):
    """TF's formulas give g / sqrt(0) = inf at asin's ±1 (not nan, not a clipped number)."""
    (grad,) = _gradient(TRIG[name][0], x)
    np.testing.assert_array_equal(grad, expected)


@SETTINGS
@given(
    y=hnp.arrays(np.float64, 5, elements=st.floats(-10, 10)),
    x=hnp.arrays(np.float64, 5, elements=st.floats(-10, 10)),
)
@example(y=np.zeros(5), x=np.full(5, 3.9e-157))  # x² + y² underflows: TF's formula gives inf
def test_atan2_matches_numpy_in_every_quadrant_with_tfs_gradients(y, x):
    np.testing.assert_allclose(ek.math.atan2(y, x).numpy(), np.arctan2(y, x), rtol=1e-12)
    grad_y, grad_x = _gradient(ek.atan2, y, x)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        shared = 1.0 / (x * x + y * y)  # TF's grad_inv: inf where x² + y² underflows
        np.testing.assert_allclose(grad_y, x * shared, rtol=1e-12)
        np.testing.assert_allclose(grad_x, -y * shared, rtol=1e-12)


def test_atan2_at_the_origin_gives_tfs_nan_gradients():
    grad_y, grad_x = _gradient(ek.atan2, 0.0, 0.0)
    assert np.isnan(grad_y) and np.isnan(grad_x)
    assert float(ek.atan2(0.0, -1.0)) == pytest.approx(np.pi)


def test_atan2_broadcasts_and_sums_gradients_back_to_each_shape():
    grad_y, grad_x = _gradient(ek.atan2, [[1.0], [2.0]], [3.0, 4.0])
    assert grad_y.shape == (2, 1) and grad_x.shape == (2,)
    y, x = np.array([[1.0], [2.0]]), np.array([3.0, 4.0])
    np.testing.assert_allclose(grad_x, (-y / (x * x + y * y)).sum(axis=0))


def test_second_derivative_of_atan():
    x = ek.Variable(ek.constant(0.5, dtype=ek.float64))
    with ek.GradientTape() as outer:
        with ek.GradientTape() as inner:
            y = ek.atan(x)
        dy = inner.gradient(y, x)
    assert float(outer.gradient(dy, x)) == pytest.approx(-2 * 0.5 / (1 + 0.25) ** 2)


@pytest.mark.parametrize("name", sorted(TRIG))
def test_complex_inputs_follow_numpys_principal_branch(name):
    z = np.array([0.3 + 0.4j, -2.0 + 1.0j])
    np.testing.assert_allclose(TRIG[name][0](z).numpy(), TRIG[name][1](z), rtol=1e-12)


@pytest.mark.parametrize("function", [ek.asin, ek.acosh, lambda x: ek.atan2(x, x)])
def test_integer_inputs_are_refused_naming_the_op_and_dtype(function):
    with pytest.raises(InvalidArgumentError, match=r"(asin|acosh|atan2).*int32"):
        function(ek.constant([1, 0]))


def test_top_level_and_math_names_are_one_function():
    for name in ("asin", "acos", "atan", "atan2", "asinh", "acosh", "atanh"):
        assert getattr(ek, name) is getattr(ek.math, name)


# --- scatter_nd & co --------------------------------------------------------------------------


@st.composite
def index_problems(draw, unique=False):
    """``(shape, indices, updates)``: index tuples of depth K into ``shape``, and updates."""
    shape = draw(hnp.array_shapes(min_dims=1, max_dims=3, max_side=4))
    depth = draw(st.integers(1, len(shape)))
    count = draw(st.integers(0, 6))
    tuples = st.tuples(*(st.integers(0, n - 1) for n in shape[:depth]))
    picked = draw(st.lists(tuples, min_size=count, max_size=count, unique=unique))
    indices = np.array(picked, dtype=np.int32).reshape(count, depth)
    updates = draw(
        hnp.arrays(np.float64, (count, *shape[depth:]), elements=st.integers(-9, 9).map(float))
    )
    return shape, indices, updates


def _scatter_reference(indices, updates, shape):
    result = np.zeros(shape)
    np.add.at(result, tuple(indices.T), updates)  # repeats add up
    return result


@SETTINGS
@given(index_problems())
def test_scatter_nd_adds_updates_at_index_tuples_repeats_adding_up(problem):
    shape, indices, updates = problem
    result = ek.scatter_nd(indices, updates, shape)
    assert result.dtype == ek.float64 and tuple(result.shape) == shape
    np.testing.assert_array_equal(result.numpy(), _scatter_reference(indices, updates, shape))


@SETTINGS
@given(index_problems())
def test_scatter_nd_gradient_is_gather_nd_of_the_upstream_gradient(problem):
    shape, indices, updates = problem
    weights = np.arange(np.prod(shape), dtype=np.float64).reshape(shape)
    (grad,) = _gradient(lambda u: ek.scatter_nd(indices, u, shape) * weights, updates)
    np.testing.assert_array_equal(grad, weights[tuple(indices.T)])
    np.testing.assert_array_equal(ek.gather_nd(weights, indices).numpy(), grad)


@SETTINGS
@given(index_problems(), st.data())
def test_gather_nd_picks_the_slices_numpy_picks(problem, data):
    shape, indices, _ = problem
    params = data.draw(hnp.arrays(np.float32, shape, elements=st.integers(-9, 9).map(float)))
    result = ek.gather_nd(params, indices)
    np.testing.assert_array_equal(result.numpy(), params[tuple(indices.T)])


@SETTINGS
@given(index_problems(unique=True), st.data())
def test_tensor_scatter_nd_update_replaces_and_zeroes_the_replaced_gradient(problem, data):
    shape, indices, updates = problem
    tensor = data.draw(hnp.arrays(np.float64, shape, elements=st.integers(-9, 9).map(float)))
    expected = tensor.copy()
    expected[tuple(indices.T)] = updates
    result = ek.tensor_scatter_nd_update(tensor, indices, updates)
    np.testing.assert_array_equal(result.numpy(), expected)
    weights = np.arange(1, np.prod(shape) + 1, dtype=np.float64).reshape(shape)
    grad_tensor, grad_updates = _gradient(
        lambda t, u: ek.tensor_scatter_nd_update(t, indices, u) * weights, tensor, updates
    )
    kept = np.ones(shape)
    kept[tuple(indices.T)] = 0.0
    np.testing.assert_array_equal(grad_tensor, weights * kept)
    np.testing.assert_array_equal(grad_updates, weights[tuple(indices.T)])


@SETTINGS
@given(index_problems(), st.data())
def test_tensor_scatter_nd_add_and_sub_add_every_update(problem, data):
    shape, indices, updates = problem
    tensor = data.draw(hnp.arrays(np.float64, shape, elements=st.integers(-9, 9).map(float)))
    added = _scatter_reference(indices, updates, shape)
    np.testing.assert_array_equal(
        ek.tensor_scatter_nd_add(tensor, indices, updates).numpy(), tensor + added
    )
    np.testing.assert_array_equal(
        ek.tensor_scatter_nd_sub(tensor, indices, updates).numpy(), tensor - added
    )


def test_the_replaced_slices_get_zero_gradient_even_when_g_is_inf():
    tensor = ek.Variable([1.0, 2.0])
    with ek.GradientTape() as tape:
        y = ek.tensor_scatter_nd_update(tensor, [[0]], [5.0]) * ek.constant([np.inf, 1.0])
    np.testing.assert_array_equal(tape.gradient(y, tensor).numpy(), [0.0, 1.0])


def test_scatter_nd_on_integers_and_of_whole_rows():
    result = ek.scatter_nd([[1], [1]], [[1, 2], [3, 4]], [3, 2])
    assert result.dtype == ek.int32
    np.testing.assert_array_equal(result.numpy(), [[0, 0], [4, 6], [0, 0]])


@pytest.mark.parametrize(
    ("call", "pattern"),
    [
        (
            lambda: ek.scatter_nd([[1], [4]], [1.0, 2.0], [4]),
            r"scatter_nd: indices\[1\] = \[4\] does not .* fix or drop that index",
        ),
        (lambda: ek.scatter_nd([[-1]], [1.0], [4]), r"indices\[0\] = \[-1\] does not index"),
        (
            lambda: ek.gather_nd([[1.0, 2.0]], [[0, 0], [0, 2]]),
            r"gather_nd: indices\[1\] = \[0, 2\] does not index into shape \[1, 2\]",
        ),
        (
            lambda: ek.tensor_scatter_nd_update([1.0, 2.0], [[2]], [1.0]),
            r"tensor_scatter_nd_update: indices\[0\] = \[2\]",
        ),
        (
            lambda: ek.scatter_nd([[1], [2]], [1.0, 2.0, 3.0], [4]),
            r"updates must have shape .*\[2\].*got updates of shape \(3,\)",
        ),
        (
            lambda: ek.scatter_nd([[1, 0]], [1.0], [4]),
            r"index tuple has 2 entries .* shape has only 1 axes",
        ),
        (lambda: ek.scatter_nd([[0.5]], [1.0], [4]), r"indices must be integer index tuples"),
        (lambda: ek.tensor_scatter_nd_add([1.0], [[0]], [[1.0]]), r"updates must have shape"),
        (lambda: ek.gather_nd([1.0], [[0]], batch_dims=1), r"batch_dims=1 is not supported"),
    ],
)
def test_bad_indices_and_shapes_raise_eagerkit_errors_with_the_fix(call, pattern):
    with pytest.raises(InvalidArgumentError, match=pattern):
        call()


def test_indices_are_checked_at_every_call_of_a_traced_function():
    scatter = ek.function(lambda i: ek.scatter_nd(i, [1.0], [3]))
    np.testing.assert_array_equal(scatter(ek.constant([[2]])).numpy(), [0.0, 0.0, 1.0])
    with pytest.raises(InvalidArgumentError, match=r"indices\[0\] = \[3\]"):
        scatter(ek.constant([[3]]))
