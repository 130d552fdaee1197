"""Keras' ``AUC``: the area under the ROC curve (or the precision-recall curve), from
confusion counts at fixed thresholds; metrics.py re-exports it.

As Keras: ``num_thresholds`` (200) thresholds evenly spaced over [0, 1], the two ends moved
out to just below 0 and just above 1, so the curve runs from (1, 1) to (0, 0). With such
evenly spaced thresholds Keras does not compare a prediction ``p`` with each: it puts it
above the first ``ceil(p * (n - 1))`` (in float32), and so does eagerkit; the two differ
only for some predictions sitting within a float32 step of a threshold (``float32(103 /
199)`` is above its own threshold). Thresholds given as a list are bucketed so too when
they are evenly spaced, and otherwise compared (strictly above). The area is a Riemann sum
over the thresholds: ``summation_method="interpolation"`` takes the mean height of each
step (trapezoids; on the PR curve, Davis & Goadrich's interpolation of precision, as
Keras), ``"minoring"`` the lower and ``"majoring"`` the higher end.

Examples
--------
>>> import eagerkit as ek
>>> m = ek.keras.metrics.AUC(num_thresholds=3)
>>> m.update_state([0, 0, 1, 1], [0.0, 0.5, 0.3, 0.9])
>>> float(m.result())  # thresholds -1e-7, 0.5, 1 + 1e-7: TPR (1, .5, 0), FPR (1, 0, 0)
0.75
"""

import numpy as np

from eagerkit import dtypes
from eagerkit.errors import InvalidArgumentError
from eagerkit.keras.confusion_counts import (
    checked_whole,
    confusion_counts,
    parse_thresholds,
)
from eagerkit.keras.confusion_metrics import ConfusionMetric
from eagerkit.keras.metric_inputs import metric_tensor
from eagerkit.limits import check_count
from eagerkit.ops.arithmetic import maximum, minimum
from eagerkit.ops.compare import logical_and
from eagerkit.ops.compare import where as where_
from eagerkit.ops.creation import constant, ones_like, zeros
from eagerkit.ops.math import log, sigmoid
from eagerkit.ops.reduce import reduce_mean, reduce_sum
from eagerkit.ops.safe_math import divide_no_nan

EPSILON = 1e-7  # the end thresholds sit this far outside [0, 1] (Keras' backend.epsilon())
CURVES = ("ROC", "PR")
SUMMATIONS = ("interpolation", "minoring", "majoring")
MAX_THRESHOLDS = 10**6  # Keras' default is 200; more only slows every update


def _choice(value, allowed, what, where):
    """``value`` matched to one of ``allowed`` ignoring case, as Keras' ``from_str``."""
    for option in allowed:
        if isinstance(value, str) and value.lower() == option.lower():
            return option
    raise InvalidArgumentError(
        f'{where}: Invalid AUC {what} value: "{value}". Expected values are {list(allowed)}',
        op=where,
    )


class AUC(ConfusionMetric):
    """The area under the ROC curve (``curve="ROC"``) or precision-recall curve (``"PR"``).

    ``from_logits=True`` puts a sigmoid on the predictions first. ``multi_label=True``
    takes predictions shaped ``[examples, labels]``, computes one AUC per label and
    averages them (weighted by ``label_weights``); otherwise every prediction counts as
    one example (``label_weights`` then weigh the columns).

    Examples
    --------
    >>> import eagerkit as ek
    >>> m = ek.keras.metrics.AUC(curve="PR")
    >>> m.update_state([0, 1, 1, 0, 1], [0.1, 0.8, 0.4, 0.45, 0.9])
    >>> round(float(m.result()), 2)
    0.9
    >>> m = ek.keras.metrics.AUC(num_thresholds=3)  # Keras' own example
    >>> m.update_state([0, 0, 1, 1], [0, 0.5, 0.3, 0.9], sample_weight=[1, 0, 0, 1])
    >>> float(m.result())
    1.0
    """

    kept = ("tp", "fp", "tn", "fn")

    def __init__(
        self,
        num_thresholds=200,
        curve="ROC",
        summation_method="interpolation",
        name=None,
        dtype=None,
        thresholds=None,
        multi_label=False,
        num_labels=None,
        label_weights=None,
        from_logits=False,
    ):
        where = "AUC"
        self.curve = _choice(curve, CURVES, "curve", where)
        self.summation_method = _choice(summation_method, SUMMATIONS, "summation_method", where)
        self._given_thresholds = thresholds is not None
        if self._given_thresholds:  # Keras sorts them; num_thresholds is then ignored
            inner = sorted(parse_thresholds(thresholds, None, where, allow_empty=True))
        else:
            count = checked_whole(num_thresholds, "num_thresholds", where, 2)
            why = "each threshold is a Python float with four counts"
            check_count(count, MAX_THRESHOLDS, "num_thresholds", where, why)
            inner = [(i + 1) / (count - 1) for i in range(count - 2)]
        self.thresholds = [0.0 - EPSILON, *inner, 1.0 + EPSILON]
        # Keras buckets predictions by arithmetic where the thresholds are i / (n - 1): always
        # when it made them (num_thresholds=2 too), and when given ones are so spaced
        self._evenly_spaced = not self._given_thresholds or _evenly_spaced([0.0, *inner, 1.0])
        self.num_thresholds = len(self.thresholds)
        self.multi_label, self.from_logits = bool(multi_label), bool(from_logits)
        self.num_labels = checked_whole(num_labels, "num_labels", where, 1)
        self.label_weights = None  # host numbers, checked now: options, not data
        if label_weights is not None:
            self.label_weights = metric_tensor(label_weights, where, dtypes.float64).numpy()
        if self.label_weights is not None and (
            self.label_weights.ndim != 1 or np.any(self.label_weights < 0)
        ):
            raise InvalidArgumentError(
                f"{where}: label_weights must be one non-negative weight per label, got "
                f"{self.label_weights.tolist()}",
                op=where,
            )
        if self.num_labels and not self.multi_label:
            raise InvalidArgumentError(
                f"{where}: `num_labels` is needed only when `multi_label` is True; drop it, "
                "or pass multi_label=True",
                op=where,
            )
        labels = self.num_labels if self.multi_label else None
        shape = None if self.multi_label and labels is None else (self.num_thresholds,)
        shape = (self.num_thresholds, labels) if labels else shape
        super().__init__(name or "auc", dtype, shape)

    def update_state(self, y_true, y_pred, sample_weight=None):
        """Count this batch's labels (0/1) against its predictions (in [0, 1], or logits
        with ``from_logits=True``)."""
        where = "AUC.update_state"
        if self.from_logits:
            y_pred = sigmoid(metric_tensor(y_pred, where, self.dtype))  # as Keras: its dtype
        counts = confusion_counts(
            where,
            y_true,
            y_pred,
            self.thresholds,
            sample_weight,
            multi_label=self.multi_label,
            label_weights=self.label_weights,
            dtype=self.dtype,
            evenly_spaced=self._evenly_spaced,
        )
        self._add_counts(counts)

    def _compute(self, counts):
        if not counts:  # multi_label, nothing seen yet: the counts are made at the first batch
            return zeros([], dtypes.float64)
        if self.curve == "PR" and self.summation_method == "interpolation":
            by_label = _interpolated_pr_auc(**counts)
        else:
            tp, fp, tn, fn = (counts[key] for key in self.kept)
            recall = divide_no_nan(tp, tp + fn)
            if self.curve == "ROC":
                x, y = divide_no_nan(fp, fp + tn), recall
            else:
                x, y = recall, divide_no_nan(tp, tp + fp)
            if self.summation_method == "interpolation":
                heights = (y[:-1] + y[1:]) / 2
            elif self.summation_method == "minoring":
                heights = minimum(y[:-1], y[1:])
            else:
                heights = maximum(y[:-1], y[1:])
            by_label = reduce_sum((x[:-1] - x[1:]) * heights, axis=0)
        if not self.multi_label:
            return by_label
        if self.label_weights is None:
            return reduce_mean(by_label)
        weights = constant(self.label_weights, dtypes.float64)
        return divide_no_nan(reduce_sum(by_label * weights), reduce_sum(weights))

    def get_config(self):
        config = {
            "num_thresholds": self.num_thresholds,
            "curve": self.curve,
            "summation_method": self.summation_method,
            "multi_label": self.multi_label,
            "num_labels": self.num_labels,
            "label_weights": None if self.label_weights is None else self.label_weights.tolist(),
            "from_logits": self.from_logits,
        }
        if self._given_thresholds:  # only the user's: the two end ones are added again
            config["thresholds"] = self.thresholds[1:-1]
        return {**config, **super().get_config()}


def _evenly_spaced(points):
    """Whether ``points`` (0, the inner thresholds, 1) are ``i / (n - 1)`` to within epsilon,
    at least one inner threshold among them (Keras' ``is_evenly_distributed_thresholds``)."""
    count = len(points)
    even = [i / max(count - 1, 1) for i in range(count)]
    # numpy's allclose as Keras calls it: |a - b| <= atol + rtol |b|, atol epsilon, rtol 1e-5
    close = all(abs(a - b) <= EPSILON + 1e-5 * abs(b) for a, b in zip(points, even, strict=True))
    return count >= 3 and close


def _interpolated_pr_auc(tp, fp, tn, fn):
    """The area under the PR curve, precision interpolated between thresholds as Davis &
    Goadrich (2006): between two thresholds, precision is ``dTP / dP`` along a line in the
    number of positive predictions ``P``, which integrates to a log term (Keras'
    ``interpolate_pr_auc``)."""
    d_tp = tp[:-1] - tp[1:]
    p = tp + fp
    d_p = p[:-1] - p[1:]
    slope = divide_no_nan(d_tp, maximum(d_p, 0.0))
    intercept = tp[1:] - slope * p[1:]
    both_positive = logical_and(p[:-1] > 0, p[1:] > 0)
    ratio = where_(both_positive, divide_no_nan(p[:-1], maximum(p[1:], 0.0)), ones_like(d_p))
    increments = divide_no_nan(
        slope * (d_tp + intercept * log(ratio)), maximum(tp[1:] + fn[1:], 0.0)
    )
    return reduce_sum(increments, axis=0)
