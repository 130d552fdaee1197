"""Keras' accuracy functions: per example, 1.0 where the prediction agrees with the label,
else 0.0 (float32, as Keras' accuracies). ``ek.keras.metrics`` exports them and wraps each
in its metric class (``Accuracy``, ``BinaryAccuracy``, ...).

Examples
--------
>>> import eagerkit as ek
>>> ek.keras.metrics.accuracy([1, 2, 3], [1, 2, 0]).numpy().tolist()
[1.0, 1.0, 0.0]
"""

from eagerkit import dtypes
from eagerkit.errors import InvalidArgumentError
from eagerkit.keras.metric_inputs import equal_values, metric_tensor, same_rank, without_last_axis
from eagerkit.ops.cast import cast
from eagerkit.ops.reduce import argmax, reduce_mean


def _class_ids(name, y_true, y_pred):
    """Labels and predictions as tensors, with the same number of examples."""
    y_true, y_pred = metric_tensor(y_true, name), metric_tensor(y_pred, name)
    if tuple(y_true.shape[:1]) != tuple(y_pred.shape[:1]):
        raise InvalidArgumentError(
            f"{name}: y_true has shape {tuple(y_true.shape)} but y_pred has shape "
            f"{tuple(y_pred.shape)}; they must hold the same number of examples",
            op=name,
        )
    return y_true, y_pred


def _hits(y_true, y_pred):
    """1.0 where the two agree by value, else 0.0 (float32, as Keras' accuracies)."""
    return cast(equal_values(y_true, y_pred), dtypes.float32)


def accuracy(y_true, y_pred):
    """1 where ``y_true == y_pred``, else 0 (same shapes, or ranks one apart: ``same_rank``).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.keras.metrics.accuracy([1, 2, 3], [1, 2, 0]).numpy().tolist()
    [1.0, 1.0, 0.0]
    """
    y_true, y_pred = same_rank(*_class_ids("accuracy", y_true, y_pred), "accuracy")
    if tuple(y_true.shape) != tuple(y_pred.shape):
        raise InvalidArgumentError(
            f"accuracy: y_true has shape {tuple(y_true.shape)} but y_pred has shape "
            f"{tuple(y_pred.shape)}; pass class ids for both (e.g. ek.argmax(logits, axis=1))",
            op="accuracy",
        )
    return _hits(y_true, y_pred)


def binary_accuracy(y_true, y_pred, threshold=0.5):
    """1 where ``y_pred > threshold`` agrees with the 0/1 label, averaged over the last axis.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.keras.metrics.binary_accuracy([[1.0, 0.0], [1.0, 1.0]], [[0.7, 0.2], [0.4, 0.9]])
    <ek.Tensor: shape=(2,), dtype=float32, numpy=array([1. , 0.5], dtype=float32)>

    Labels (batch,) beside predictions (batch, 1) are compared example by example, as in
    Keras (not broadcast to (batch, batch)):

    >>> ek.keras.metrics.binary_accuracy([1.0, 0.0, 1.0], [[0.7], [0.6], [0.2]])
    <ek.Tensor: shape=(3,), dtype=float32, numpy=array([1., 0., 0.], dtype=float32)>
    """
    y_true, y_pred = same_rank(*_class_ids("binary_accuracy", y_true, y_pred), "binary_accuracy")
    threshold = metric_tensor(threshold, "binary_accuracy")  # a string would meet no op
    if threshold.ndim:
        raise InvalidArgumentError(
            f"binary_accuracy: threshold must be one number, got shape {tuple(threshold.shape)}; "
            "pass e.g. threshold=0.5",
            op="binary_accuracy",
        )
    if not y_pred.dtype.is_floating:  # integer scores: compare them with 0.5, not with 0
        y_pred = cast(y_pred, dtypes.float64)
    above = y_pred > cast(threshold, y_pred.dtype)
    return reduce_mean(_hits(y_true, above), axis=-1)


def categorical_accuracy(y_true, y_pred):
    """1 where the argmax of one-hot ``y_true`` is the argmax of ``y_pred``.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.keras.metrics.categorical_accuracy([[0, 1], [1, 0]], [[0.3, 0.7], [0.2, 0.8]])
    <ek.Tensor: shape=(2,), dtype=float32, numpy=array([1., 0.], dtype=float32)>
    """
    y_true, y_pred = _class_ids("categorical_accuracy", y_true, y_pred)
    for name, value in (("y_true", y_true), ("y_pred", y_pred)):
        if value.ndim == 0 or value.shape[-1] == 0:  # argmax of no classes
            raise InvalidArgumentError(
                f"categorical_accuracy: {name} has shape {tuple(value.shape)}, with no class "
                "axis to take the argmax of; pass one-hot labels and scores of shape "
                "(batch, classes)",
                op="categorical_accuracy",
            )
    return _hits(argmax(y_true, axis=-1), argmax(y_pred, axis=-1))


def sparse_categorical_accuracy(y_true, y_pred):
    """1 where the class id ``y_true`` is the argmax of ``y_pred``.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.keras.metrics.sparse_categorical_accuracy([2, 1], [[0.1, 0.6, 0.3], [0.05, 0.95, 0]])
    <ek.Tensor: shape=(2,), dtype=float32, numpy=array([0., 1.], dtype=float32)>
    """
    y_true, y_pred = _class_ids("sparse_categorical_accuracy", y_true, y_pred)
    if y_pred.ndim == 0 or y_pred.shape[-1] == 0:
        raise InvalidArgumentError(
            f"sparse_categorical_accuracy: y_pred has shape {tuple(y_pred.shape)}, with no "
            "class axis to take the argmax of; pass scores of shape (batch, classes)",
            op="sparse_categorical_accuracy",
        )
    if y_true.ndim == y_pred.ndim and y_true.shape[-1] == 1:  # labels shaped [batch, 1]
        y_true = without_last_axis(y_true)
    predicted = argmax(y_pred, axis=-1)
    if tuple(y_true.shape) != tuple(predicted.shape):
        raise InvalidArgumentError(
            f"sparse_categorical_accuracy: y_true has shape {tuple(y_true.shape)} but y_pred "
            f"has shape {tuple(y_pred.shape)}; pass one class id per row of scores",
            op="sparse_categorical_accuracy",
        )
    return _hits(y_true, predicted)
