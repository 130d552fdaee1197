"""Keras' top-k accuracies and ``RootMeanSquaredError``; metrics.py re-exports them.

``top_k_categorical_accuracy`` is 1 where the true class is among the ``k`` highest scores
(``tf.math.in_top_k``: a class tied with the k-th highest score counts as in the top k).

Examples
--------
>>> import eagerkit as ek
>>> scores = [[0.1, 0.5, 0.4], [0.1, 0.5, 0.4]]
>>> ek.keras.metrics.sparse_top_k_categorical_accuracy([2, 0], scores, k=2)
array([1., 0.], dtype=float32)
"""

import numpy as np

from eagerkit import dtypes
from eagerkit.errors import InvalidArgumentError
from eagerkit.keras.confusion_counts import checked_whole, example_weights
from eagerkit.keras.metrics import MeanMetricWrapper, Metric
from eagerkit.keras.tf1_metrics import _host
from eagerkit.tensor import Tensor


def sparse_top_k_categorical_accuracy(y_true, y_pred, k=5):
    """1 where the class id ``y_true`` is among the ``k`` highest scores of ``y_pred``.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.keras.metrics.sparse_top_k_categorical_accuracy([[1]], [[0.3, 0.3, 0.4]], k=1)
    array([0.], dtype=float32)
    """
    where = "sparse_top_k_categorical_accuracy"
    k = checked_whole(k, "k", where, 1)
    labels, scores = _host(y_true, where, dtype=None), _host(y_pred, where)
    if scores.ndim == 0 or scores.shape[-1] == 0:
        raise InvalidArgumentError(
            f"{where}: y_pred has shape {scores.shape}, with no class axis; pass scores of "
            "shape (batch, classes)",
            op=where,
        )
    examples = scores.shape[:-1]  # one answer per example, whatever the labels' shape
    scores = scores.reshape(-1, scores.shape[-1])  # Keras folds the leading axes together
    flat = labels.reshape(-1)
    if flat.shape[0] != scores.shape[0] or np.any(flat != np.round(flat)):
        raise InvalidArgumentError(
            f"{where}: y_true must hold one class id per row of y_pred; got y_true of shape "
            f"{labels.shape} for y_pred rows {scores.shape[0]}",
            op=where,
        )
    classes = scores.shape[-1]
    if np.any((flat < 0) | (flat >= classes)):
        raise InvalidArgumentError(
            f"{where}: class ids must be in [0, {classes}), got {flat.min()} to {flat.max()}",
            op=where,
        )
    target = np.take_along_axis(scores, flat.astype(np.int64)[:, None], axis=-1)
    higher = np.sum(scores > target, axis=-1)  # how many classes score above the true one
    hits = (higher < k) & np.isfinite(target[:, 0])
    return hits.astype(np.float32).reshape(examples)


def top_k_categorical_accuracy(y_true, y_pred, k=5):
    """1 where the one-hot label's class is among the ``k`` highest scores of ``y_pred``.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.keras.metrics.top_k_categorical_accuracy([[0, 0, 1]], [[0.5, 0.3, 0.2]], k=2)
    array([0.], dtype=float32)
    """
    where = "top_k_categorical_accuracy"
    labels = _host(y_true, where)
    if labels.ndim == 0 or labels.shape[-1] == 0:
        raise InvalidArgumentError(
            f"{where}: y_true has shape {labels.shape}, with no class axis; pass one-hot "
            "labels of shape (batch, classes)",
            op=where,
        )
    return sparse_top_k_categorical_accuracy(np.argmax(labels, axis=-1), y_pred, k)


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
        y_true, y_pred = _host(y_true, where), _host(y_pred, where)
        if y_pred.ndim == y_true.ndim + 1 and y_pred.shape[-1:] == (1,):
            y_pred = y_pred[..., 0]  # predictions (batch, 1) against labels (batch,)
        elif y_true.ndim == y_pred.ndim + 1 and y_true.shape[-1:] == (1,):
            y_true = y_true[..., 0]
        if y_true.shape != y_pred.shape:
            raise InvalidArgumentError(
                f"{where}: y_true has shape {y_true.shape} but y_pred has shape "
                f"{y_pred.shape}; they must match",
                op=where,
            )
        squares = (y_pred - y_true) ** 2
        self._accumulate(squares, example_weights(sample_weight, squares.shape, where))

    def result(self, write_summary=True):
        """The root of the mean squared error so far (0 before anything was added)."""
        mean = super().result(write_summary=False)
        value = Tensor(np.sqrt(mean.numpy()))
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
