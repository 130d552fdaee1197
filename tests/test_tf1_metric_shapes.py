"""``ek.metrics`` is TF1's eager metrics, ``tfe.metrics``: what they do with labels of shape
(batch,) beside predictions of shape (batch, 1), and what TF1's graph-only ``tf.metrics``
functions are answered with.

TF1 has two kinds of metrics. The functions ``tf.metrics.accuracy`` & co squeeze a last axis
of 1 (``_remove_squeezable_dimensions``), but they build graph update ops and raise "not
supported when eager execution is enabled": executing eagerly, TF1 used the objects of
``tfe.metrics``, whose ``Accuracy`` asserts that the shapes are equal ("Shapes of labels and
predictions are unequal", TF 1.15) and squeezes nothing. eagerkit's ``ek.metrics`` does as
those objects do, and names each of the functions as missing with the object to use instead.
"""

import inspect

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import eagerkit as ek
from eagerkit.errors import InvalidArgumentError


def tf1_metric_classes():
    """Every metric class ``ek.metrics`` exports, by what its call takes."""
    found = {}
    for name in ek.metrics.__all__:
        value = getattr(ek.metrics, name)
        if isinstance(value, type) and issubclass(value, ek.metrics.Metric):
            if value is not ek.metrics.Metric:
                found[name] = list(inspect.signature(value.__call__).parameters)[1:]
    return found


def test_the_enumeration_finds_which_tf1_metrics_take_labels():
    assert tf1_metric_classes() == {
        "Mean": ["values", "weights"],
        "Accuracy": ["labels", "predictions", "weights"],
    }


@settings(max_examples=25, deadline=None)
@given(batch=st.integers(1, 8), seed=st.integers(0, 2**16))
def test_accuracy_refuses_ranks_one_apart_as_tfe_metrics_does_and_changes_nothing(batch, seed):
    rng = np.random.default_rng(seed)
    labels, predictions = rng.integers(0, 3, batch), rng.integers(0, 3, batch)
    accuracy = ek.metrics.Accuracy()
    accuracy(labels, predictions)  # equal shapes: counted example by example
    expected = float(np.mean(labels == predictions))
    assert float(accuracy.result()) == pytest.approx(expected)
    column = (batch, 1)
    for y_true, y_pred, fix in [
        (labels, predictions.reshape(column), "ek.squeeze(predictions, axis=-1)"),
        (labels.reshape(column), predictions, "ek.squeeze(labels, axis=-1)"),
    ]:
        with pytest.raises(InvalidArgumentError) as caught:
            accuracy(y_true, y_pred)
        message = str(caught.value)
        assert f"labels have shape {y_true.shape} but predictions have shape {y_pred.shape}" in (
            message
        )
        assert "they must be equal: drop the" in message and fix in message
        assert float(accuracy.result()) == pytest.approx(expected)  # nothing was counted


def test_other_shapes_are_told_to_pass_class_ids():
    with pytest.raises(InvalidArgumentError, match=r"pass class ids for both \(e.g. ek.argmax"):
        ek.metrics.Accuracy()([0, 1], [[0.2, 0.8], [0.9, 0.1]])


# TF1's tf.metrics functions that have an eager object here, and those with none.
TF1_FUNCTIONS = {
    "accuracy": "ek.metrics.Accuracy",
    "mean": "ek.metrics.Mean",
    "auc": "ek.keras.metrics.AUC",
    "precision": "ek.keras.metrics.Precision",
    "recall": "ek.keras.metrics.Recall",
    "precision_at_thresholds": "ek.keras.metrics.Precision",
    "recall_at_thresholds": "ek.keras.metrics.Recall",
    "true_positives": "ek.keras.metrics.TruePositives",
    "false_positives": "ek.keras.metrics.FalsePositives",
    "true_negatives": "ek.keras.metrics.TrueNegatives",
    "false_negatives": "ek.keras.metrics.FalseNegatives",
    "mean_squared_error": "ek.keras.metrics.MeanSquaredError",
    "mean_absolute_error": "ek.keras.metrics.MeanAbsoluteError",
    "root_mean_squared_error": "ek.keras.metrics.RootMeanSquaredError",
    "mean_iou": None,
    "mean_per_class_accuracy": None,
}


@pytest.mark.parametrize("name, instead", TF1_FUNCTIONS.items())
def test_tf1_metric_functions_are_missing_and_name_the_eager_object(name, instead):
    assert not hasattr(ek.metrics, name)
    with pytest.raises(AttributeError) as caught:
        getattr(ek.metrics, name)
    message = str(caught.value)
    assert message.startswith(f"module 'eagerkit.metrics' has no attribute '{name}'")
    assert f"has no tf.metrics.{name}" in message
    if instead is None:
        assert "Instead" not in message
        return
    assert f"Instead: a metric object, {instead}(" in message
    assert "TF1's tf.metrics functions do not run eagerly" in message
    path = instead.split(".")[1:]  # the object named exists, and counts a batch
    metric = ek
    for part in path:
        metric = getattr(metric, part)
    made = metric()
    if path[0] == "metrics" and path[-1] == "Mean":
        made([1.0, 0.0])
    elif path[0] == "metrics":
        made([1, 0], [1, 1])
    else:
        made.update_state([1.0, 0.0], [0.9, 0.2])
    assert np.isfinite(float(made.result()))
