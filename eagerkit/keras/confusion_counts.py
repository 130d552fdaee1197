"""The counting behind Keras' confusion metrics (``Precision``, ``Recall``, ``AUC``,
``TruePositives``, ...): how many (weighted) labels are true or false positives or
negatives when a prediction counts as positive above each threshold.

As Keras' ``update_confusion_matrix_variables``: predictions must be probabilities in
``[0, 1]``; a prediction is positive when it is strictly greater than the threshold, a label
when it is not 0; ``top_k`` keeps only the k largest predictions of each row (the others
count as negative); ``class_id`` looks at one column only. Metrics are bookkeeping, not
math: the counting runs on the host in numpy, in time linear in the batch plus the number
of thresholds (a sort of the thresholds and one bin count, not a batch x thresholds table).

Examples
--------
>>> counts = confusion_counts("doc", [1, 0, 1], [0.9, 0.6, 0.2], [0.5, 0.7])
>>> {name: values.tolist() for name, values in counts.items()}
{'tp': [1.0, 1.0], 'fp': [1.0, 0.0], 'tn': [0.0, 1.0], 'fn': [1.0, 1.0]}
"""

import numpy as np

from eagerkit.arguments import describe
from eagerkit.errors import InvalidArgumentError
from eagerkit.keras.tf1_metrics import _host

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


def _same_shapes(y_true, y_pred, where):
    """Keras' ``squeeze_or_expand_dimensions``: a trailing axis of 1 on one side goes."""
    if y_pred.ndim == y_true.ndim + 1 and y_pred.shape[-1:] == (1,):
        y_pred = y_pred[..., 0]
    elif y_true.ndim == y_pred.ndim + 1 and y_true.shape[-1:] == (1,):
        y_true = y_true[..., 0]
    if y_true.shape != y_pred.shape:
        raise InvalidArgumentError(
            f"{where}: y_true has shape {y_true.shape} but y_pred has shape {y_pred.shape}; "
            "pass one label per prediction (0/1 labels, probabilities in [0, 1])",
            op=where,
        )
    return y_true, y_pred


def example_weights(sample_weight, shape, where):
    """``sample_weight`` broadcast to ``shape``: one weight per example is spread over the
    example's values (its axis added on the right, as Keras does), or one per value."""
    if sample_weight is None:
        return np.ones(shape)
    weights = _host(sample_weight, where)
    if weights.ndim == len(shape) + 1 and weights.shape[-1:] == (1,):
        weights = weights[..., 0]
    weights = weights.reshape(weights.shape + (1,) * max(0, len(shape) - weights.ndim))
    try:
        return np.broadcast_to(weights, shape)
    except ValueError:
        raise InvalidArgumentError(
            f"{where}: sample_weight of shape {weights.shape} does not broadcast to the "
            f"predictions' shape {shape}; pass one weight per example, or one per prediction",
            op=where,
        ) from None


def _keep_top_k(y_pred, k, where):
    """Each row's k largest predictions; the others become NEG_INF (ties: the first ones)."""
    if y_pred.ndim == 0:
        raise InvalidArgumentError(
            f"{where}: top_k needs predictions with a class axis, got a single number",
            op=where,
        )
    order = np.argsort(-y_pred, axis=-1, kind="stable")[..., :k]
    kept = np.full_like(y_pred, NEG_INF)
    np.put_along_axis(kept, order, np.take_along_axis(y_pred, order, axis=-1), axis=-1)
    return kept


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
):
    """``{"tp", "fp", "tn", "fn"}``: each a float64 array with one count per threshold
    (``[thresholds, labels]`` when ``multi_label``). Everything is checked first: a bad
    argument raises before anything is counted."""
    y_true = _host(y_true, where, dtype=None)
    y_pred = _host(y_pred, where)
    y_true, y_pred = _same_shapes(y_true, y_pred, where)
    if y_pred.size and not (np.all(y_pred >= 0) and np.all(y_pred <= 1)):  # NaN fails too
        raise InvalidArgumentError(
            f"{where}: y_pred must hold predictions >= 0 and <= 1 (probabilities), got "
            "values from "
            f"{np.nanmin(y_pred)} to {np.nanmax(y_pred)}; put a sigmoid on the model's "
            "output (AUC also takes from_logits=True)",
            op=where,
        )
    weights = example_weights(sample_weight, y_pred.shape, where)
    if top_k is not None:
        y_pred = _keep_top_k(y_pred, top_k, where)
    if class_id is not None:
        if y_pred.ndim == 0 or not -y_pred.shape[-1] <= class_id < y_pred.shape[-1]:
            raise InvalidArgumentError(
                f"{where}: class_id={class_id} is not a column of predictions shaped "
                f"{y_pred.shape}; pass a class id below the number of classes",
                op=where,
            )
        y_true, y_pred = y_true[..., class_id], y_pred[..., class_id]
        weights = weights[..., class_id]
    if label_weights is not None:  # checked either way; multi_label weighs the AUCs instead
        column_weights = _label_weights(label_weights, y_pred.shape, where)
        weights = weights if multi_label else weights * column_weights
    positive = y_true != 0
    if not multi_label:
        return _counted(positive.ravel(), y_pred.ravel(), weights.ravel(), thresholds)
    if y_pred.ndim != 2:
        raise InvalidArgumentError(
            f"{where}: with multi_label=True pass predictions shaped [examples, labels], got "
            f"{y_pred.shape}",
            op=where,
        )
    columns = [
        _counted(positive[:, j], y_pred[:, j], weights[:, j], thresholds)
        for j in range(y_pred.shape[1])
    ]
    return {name: np.stack([c[name] for c in columns], axis=-1) for name in columns[0]}


def _label_weights(label_weights, shape, where):
    weights = _host(label_weights, where)
    if weights.ndim != 1 or not shape or weights.shape[0] != shape[-1]:
        raise InvalidArgumentError(
            f"{where}: label_weights needs one weight per label ({shape[-1:]}), got shape "
            f"{weights.shape}",
            op=where,
        )
    return weights


def _counted(positive, y_pred, weights, thresholds):
    """The four counts per threshold, for flat arrays.

    With the thresholds sorted, ``np.searchsorted`` gives each prediction the number of
    thresholds it is strictly above; the weight of the predictions above exactly ``k`` of
    them is a bin count, and "above threshold j" is the sum of the bins past j.
    """
    thresholds = np.asarray(thresholds, dtype=np.float64)
    order = np.argsort(thresholds, kind="stable")
    above = np.searchsorted(thresholds[order], y_pred, side="left")  # thresholds < y_pred
    bins = len(thresholds) + 1
    counts = {}
    for label, (hit, miss) in ((True, ("tp", "fn")), (False, ("fp", "tn"))):
        picked = positive == label
        histogram = np.bincount(above[picked], weights=weights[picked], minlength=bins)
        at_or_below = np.cumsum(histogram)[:-1]  # weight not above sorted threshold j
        sorted_counts = {hit: histogram.sum() - at_or_below, miss: at_or_below}
        for name, values in sorted_counts.items():
            counts[name] = np.empty_like(values)
            counts[name][order] = values  # back in the order the thresholds were given
    return {name: counts[name] for name in ("tp", "fp", "tn", "fn")}


def divide_no_nan(numerator, denominator):
    """``numerator / denominator``, 0 where the denominator is 0 (TF's ``divide_no_nan``)."""
    safe = np.where(denominator == 0, 1.0, denominator)
    return np.where(denominator == 0, 0.0, numerator / safe)


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
