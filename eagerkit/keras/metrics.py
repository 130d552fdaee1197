"""``ek.keras.metrics``: Keras' metric objects, with float32 results as ``tf.keras.metrics``.

``update_state(...)`` accumulates, ``result()`` reads, ``reset_state()`` forgets; calling
the metric does the first two at once. The bookkeeping is that of ``ek.metrics`` (TF1's
``tfe.metrics``, whose results are float64), in float32: variables that grow by
``assign_add`` of eagerkit ops, so ``update_state`` also works inside ``ek.function``
(traced once, every call updates the state). ``Precision``, ``Recall``, ``AUC``
and the confusion counts are in confusion_metrics.py and auc_metric.py, the top-k
accuracies and ``RootMeanSquaredError`` in topk_metrics.py, the running means of losses
(``MeanSquaredError``, ``BinaryCrossentropy``, ``Hinge``, ...) in loss_metrics.py.

Examples
--------
>>> import eagerkit as ek
>>> m = ek.keras.metrics.Mean()
>>> m.update_state([1.0, 3.0, 5.0, 7.0])
>>> m.result()
<ek.Tensor: shape=(), dtype=float32, numpy=4.0>
"""

from eagerkit import dtypes
from eagerkit.errors import InvalidArgumentError
from eagerkit.keras.layers import masks
from eagerkit.keras.metric_inputs import (
    equal_values,
    example_weights,
    metric_tensor,
    same_rank,
    without_last_axis,
)
from eagerkit.keras.tf1_metrics import Metric as _Metric
from eagerkit.ops.cast import cast
from eagerkit.ops.reduce import argmax, reduce_mean


class Metric(_Metric):
    """Base of the Keras metrics: a weighted running mean kept in float32."""

    default_dtype = dtypes.float32  # what dtype=None means (Keras: float32)

    def __init__(self, name=None, dtype=dtypes.float32):
        super().__init__(name=name, dtype=dtype)

    def update_state(self, *args, **kwargs):
        """Add a batch to the running state."""
        raise NotImplementedError(f"{type(self).__name__} must define update_state")

    def __call__(self, *args, **kwargs):
        before = self._state()
        self.update_state(*args, **kwargs)
        return self._result_after(before)

    def add_weight(self, name, shape=(), initializer="zeros", dtype=None):
        """A non-trainable state variable for a custom metric (``self.add_weight("tp")``).

        Examples
        --------
        >>> import eagerkit as ek
        >>> class Count(ek.keras.metrics.Metric):
        ...     def __init__(self, name="count"):
        ...         super().__init__(name=name)
        ...         self.seen = self.add_weight(name="seen")
        ...     def update_state(self, values):
        ...         self.seen.assign_add(float(ek.size(values)))
        ...     def result(self):
        ...         return self.seen
        >>> float(Count()([1.0, 2.0, 3.0]))
        3.0
        """
        from eagerkit.keras import initializers
        from eagerkit.variables import Variable

        dtype = dtypes.as_dtype(dtype or self.dtype)
        value = initializers.get(initializer)(list(shape), dtype=dtype)
        return Variable(value, trainable=False, name=f"{self.name}/{name}")

    def _add(self, values, sample_weight):
        values = metric_tensor(values, self.name, self.dtype)
        weights = (
            None if sample_weight is None else metric_tensor(sample_weight, self.name, self.dtype)
        )
        self._accumulate(values, weights)

    def __repr__(self):
        value = float(self.result(write_summary=False))
        return f"<ek.keras.metrics.{type(self).__name__} '{self.name}' result={value}>"


class Mean(Metric):
    """The (weighted) mean of every value given so far.

    Examples
    --------
    >>> import eagerkit as ek
    >>> m = ek.keras.metrics.Mean()
    >>> float(m([1.0, 2.0])), float(m(6.0, sample_weight=2.0))
    (1.5, 3.75)
    """

    def __init__(self, name="mean", dtype=dtypes.float32):
        super().__init__(name=name, dtype=dtype)

    def update_state(self, values, sample_weight=None):
        """Add ``values`` (a number or any shape), each with ``sample_weight`` (default 1)."""
        self._add(values, sample_weight)


class Sum(Metric):
    """The (weighted) sum of every value given so far.

    Examples
    --------
    >>> import eagerkit as ek
    >>> float(ek.keras.metrics.Sum()([1.0, 3.0, 5.0, 7.0]))
    16.0
    """

    def __init__(self, name="sum", dtype=dtypes.float32):
        super().__init__(name=name, dtype=dtype)

    def update_state(self, values, sample_weight=None):
        """Add ``values`` (times ``sample_weight``) to the sum."""
        self._add(values, sample_weight)

    def result(self, write_summary=True):
        """The sum so far."""
        return self.total.read_value()


class MeanMetricWrapper(Metric):
    """The running mean of ``fn(y_true, y_pred)``, one value per example."""

    def __init__(self, fn, name, dtype=dtypes.float32, **fn_kwargs):
        super().__init__(name=name, dtype=dtype)
        self.fn, self.fn_kwargs = fn, fn_kwargs

    def update_state(self, y_true, y_pred, sample_weight=None):
        """Add the per-example values of this batch: labels (batch,) beside predictions
        (batch, 1) are first brought to one rank, as Keras does (``same_rank``), and one
        ``sample_weight`` per example is spread over the example's values. Where the
        predictions carry a Keras mask, masked steps weigh 0 (keras/layers/masks.py)."""
        mask = masks.get_mask(y_pred) if masks.made[0] else None
        y_true, y_pred = same_rank(y_true, y_pred, self.name)
        values = metric_tensor(self.fn(y_true, y_pred, **self.fn_kwargs), self.name, self.dtype)
        if mask is not None:
            sample_weight = masks.mask_weights(mask, values, sample_weight, self.name, False)
        self._accumulate(values, example_weights(sample_weight, values, self.name, self.dtype))


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


def _wrapper(fn, default_name, doc, class_name=None, **defaults):
    """A MeanMetricWrapper subclass over ``fn``, named as Keras names it; ``fn``'s options
    are the class's, and its config (name, dtype, options) rebuilds it."""

    def __init__(self, name=default_name, dtype=dtypes.float32, **kwargs):
        MeanMetricWrapper.__init__(self, fn, name, dtype, **{**defaults, **kwargs})

    def get_config(self):
        """The arguments that rebuild this metric (``from_config``), as Keras saves them."""
        return {"name": self.name, "dtype": self.dtype.name, **self.fn_kwargs}

    @classmethod
    def from_config(cls, config):
        """The metric ``get_config`` describes."""
        return cls(**config)

    class_name = class_name or "".join(word.capitalize() for word in default_name.split("_"))
    namespace = {"__init__": __init__, "__doc__": doc, "__module__": __name__}
    namespace.update(get_config=get_config, from_config=from_config)
    return type(class_name, (MeanMetricWrapper,), namespace)


Accuracy = _wrapper(
    accuracy,
    "accuracy",
    """How often ``y_pred`` equals ``y_true``.

    Examples
    --------
    >>> import eagerkit as ek
    >>> m = ek.keras.metrics.Accuracy()
    >>> m.update_state([[1], [2], [3], [4]], [[0], [2], [3], [4]])
    >>> m.result()
    <ek.Tensor: shape=(), dtype=float32, numpy=0.75>
    """,
)
BinaryAccuracy = _wrapper(
    binary_accuracy, "binary_accuracy", "How often a thresholded probability matches its label."
)
CategoricalAccuracy = _wrapper(
    categorical_accuracy, "categorical_accuracy", "How often argmax(y_pred) is the one-hot label."
)
SparseCategoricalAccuracy = _wrapper(
    sparse_categorical_accuracy,
    "sparse_categorical_accuracy",
    """How often argmax(y_pred) is the integer label.

    Examples
    --------
    >>> import eagerkit as ek
    >>> m = ek.keras.metrics.SparseCategoricalAccuracy()
    >>> m.update_state([[2], [1]], [[0.1, 0.6, 0.3], [0.05, 0.95, 0]])
    >>> float(m.result())
    0.5
    """,
)
# Keras' other metrics, in their own modules (they build on the classes above).
from eagerkit.keras.auc_metric import AUC  # noqa: E402
from eagerkit.keras.confusion_metrics import (  # noqa: E402
    FalseNegatives,
    FalsePositives,
    Precision,
    Recall,
    TrueNegatives,
    TruePositives,
)
from eagerkit.keras.loss_metrics import (  # noqa: E402
    BinaryCrossentropy,
    CategoricalCrossentropy,
    CategoricalHinge,
    CosineSimilarity,
    Hinge,
    KLDivergence,
    LogCoshError,
    MeanAbsoluteError,
    MeanAbsolutePercentageError,  # noqa: F401 - a name, not in __all__ (as before: its loss is not)
    MeanSquaredError,
    Poisson,
    SparseCategoricalCrossentropy,
    SquaredHinge,
    cosine_similarity,
)
from eagerkit.keras.topk_metrics import (  # noqa: E402
    RootMeanSquaredError,
    SparseTopKCategoricalAccuracy,
    TopKCategoricalAccuracy,
    sparse_top_k_categorical_accuracy,
    top_k_categorical_accuracy,
)

# What this namespace exports (to ``import *`` and to the error boundary, namespaces.py);
# the helpers it imports or keeps for itself stay out.
__all__ = [
    "Metric",
    "Mean",
    "Sum",
    "MeanMetricWrapper",
    "accuracy",
    "binary_accuracy",
    "categorical_accuracy",
    "sparse_categorical_accuracy",
    "top_k_categorical_accuracy",
    "cosine_similarity",
    "sparse_top_k_categorical_accuracy",
    "Accuracy",
    "BinaryAccuracy",
    "CategoricalAccuracy",
    "SparseCategoricalAccuracy",
    "MeanSquaredError",
    "MeanAbsoluteError",
    "BinaryCrossentropy",
    "CategoricalCrossentropy",
    "SparseCategoricalCrossentropy",
    "TopKCategoricalAccuracy",
    "SparseTopKCategoricalAccuracy",
    "RootMeanSquaredError",
    "TruePositives",
    "FalsePositives",
    "TrueNegatives",
    "FalseNegatives",
    "Precision",
    "Recall",
    "AUC",
    "Hinge",
    "SquaredHinge",
    "CategoricalHinge",
    "KLDivergence",
    "Poisson",
    "LogCoshError",
    "CosineSimilarity",
]
