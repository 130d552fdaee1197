"""Keras 3's ``FBetaScore`` and ``F1Score``: the F-score of multi-label (or one-hot)
predictions per class, from true positive, false positive and false negative counts kept
across batches, averaged as asked (``None``: one score per class, ``"micro"``: from the
counts summed over the classes, ``"macro"``: the mean of the classes' scores,
``"weighted"``: that mean weighted by each class's number of true labels).

A prediction counts as positive above ``threshold``; without one, each row's largest
prediction is its positive (as Keras 3). metrics.py re-exports both classes.

Examples
--------
>>> import eagerkit as ek
>>> m = ek.keras.metrics.F1Score(average="micro", threshold=0.5)
>>> m.update_state([[1, 0], [1, 1]], [[0.9, 0.2], [0.3, 0.8]])  # tp 2, fp 0, fn 1
>>> round(float(m.result()), 4)  # 2 * (1 * 2/3) / (1 + 2/3)
0.8
"""

import numbers

from eagerkit.errors import InvalidArgumentError
from eagerkit.keras.confusion_metrics import ConfusionMetric
from eagerkit.keras.metric_inputs import same_rank
from eagerkit.ops.cast import cast
from eagerkit.ops.compare import logical_and
from eagerkit.ops.creation import zeros
from eagerkit.ops.math import abs as abs_
from eagerkit.ops.reduce import reduce_max, reduce_mean, reduce_sum
from eagerkit.ops.reshaping import expand_dims
from eagerkit.tensor import convert_to_tensor
from eagerkit.variables import Variable

EPSILON = 1e-7  # Keras' backend.epsilon(): no division by zero
_NAMES = {"tp": "true_positives", "fp": "false_positives", "fn": "false_negatives"}
_NAMES["w"] = "intermediate_weights"  # each class's (weighted) number of true labels


def _checked_options(average, beta, threshold, where):
    if average not in (None, "micro", "macro", "weighted"):
        raise InvalidArgumentError(
            f"{where}: average must be None, 'micro', 'macro' or 'weighted', got {average!r}",
            op=where,
        )
    if not isinstance(beta, numbers.Real) or isinstance(beta, bool) or not beta > 0:
        raise InvalidArgumentError(
            f"{where}: beta must be a number > 0, got {beta!r} (1.0 gives the F1 score)",
            op=where,
        )
    if threshold is not None and (
        not isinstance(threshold, numbers.Real)
        or isinstance(threshold, bool)
        or not 0 < threshold <= 1
    ):
        raise InvalidArgumentError(
            f"{where}: threshold must be a number with 0 < threshold <= 1 (or None: each "
            f"row's largest prediction is positive), got {threshold!r}",
            op=where,
        )


class FBetaScore(ConfusionMetric):
    """``(1 + beta^2) * p * r / (beta^2 * p + r)`` per class, p and r the precision and
    recall of the counts so far; averaged as ``average`` says (see the module's doc).

    Examples
    --------
    >>> import eagerkit as ek
    >>> m = ek.keras.metrics.FBetaScore(beta=2.0, threshold=0.5)
    >>> m.update_state([[1, 0], [1, 1]], [[0.9, 0.2], [0.3, 0.8]])
    >>> [round(v, 4) for v in m.result().numpy().tolist()]  # class 0: p 1, r 1/2
    [0.5556, 1.0]
    """

    kept = ("tp", "fp", "fn", "w")

    def __init__(self, average=None, beta=1.0, threshold=None, name="fbeta_score", dtype=None):
        _checked_options(average, beta, threshold, type(self).__name__)
        self.average, self.beta, self.threshold = average, float(beta), threshold
        super().__init__(name, dtype, None)  # the counts' shape: at the first update

    def _count_variable(self, key, shape):
        start = zeros(shape, dtype=self.dtype)
        return Variable(start, trainable=False, name=f"{self.name}/{_NAMES[key]}")

    def update_state(self, y_true, y_pred, sample_weight=None):
        """Count this batch: ``y_true`` 0/1 labels and ``y_pred`` scores, both
        ``[batch, classes]``; ``sample_weight`` one weight per example (or per value)."""
        where = f"{type(self).__name__}.update_state"
        y_true, y_pred = same_rank(y_true, y_pred, where)  # (batch,) beside (batch, 1)
        y_true, y_pred = convert_to_tensor(y_true), convert_to_tensor(y_pred)
        for what, value in (("y_true", y_true), ("y_pred", y_pred)):
            if not (value.dtype.is_floating or value.dtype.is_integer or value.dtype.is_bool):
                raise InvalidArgumentError(
                    f"{where}: {what} must hold numbers, got {value.dtype.name}", op=where
                )
        if y_true.ndim != 2 or tuple(y_true.shape) != tuple(y_pred.shape):
            raise InvalidArgumentError(
                f"{where}: expects 2-D y_true and y_pred of one shape (batch_size, classes), "
                f"got y_true {list(y_true.shape)} and y_pred {list(y_pred.shape)}",
                op=where,
            )
        y_true, y_pred = cast(y_true, self.dtype), cast(y_pred, self.dtype)
        if self.threshold is None:  # each row's largest (non-zero) score is its positive
            top = reduce_max(y_pred, axis=-1, keepdims=True)
            positive = logical_and(y_pred >= top, abs_(y_pred) > 1e-9)
        else:
            positive = y_pred > self.threshold
        predicted = cast(positive, self.dtype)
        weight = None
        if sample_weight is not None:
            weight = cast(convert_to_tensor(sample_weight), self.dtype)
            if weight.ndim == 1:
                weight = expand_dims(weight, -1)  # one weight per example
            if weight.ndim > 2 or weight.shape[0] not in (1, y_true.shape[0]):
                raise InvalidArgumentError(
                    f"{where}: sample_weight must give one weight per example "
                    f"({y_true.shape[0]}) or per value, got shape {list(weight.shape)}",
                    op=where,
                )
        axis = None if self.average == "micro" else 0

        def total(values):
            return reduce_sum(values if weight is None else values * weight, axis=axis)

        counts = {
            "tp": total(predicted * y_true),
            "fp": total(predicted * (1.0 - y_true)),
            "fn": total((1.0 - predicted) * y_true),
            "w": total(y_true),
        }
        self._add_counts(counts)

    def _compute(self, counts):
        if not counts:  # no update yet
            return convert_to_tensor(0.0)
        tp, fp, fn = counts["tp"], counts["fp"], counts["fn"]
        precision = tp / (tp + fp + EPSILON)
        recall = tp / (tp + fn + EPSILON)
        squared = self.beta**2
        score = (1 + squared) * precision * recall / (squared * precision + recall + EPSILON)
        if self.average == "weighted":
            weights = counts["w"] / (reduce_sum(counts["w"]) + EPSILON)
            return reduce_sum(score * weights)
        return score if self.average is None else reduce_mean(score)

    def result(self, write_summary=True):
        """The score from the counts so far (0 before any update)."""
        value = cast(self._compute(self._values()), self.dtype)
        if write_summary and value.ndim == 0:
            from eagerkit import summary

            summary.scalar(self.name, value)  # does nothing unless a writer records now
        return value

    def get_config(self):
        options = {"average": self.average, "beta": self.beta, "threshold": self.threshold}
        return {**options, **super().get_config()}


class F1Score(FBetaScore):
    """The F-score with ``beta = 1``: ``2 * p * r / (p + r)`` (see ``FBetaScore``).

    Examples
    --------
    >>> import eagerkit as ek
    >>> m = ek.keras.metrics.F1Score()  # no threshold: each row's largest is positive
    >>> m.update_state([[0, 1, 0], [1, 0, 0]], [[0.1, 0.7, 0.2], [0.3, 0.6, 0.1]])
    >>> [round(v, 4) for v in m.result().numpy().tolist()]
    [0.0, 0.6667, 0.0]
    """

    def __init__(self, average=None, threshold=None, name="f1_score", dtype=None):
        super().__init__(average=average, beta=1.0, threshold=threshold, name=name, dtype=dtype)

    def get_config(self):
        config = super().get_config()
        del config["beta"]  # always 1 (F1Score takes no beta)
        return config
