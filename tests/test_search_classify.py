"""unique, searchsorted, in_top_k, confusion_matrix and polyval against numpy and TF's rules.

unique keeps the order of first appearance (TF's, not numpy's sorted order); in_top_k counts
classes tied with the k-th score as in the top k and a non-finite target score as out;
confusion_matrix matches scikit-learn's; none of the first three passes a gradient.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from sklearn.metrics import confusion_matrix as sklearn_confusion_matrix

import eagerkit as ek
from eagerkit.errors import InvalidArgumentError

SETTINGS = settings(max_examples=30, deadline=None, database=None)


@SETTINGS
@given(st.lists(st.integers(-3, 3), max_size=12))
def test_unique_lists_values_by_first_appearance(values):
    y, idx = ek.unique(np.array(values, dtype=np.int64), out_idx=ek.int64)
    order = list(dict.fromkeys(values))  # Python's dicts keep insertion order
    assert y.numpy().tolist() == order and y.dtype == ek.int64
    assert idx.dtype == ek.int64 and idx.numpy().tolist() == [order.index(v) for v in values]
    counts = ek.unique_with_counts(values).count.numpy().tolist()
    assert counts == [values.count(v) for v in order]


def test_unique_keeps_every_nan_apart_and_takes_strings():
    y, idx = ek.unique([1.0, np.nan, 1.0, np.nan])
    np.testing.assert_array_equal(y.numpy(), [1.0, np.nan, np.nan])
    assert idx.numpy().tolist() == [0, 1, 0, 2]
    assert ek.unique(["b", "a", "b"]).y.numpy().tolist() == [b"b", b"a"]
    assert ek.unique(ek.zeros([0])).y.shape == [0]


def test_unique_searchsorted_and_in_top_k_pass_no_gradient():
    x = ek.Variable([3.0, 1.0, 3.0])
    with ek.GradientTape(persistent=True) as tape:
        y = ek.unique(x).y
        where = ek.searchsorted(ek.sort(x), x)
        hit = ek.math.in_top_k([0], ek.reshape(x, [1, 3]), 1)
    assert tape.gradient(y, x) is None
    assert where.dtype == ek.int32 and hit.dtype == ek.bool


@SETTINGS
@given(
    st.data(),
    st.sampled_from(["left", "right"]),
    hnp.array_shapes(min_dims=0, max_dims=2, max_side=3),
)
def test_searchsorted_matches_numpy_row_by_row(data, side, batch):
    small = st.integers(-5, 5).map(float)
    rows = np.sort(data.draw(hnp.arrays(np.float64, (*batch, 4), elements=small)), axis=-1)
    values = data.draw(hnp.arrays(np.float64, (*batch, 3), elements=small))
    found = ek.searchsorted(rows, values, side=side, out_type=ek.int64)
    assert found.dtype == ek.int64 and tuple(found.shape) == values.shape
    flat_rows, flat_values = rows.reshape(-1, 4), values.reshape(-1, 3)
    expected = [
        np.searchsorted(r, v, side=side) for r, v in zip(flat_rows, flat_values, strict=True)
    ]
    np.testing.assert_array_equal(found.numpy().reshape(-1, 3), np.array(expected))


def _in_top_k_reference(targets, predictions, k):
    rows = np.arange(len(targets))
    known = (targets >= 0) & (targets < predictions.shape[1])
    score = predictions[rows, np.where(known, targets, 0)]
    return known & np.isfinite(score) & ((predictions > score[:, None]).sum(1) < k)


@SETTINGS
@given(st.data(), st.integers(0, 4))
def test_in_top_k_counts_ties_as_in_and_non_finite_scores_as_out(data, k):
    scores = st.sampled_from([0.0, 1.0, 2.0, np.inf, np.nan])  # many ties
    predictions = data.draw(hnp.arrays(np.float32, (5, 3), elements=scores))
    targets = data.draw(hnp.arrays(np.int32, 5, elements=st.integers(-1, 3)))
    result = ek.math.in_top_k(targets, predictions, k)
    np.testing.assert_array_equal(result.numpy(), _in_top_k_reference(targets, predictions, k))
    assert ek.nn.in_top_k is ek.math.in_top_k


@pytest.mark.filterwarnings("ignore:A single label was found")  # scikit-learn's note
@SETTINGS
@given(st.data(), st.integers(1, 5))
def test_confusion_matrix_matches_scikit_learn(data, classes):
    ids = st.integers(0, classes - 1)
    labels = data.draw(st.lists(ids, min_size=1, max_size=10))
    predictions = data.draw(st.lists(ids, min_size=len(labels), max_size=len(labels)))
    weights = data.draw(hnp.arrays(np.float64, len(labels), elements=st.integers(1, 5)))
    result = ek.math.confusion_matrix(labels, predictions, num_classes=classes)
    every_class = list(range(classes))
    expected = sklearn_confusion_matrix(labels, predictions, labels=every_class)
    assert result.dtype == ek.int32
    np.testing.assert_array_equal(result.numpy(), expected)
    weighted = ek.math.confusion_matrix(
        labels, predictions, classes, weights=weights, dtype=ek.float64
    )
    expected = sklearn_confusion_matrix(
        labels, predictions, labels=every_class, sample_weight=weights
    )
    np.testing.assert_array_equal(weighted.numpy(), expected)


def test_confusion_matrix_defaults_to_the_largest_id_and_differentiates_weights():
    assert ek.math.confusion_matrix([0, 4], [1, 1]).shape == [5, 5]
    weights = ek.Variable([1.0, 2.0, 3.0])
    with ek.GradientTape() as tape:
        matrix = ek.math.confusion_matrix([0, 1, 1], [1, 1, 1], 2, weights, ek.float32)
        loss = ek.reduce_sum(matrix * ek.constant([[1.0, 10.0], [100.0, 1000.0]]))
    np.testing.assert_array_equal(tape.gradient(loss, weights).numpy(), [10.0, 1000.0, 1000.0])


@SETTINGS
@given(
    hnp.arrays(np.float64, st.integers(0, 5), elements=st.integers(-3, 3).map(float)),
    hnp.arrays(np.float64, 4, elements=st.floats(-2, 2)),
)
def test_polyval_matches_numpy_with_gradients_for_x_and_coefficients(coeffs, x):
    value = ek.math.polyval([float(c) for c in coeffs], x)
    np.testing.assert_allclose(value.numpy(), np.polyval(coeffs, x) + 0 * x, atol=1e-12)
    variables = [ek.Variable(ek.constant(c, dtype=ek.float64)) for c in coeffs]
    point = ek.Variable(x)
    with ek.GradientTape() as tape:
        total = ek.reduce_sum(ek.math.polyval(variables, point))
    grads = tape.gradient(total, [point, *variables])
    slope = np.polyval(np.polyder(coeffs), x) if len(coeffs) > 1 else 0 * x
    np.testing.assert_allclose(0.0 if grads[0] is None else grads[0].numpy(), slope, atol=1e-9)
    powers = [float((x ** (len(coeffs) - 1 - i)).sum()) for i in range(len(coeffs))]
    if len(coeffs) == 1:  # TF returns a lone coefficient as it is, not broadcast to x
        powers = [1.0]
    np.testing.assert_allclose([float(g) for g in grads[1:]], powers, rtol=1e-9, atol=1e-9)


@pytest.mark.parametrize(
    ("call", "pattern"),
    [
        (lambda: ek.unique([[1, 2]]), r"unique: x must be a vector .*ek\.reshape"),
        (lambda: ek.unique([1], out_idx=ek.float32), r"out_idx must be ek.int32 or ek.int64"),
        (lambda: ek.searchsorted([1.0], 1.0), r"need rank >= 1"),
        (lambda: ek.searchsorted([[1.0]], [[1.0], [2.0]]), r"same leading dimensions"),
        (lambda: ek.searchsorted([1.0], [1.0], side="middle"), r"'left' or 'right'"),
        (lambda: ek.math.in_top_k([0.5], [[1.0]], 1), r"targets are integer class ids"),
        (lambda: ek.math.in_top_k([0, 1], [[1.0]], 1), r"predictions must be \[batch, classes\]"),
        (lambda: ek.math.in_top_k([0], [[1.0]], -1), r"k must be >= 0"),
        (lambda: ek.math.confusion_matrix([0, -1], [0, 0]), r"class ids >= 0, got -1; drop"),
        (lambda: ek.math.confusion_matrix([0, 3], [0, 0], 3), r"class id 3 is out of range"),
        (lambda: ek.math.confusion_matrix([0, 1], [0]), r"must have one length"),
        (lambda: ek.math.confusion_matrix([0], [0], weights=[1.0, 2.0]), r"weights must have"),
        (lambda: ek.math.polyval(ek.constant([1.0, 2.0]), 3.0), r"coeffs must be a list"),
    ],
)
def test_bad_arguments_raise_eagerkit_errors_naming_the_call(call, pattern):
    with pytest.raises(InvalidArgumentError, match=pattern):
        call()


def test_unique_inside_a_traced_function_follows_each_calls_values():
    """Same shape, other values: the number of distinct values is found again at each call."""

    @ek.function
    def distinct(x):
        found = ek.unique_with_counts(x)
        return found.y, found.count

    assert [t.numpy().tolist() for t in distinct(ek.constant([3, 1, 3]))] == [[3, 1], [2, 1]]
    assert [t.numpy().tolist() for t in distinct(ek.constant([5, 5, 5]))] == [[5], [3]]
