"""The counting behind Keras' confusion metrics (``Precision``, ``Recall``, ``AUC``,
``TruePositives``, ...): how many (weighted) labels are true or false positives or
negatives when a prediction counts as positive above each threshold.

As Keras' ``update_confusion_matrix_variables``: predictions must be probabilities in
``[0, 1]``; a prediction is positive when it is strictly greater than the threshold, a label
when it is not 0; both are compared in the metric's dtype (float32 by default: a float32
prediction exactly on a threshold such as 0.3 is not above it, as in Keras); ``top_k``
keeps only the k largest predictions of each row (the others count as negative);
``class_id`` looks at one column only. The counting is eagerkit ops, so it runs inside
``ek.function`` too, in time linear in the batch plus the number of thresholds (one search
in the sorted thresholds and one segment sum, not a batch x thresholds table).

Examples
--------
>>> counts = confusion_counts("doc", [1, 0, 1], [0.9, 0.6, 0.2], [0.5, 0.7])
>>> {name: values.numpy().tolist() for name, values in counts.items()}
{'tp': [1.0, 1.0], 'fp': [1.0, 0.0], 'tn': [0.0, 1.0], 'fn': [1.0, 1.0]}
"""

import numpy as np

from eagerkit import dtypes
from eagerkit.arguments import describe
from eagerkit.errors import InvalidArgumentError
from eagerkit.keras.metric_inputs import (
    example_weights,
    host_check,
    matched_last_axis,
    metric_tensor,
)
from eagerkit.ops.arithmetic import maximum
from eagerkit.ops.cast import cast
from eagerkit.ops.compare import logical_not, not_equal
from eagerkit.ops.compare import where as where_
from eagerkit.ops.creation import constant, ones_like, zeros_like
from eagerkit.ops.creation import range as range_
from eagerkit.ops.indexing import gather, one_hot
from eagerkit.ops.math import ceil
from eagerkit.ops.reduce import reduce_max, reduce_sum
from eagerkit.ops.reshaping import reshape
from eagerkit.ops.scan import cumsum
from eagerkit.ops.searching import searchsorted
from eagerkit.ops.segment import unsorted_segment_sum
from eagerkit.ops.sorting import top_k

NEG_INF = -1e10  # what top_k puts in place of the predictions it drops (Keras' value)


def parse_thresholds(thresholds, default, where, allow_empty=False):
    """``thresholds`` (a number, a list, or None for ``default``) as a list of floats in
    [0, 1], as Keras' ``parse_init_thresholds`` checks them (an empty list only for AUC,
    which adds its two end thresholds)."""
    if thresholds is None:
        return [default]
    values = list(thresholds) if isinstance(thresholds, (list, tuple)) else [thresholds]
    wrong = [
        v for v in values if isinstance(v, bool) or not isinstance(v, (int, float, np.floating))
    ]
    wrong += [v for v in values if v not in wrong and not 0 <= v <= 1]
    if wrong or not (values or allow_empty):
        raise InvalidArgumentError(
            f"{where}: Threshold values must be in [0, 1]. Received: {wrong or values}; pass a "
            "number such as thresholds=0.5 or a list of them",
            op=where,
        )
    return [float(v) for v in values]


@host_check
def _check_probabilities(y_pred, where):
    """Keras asserts predictions in [0, 1]; a NaN fails too (read on the host, at every call)."""
    values = y_pred.numpy()
    if values.size and not (np.all(values >= 0) and np.all(values <= 1)):
        raise InvalidArgumentError(
            f"{where}: y_pred must hold predictions >= 0 and <= 1 (probabilities), got "
            f"values from {np.nanmin(values)} to {np.nanmax(values)}; put a sigmoid on the "
            "model's output (AUC also takes from_logits=True)",
            op=where,
        )


def _keep_top_k(y_pred, k, where):
    """Each row's k largest predictions; the others become NEG_INF (ties: the first ones)."""
    if y_pred.ndim == 0:
        raise InvalidArgumentError(
            f"{where}: top_k needs predictions with a class axis, got a single number",
            op=where,
        )
    classes = y_pred.shape[-1]
    _, indices = top_k(y_pred, min(k, classes))  # k past the classes: every class is kept
    kept = reduce_max(one_hot(indices, classes, dtype=dtypes.int32), axis=-2) > 0
    return where_(kept, y_pred, zeros_like(y_pred) + NEG_INF)


def confusion_counts(
    where,
    y_true,
    y_pred,
    thresholds,
    sample_weight=None,
    top_k=None,
    class_id=None,
    multi_label=False,
    label_weights=None,
    dtype=dtypes.float32,
    evenly_spaced=False,
):
    """``{"tp", "fp", "tn", "fn"}``: each a float64 tensor with one count per threshold
    (``[thresholds, labels]`` when ``multi_label``), the predictions compared with the
    thresholds in ``dtype`` (the metric's, as Keras compares them). Everything is checked
    first: a bad argument raises before anything is counted.

    ``evenly_spaced``: the thresholds are AUC's ``i / (n - 1)``, the two ends moved out by
    epsilon; then, as Keras' AUC, each prediction is put above the first
    ``ceil(p * (n - 1))`` of them (at least one) by arithmetic in ``dtype``, not compared
    (the product can round a float32 prediction sitting on a threshold above it)."""
    y_true = metric_tensor(y_true, where)
    y_pred = metric_tensor(y_pred, where, dtype)  # cast before the check, as Keras does
    fix = "pass one label per prediction (0/1 labels, probabilities in [0, 1])"
    y_true, y_pred = matched_last_axis(y_true, y_pred, where, fix)
    _check_probabilities(y_pred, where)
    weights = example_weights(sample_weight, y_pred, where, dtypes.float64)
    if weights is None:
        weights = ones_like(y_pred, dtype=dtypes.float64)  # counted in float64
    if top_k is not None:
        y_pred = _keep_top_k(y_pred, top_k, where)
    if class_id is not None:
        if y_pred.ndim == 0 or not -y_pred.shape[-1] <= class_id < y_pred.shape[-1]:
            raise InvalidArgumentError(
                f"{where}: class_id={class_id} is not a column of predictions shaped "
                f"{tuple(y_pred.shape)}; pass a class id below the number of classes",
                op=where,
            )
        y_true, y_pred = y_true[..., class_id], y_pred[..., class_id]
        weights = weights[..., class_id]
    if label_weights is not None:  # checked either way; multi_label weighs the AUCs instead
        column_weights = _label_weights(label_weights, y_pred.shape, where)
        weights = weights if multi_label else weights * column_weights
    positive = not_equal(y_true, 0)
    if not multi_label:
        flat = [-1, 1]  # every prediction one example of a single label
        counts = _counted(
            reshape(positive, flat),
            reshape(y_pred, flat),
            reshape(weights, flat),
            thresholds,
            evenly_spaced,
        )
        return {name: reshape(values, [-1]) for name, values in counts.items()}
    if y_pred.ndim != 2:
        raise InvalidArgumentError(
            f"{where}: with multi_label=True pass predictions shaped [examples, labels], got "
            f"{tuple(y_pred.shape)}",
            op=where,
        )
    return _counted(positive, y_pred, weights, thresholds, evenly_spaced)


def _label_weights(label_weights, shape, where):
    weights = metric_tensor(label_weights, where, dtypes.float64)
    if weights.ndim != 1 or not shape or weights.shape[0] != shape[-1]:
        raise InvalidArgumentError(
            f"{where}: label_weights needs one weight per label ({tuple(shape[-1:])}), got "
            f"shape {tuple(weights.shape)}",
            op=where,
        )
    return weights


def _counted(positive, y_pred, weights, thresholds, evenly_spaced=False):
    """The four counts per threshold and label, for ``[examples, labels]`` tensors.

    With the thresholds sorted, ``searchsorted`` gives each prediction the number of
    thresholds it is strictly above. The weight of the predictions above exactly ``k`` of
    them, per label and per truth, is one segment sum (a histogram of ``bins`` bins), and
    "above threshold j" is the sum of the bins past j: time linear in the examples plus
    the thresholds, not a table of examples x thresholds.
    """
    order = sorted(range(len(thresholds)), key=lambda i: thresholds[i])  # stable, as given
    # the thresholds in the predictions' dtype: 0.3 is float32's 0.3 beside float32 scores
    ascending = constant([thresholds[i] for i in order], y_pred.dtype)
    labels = y_pred.shape[-1]
    bins = len(thresholds) + 1
    if evenly_spaced:  # Keras' buckets: ceil(p * (n - 1)) - 1, at least 0, plus the first
        steps = constant(len(thresholds) - 1, y_pred.dtype)
        bucket = maximum(ceil(reshape(y_pred, [-1]) * steps) - 1.0, 0.0)
        above = reshape(cast(bucket, dtypes.int32) + 1, [-1, labels])
    else:  # thresholds < y_pred, per prediction (searchsorted takes them flat)
        above = reshape(searchsorted(ascending, reshape(y_pred, [-1]), side="left"), [-1, labels])
    negative = cast(logical_not(positive), dtypes.int32)
    # one histogram per (truth, label): segment (negative, thresholds below, label); the
    # label's column broadcasts over the examples, however many a call brings
    segment = (negative * bins + above) * labels + range_(labels)
    histogram = unsorted_segment_sum(
        reshape(weights, [-1]), reshape(segment, [-1]), 2 * bins * labels
    )
    histogram = reshape(histogram, [2, bins, labels])
    at_or_below = cumsum(histogram, axis=1)[:, :-1]  # weight not above sorted threshold j
    beyond = reduce_sum(histogram, axis=1, keepdims=True) - at_or_below
    back = constant(sorted(range(len(order)), key=lambda j: order[j]), dtypes.int32)
    # back in the order the thresholds were given
    tp, fp = gather(beyond[0], back), gather(beyond[1], back)
    fn, tn = gather(at_or_below[0], back), gather(at_or_below[1], back)
    return {"tp": tp, "fp": fp, "tn": tn, "fn": fn}


def checked_whole(value, what, where, minimum):
    """A whole number >= ``minimum`` (``top_k``, ``class_id``, ``num_thresholds``), or None."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < minimum:
        raise InvalidArgumentError(
            f"{where}: {what} must be a whole number >= {minimum}, got {describe(value)}",
            op=where,
        )
    return int(value)
