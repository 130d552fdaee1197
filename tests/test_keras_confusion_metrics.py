"""TruePositives & co, Precision, Recall and AUC against numpy written out here: counts from a
plain examples x thresholds comparison (hypothesis draws labels, predictions lying exactly
on thresholds, weights, all-one-class batches), AUC's Riemann sums and PR interpolation as
Keras documents them, and the ROC area as the probability that a positive outranks a
negative. Also state, configs, compile/fit/save, and refusals that change nothing."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from eagerkit import keras
from eagerkit.errors import InvalidArgumentError

metrics = keras.metrics
COUNTS = {
    "tp": metrics.TruePositives,
    "fp": metrics.FalsePositives,
    "tn": metrics.TrueNegatives,
    "fn": metrics.FalseNegatives,
}
ON_THRESHOLDS = [0.0, 0.25, 0.5, 0.7, 1.0]  # predictions drawn here sit exactly on thresholds
# float32's 0.3 and 0.7 (a float32 model's output on the threshold), and float64 values
# between them and float64's: above the threshold in float64, on it in float32
NEAR_THRESHOLDS = [float(np.float32(0.3)), float(np.float32(0.7)), 0.3 + 1e-9, 0.7 - 1e-9]


def reference_counts(y_true, y_pred, thresholds, weights=None, dtype=np.float32, even=False):
    """Every example against every threshold: positive when strictly above, both compared in
    the metric's dtype (float32 unless it was made with another), as Keras compares them.
    ``even``: AUC's thresholds i / (n - 1), where Keras compares nothing: a prediction p is
    above the first max(ceil(p * (n - 1)), 1) of them, the product in ``dtype``."""
    y_true, y_pred = np.ravel(y_true), np.ravel(y_pred).astype(dtype)
    weights = np.ones(y_pred.shape) if weights is None else np.ravel(weights)
    if even:
        first = np.maximum(np.ceil(y_pred * dtype(len(thresholds) - 1)), 1)
        above = np.arange(len(thresholds))[None, :] < first[:, None]
    else:
        above = y_pred[:, None] > np.asarray(thresholds, dtype)[None, :]
    label = (y_true != 0)[:, None]
    w = weights[:, None]
    return {
        "tp": (w * (label & above)).sum(0),
        "fp": (w * (~label & above)).sum(0),
        "tn": (w * (~label & ~above)).sum(0),
        "fn": (w * (label & ~above)).sum(0),
    }


def ratio(a, b):
    return np.array([x / y if y else 0.0 for x, y in zip(a, b, strict=True)])


@st.composite
def batches(draw, min_size=0):
    n = draw(st.integers(min_size, 12))
    one_class = draw(st.sampled_from([None, 0, 1]))  # all-negative, all-positive batches too
    labels = st.just(one_class) if one_class is not None else st.sampled_from([0, 1])
    y_true = np.array(draw(st.lists(labels, min_size=n, max_size=n)), dtype=np.float64)
    values = st.one_of(st.sampled_from(ON_THRESHOLDS + NEAR_THRESHOLDS), st.floats(0, 1))
    y_pred = np.array(draw(st.lists(values, min_size=n, max_size=n)), dtype=np.float64)
    weight = st.one_of(st.just(0.0), st.floats(0.01, 3))  # counts are float32, as Keras'
    weights = draw(st.one_of(st.none(), hnp.arrays(np.float64, n, elements=weight)))
    return y_true, y_pred, weights


THRESHOLD_LISTS = st.one_of(
    st.none(),
    st.sampled_from(ON_THRESHOLDS),
    st.lists(st.sampled_from(ON_THRESHOLDS + [0.3]), min_size=1, max_size=4),
)


# labels [1, 0, 1, 0] with every prediction on the threshold (nothing above), then just above
ON_AND_ABOVE = {
    metrics.TruePositives: (0.0, 2.0),
    metrics.FalsePositives: (0.0, 2.0),
    metrics.TrueNegatives: (2.0, 0.0),
    metrics.FalseNegatives: (2.0, 0.0),
    metrics.Precision: (0.0, 0.5),
    metrics.Recall: (0.0, 1.0),
}


@pytest.mark.parametrize("make", list(ON_AND_ABOVE), ids=lambda make: make.__name__)
@pytest.mark.parametrize("threshold", [0.1, 0.3, 0.7, 0.9])
def test_a_float32_prediction_on_a_threshold_is_not_above_it_as_in_keras(make, threshold):
    """Keras compares in float32: float32's 0.3 is not above the threshold 0.3 (in float64
    it would be: float32's 0.3 is 0.30000001...), nor is a float64 value that rounds to it;
    the next float32 up is."""
    on, (on_result, above_result) = np.float32(threshold), ON_AND_ABOVE[make]
    y_true = np.array([1.0, 0.0, 1.0, 0.0])
    for y_pred in (np.full(4, on), np.full(4, float(on)), np.full(4, threshold + 1e-9)):
        metric = make(thresholds=threshold)
        metric.update_state(y_true, y_pred)
        assert float(metric.result()) == on_result
    metric = make(thresholds=threshold)
    metric.update_state(y_true, np.full(4, np.nextafter(on, np.float32(1))))
    assert float(metric.result()) == above_result


def test_a_float64_metric_compares_in_float64():
    """The dtype is the metric's, as Keras casts to its variables' dtype."""
    metric = metrics.TruePositives(thresholds=0.3, dtype="float64")
    metric.update_state([1.0], np.array([np.float32(0.3)]))  # 0.30000001... > 0.3
    assert float(metric.result()) == 1.0


def test_auc_counts_a_float32_prediction_on_its_threshold_below_it():
    y_true, y_pred = [1.0, 0.0], np.array([0.3, 0.3], np.float32)
    metric = metrics.AUC(thresholds=[0.3])
    metric.update_state(y_true, y_pred)
    tp = metric.variables[0].numpy()  # thresholds -eps, 0.3, 1 + eps
    assert tp.tolist() == [1.0, 0.0, 0.0]


@settings(max_examples=60, deadline=None)
@given(batch=batches(), thresholds=THRESHOLD_LISTS, key=st.sampled_from(sorted(COUNTS)))
def test_each_count_matches_the_plain_comparison(batch, thresholds, key):
    y_true, y_pred, weights = batch
    metric = COUNTS[key](thresholds=thresholds)
    metric.update_state(y_true, y_pred, sample_weight=weights)
    listed = (
        thresholds if isinstance(thresholds, list) else [0.5 if thresholds is None else thresholds]
    )
    expected = reference_counts(y_true, y_pred, listed, weights)[key]
    got = metric.result().numpy()
    assert got.shape == (() if len(listed) == 1 else (len(listed),))
    np.testing.assert_allclose(got, expected[0] if len(listed) == 1 else expected, rtol=1e-6)


@settings(max_examples=60, deadline=None)
@given(first=batches(), second=batches(), thresholds=THRESHOLD_LISTS)
def test_precision_and_recall_over_two_batches(first, second, thresholds):
    precision, recall = metrics.Precision(thresholds), metrics.Recall(thresholds)
    for y_true, y_pred, weights in (first, second):
        precision.update_state(y_true, y_pred, sample_weight=weights)
        recall(y_true, y_pred, sample_weight=weights)
    listed = (
        thresholds if isinstance(thresholds, list) else [0.5 if thresholds is None else thresholds]
    )
    both = [np.concatenate([a, b]) for a, b in zip(first[:2], second[:2], strict=True)]
    weights = [np.ones(len(b[0])) if b[2] is None else b[2] for b in (first, second)]
    c = reference_counts(*both, listed, np.concatenate(weights))
    for metric, expected in (
        (precision, ratio(c["tp"], c["tp"] + c["fp"])),  # 0 with no positive prediction
        (recall, ratio(c["tp"], c["tp"] + c["fn"])),  # 0 with no positive label
    ):
        got = np.atleast_1d(metric.result().numpy())
        np.testing.assert_allclose(got, expected, rtol=1e-6, atol=1e-7)
    precision.reset_state()
    assert float(np.sum(precision.result().numpy())) == 0.0
    assert all(not v.numpy().any() for v in precision.variables)


def _top_k_reference(scores, k):
    """Keep a score when fewer than k scores of its row beat it (earlier ties beat it)."""
    kept = np.full_like(scores, -1e10)
    for row in range(scores.shape[0]):
        for j in range(scores.shape[1]):
            beaten_by = np.sum(scores[row] > scores[row, j]) + np.sum(
                scores[row, :j] == scores[row, j]
            )
            if beaten_by < k:
                kept[row, j] = scores[row, j]
    return kept


@settings(max_examples=40, deadline=None)
@given(
    data=st.data(),
    rows=st.integers(1, 6),
    classes=st.integers(1, 5),
    top_k=st.one_of(st.none(), st.integers(1, 5)),
    class_id=st.one_of(st.none(), st.integers(0, 4)),
)
def test_top_k_and_class_id_as_keras(data, rows, classes, top_k, class_id):
    class_id = None if class_id is None else class_id % classes
    y_true = data.draw(
        hnp.arrays(np.float64, (rows, classes), elements=st.sampled_from([0.0, 1.0]))
    )
    y_pred = data.draw(
        hnp.arrays(np.float64, (rows, classes), elements=st.sampled_from(ON_THRESHOLDS))
    )
    kept = y_pred if top_k is None else _top_k_reference(y_pred, top_k)
    threshold = -1e10 if top_k else 0.5
    t, p = (y_true, kept) if class_id is None else (y_true[:, class_id], kept[:, class_id])
    c = reference_counts(t, p, [threshold])
    precision = metrics.Precision(top_k=top_k, class_id=class_id)
    recall = metrics.Recall(top_k=top_k, class_id=class_id)
    precision.update_state(y_true, y_pred)
    recall.update_state(y_true, y_pred)
    np.testing.assert_allclose(
        float(precision.result()), ratio(c["tp"], c["tp"] + c["fp"])[0], rtol=1e-6
    )
    np.testing.assert_allclose(
        float(recall.result()), ratio(c["tp"], c["tp"] + c["fn"])[0], rtol=1e-6
    )


# --- AUC ------------------------------------------------------------------------------------
def reference_auc(y_true, y_pred, weights, inner, curve, method, even=False):
    """Keras' AUC written out: thresholds -eps, inner..., 1 + eps; Riemann sums of the curve,
    or Davis & Goadrich's interpolation of precision for the PR curve."""
    thresholds = [-1e-7, *inner, 1 + 1e-7]
    c = reference_counts(y_true, y_pred, thresholds, weights, even=even)
    tp, fp, tn, fn = c["tp"], c["fp"], c["tn"], c["fn"]
    if curve == "PR" and method == "interpolation":
        total = 0.0
        for i in range(len(thresholds) - 1):
            d_tp, p_a, p_b = tp[i] - tp[i + 1], tp[i] + fp[i], tp[i + 1] + fp[i + 1]
            slope = d_tp / (p_a - p_b) if p_a - p_b > 0 else 0.0
            intercept = tp[i + 1] - slope * p_b
            log_ratio = np.log(p_a / p_b) if p_a > 0 and p_b > 0 else 0.0
            positives = tp[i + 1] + fn[i + 1]
            total += slope * (d_tp + intercept * log_ratio) / positives if positives > 0 else 0.0
        return total
    recall = ratio(tp, tp + fn)
    x, y = (ratio(fp, fp + tn), recall) if curve == "ROC" else (recall, ratio(tp, tp + fp))
    pick = {"interpolation": lambda a, b: (a + b) / 2, "minoring": min, "majoring": max}[method]
    return sum((x[i] - x[i + 1]) * pick(y[i], y[i + 1]) for i in range(len(x) - 1))


@settings(max_examples=60, deadline=None)
@given(
    batch=batches(),
    curve=st.sampled_from(["ROC", "PR"]),
    method=st.sampled_from(["interpolation", "minoring", "majoring"]),
    num_thresholds=st.sampled_from([2, 3, 5, 200]),
)
def test_auc_matches_keras_sums(batch, curve, method, num_thresholds):
    y_true, y_pred, weights = batch
    metric = metrics.AUC(
        num_thresholds=num_thresholds, curve=curve.lower(), summation_method=method
    )
    metric.update_state(y_true, y_pred, sample_weight=weights)
    inner = [(i + 1) / (num_thresholds - 1) for i in range(num_thresholds - 2)]
    expected = reference_auc(y_true, y_pred, weights, inner, curve, method, even=True)
    np.testing.assert_allclose(float(metric.result()), expected, rtol=1e-5, atol=1e-6)
    assert metric.thresholds[0] == -1e-7 and metric.thresholds[-1] == 1 + 1e-7
    assert len(metric.thresholds) == num_thresholds


@settings(max_examples=40, deadline=None)
@given(
    positives=st.lists(st.integers(0, 20), min_size=1, max_size=8),
    negatives=st.lists(st.integers(0, 20), min_size=1, max_size=8),
)
def test_roc_auc_is_the_chance_a_positive_outranks_a_negative(positives, negatives):
    """With a threshold between every two distinct scores, the trapezoids are exact."""
    scores = np.array(positives + negatives) / 20.0
    labels = np.array([1] * len(positives) + [0] * len(negatives))
    between = sorted({s - 0.025 for s in scores if s > 0})
    metric = metrics.AUC(thresholds=between)
    metric.update_state(labels, scores)
    pairs = [(p > n) + 0.5 * (p == n) for p in positives for n in negatives]
    np.testing.assert_allclose(float(metric.result()), np.mean(pairs), rtol=1e-6)


def test_auc_keeps_keras_examples_and_logits():
    m = metrics.AUC(num_thresholds=3)
    m.update_state([0, 0, 1, 1], [0, 0.5, 0.3, 0.9])
    assert float(m.result()) == 0.75
    logits = np.array([-3.0, 0.2, 1.5, -0.4, 50.0, -50.0])
    labels = np.array([0, 1, 1, 0, 1, 0])
    from_logits = metrics.AUC(from_logits=True, curve="PR")
    from_logits.update_state(labels, logits)
    plain = metrics.AUC(curve="PR")
    plain.update_state(labels, 1 / (1 + np.exp(-logits)))
    np.testing.assert_allclose(float(from_logits.result()), float(plain.result()), rtol=1e-6)


@pytest.mark.parametrize("label_weights", [None, [1.0, 3.0, 0.0]])
def test_multi_label_averages_one_auc_per_label(label_weights):
    rng = np.random.default_rng(4)
    y_true = rng.integers(0, 2, (20, 3))
    y_pred = rng.random((20, 3))
    per_label = []
    for j in range(3):
        single = metrics.AUC()
        single.update_state(y_true[:, j], y_pred[:, j])
        per_label.append(float(single.result()))
    for num_labels in (None, 3):
        multi = metrics.AUC(multi_label=True, num_labels=num_labels, label_weights=label_weights)
        assert float(multi.result()) == 0.0
        multi.update_state(y_true, y_pred)
        expected = np.average(per_label, weights=label_weights)
        np.testing.assert_allclose(float(multi.result()), expected, rtol=1e-6)
        before = [v.numpy() for v in multi.variables]
        with pytest.raises(InvalidArgumentError, match="earlier ones|one weight per label"):
            multi.update_state(y_true[:, :2], y_pred[:, :2])  # a label fewer
        assert all(
            np.array_equal(a, v.numpy()) for a, v in zip(before, multi.variables, strict=True)
        )


def test_label_weights_weigh_the_columns_when_not_multi_label():
    y_true, y_pred = (
        np.array([[1, 0], [0, 1], [1, 1]]),
        np.array([[0.9, 0.2], [0.4, 0.3], [0.2, 0.8]]),
    )
    m = metrics.AUC(num_thresholds=5, label_weights=[2.0, 0.5])
    m.update_state(y_true, y_pred)
    weights = np.broadcast_to([2.0, 0.5], y_pred.shape)
    expected = reference_auc(
        y_true, y_pred, weights, [0.25, 0.5, 0.75], "ROC", "interpolation", even=True
    )
    np.testing.assert_allclose(float(m.result()), expected, rtol=1e-6)


# --- top-k accuracy and RMSE ------------------------------------------------------------------
@settings(max_examples=40, deadline=None)
@given(data=st.data(), rows=st.integers(1, 6), classes=st.integers(1, 5), k=st.integers(1, 6))
def test_top_k_accuracies_count_ties_as_tf_in_top_k(data, rows, classes, k):
    scores = data.draw(
        hnp.arrays(np.float64, (rows, classes), elements=st.sampled_from(ON_THRESHOLDS))
    )
    labels = data.draw(hnp.arrays(np.int64, rows, elements=st.integers(0, classes - 1)))
    expected = [float(np.sum(row > row[c]) < k) for row, c in zip(scores, labels, strict=True)]
    sparse = metrics.sparse_top_k_categorical_accuracy(labels[:, None], scores, k=k)
    np.testing.assert_array_equal(sparse, expected)
    one_hot = np.eye(classes)[labels]
    np.testing.assert_array_equal(
        metrics.top_k_categorical_accuracy(one_hot, scores, k=k), expected
    )
    metric = metrics.TopKCategoricalAccuracy(k=k)
    weights = np.arange(1, rows + 1, dtype=np.float64)
    metric.update_state(one_hot, scores, sample_weight=weights)
    np.testing.assert_allclose(
        float(metric.result()), np.average(expected, weights=weights), rtol=1e-6
    )


@settings(max_examples=40, deadline=None)
@given(
    data=st.data(),
    shape=hnp.array_shapes(min_dims=1, max_dims=2, max_side=4),
    weighted=st.booleans(),
)
def test_root_mean_squared_error_spreads_example_weights_over_values(data, shape, weighted):
    floats = st.floats(-100, 100, width=32)
    y_true = data.draw(hnp.arrays(np.float32, shape, elements=floats))
    y_pred = data.draw(hnp.arrays(np.float32, shape, elements=floats))
    weights = (
        data.draw(
            hnp.arrays(np.float64, shape[:1], elements=st.one_of(st.just(0.0), st.floats(0.01, 2)))
        )
        if weighted
        else None
    )
    metric = metrics.RootMeanSquaredError()
    metric.update_state(y_true, y_pred, sample_weight=weights)
    squares = (y_pred.astype(np.float64) - y_true) ** 2
    w = (
        np.ones(shape)
        if weights is None
        else np.broadcast_to(weights.reshape(shape[:1] + (1,) * (len(shape) - 1)), shape)
    )
    expected = np.sqrt((squares * w).sum() / w.sum()) if w.sum() else 0.0
    np.testing.assert_allclose(float(metric.result()), expected, rtol=1e-5, atol=1e-5)


# --- state, configs, compile, refusals --------------------------------------------------------
EVERY = [
    lambda: metrics.TruePositives(thresholds=[0.2, 0.6]),
    lambda: metrics.FalseNegatives(),
    lambda: metrics.Precision(thresholds=0.3, name="p"),
    lambda: metrics.Recall(top_k=1, class_id=1),
    lambda: metrics.AUC(num_thresholds=7, curve="PR", summation_method="majoring"),
    lambda: metrics.AUC(thresholds=[0.6, 0.2], from_logits=True, name="auc_given"),
    lambda: metrics.AUC(multi_label=True, num_labels=2, label_weights=[1.0, 2.0]),
    lambda: metrics.TopKCategoricalAccuracy(k=1),
    lambda: metrics.SparseTopKCategoricalAccuracy(k=2),
    lambda: metrics.RootMeanSquaredError(),
]


@pytest.mark.parametrize("make", EVERY, ids=lambda m: m().name)
def test_configs_round_trip(make):
    metric = make()
    config = metric.get_config()
    again = type(metric).from_config(config)
    assert again.get_config() == config and again.name == metric.name
    if isinstance(metric, metrics.AUC):
        assert again.thresholds == metric.thresholds


GOOD = ([1, 0, 1, 1], [0.9, 0.4, 0.3, 0.8])


@pytest.mark.parametrize(
    "make, good, bad, words",
    [
        (
            metrics.Precision,
            GOOD,
            ([1, 0], [0.5, 1.2]),
            "y_pred must hold predictions >= 0 and <= 1",
        ),
        (metrics.AUC, GOOD, ([1, 0], [np.nan, 0.2]), "y_pred must hold predictions >= 0 and <= 1"),
        (metrics.Recall, GOOD, ([1, 0, 1], [0.5, 0.2]), "y_true has shape (3,) but y_pred"),
        (metrics.TruePositives, GOOD, (["a"], [0.5]), "cannot use"),
        (
            lambda: metrics.Precision(class_id=1),
            ([[1, 0]], [[0.9, 0.4]]),
            ([[1]], [[0.5]]),
            "class_id=1 is not a column of predictions shaped (1, 1)",
        ),
        (metrics.AUC, GOOD, ([1, 0], [0.5, 0.2], [1.0, 2.0, 3.0]), "sample_weight of shape (3,)"),
        (metrics.RootMeanSquaredError, GOOD, ([1.0, 2.0], [1.0]), "y_true has shape (2,)"),
    ],
)
def test_a_refused_update_changes_nothing(make, good, bad, words):
    metric = make()
    metric.update_state(*good)
    before = [v.numpy().copy() for v in metric.variables]
    with pytest.raises(InvalidArgumentError) as caught:
        metric.update_state(*bad[:2], sample_weight=bad[2] if len(bad) > 2 else None)
    assert words in str(caught.value)
    assert all(np.array_equal(a, v.numpy()) for a, v in zip(before, metric.variables, strict=True))


@pytest.mark.parametrize(
    "make, words",
    [
        (
            lambda: metrics.Precision(thresholds=1.5),
            "Threshold values must be in [0, 1]. Received: [1.5]",
        ),
        (lambda: metrics.TruePositives(thresholds=[0.2, "x"]), "Received: ['x']"),
        (lambda: metrics.Recall(top_k=0), "top_k must be a whole number >= 1"),
        (lambda: metrics.Precision(class_id=-1), "class_id must be a whole number >= 0"),
        (lambda: metrics.AUC(num_thresholds=1), "num_thresholds must be a whole number >= 2"),
        (lambda: metrics.AUC(curve="XY"), 'Invalid AUC curve value: "XY". Expected values are'),
        (
            lambda: metrics.AUC(summation_method="mean"),
            'Invalid AUC summation_method value: "mean"',
        ),
        (
            lambda: metrics.AUC(num_labels=3),
            "`num_labels` is needed only when `multi_label` is True",
        ),
        (lambda: metrics.AUC(label_weights=[1.0, -1.0]), "label_weights must be one non-negative"),
        (lambda: metrics.TopKCategoricalAccuracy(k=0), "k must be a whole number >= 1"),
    ],
)
def test_bad_arguments_are_refused_with_what_to_pass(make, words):
    with pytest.raises(InvalidArgumentError) as caught:
        make()
    assert words in str(caught.value)


def test_the_imbalanced_data_tutorials_metrics_fit_evaluate_and_save(tmp_path):
    rng = np.random.default_rng(0)
    x = rng.normal(size=(64, 4)).astype("float32")
    y = (x[:, :1] + 0.3 * rng.normal(size=(64, 1)) > 1.0).astype("float32")  # few positives
    tutorial_metrics = [
        metrics.BinaryCrossentropy(name="cross entropy"),
        metrics.MeanSquaredError(name="Brier score"),
        metrics.TruePositives(name="tp"),
        metrics.FalsePositives(name="fp"),
        metrics.TrueNegatives(name="tn"),
        metrics.FalseNegatives(name="fn"),
        metrics.BinaryAccuracy(name="accuracy"),
        metrics.Precision(name="precision"),
        metrics.Recall(name="recall"),
        metrics.AUC(name="auc"),
        metrics.AUC(name="prc", curve="PR"),
    ]
    model = keras.Sequential([keras.Input(shape=[4]), keras.layers.Dense(1, activation="sigmoid")])
    model.compile(
        optimizer=keras.optimizers.Adam(0.01), loss="binary_crossentropy", metrics=tutorial_metrics
    )
    history = model.fit(x, y, batch_size=16, epochs=2, verbose=0)
    for name in ("tp", "fp", "tn", "fn", "precision", "recall", "auc", "prc"):
        assert len(history.history[name]) == 2
    results = model.evaluate(x, y, verbose=0, return_dict=True)
    p = model.predict(x, verbose=0)
    c = reference_counts(y, p, [0.5])
    assert results["tp"] == c["tp"][0] and results["fn"] == c["fn"][0]
    assert results["tp"] + results["fp"] + results["tn"] + results["fn"] == 64
    np.testing.assert_allclose(
        results["precision"], ratio(c["tp"], c["tp"] + c["fp"])[0], rtol=1e-5
    )
    path = str(tmp_path / "model.keras")
    model.save(path)
    again = keras.models.load_model(path)
    np.testing.assert_allclose(
        list(again.evaluate(x, y, verbose=0, return_dict=True).values()),
        list(results.values()),
        rtol=1e-5,
    )


@pytest.mark.parametrize(
    "name", ["AUC", "Precision", "Recall", "TruePositives", "RootMeanSquaredError"]
)
def test_compile_takes_the_class_names(name):
    model = keras.Sequential([keras.Input(shape=[2]), keras.layers.Dense(1, activation="sigmoid")])
    model.compile(optimizer="sgd", loss="binary_crossentropy", metrics=[name])
    model.fit(np.ones((4, 2)), np.array([[1.0], [0.0], [1.0], [1.0]]), verbose=0)
    logged = model.evaluate(
        np.ones((4, 2)), np.array([[1.0], [0.0], [1.0], [1.0]]), verbose=0, return_dict=True
    )
    assert len(logged) == 2 and all(np.isfinite(v) for v in logged.values())
