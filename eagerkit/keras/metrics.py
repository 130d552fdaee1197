"""``ek.keras.metrics``: Keras' metric objects, with float32 results as ``tf.keras.metrics``.

``update_state(...)`` accumulates, ``result()`` reads, ``reset_state()`` forgets; calling
the metric does the first two at once. The bookkeeping is that of ``ek.metrics`` (TF1's
``tfe.metrics``, whose results are float64), in float32: variables that grow by
``assign_add`` of eagerkit ops, so ``update_state`` also works inside ``ek.function``
(traced once, every call updates the state). ``Precision``, ``Recall``, ``AUC``
and the confusion counts are in confusion_metrics.py and auc_metric.py, the top-k
accuracies and ``RootMeanSquaredError`` in topk_metrics.py, the running means of losses
(``MeanSquaredError``, ``BinaryCrossentropy``, ``Hinge``, ...) in loss_metrics.py, and
the accuracy functions the accuracy metrics wrap in accuracy_functions.py.

Examples
--------
>>> import eagerkit as ek
>>> m = ek.keras.metrics.Mean()
>>> m.update_state([1.0, 3.0, 5.0, 7.0])
>>> m.result()
<ek.Tensor: shape=(), dtype=float32, numpy=4.0>
"""

from eagerkit import dtypes
from eagerkit.keras.accuracy_functions import (
    accuracy,
    binary_accuracy,
    categorical_accuracy,
    sparse_categorical_accuracy,
)
from eagerkit.keras.layers import masks
from eagerkit.keras.metric_inputs import example_weights, metric_tensor, same_rank
from eagerkit.keras.tf1_metrics import Metric as _Metric


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
from eagerkit.keras.f_score_metrics import F1Score, FBetaScore  # noqa: E402
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
    MeanSquaredLogarithmicError,
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
    "MeanSquaredLogarithmicError",
    "F1Score",
    "FBetaScore",
    "CosineSimilarity",
]
