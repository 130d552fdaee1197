"""Keras 3's F1Score and FBetaScore: Keras' documented values, every average against a
numpy reference over batches, weights, config, fit, and errors that change nothing."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import eagerkit as ek
from eagerkit.errors import InvalidArgumentError

metrics = ek.keras.metrics
Y_TRUE = np.array([[1, 1, 1], [1, 0, 0], [1, 1, 0]], np.int32)
Y_PRED = np.array([[0.2, 0.6, 0.7], [0.2, 0.6, 0.6], [0.6, 0.8, 0.0]], np.float32)


def test_keras_documented_values():
    f1 = metrics.F1Score(threshold=0.5)
    f1.update_state(Y_TRUE, Y_PRED)
    np.testing.assert_allclose(f1.result().numpy(), [0.5, 0.8, 0.6666667], rtol=1e-5)
    fbeta = metrics.FBetaScore(beta=2.0, threshold=0.5)
    fbeta.update_state(Y_TRUE, Y_PRED)
    np.testing.assert_allclose(
        fbeta.result().numpy(), [0.3846154, 0.90909094, 0.8333334], rtol=1e-5
    )


def f_reference(batches, average, beta, threshold):
    """The counts summed over batches in numpy, then Keras 3's formula."""
    tp = fp = fn = support = 0.0
    for y, p, w in batches:
        if threshold is None:
            predicted = (p >= p.max(-1, keepdims=True)) & (np.abs(p) > 1e-9)
        else:
            predicted = p > threshold
        predicted = predicted.astype(np.float64)
        w = np.ones((len(y), 1)) if w is None else w[:, None]
        axis = None if average == "micro" else 0
        tp = tp + (predicted * y * w).sum(axis)
        fp = fp + (predicted * (1 - y) * w).sum(axis)
        fn = fn + ((1 - predicted) * y * w).sum(axis)
        support = support + (y * w).sum(axis)
    precision, recall = tp / (tp + fp + 1e-7), tp / (tp + fn + 1e-7)
    score = (1 + beta**2) * precision * recall / (beta**2 * precision + recall + 1e-7)
    if average == "weighted":
        return (score * support / (support.sum() + 1e-7)).sum()
    return score if average is None else score.mean()


BATCH = st.tuples(
    st.lists(st.integers(0, 1), min_size=8, max_size=8),
    st.lists(st.integers(0, 10), min_size=8, max_size=8),
    st.none() | st.lists(st.sampled_from([0.0, 0.5, 2.0]), min_size=2, max_size=2),
)


@settings(max_examples=50, deadline=None)
@given(
    batches=st.lists(BATCH, min_size=1, max_size=3),
    average=st.sampled_from([None, "micro", "macro", "weighted"]),
    beta=st.sampled_from([0.5, 1.0, 2.0]),
    threshold=st.sampled_from([None, 0.35, 0.5, 1.0]),
)
def test_every_average_matches_the_reference(batches, average, beta, threshold):
    shaped = [
        (
            np.array(y, np.float64).reshape(2, 4),
            np.array(p, np.float64).reshape(2, 4) / 10,
            None if w is None else np.array(w),
        )
        for y, p, w in batches
    ]
    metric = metrics.FBetaScore(average=average, beta=beta, threshold=threshold)
    for y, p, w in shaped:
        metric.update_state(y, p.astype(np.float32), sample_weight=w)
    expected = f_reference(shaped, average, beta, threshold)
    np.testing.assert_allclose(metric.result().numpy(), expected, rtol=1e-4, atol=1e-6)
    metric.reset_state()
    assert np.all(metric.result().numpy() == 0)


def test_config_fit_and_before_any_update():
    metric = metrics.F1Score(average="macro", threshold=0.4, name="f1")
    assert float(metric.result()) == 0.0
    config = metric.get_config()
    assert config == {"average": "macro", "threshold": 0.4, "name": "f1", "dtype": "float32"}
    assert metrics.F1Score.from_config(config).get_config() == config
    fbeta = metrics.FBetaScore(beta=0.5, average="weighted")
    assert metrics.FBetaScore.from_config(fbeta.get_config()).beta == 0.5
    model = ek.keras.Sequential([ek.keras.layers.Dense(3, activation="softmax")])
    model.compile(
        optimizer="sgd", loss="categorical_crossentropy", metrics=[metrics.F1Score(average="micro")]
    )
    history = model.fit(
        np.eye(3, dtype=np.float32), np.eye(3, dtype=np.float32), epochs=1, verbose=0
    )
    assert 0.0 <= history.history["f1_score"][0] <= 1.0


def test_errors_leave_the_counts_as_they_were():
    for kwargs, message in [
        ({"average": "mean"}, "average must be None, 'micro', 'macro' or 'weighted'"),
        ({"threshold": 1.5}, "0 < threshold <= 1"),
        ({"threshold": 0}, "0 < threshold <= 1"),
    ]:
        with pytest.raises(InvalidArgumentError, match=message):
            metrics.F1Score(**kwargs)
    with pytest.raises(InvalidArgumentError, match="beta must be a number > 0"):
        metrics.FBetaScore(beta=0.0)
    metric = metrics.F1Score(threshold=0.5)
    metric.update_state(Y_TRUE, Y_PRED)
    before = metric.result().numpy()
    with pytest.raises(InvalidArgumentError, match=r"expects 2-D y_true and y_pred of one shape"):
        metric.update_state([1, 0], [0.5, 0.2])
    with pytest.raises(InvalidArgumentError, match="this batch gives counts of shape"):
        metric.update_state([[1, 0]], [[0.5, 0.2]])  # 2 classes after 3
    with pytest.raises(InvalidArgumentError, match="sample_weight must give one weight per"):
        metric.update_state(Y_TRUE, Y_PRED, sample_weight=[1.0, 2.0])
    np.testing.assert_array_equal(metric.result().numpy(), before)
