"""Keras' top-k accuracies and ``RootMeanSquaredError``; metrics.py re-exports them.

``top_k_categorical_accuracy`` is 1 where the true class is among the ``k`` highest scores
(``tf.math.in_top_k``: a class tied with the k-th highest score counts as in the top k).

Examples
--------
>>> import eagerkit as ek
>>> scores = [[0.1, 0.5, 0.4], [0.1, 0.5, 0.4]]
>>> ek.keras.metrics.sparse_top_k_categorical_accuracy([2, 0], scores, k=2)
<ek.Tensor: shape=(2,), dtype=float32, numpy=array([1., 0.], dtype=float32)>
"""

import numpy as np

from eagerkit import dtypes
from eagerkit.errors import InvalidArgumentError
from eagerkit.keras.confusion_counts import checked_whole
from eagerkit.keras.metric_inputs import (
    example_weights,
    host_check,
    matched_last_axis,
    metric_tensor,
)
from eagerkit.keras.metrics import MeanMetricWrapper, Metric
from eagerkit.ops.cast import cast
from eagerkit.ops.compare import logical_and
from eagerkit.ops.compare import where as where_
from eagerkit.ops.creation import zeros_like
from eagerkit.ops.indexing import one_hot
from eagerkit.ops.math import sqrt, square
from eagerkit.ops.reduce import argmax, reduce_sum
from eagerkit.ops.reshaping import reshape
from eagerkit.ops.safe_math import divide_no_nan, is_finite


@host_check
def _check_class_ids(ids, classes, where):
    """Whole class ids in [0, classes) (read on the host, at every call)."""
    values = ids.numpy()
    if np.any(values != np.round(values)):
        raise InvalidArgumentError(
            f"{where}: y_true must hold whole class ids, one per row of y_pred; got "
            f"{values.tolist()!s:.100}",
            op=where,
        )
    if values.size and (values.min() < 0 or values.max() >= classes):
        raise InvalidArgumentError(
            f"{where}: class ids must be in [0, {classes}), got {values.min()} to {values.max()}",
            op=where,
        )


def sparse_top_k_categorical_accuracy(y_true, y_pred, k=5):
    """1 where the class id ``y_true`` is among the ``k`` highest scores of ``y_pred``.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.keras.metrics.sparse_top_k_categorical_accuracy([[1]], [[0.3, 0.3, 0.4]], k=1)
    <ek.Tensor: shape=(1,), dtype=float32, numpy=array([0.], dtype=float32)>
    """
    where = "sparse_top_k_categorical_accuracy"
    k = checked_whole(k, "k", where, 1)
    labels, scores = metric_tensor(y_true, where), metric_tensor(y_pred, where)
    if scores.ndim == 0 or scores.shape[-1] == 0:
        raise InvalidArgumentError(
            f"{where}: y_pred has shape {tuple(scores.shape)}, with no class axis; pass scores "
            "of shape (batch, classes)",
            op=where,
        )
    examples, classes = list(scores.shape[:-1]), scores.shape[-1]  # one answer per example
    scores = reshape(scores, [-1, classes])  # Keras folds the leading axes together
    flat = reshape(labels, [-1])  # (-1: inside ek.function each call's batch size)
    if flat.shape[0] != scores.shape[0]:
        raise InvalidArgumentError(
            f"{where}: y_true must hold one class id per row of y_pred; got y_true of shape "
            f"{tuple(labels.shape)} for y_pred rows {scores.shape[0]}",
            op=where,
        )
    _check_class_ids(flat, classes, where)
    true_class = one_hot(cast(flat, dtypes.int32), classes, dtype=dtypes.int32) > 0
    target = reduce_sum(where_(true_class, scores, zeros_like(scores)), axis=-1)  # its score
    # how many classes score above the true one: fewer than k puts it in the top k
    higher = reduce_sum(cast(scores > reshape(target, [-1, 1]), dtypes.int32), axis=-1)
    hits = logical_and(higher < k, is_finite(target))
    return reshape(cast(hits, dtypes.float32), [-1, *examples[1:]])


def top_k_categorical_accuracy(y_true, y_pred, k=5):
    """1 where the one-hot label's class is among the ``k`` highest scores of ``y_pred``.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.keras.metrics.top_k_categorical_accuracy([[0, 0, 1]], [[0.5, 0.3, 0.2]], k=2)
    <ek.Tensor: shape=(1,), dtype=float32, numpy=array([0.], dtype=float32)>
    """
    where = "top_k_categorical_accuracy"
    labels = metric_tensor(y_true, where)
    if labels.ndim == 0 or labels.shape[-1] == 0:
        raise InvalidArgumentError(
            f"{where}: y_true has shape {tuple(labels.shape)}, with no class axis; pass one-hot "
            "labels of shape (batch, classes)",
            op=where,
        )
    return sparse_top_k_categorical_accuracy(argmax(labels, axis=-1), y_pred, k)


class TopKCategoricalAccuracy(MeanMetricWrapper):
    """How often the one-hot label's class is among the ``k`` highest scores.

    Examples
    --------
    >>> import eagerkit as ek
    >>> m = ek.keras.metrics.TopKCategoricalAccuracy(k=1)
    >>> m.update_state([[0, 0, 1], [0, 1, 0]], [[0.1, 0.9, 0.8], [0.05, 0.95, 0]])
    >>> float(m.result())
    0.5
    """

    def __init__(self, k=5, name="top_k_categorical_accuracy", dtype=dtypes.float32):
        k = checked_whole(k, "k", "TopKCategoricalAccuracy", 1)
        super().__init__(top_k_categorical_accuracy, name, dtype, k=k)

    def get_config(self):
        """The arguments that rebuild this metric (``from_config``)."""
        return {"k": self.fn_kwargs["k"], "name": self.name, "dtype": self.dtype.name}

    @classmethod
    def from_config(cls, config):
        """The metric ``get_config`` describes."""
        return cls(**config)


class SparseTopKCategoricalAccuracy(TopKCategoricalAccuracy):
    """How often the class id is among the ``k`` highest scores.

    Examples
    --------
    >>> import eagerkit as ek
    >>> m = ek.keras.metrics.SparseTopKCategoricalAccuracy(k=2)
    >>> float(m([2, 1], [[0.1, 0.9, 0.8], [0.05, 0.0, 0.95]]))
    0.5
    """

    def __init__(self, k=5, name="sparse_top_k_categorical_accuracy", dtype=dtypes.float32):
        k = checked_whole(k, "k", "SparseTopKCategoricalAccuracy", 1)
        MeanMetricWrapper.__init__(self, sparse_top_k_categorical_accuracy, name, dtype, k=k)


class RootMeanSquaredError(Metric):
    """``sqrt(mean((y_pred - y_true) ** 2))`` over every value seen so far (weighted).

    Examples
    --------
    >>> import eagerkit as ek
    >>> m = ek.keras.metrics.RootMeanSquaredError()
    >>> m.update_state([[0.0, 1.0], [0.0, 0.0]], [[1.0, 1.0], [1.0, 0.0]])
    >>> round(float(m.result()), 4)  # sqrt(2 / 4)
    0.7071
    """

    def __init__(self, name="root_mean_squared_error", dtype=dtypes.float32):
        super().__init__(name=name, dtype=dtype)

    def update_state(self, y_true, y_pred, sample_weight=None):
        """Add this batch's squared errors (``sample_weight``: one per example or value)."""
        where = "RootMeanSquaredError.update_state"
        y_true = metric_tensor(y_true, where, self.dtype)
        y_pred = metric_tensor(y_pred, where, self.dtype)
        # predictions (batch, 1) against labels (batch,): the axis of 1 goes
        y_true, y_pred = matched_last_axis(y_true, y_pred, where, "they must match")
        squares = square(y_pred - y_true)
        weights = example_weights(sample_weight, squares, where, self.dtype)
        self._accumulate(squares, weights)

    def result(self, write_summary=True):
        """The root of the mean squared error so far (0 before anything was added)."""
        value = sqrt(divide_no_nan(self.total, self.count))
        if write_summary:
            from eagerkit import summary

            summary.scalar(self.name, value)  # does nothing unless a writer records now
        return value

    def get_config(self):
        """The arguments that rebuild this metric (``from_config``)."""
        return {"name": self.name, "dtype": self.dtype.name}

    @classmethod
    def from_config(cls, config):
        """The metric ``get_config`` describes."""
        return cls(**config)
