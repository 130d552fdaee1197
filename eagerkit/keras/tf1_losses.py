"""Losses with TF1's ``tf.losses`` signatures: each returns one scalar, the mean loss.

The reduction is TF1's default: the weighted sum divided by the number of non-zero
weights, which for the default ``weights=1.0`` is the plain mean over all elements.

Examples
--------
>>> import eagerkit as ek
>>> ek.losses.mean_squared_error([1.0, 2.0], [1.0, 4.0])
<ek.Tensor: shape=(), dtype=float32, numpy=2.0>
>>> ek.losses.sparse_softmax_cross_entropy([0], [[0.0, 0.0]])
<ek.Tensor: shape=(), dtype=float32, numpy=0.6931472>
"""

from eagerkit.errors import InvalidArgumentError
from eagerkit.ops import nn
from eagerkit.ops.arithmetic import minimum
from eagerkit.ops.cast import cast
from eagerkit.ops.math import abs as abs_
from eagerkit.ops.reduce import reduce_mean, reduce_sum
from eagerkit.ops.shape import broadcast_to
from eagerkit.tensor import convert_to_tensor


def compute_weighted_loss(losses, weights=1.0):
    """sum(losses * weights) / (number of non-zero weights); the plain mean for weights=1.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.losses.compute_weighted_loss([1.0, 2.0, 6.0], weights=[1.0, 0.0, 1.0])
    <ek.Tensor: shape=(), dtype=float32, numpy=3.5>
    """
    losses = convert_to_tensor(losses)
    if isinstance(weights, (int, float)) and weights == 1.0:  # (not an array: its == is one)
        return reduce_mean(losses)  # the common case, in one op
    weights = broadcast_to(convert_to_tensor(weights, dtype=losses.dtype), losses.shape)
    nonzero = reduce_sum(cast(weights != 0, losses.dtype))
    return reduce_sum(losses * weights) / (nonzero + cast(nonzero == 0, losses.dtype))


def _matching(name, labels, predictions):
    """Predictions as a float tensor and labels in its dtype, with matching shapes."""
    predictions = convert_to_tensor(predictions)
    labels = convert_to_tensor(labels, dtype=predictions.dtype)
    if labels.shape != predictions.shape:
        raise InvalidArgumentError(
            f"{name}: labels have shape {labels.shape} but predictions have shape "
            f"{predictions.shape}; they must match (reshape one, e.g. ek.reshape(labels, "
            f"{list(predictions.shape)}))",
            op=name,
        )
    return labels, predictions


def mean_squared_error(labels, predictions, weights=1.0):
    """Mean of (predictions - labels) ** 2.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.losses.mean_squared_error([[0.0], [0.0]], [[1.0], [3.0]])
    <ek.Tensor: shape=(), dtype=float32, numpy=5.0>
    """
    labels, predictions = _matching("mean_squared_error", labels, predictions)
    return compute_weighted_loss((predictions - labels) ** 2, weights)


def absolute_difference(labels, predictions, weights=1.0):
    """Mean of |predictions - labels|.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.losses.absolute_difference([0.0, 0.0], [1.0, -3.0])
    <ek.Tensor: shape=(), dtype=float32, numpy=2.0>
    """
    labels, predictions = _matching("absolute_difference", labels, predictions)
    return compute_weighted_loss(abs_(predictions - labels), weights)


def huber_loss(labels, predictions, weights=1.0, delta=1.0):
    """Squared error for errors up to ``delta``, linear beyond: outliers pull less.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.losses.huber_loss([0.0, 0.0], [0.5, 3.0])  # (0.125 + 2.5) / 2
    <ek.Tensor: shape=(), dtype=float32, numpy=1.3125>
    """
    labels, predictions = _matching("huber_loss", labels, predictions)
    error = abs_(predictions - labels)
    quadratic = minimum(error, delta)  # the part of the error inside the squared zone
    linear = error - quadratic
    return compute_weighted_loss(0.5 * quadratic * quadratic + delta * linear, weights)


def softmax_cross_entropy(onehot_labels, logits, weights=1.0, label_smoothing=0):
    """Mean cross-entropy between one-hot (or soft) labels and softmax(logits).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.losses.softmax_cross_entropy([[0.0, 1.0]], [[0.0, 0.0]])
    <ek.Tensor: shape=(), dtype=float32, numpy=0.6931472>
    """
    labels, logits = _matching("softmax_cross_entropy", onehot_labels, logits)
    if label_smoothing:
        classes = logits.shape[-1]
        labels = labels * (1 - label_smoothing) + label_smoothing / classes
    losses = nn.softmax_cross_entropy_with_logits(labels=labels, logits=logits)
    return compute_weighted_loss(losses, weights)


def sparse_softmax_cross_entropy(labels, logits, weights=1.0):
    """Mean cross-entropy between integer class labels and softmax(logits) (one fused op).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.losses.sparse_softmax_cross_entropy([1, 0], [[0.0, 0.0], [0.0, 0.0]])
    <ek.Tensor: shape=(), dtype=float32, numpy=0.6931472>
    """
    losses = nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits)
    return compute_weighted_loss(losses, weights)


def sigmoid_cross_entropy(multi_class_labels, logits, weights=1.0, label_smoothing=0):
    """Mean binary cross-entropy between 0/1 labels and sigmoid(logits), element by element.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.losses.sigmoid_cross_entropy([1.0, 0.0], [0.0, 0.0])
    <ek.Tensor: shape=(), dtype=float32, numpy=0.6931472>
    """
    labels, logits = _matching("sigmoid_cross_entropy", multi_class_labels, logits)
    if label_smoothing:
        labels = labels * (1 - label_smoothing) + 0.5 * label_smoothing
    losses = nn.sigmoid_cross_entropy_with_logits(labels=labels, logits=logits)
    return compute_weighted_loss(losses, weights)


def cosine_distance(labels, predictions, axis=None, weights=1.0, dim=None):
    """Mean of ``1 - sum(labels * predictions, axis)``: the cosine distance of vectors
    already of unit length (TF1's ``tf.losses.cosine_distance``; normalize them first, e.g.
    with ``ek.nn.l2_normalize``). ``dim`` is TF1's older name for ``axis``.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.losses.cosine_distance([[0.6, 0.8], [1.0, 0.0]], [[0.6, 0.8], [0.0, 1.0]], axis=1)
    <ek.Tensor: shape=(), dtype=float32, numpy=0.5>
    """
    if axis is not None and dim is not None and axis != dim:
        raise InvalidArgumentError(
            f"cosine_distance: axis={axis} and dim={dim} are two names for one argument; pass "
            "axis only",
            op="cosine_distance",
        )
    axis = dim if axis is None else axis
    if axis is None:  # TF1: "You must specify 'axis'."
        raise InvalidArgumentError(
            "cosine_distance: You must specify 'axis', the axis of the vectors, e.g. axis=1 "
            "for rows of [batch, features]",
            op="cosine_distance",
        )
    labels, predictions = _matching("cosine_distance", labels, predictions)
    losses = 1 - reduce_sum(labels * predictions, axis=axis, keepdims=True)
    return compute_weighted_loss(losses, weights)


# What this namespace exports (to ``import *`` and to the error boundary, namespaces.py);
# the helpers it imports or keeps for itself stay out.
__all__ = [
    "compute_weighted_loss",
    "mean_squared_error",
    "absolute_difference",
    "huber_loss",
    "softmax_cross_entropy",
    "sparse_softmax_cross_entropy",
    "sigmoid_cross_entropy",
    "cosine_distance",
]
