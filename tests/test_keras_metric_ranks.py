"""Labels of shape (batch,) beside predictions of shape (batch, 1), given straight to a Keras
metric (not through ``fit``), are compared example by example, as Keras' metrics compare them
(``squeeze_or_expand_to_same_rank``): never broadcast to a (batch, batch) table.

Every metric class of ``ek.keras.metrics`` that takes ``(y_true, y_pred)`` is enumerated and
must give, for (batch,) labels and (batch, 1) predictions and for the mirror image, the
result it gives when both are (batch, 1), with and without one weight per example, eagerly and
inside one ``ek.function`` traced for every batch size.
"""

import inspect

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import eagerkit as ek
from eagerkit.keras.metric_inputs import same_rank


def label_metrics():
    """Every metric class taking ``(y_true, y_pred)``, made with its defaults."""
    metrics = ek.keras.metrics
    found = []
    for name in metrics.__all__:
        value = getattr(metrics, name)
        if isinstance(value, type) and issubclass(value, metrics.Metric):
            parameters = list(inspect.signature(value.update_state).parameters)
            if parameters[1:3] == ["y_true", "y_pred"] and value is not metrics.MeanMetricWrapper:
                found.append(value)
    return found


METRICS = label_metrics()


def test_the_enumeration_finds_the_metrics_keras_aligns():
    names = {cls.__name__ for cls in METRICS}
    expected = {"Accuracy", "BinaryAccuracy", "BinaryCrossentropy", "MeanSquaredError"}
    expected |= {"Precision", "Recall", "AUC", "TruePositives", "RootMeanSquaredError"}
    assert expected <= names and len(names) >= 25


def batch_values(batch, seed, sparse):
    """0/1 labels (class 0 only for a sparse metric: the predictions have one class) and
    probabilities that are never exactly 0.5, in float32."""
    rng = np.random.default_rng(seed)
    labels = np.zeros(batch) if sparse else rng.integers(0, 2, batch).astype(np.float32)
    predictions = rng.choice([0.05, 0.3, 0.45, 0.55, 0.8, 0.95], batch).astype(np.float32)
    weights = rng.choice([0.0, 0.5, 1.0, 2.0], batch).astype(np.float32)
    return labels.astype(np.float32), predictions, weights


def result_of(cls, y_true, y_pred, sample_weight=None):
    metric = cls()
    metric.update_state(y_true, y_pred, sample_weight=sample_weight)
    return float(metric.result())


@pytest.mark.parametrize("cls", METRICS, ids=lambda cls: cls.__name__)
@settings(max_examples=8, deadline=None)
@given(batch=st.integers(1, 7), seed=st.integers(0, 2**16), weighted=st.booleans())
def test_labels_beside_a_column_of_predictions_count_example_by_example(cls, batch, seed, weighted):
    labels, predictions, weights = batch_values(batch, seed, "Sparse" in cls.__name__)
    weight = weights if weighted else None
    column = predictions[:, None]
    expected = result_of(cls, labels[:, None], column, weight)
    assert result_of(cls, labels, column, weight) == pytest.approx(expected, abs=1e-6)
    assert result_of(cls, labels[:, None], predictions, weight) == pytest.approx(expected, abs=1e-6)
    as_lists = result_of(cls, labels.tolist(), column.tolist(), weight)
    assert as_lists == pytest.approx(expected, abs=1e-6)


@pytest.mark.parametrize("cls", METRICS, ids=lambda cls: cls.__name__)
def test_inside_a_function_every_batch_size_is_aligned_as_eagerly(cls):
    inside, eager = cls(), cls()

    @ek.function(reduce_retracing=True)
    def update(y_true, y_pred):
        inside.update_state(y_true, y_pred)

    for batch, seed in ((2, 1), (3, 2), (5, 3)):
        labels, predictions, _ = batch_values(batch, seed, "Sparse" in cls.__name__)
        update(ek.constant(labels), ek.constant(predictions[:, None]))
        eager.update_state(labels[:, None], predictions[:, None])
    assert float(inside.result()) == pytest.approx(float(eager.result()), abs=1e-6)


@settings(max_examples=30, deadline=None)
@given(batch=st.integers(1, 9), seed=st.integers(0, 2**16))
def test_binary_accuracy_of_labels_beside_a_column_is_one_value_per_example(batch, seed):
    labels, predictions, _ = batch_values(batch, seed, sparse=False)
    expected = ((predictions > 0.5) == (labels == 1)).astype(np.float32)
    got = ek.keras.metrics.binary_accuracy(labels, predictions[:, None])
    assert got.shape == (batch,)
    np.testing.assert_array_equal(got.numpy(), expected)
    mirrored = ek.keras.metrics.binary_accuracy(labels[:, None], predictions)
    np.testing.assert_array_equal(mirrored.numpy(), expected)


def test_accuracy_of_ids_beside_a_column_compares_each_example_with_its_own():
    got = ek.keras.metrics.accuracy([1, 2, 3], [[1], [0], [3]])
    assert got.numpy().reshape(-1).tolist() == [1.0, 0.0, 1.0]


@pytest.mark.parametrize(
    ("true_shape", "pred_shape", "aligned"),
    [
        ((4,), (4, 1), ((4, 1), (4, 1))),  # a rank-1 side gains the axis (Keras 3's rule)
        ((4, 1), (4,), ((4, 1), (4, 1))),
        ((4, 3), (4, 3, 1), ((4, 3), (4, 3))),  # otherwise the larger side loses it
        ((4, 3, 1), (4, 3), ((4, 3), (4, 3))),
        ((4,), (4, 3), ((4,), (4, 3))),  # class ids beside scores: left as they are
        ((4, 1), (4, 1), ((4, 1), (4, 1))),
        ((), (1,), ((), ())),
    ],
)
def test_same_rank_follows_keras(true_shape, pred_shape, aligned):
    y_true, y_pred = same_rank(ek.zeros(true_shape), np.zeros(pred_shape))
    assert (tuple(np.shape(y_true)), tuple(np.shape(y_pred))) == aligned


def test_same_rank_leaves_a_ragged_list_to_the_metrics_own_check():
    ragged = [[1.0], [1.0, 2.0]]
    assert same_rank(ragged, [[0.5]])[0] is ragged
    with pytest.raises(ek.errors.InvalidArgumentError, match="binary_accuracy"):
        ek.keras.metrics.BinaryAccuracy().update_state(ragged, [[0.5], [0.5]])
