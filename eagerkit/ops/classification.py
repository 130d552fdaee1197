"""Scoring class predictions: in_top_k and confusion_matrix.

``in_top_k`` answers yes or no (no gradient). ``confusion_matrix`` is a ``scatter_nd`` of
the weights at (label, prediction) pairs, so a float ``weights`` gets a gradient as in TF.
"""

from eagerkit import arguments, dtypes
from eagerkit.dtypes import FLOATING
from eagerkit.errors import InvalidArgumentError
from eagerkit.ops.cast import cast
from eagerkit.ops.creation import ones_like
from eagerkit.ops.reduce import reduce_max, reduce_min
from eagerkit.ops.scatter import scattered
from eagerkit.ops.shape import stack
from eagerkit.registry import defop
from eagerkit.tensor import convert_to_tensor


@defop("in_top_k", dtypes=FLOATING, dtype_args=(0,), differentiable=False)
def _in_top_k(xp, predictions, targets, *, k):
    classes = predictions.shape[1]
    if classes == 0:  # no class at all: no target can be in the top k
        return xp.zeros(targets.shape, dtype=bool)
    known = (targets >= 0) & (targets < classes)
    column = xp.where(known, targets, 0).astype(xp.int64)[:, None]
    target_score = xp.take_along_axis(predictions, column, axis=1)
    # Ties straddling the k-th place all count as in the top k (TF's rule): count only the
    # classes scored strictly higher than the target.
    higher = (predictions > target_score).sum(axis=1)
    # A target out of range, or scored inf or NaN, is never in the top k (TF's "cannot say").
    return known & xp.isfinite(target_score[:, 0]) & (higher < k)


def in_top_k(targets, predictions, k, name=None):
    """Whether each row's target class is among its ``k`` highest predictions.

    ``predictions`` is ``[batch, classes]`` (float), ``targets`` ``[batch]`` class ids. Classes
    tied with the k-th highest score all count as in the top k, as in TF.

    TF 2 writes ``in_top_k(targets, predictions, k)``, TF 1 ``in_top_k(predictions, targets,
    k)``; both are accepted. The dtypes tell the two orders apart without doubt (predictions
    are floats, targets integers), so code from either version runs unchanged; two floats or
    two integers are refused, with the cast that fixes them.

    Examples
    --------
    >>> import eagerkit as ek
    >>> scores = [[0.1, 0.7, 0.2], [0.5, 0.3, 0.2]]
    >>> ek.math.in_top_k([2, 1], scores, k=2)
    <ek.Tensor: shape=(2,), dtype=bool, numpy=array([ True,  True])>
    >>> ek.nn.in_top_k(scores, [1, 1], 1)  # TF 1's order
    <ek.Tensor: shape=(2,), dtype=bool, numpy=array([ True, False])>
    """
    op = "in_top_k"
    targets, predictions = _in_either_order(
        convert_to_tensor(targets), convert_to_tensor(predictions)
    )
    k = arguments.size(k, "k", op)
    if predictions.ndim != 2 or targets.ndim != 1 or targets.shape[0] != predictions.shape[0]:
        raise InvalidArgumentError(
            f"{op}: predictions must be [batch, classes] and targets [batch], got shapes "
            f"{predictions.shape} and {targets.shape}",
            op=op,
        )
    return _in_top_k(predictions, targets, k=k)


def _in_either_order(first, second):
    """(targets, predictions) from TF 2's order or TF 1's (the float one is predictions)."""
    if first.dtype.is_floating and second.dtype.is_integer:
        first, second = second, first  # TF 1's in_top_k(predictions, targets, k)
    if first.dtype.is_integer and second.dtype.is_floating:
        return first, second
    both = f"{first.dtype.name} and {second.dtype.name}"
    if first.dtype.is_floating and second.dtype.is_floating:
        fix = "targets are integer class ids: pass ek.cast(targets, ek.int32)"
    elif first.dtype.is_integer and second.dtype.is_integer:
        fix = "predictions are float scores: pass ek.cast(predictions, ek.float32)"
    else:
        fix = "predictions must be float scores and targets integer class ids"
    raise InvalidArgumentError(
        f"in_top_k: got {both}, so neither order fits (TF 2: in_top_k(targets, predictions, "
        f"k); TF 1: in_top_k(predictions, targets, k)); {fix}",
        op="in_top_k",
    )


def _class_ids(values, what, op):
    """Labels or predictions as an int64 vector (TF casts them, floats truncated)."""
    values = convert_to_tensor(values)
    if values.ndim != 1 or not (values.dtype.is_integer or values.dtype.is_floating):
        raise InvalidArgumentError(
            f"{op}: {what} must be a vector of class ids, got {values.dtype.name} of shape "
            f"{values.shape}; e.g. [0, 2, 1]",
            op=op,
        )
    return cast(values, dtypes.int64)


def confusion_matrix(
    labels, predictions, num_classes=None, weights=None, dtype=dtypes.int32, name=None
):
    """Counts of (label, prediction) pairs: row = true class, column = predicted class.

    ``num_classes`` defaults to the largest class id seen plus one (inside ``ek.function``,
    pass it: a default is read from the traced call's ids). With ``weights`` each pair adds
    its weight instead of 1.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.math.confusion_matrix([0, 1, 1, 2], [0, 1, 2, 2])
    <ek.Tensor: shape=(3, 3), dtype=int32, numpy=
    array([[1, 0, 0],
           [0, 1, 1],
           [0, 0, 1]], dtype=int32)>
    """
    op = "confusion_matrix"
    labels = _class_ids(labels, "labels", op)
    predictions = _class_ids(predictions, "predictions", op)
    if labels.shape[0] != predictions.shape[0]:
        raise InvalidArgumentError(
            f"{op}: labels {labels.shape} and predictions {predictions.shape} must have one "
            "length: one prediction per label",
            op=op,
        )
    ids = stack([labels, predictions], axis=1)  # one (row, column) index tuple per pair
    low, high = (int(reduce_min(ids)), int(reduce_max(ids))) if ids.shape[0] else (0, -1)
    if low < 0:
        raise InvalidArgumentError(
            f"{op}: labels and predictions must be class ids >= 0, got {low}; drop the pairs "
            "with negative ids (e.g. with ek.boolean_mask)",
            op=op,
        )
    if num_classes is None:
        num_classes = high + 1
    num_classes = arguments.size(num_classes, "num_classes", op)
    if high >= num_classes:
        raise InvalidArgumentError(
            f"{op}: class id {high} is out of range for num_classes={num_classes} (ids go from "
            f"0 to {num_classes - 1}); raise num_classes or fix the ids",
            op=op,
        )
    dtype = dtypes.as_dtype(dtype)
    shape = arguments.shape([num_classes, num_classes], op, dtype.as_numpy_dtype)
    counts = ones_like(labels, dtype=dtype) if weights is None else cast(weights, dtype)
    if tuple(counts.shape) != tuple(labels.shape):
        raise InvalidArgumentError(
            f"{op}: weights must have the shape of labels, {labels.shape}, got {counts.shape}",
            op=op,
        )
    return scattered(ids, counts, shape, op)
