"""Keras' confusion metrics: ``TruePositives``, ``FalsePositives``, ``TrueNegatives``,
``FalseNegatives``, ``Precision`` and ``Recall`` (``AUC`` is in auc_metric.py); metrics.py
re-exports them.

Each keeps its counts per threshold in non-trainable variables (one count per threshold):
a prediction in ``[0, 1]`` counts as positive when it is above the threshold (0.5 unless
given). With one threshold the result is a number, with a list one value per threshold.
The counting is in confusion_counts.py: eagerkit ops, so ``update_state`` and ``result``
work inside ``ek.function`` as well.

Examples
--------
>>> import eagerkit as ek
>>> m = ek.keras.metrics.Precision()
>>> m.update_state([0, 1, 1, 1], [1.0, 1.0, 0.0, 0.6])  # 2 true positives, 1 false one
>>> round(float(m.result()), 4)
0.6667
"""

import numpy as np

from eagerkit import dtypes
from eagerkit.errors import InvalidArgumentError
from eagerkit.keras.confusion_counts import (
    NEG_INF,
    checked_whole,
    confusion_counts,
    parse_thresholds,
)
from eagerkit.keras.layers.base import unique_name
from eagerkit.keras.metrics import Metric
from eagerkit.limits import check_tensor
from eagerkit.ops.cast import cast
from eagerkit.ops.creation import zeros_like
from eagerkit.ops.reshaping import reshape
from eagerkit.ops.safe_math import divide_no_nan
from eagerkit.variables import Variable


class ConfusionMetric(Metric):
    """Base of the confusion metrics: named count variables (``"tp"``, ``"fp"``, ...) of one
    shape, updated all together or not at all. Subclasses name the counts they keep
    (``kept``), say how the counts give the result (``_compute``) and how they update."""

    kept = ()  # which of "tp", "fp", "tn", "fn" this metric keeps

    def __init__(self, name, dtype, shape):
        # Not Metric.__init__: a confusion metric keeps counts, not a total and a count.
        self.name = name or unique_name(type(self).__name__.lower())
        self.dtype = dtypes.as_dtype(dtypes.float32 if dtype is None else dtype)
        # shape None: made at the first update, when the batch shows it (AUC's labels)
        self._counts = (
            {} if shape is None else {k: self._count_variable(k, shape) for k in self.kept}
        )

    def _count_variable(self, key, shape):
        check_tensor(shape, self.dtype.size, type(self).__name__)  # num_labels=2**40
        zeros = np.zeros(shape, self.dtype.as_numpy_dtype)
        return Variable(zeros, trainable=False, name=f"{self.name}/{_LONG[key]}")

    def _add_counts(self, counts):
        """Add the counts of one batch: every variable is written, or none is."""
        for key, variable in self._counts.items():
            if tuple(variable.shape) != tuple(counts[key].shape):
                raise InvalidArgumentError(
                    f"{self.name}: this batch gives counts of shape "
                    f"{tuple(counts[key].shape)}, the earlier ones {tuple(variable.shape)}; "
                    "pass the same number of labels in every batch (or reset_state() first)",
                    op=self.name,
                )
        for key in self.kept:
            if key not in self._counts:
                self._counts[key] = self._count_variable(key, tuple(counts[key].shape))
            variable = self._counts[key]
            variable.assign_add(cast(counts[key], variable.dtype))

    def _state(self):
        return {key: variable._data for key, variable in self._counts.items()}

    def _result_after(self, before):
        try:
            return self.result()
        except BaseException:  # logging the result failed: the update is taken back
            for key in list(self._counts):
                if key in before:
                    self._counts[key]._write(before[key], "update_state")
                else:  # made by this update
                    del self._counts[key]
            raise

    def _values(self):
        return {key: cast(variable, dtypes.float64) for key, variable in self._counts.items()}

    def result(self, write_summary=True):
        """The metric from the counts so far (0 where a ratio has nothing to divide by);
        ops on the variables, so it works inside ``ek.function`` too."""
        value = cast(self._compute(self._values()), self.dtype)
        if tuple(value.shape) == (1,):  # one threshold: a number
            value = reshape(value, [])
        if write_summary and value.ndim == 0:
            from eagerkit import summary

            summary.scalar(self.name, value)  # does nothing unless a writer records now
        return value

    def reset_state(self):
        """Forget every count."""
        for variable in self._counts.values():
            variable.assign(zeros_like(variable))

    reset_states = reset_state

    @property
    def variables(self):
        """The count variables (``true_positives``, ...)."""
        return list(self._counts.values())

    def get_config(self):
        """The arguments that rebuild this metric (``from_config``), as Keras saves them."""
        return {"name": self.name, "dtype": self.dtype.name}

    @classmethod
    def from_config(cls, config):
        """The metric ``get_config`` describes."""
        return cls(**config)

    def __repr__(self):
        value = self.result(write_summary=False).numpy()
        return f"<ek.keras.metrics.{type(self).__name__} '{self.name}' result={value.tolist()}>"


_LONG = {"tp": "true_positives", "fp": "false_positives"}
_LONG.update(tn="true_negatives", fn="false_negatives")


class _ThresholdCount(ConfusionMetric):
    """One of the four counts at each threshold (Keras' ``_ConfusionMatrixConditionCount``)."""

    def __init__(self, thresholds=None, name=None, dtype=None):
        where = type(self).__name__
        self.init_thresholds = thresholds
        self.thresholds = parse_thresholds(thresholds, 0.5, where)
        super().__init__(name or _LONG[self.kept[0]], dtype, (len(self.thresholds),))

    def update_state(self, y_true, y_pred, sample_weight=None):
        """Count this batch's labels (0/1) against its predictions (in [0, 1])."""
        where = f"{type(self).__name__}.update_state"
        counts = confusion_counts(
            where, y_true, y_pred, self.thresholds, sample_weight, dtype=self.dtype
        )
        self._add_counts(counts)

    def _compute(self, counts):
        return counts[self.kept[0]]

    def get_config(self):
        return {"thresholds": self.init_thresholds, **super().get_config()}


def _count_class(class_name, key, doc):
    namespace = {"kept": (key,), "__doc__": doc, "__module__": __name__}
    return type(class_name, (_ThresholdCount,), namespace)


TruePositives = _count_class(
    "TruePositives",
    "tp",
    """The (weighted) number of true positives: label 1, prediction above the threshold.

    Examples
    --------
    >>> import eagerkit as ek
    >>> m = ek.keras.metrics.TruePositives(thresholds=[0.3, 0.7])
    >>> m.update_state([0, 1, 1, 1], [0.9, 0.5, 0.8, 0.2])
    >>> m.result().numpy().tolist()
    [2.0, 1.0]
    """,
)
FalsePositives = _count_class(
    "FalsePositives",
    "fp",
    """The (weighted) number of false positives: label 0, prediction above the threshold.

    Examples
    --------
    >>> import eagerkit as ek
    >>> float(ek.keras.metrics.FalsePositives()([0, 1, 0, 0], [0.9, 1.0, 0.6, 0.1]))
    2.0
    """,
)
TrueNegatives = _count_class(
    "TrueNegatives",
    "tn",
    """The (weighted) number of true negatives: label 0, prediction not above the threshold.

    Examples
    --------
    >>> import eagerkit as ek
    >>> m = ek.keras.metrics.TrueNegatives()
    >>> float(m([0, 1, 0, 0], [0.9, 1.0, 0.5, 0.1], sample_weight=[1.0, 1.0, 2.0, 3.0]))
    5.0
    """,
)
FalseNegatives = _count_class(
    "FalseNegatives",
    "fn",
    """The (weighted) number of false negatives: label 1, prediction not above the threshold.

    Examples
    --------
    >>> import eagerkit as ek
    >>> float(ek.keras.metrics.FalseNegatives()([[1], [1], [0]], [[0.2], [0.9], [0.1]]))
    1.0
    """,
)


class _RatioMetric(ConfusionMetric):
    """Precision and Recall: a ratio of counts, with Keras' ``top_k`` and ``class_id``."""

    def __init__(self, thresholds=None, top_k=None, class_id=None, name=None, dtype=None):
        where = type(self).__name__
        self.init_thresholds = thresholds
        self.top_k = checked_whole(top_k, "top_k", where, 1)
        self.class_id = checked_whole(class_id, "class_id", where, 0)
        default = NEG_INF if self.top_k else 0.5  # with top_k: the top k are the positives
        self.thresholds = parse_thresholds(thresholds, default, where)
        super().__init__(name or where.lower(), dtype, (len(self.thresholds),))

    def update_state(self, y_true, y_pred, sample_weight=None):
        """Count this batch's labels (0/1) against its predictions (in [0, 1])."""
        where = f"{type(self).__name__}.update_state"
        counts = confusion_counts(
            where,
            y_true,
            y_pred,
            self.thresholds,
            sample_weight,
            self.top_k,
            self.class_id,
            dtype=self.dtype,
        )
        self._add_counts(counts)

    def get_config(self):
        options = {"thresholds": self.init_thresholds, "top_k": self.top_k}
        return {**options, "class_id": self.class_id, **super().get_config()}


class Precision(_RatioMetric):
    """``tp / (tp + fp)``: of the predictions above the threshold, the share labelled 1
    (0 before any positive prediction). ``top_k=k``: a row's k largest predictions are its
    positives; ``class_id=c``: only column ``c`` counts.

    Examples
    --------
    >>> import eagerkit as ek
    >>> m = ek.keras.metrics.Precision(top_k=1)
    >>> m.update_state([[0, 0, 1], [0, 1, 0]], [[0.1, 0.2, 0.7], [0.5, 0.3, 0.2]])
    >>> float(m.result())
    0.5
    """

    kept = ("tp", "fp")

    def _compute(self, counts):
        return divide_no_nan(counts["tp"], counts["tp"] + counts["fp"])


class Recall(_RatioMetric):
    """``tp / (tp + fn)``: of the examples labelled 1, the share predicted above the
    threshold (0 before any example labelled 1). ``top_k`` and ``class_id`` as Precision.

    Examples
    --------
    >>> import eagerkit as ek
    >>> m = ek.keras.metrics.Recall(thresholds=[0.5, 0.9])
    >>> m.update_state([0, 1, 1, 1], [1.0, 0.95, 0.6, 0.2])
    >>> [round(v, 4) for v in m.result().numpy().tolist()]
    [0.6667, 0.3333]
    """

    kept = ("tp", "fn")

    def _compute(self, counts):
        return divide_no_nan(counts["tp"], counts["tp"] + counts["fn"])
