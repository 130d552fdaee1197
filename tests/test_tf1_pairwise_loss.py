"""``ek.losses.mean_pairwise_squared_error`` (TF 1's ``tf.losses``) against numpy written out
here twice: from TF 1's docstring (every pair within an example, the mean over the pairs,
each example's mean times its weight, summed) and from TF 1's formula (``2 sum d^2 / (n-1) -
2 (sum d)^2 / (n (n-1))`` with ``n`` the values whose weight is not 0). Hypothesis draws the
shapes, values and weights (scalars, one per example, one per value, zeros); the loss runs
eagerly and inside ``ek.function`` alike, keeps float64, and its gradients match finite
differences. Bad input is refused by name."""

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import eagerkit as ek
from eagerkit.errors import InvalidArgumentError
from eagerkit.testing import check_grads

loss = ek.losses.mean_pairwise_squared_error


def reference_by_pairs(labels, predictions, example_weights):
    """TF 1's docstring: the mean over the pairs of values of each example of
    ((label_i - label_j) - (prediction_i - prediction_j))**2, times the example's weight."""
    total = 0.0
    for label, prediction, weight in zip(labels, predictions, example_weights, strict=True):
        pairs = list(itertools.combinations(range(label.size), 2))
        la, pr = label.reshape(-1), prediction.reshape(-1)
        squares = [((la[i] - la[j]) - (pr[i] - pr[j])) ** 2 for i, j in pairs]
        total += weight * (np.mean(squares) if pairs else 0.0)
    return total


def reference_by_formula(labels, predictions, weights):
    """TF 1's code: n counts the values whose weight is not 0, per example."""
    d = np.asarray(predictions, np.float64) - np.asarray(labels, np.float64)
    axes = tuple(range(1, d.ndim))
    w = np.asarray(weights, np.float64)
    n = np.broadcast_to(w != 0, d.shape).sum(axis=axes, keepdims=True).astype(np.float64)
    sum_squares = (d * d).sum(axis=axes, keepdims=True)
    sum_d = d.sum(axis=axes, keepdims=True)
    with np.errstate(divide="ignore", invalid="ignore"):
        first = np.where(n - 1 > 0, 2 * sum_squares / np.maximum(n - 1, 1), 0.0)
        second = np.where(n * (n - 1) > 0, 2 * sum_d**2 / np.maximum(n * (n - 1), 1), 0.0)
    return float(((first - second) * w).sum()) if n.sum() > 0 else 0.0


@st.composite
def batches(draw, weights_kind=None):
    shape = tuple(draw(st.lists(st.integers(1, 4), min_size=1, max_size=3)))
    values = st.floats(-10, 10, width=32)
    labels = draw(hnp.arrays(np.float32, shape, elements=values))
    predictions = draw(hnp.arrays(np.float32, shape, elements=values))
    kind = weights_kind or draw(st.sampled_from(["scalar", "per_example", "per_value"]))
    weight = st.sampled_from([0.0, 0.5, 1.0, 2.0])
    if kind == "scalar":
        weights = draw(weight)
    else:
        weights_shape = shape[:1] + (1,) * (len(shape) - 1) if kind == "per_example" else shape
        weights = draw(hnp.arrays(np.float32, weights_shape, elements=weight))
    return labels, predictions, weights


@settings(max_examples=60, deadline=None)
@given(batch=batches())
def test_the_loss_is_tf1s_formula(batch):
    labels, predictions, weights = batch
    got = loss(labels, predictions, weights=weights)
    assert got.dtype == ek.float32 and got.shape == ()
    expected = reference_by_formula(labels, predictions, weights)
    np.testing.assert_allclose(float(got), expected, rtol=2e-4, atol=1e-3)


@settings(max_examples=60, deadline=None)
@given(batch=batches(weights_kind="per_example"))
def test_with_a_weight_per_example_it_is_the_weighted_mean_over_the_pairs(batch):
    labels, predictions, weights = batch
    labels, predictions = labels.astype(np.float64), predictions.astype(np.float64)
    per_example = np.asarray(weights, np.float64).reshape(-1)
    kept = per_example != 0  # an example weighing 0 counts no values (n = 0): it adds 0
    expected = reference_by_pairs(labels[kept], predictions[kept], per_example[kept])
    got = loss(labels, predictions, weights=weights)
    assert got.dtype == ek.float64  # float64 stays float64
    np.testing.assert_allclose(float(got), expected, rtol=1e-9, atol=1e-9)


def test_docstring_example_of_three_values():
    a, b, c, x, y, z = 1.0, 4.0, -2.0, 0.5, 3.0, 1.0
    expected = (((a - b) - (x - y)) ** 2 + ((a - c) - (x - z)) ** 2 + ((b - c) - (y - z)) ** 2) / 3
    got = loss([[a, b, c]], [[x, y, z]])
    assert float(got) == pytest.approx(expected, rel=1e-6)
    assert float(loss([[a, b, c]], [[x, y, z]], weights=3.0)) == pytest.approx(3 * expected)


def test_a_weight_of_zero_drops_values_from_the_count_not_from_the_sums():
    """TF 1's counting: with weights [[1, 1, 0]], n is 2 though the three values are summed."""
    labels, predictions = np.zeros((1, 3)), np.array([[1.0, 2.0, 3.0]])
    weights = np.array([[1.0, 1.0, 0.0]])
    d_sum_squares, d_sum, n = 14.0, 6.0, 2.0
    expected = 2 * (2 * d_sum_squares / (n - 1) - 2 * d_sum**2 / (n * (n - 1)))  # times sum(w)
    assert float(loss(labels, predictions, weights=weights)) == pytest.approx(expected)
    assert float(loss(labels, predictions, weights=0.0)) == 0.0  # nothing counted


def test_integers_become_float32_and_one_value_per_example_gives_0():
    got = loss(np.array([[1, 2]]), np.array([[3, 1]]))
    assert got.dtype == ek.float32 and float(got) == 9.0  # ((1 - 2) - (3 - 1)) ** 2, one pair
    assert float(loss([1.0, 2.0], [5.0, -1.0])) == 0.0  # rank 1: no pairs in an example


@pytest.mark.parametrize("relaxed", [False, True])
def test_inside_a_function_it_is_the_eager_value_for_every_batch(relaxed):
    traced = ek.function(loss, reduce_retracing=relaxed)
    rng = np.random.default_rng(3)
    for batch in (2, 3, 5):
        labels, predictions = rng.normal(size=(2, batch, 4)).astype(np.float32)
        weights = rng.choice([0.0, 1.0, 2.0], size=(batch, 1)).astype(np.float32)
        eager = loss(labels, predictions, weights=weights)
        got = traced(ek.constant(labels), ek.constant(predictions), ek.constant(weights))
        assert float(got) == pytest.approx(float(eager), rel=1e-6)


def test_gradients_match_finite_differences():
    rng = np.random.default_rng(0)
    labels = rng.normal(size=(3, 4))
    weights = np.array([[1.0], [0.5], [2.0]])
    check_grads(lambda p: loss(labels, p, weights=weights), rng.normal(size=(3, 4)), order=2)


@pytest.mark.parametrize(
    ("call", "words"),
    [
        (lambda: loss([[1.0, 2.0]], [[1.0, 2.0, 3.0]]), ["(1, 2)", "(1, 3)", "must match"]),
        (lambda: loss(np.zeros((3, 2)), np.zeros((3, 2)), weights=np.ones(3)), ["[3, 1]"]),
        (lambda: loss(None, [[1.0]]), ["labels must not be None"]),
        (lambda: loss([[1.0, 2.0]], [[1.0, 2.0]], reduction="weighted_sum"), ["reduction"]),
    ],
)
def test_bad_input_is_refused_by_name(call, words):
    with pytest.raises(InvalidArgumentError, match="mean_pairwise_squared_error") as raised:
        call()
    for word in words:
        assert word in str(raised.value)
