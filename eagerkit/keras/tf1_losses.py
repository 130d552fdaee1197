"""Losses with TF 1's ``tf.losses`` signatures: one loss per element, weighted, then reduced.

``reduction`` (one of ``ek.losses.Reduction``) says how: TF 1's default divides the
weighted sum by the number of non-zero weights, which for the default ``weights=1.0`` is
the plain mean; ``Reduction.NONE`` keeps one loss per element. The regression losses
(mean_squared_error, absolute_difference, huber_loss, log_loss, hinge_loss,
cosine_distance) take integer inputs as float32, as TF 1's ``to_float``; unlike TF 1 they
keep float64 inputs in float64 (eagerkit never narrows a dtype silently: a float64
gradient check stays exact).

Examples
--------
>>> import eagerkit as ek
>>> ek.losses.mean_squared_error([1.0, 2.0], [1.0, 4.0])
<ek.Tensor: shape=(), dtype=float32, numpy=2.0>
>>> ek.losses.mean_squared_error([1.0, 2.0], [1.0, 4.0], reduction=ek.losses.Reduction.NONE)
<ek.Tensor: shape=(2,), dtype=float32, numpy=array([0., 4.], dtype=float32)>
>>> ek.losses.sparse_softmax_cross_entropy([0], [[0.0, 0.0]])
<ek.Tensor: shape=(), dtype=float32, numpy=0.6931472>
"""

from eagerkit.errors import InvalidArgumentError
from eagerkit.keras.pairwise_loss import mean_pairwise_squared_error
from eagerkit.ops import nn
from eagerkit.ops.arithmetic import minimum
from eagerkit.ops.math import abs as abs_
from eagerkit.ops.math import log
from eagerkit.ops.reduce import reduce_sum
from eagerkit.ops.shape import squeeze, stop_gradient
from eagerkit.ops.weighted_loss import (
    Reduction,
    checked_pair,
    compute_weighted_loss,
    weighted_loss,
)
from eagerkit.tensor import convert_to_tensor

DEFAULT = Reduction.SUM_BY_NONZERO_WEIGHTS  # TF 1's default reduction


def mean_squared_error(
    labels, predictions, weights=1.0, scope=None, loss_collection="losses", reduction=DEFAULT
):
    """(predictions - labels) ** 2, weighted and reduced (the mean by default).

    ``scope`` and ``loss_collection`` are TF 1's graph bookkeeping: executing eagerly, TF 1
    uses neither, and nor does eagerkit. ``reduction``: see ``ek.losses.Reduction``.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.losses.mean_squared_error([[0.0], [0.0]], [[1.0], [3.0]])
    <ek.Tensor: shape=(), dtype=float32, numpy=5.0>
    >>> ek.losses.mean_squared_error([0.0, 0.0], [1.0, 3.0], weights=[1.0, 0.0])
    <ek.Tensor: shape=(), dtype=float32, numpy=1.0>
    """
    labels, predictions = checked_pair("mean_squared_error", labels, predictions)
    losses = (predictions - labels) ** 2
    return weighted_loss("mean_squared_error", losses, weights, reduction)


def absolute_difference(
    labels, predictions, weights=1.0, scope=None, loss_collection="losses", reduction=DEFAULT
):
    """|predictions - labels|, weighted and reduced (the mean by default).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.losses.absolute_difference([0.0, 0.0], [1.0, -3.0])
    <ek.Tensor: shape=(), dtype=float32, numpy=2.0>
    """
    labels, predictions = checked_pair("absolute_difference", labels, predictions)
    losses = abs_(predictions - labels)
    return weighted_loss("absolute_difference", losses, weights, reduction)


def huber_loss(
    labels,
    predictions,
    weights=1.0,
    delta=1.0,
    scope=None,
    loss_collection="losses",
    reduction=DEFAULT,
):
    """Squared error for errors up to ``delta``, linear beyond: outliers pull less.

    Per element: 0.5 * e² where \\|e\\| <= delta, else 0.5 * delta² + delta * (\\|e\\| - delta).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.losses.huber_loss([0.0, 0.0], [0.5, 3.0])  # (0.125 + 2.5) / 2
    <ek.Tensor: shape=(), dtype=float32, numpy=1.3125>
    >>> ek.losses.huber_loss([0.0, 0.0], [0.5, 3.0], reduction=ek.losses.Reduction.NONE)
    <ek.Tensor: shape=(2,), dtype=float32, numpy=array([0.125, 2.5  ], dtype=float32)>
    """
    labels, predictions = checked_pair("huber_loss", labels, predictions)
    error = abs_(predictions - labels)
    quadratic = minimum(error, delta)  # the part of the error inside the squared zone
    linear = error - quadratic  # (not relu(error - delta): its gradient at delta would be 1)
    losses = 0.5 * quadratic * quadratic + delta * linear
    return weighted_loss("huber_loss", losses, weights, reduction)


def log_loss(
    labels,
    predictions,
    weights=1.0,
    epsilon=1e-7,
    scope=None,
    loss_collection="losses",
    reduction=DEFAULT,
):
    """Binary cross-entropy of probabilities: -y log(p + eps) - (1 - y) log(1 - p + eps).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.losses.log_loss([1.0, 0.0], [0.5, 0.5])
    <ek.Tensor: shape=(), dtype=float32, numpy=0.69314694>
    """
    labels, predictions = checked_pair("log_loss", labels, predictions)
    losses = -labels * log(predictions + epsilon) - (1 - labels) * log(1 - predictions + epsilon)
    return weighted_loss("log_loss", losses, weights, reduction)


def hinge_loss(
    labels, logits, weights=1.0, scope=None, loss_collection="losses", reduction=DEFAULT
):
    """max(0, 1 - y * logits) with 0/1 labels read as y = -1/+1.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.losses.hinge_loss([1.0, 0.0], [0.5, 0.5], reduction=ek.losses.Reduction.NONE)
    <ek.Tensor: shape=(2,), dtype=float32, numpy=array([0.5, 1.5], dtype=float32)>
    """
    labels, logits = checked_pair("hinge_loss", labels, logits)
    signs = 2 * labels - 1  # TF 1's labels are 0 or 1
    losses = nn.relu(1 - signs * logits)
    return weighted_loss("hinge_loss", losses, weights, reduction)


def softmax_cross_entropy(
    onehot_labels,
    logits,
    weights=1.0,
    label_smoothing=0,
    scope=None,
    loss_collection="losses",
    reduction=DEFAULT,
):
    """Cross-entropy between one-hot (or soft) labels and softmax(logits), one per example.

    ``label_smoothing`` moves the labels towards 1/classes; no gradient flows to the labels.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.losses.softmax_cross_entropy([[0.0, 1.0]], [[0.0, 0.0]])
    <ek.Tensor: shape=(), dtype=float32, numpy=0.6931472>
    """
    name = "softmax_cross_entropy"
    labels, logits = checked_pair(name, onehot_labels, logits, to_float=False)
    if label_smoothing > 0:
        classes = logits.shape[-1]
        labels = labels * (1 - label_smoothing) + label_smoothing / classes
    labels = stop_gradient(labels)  # TF 1: the labels are targets, not parameters
    losses = nn.softmax_cross_entropy_with_logits(labels=labels, logits=logits)
    return weighted_loss(name, losses, weights, reduction)


def sparse_softmax_cross_entropy(
    labels, logits, weights=1.0, scope=None, loss_collection="losses", reduction=DEFAULT
):
    """Cross-entropy between integer class labels and softmax(logits) (one fused op).

    Labels of shape [batch, 1] are read as [batch] (TF 1 squeezes them), and weights of
    the labels' rank plus one lose their last axis too.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.losses.sparse_softmax_cross_entropy([1, 0], [[0.0, 0.0], [0.0, 0.0]])
    <ek.Tensor: shape=(), dtype=float32, numpy=0.6931472>
    """
    labels, logits = convert_to_tensor(labels), convert_to_tensor(logits)
    if labels.shape.rank == logits.shape.rank and labels.shape[-1:] == (1,):
        labels = squeeze(labels, [-1])  # [batch, 1] labels: one class per example
    if not isinstance(weights, (int, float)) and weights is not None:
        weights = convert_to_tensor(weights)
        if weights.shape.rank == labels.shape.rank + 1:
            weights = squeeze(weights, [-1])
    losses = nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits)
    return weighted_loss("sparse_softmax_cross_entropy", losses, weights, reduction)


def sigmoid_cross_entropy(
    multi_class_labels,
    logits,
    weights=1.0,
    label_smoothing=0,
    scope=None,
    loss_collection="losses",
    reduction=DEFAULT,
):
    """Binary cross-entropy between 0/1 labels and sigmoid(logits), element by element.

    ``label_smoothing`` moves the labels towards 1/2.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.losses.sigmoid_cross_entropy([1.0, 0.0], [0.0, 0.0])
    <ek.Tensor: shape=(), dtype=float32, numpy=0.6931472>
    """
    name = "sigmoid_cross_entropy"
    labels, logits = checked_pair(name, multi_class_labels, logits, to_float=False)
    if label_smoothing > 0:
        labels = labels * (1 - label_smoothing) + 0.5 * label_smoothing
    losses = nn.sigmoid_cross_entropy_with_logits(labels=labels, logits=logits)
    return weighted_loss(name, losses, weights, reduction)


def cosine_distance(
    labels,
    predictions,
    axis=None,
    weights=1.0,
    scope=None,
    loss_collection="losses",
    reduction=DEFAULT,
    dim=None,
):
    """``1 - sum(labels * predictions, axis)``: the cosine distance of vectors already of unit
    length (TF 1's ``tf.losses.cosine_distance``; normalize them first, e.g. with
    ``ek.nn.l2_normalize``). ``dim`` is TF 1's older name for ``axis``. With
    ``Reduction.NONE`` the result keeps ``axis`` with size 1.

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
    if axis is None:  # TF 1: "You must specify 'axis'."
        raise InvalidArgumentError(
            "cosine_distance: You must specify 'axis', the axis of the vectors, e.g. axis=1 "
            "for rows of [batch, features]",
            op="cosine_distance",
        )
    labels, predictions = checked_pair("cosine_distance", labels, predictions)
    losses = 1 - reduce_sum(labels * predictions, axis=axis, keepdims=True)
    return weighted_loss("cosine_distance", losses, weights, reduction)


# What this namespace exports (to ``import *`` and to the error boundary, namespaces.py);
# the helpers it imports or keeps for itself stay out.
__all__ = [
    "Reduction",
    "compute_weighted_loss",
    "mean_squared_error",
    "absolute_difference",
    "huber_loss",
    "log_loss",
    "hinge_loss",
    "softmax_cross_entropy",
    "sparse_softmax_cross_entropy",
    "sigmoid_cross_entropy",
    "cosine_distance",
    "mean_pairwise_squared_error",
]
