"""``ek.keras.losses``: Keras' losses, ``(y_true, y_pred)`` first, as in ``tf.keras.losses``.

The functions give one loss per example (the mean over the last axis); the classes reduce
that to one scalar, the mean over the batch (Keras' "sum over batch size"), with an
optional ``sample_weight`` per example. Labels of shape (batch,) beside predictions of
shape (batch, 1) are brought to one rank, as Keras 3 does: by every loss object, and by the
functions Keras aligns (``mean_squared_error``, ``mean_absolute_error``, ``msle``,
``mean_absolute_percentage_error``, ``huber``, ``log_cosh``, ``cosine_similarity``).
TF1's ``tf.losses`` (``labels, predictions`` first, one scalar) stay at ``ek.losses``.
``Loss``, ``Reduction`` and ``LossFunctionWrapper``, the machinery of the loss objects, are
in loss_base.py; the hinge losses in hinge_losses.py, ``KLDivergence``, ``Poisson``,
``LogCosh`` and ``CosineSimilarity`` in divergence_losses.py, ``MeanSquaredLogarithmicError``
in log_error_loss.py, ``BinaryFocalCrossentropy`` in focal_loss.py.

Examples
--------
>>> import eagerkit as ek
>>> ek.keras.losses.MeanSquaredError()([0.0, 0.0, 1.0, 1.0], [1.0, 1.0, 1.0, 0.0])
<ek.Tensor: shape=(), dtype=float32, numpy=0.75>
>>> ek.keras.losses.mean_squared_error([[0.0, 1.0]], [[1.0, 1.0]])
<ek.Tensor: shape=(1,), dtype=float32, numpy=array([0.5], dtype=float32)>
>>> ek.keras.losses.MeanSquaredError()([1.0, 2.0], [[1.0], [4.0]])  # (2,) beside (2, 1)
<ek.Tensor: shape=(), dtype=float32, numpy=2.0>
"""

from eagerkit.errors import InvalidArgumentError
from eagerkit.keras.loss_base import EPSILON, Loss, LossFunctionWrapper, Reduction, warn_one_class  # noqa: F401 - Loss: re-exported
from eagerkit.keras.loss_base import checked_pair as _pair
from eagerkit.ops import nn
from eagerkit.ops.arithmetic import maximum, minimum
from eagerkit.ops.cast import cast
from eagerkit.ops.indexing import one_hot
from eagerkit.ops.math import abs as abs_
from eagerkit.ops.math import log
from eagerkit.ops.misc import clip_by_value
from eagerkit.ops.reduce import reduce_mean, reduce_sum
from eagerkit.ops.shape import squeeze_axes
from eagerkit.tensor import convert_to_tensor
from eagerkit.train.checks import number


def mean_squared_error(y_true, y_pred):
    """Mean of (y_pred - y_true) ** 2 over the last axis, one value per example."""
    y_true, y_pred = _pair("mean_squared_error", y_true, y_pred, align=True)
    return reduce_mean((y_pred - y_true) ** 2, axis=-1)


def mean_absolute_error(y_true, y_pred):
    """Mean of |y_pred - y_true| over the last axis."""
    y_true, y_pred = _pair("mean_absolute_error", y_true, y_pred, align=True)
    return reduce_mean(abs_(y_pred - y_true), axis=-1)


def mean_absolute_percentage_error(y_true, y_pred):
    """100 * mean of |y_true - y_pred| / |y_true| over the last axis (|y_true| at least
    Keras' epsilon, so a zero target does not divide by zero).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.keras.losses.mean_absolute_percentage_error([[2.0, 4.0]], [[1.0, 5.0]])
    <ek.Tensor: shape=(1,), dtype=float32, numpy=array([37.5], dtype=float32)>
    """
    y_true, y_pred = _pair("mean_absolute_percentage_error", y_true, y_pred, align=True)
    scale = maximum(abs_(y_true), EPSILON)
    return 100.0 * reduce_mean(abs_(y_true - y_pred) / scale, axis=-1)


def huber(y_true, y_pred, delta=1.0):
    """Squared error up to ``delta``, linear beyond, averaged over the last axis."""
    y_true, y_pred = _pair("huber", y_true, y_pred, align=True)
    error = abs_(y_pred - y_true)
    quadratic = minimum(error, delta)
    return reduce_mean(0.5 * quadratic * quadratic + delta * (error - quadratic), axis=-1)


def _smoothed(y_true, label_smoothing, classes, name):
    """Keras' label smoothing: labels pulled toward 1 / ``classes`` by ``label_smoothing``."""
    amount = number(label_smoothing, "label_smoothing", name)
    if amount > 1:
        raise InvalidArgumentError(
            f"{name}: label_smoothing must be between 0 and 1 (the share of each label moved "
            f"to the uniform distribution), got {label_smoothing!r}",
            op=name,
        )
    return y_true if amount == 0 else y_true * (1.0 - amount) + amount / classes


def binary_crossentropy(y_true, y_pred, from_logits=False, label_smoothing=0.0):
    """Cross-entropy of 0/1 labels and probabilities (or logits), averaged over the last axis.

    ``label_smoothing`` moves labels toward 0.5: ``y * (1 - s) + s / 2``, as Keras.

    Examples
    --------
    >>> import eagerkit as ek
    >>> loss = ek.keras.losses.binary_crossentropy([[0.0, 1.0]], [[0.6, 0.4]])
    >>> [round(float(v), 4) for v in loss]  # -log(0.4), twice, averaged
    [0.9163]
    """
    y_true, y_pred = _pair("binary_crossentropy", y_true, y_pred)
    y_true = _smoothed(y_true, label_smoothing, 2, "binary_crossentropy")
    if from_logits:
        losses = nn.sigmoid_cross_entropy_with_logits(labels=y_true, logits=y_pred)
    else:
        p = clip_by_value(y_pred, EPSILON, 1 - EPSILON)  # log(0) would be -inf
        losses = -(y_true * log(p) + (1 - y_true) * log(1 - p))
    return reduce_mean(losses, axis=-1)


def categorical_crossentropy(y_true, y_pred, from_logits=False, label_smoothing=0.0):
    """Cross-entropy of one-hot (or soft) labels and a distribution (or logits), per example.

    ``label_smoothing`` moves labels toward uniform: ``y * (1 - s) + s / classes``, as Keras.

    Examples
    --------
    >>> import eagerkit as ek
    >>> y_true = [[0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]
    >>> y_pred = [[0.05, 0.95, 0.0], [0.1, 0.8, 0.1]]
    >>> [round(float(v), 4) for v in ek.keras.losses.categorical_crossentropy(y_true, y_pred)]
    [0.0513, 2.3026]
    """
    y_true, y_pred = _pair("categorical_crossentropy", y_true, y_pred)
    warn_one_class("categorical_crossentropy", y_pred)
    classes = y_pred.shape[-1] if y_pred.ndim else 1
    y_true = _smoothed(y_true, label_smoothing, classes, "categorical_crossentropy")
    if from_logits:
        return nn.softmax_cross_entropy_with_logits(labels=y_true, logits=y_pred)
    p = y_pred / reduce_sum(y_pred, axis=-1, keepdims=True)  # Keras renormalizes each row
    return -reduce_sum(y_true * log(clip_by_value(p, EPSILON, 1 - EPSILON)), axis=-1)


def sparse_categorical_crossentropy(y_true, y_pred, from_logits=False):
    """Cross-entropy of integer class ids and a distribution (or logits), per example.

    Examples
    --------
    >>> import eagerkit as ek
    >>> loss = ek.keras.losses.sparse_categorical_crossentropy([1, 2],
    ...     [[0.05, 0.95, 0.0], [0.1, 0.8, 0.1]])
    >>> [round(float(v), 4) for v in loss]
    [0.0513, 2.3026]
    """
    y_pred = convert_to_tensor(y_pred)
    labels = convert_to_tensor(y_true)
    if labels.ndim == y_pred.ndim and labels.ndim > 0 and labels.shape[-1] == 1:
        labels = squeeze_axes(labels, -1)  # Keras accepts labels shaped [batch, 1]
    if tuple(labels.shape) != tuple(y_pred.shape[:-1]):
        raise InvalidArgumentError(
            f"sparse_categorical_crossentropy: y_true has shape {tuple(labels.shape)} but "
            f"y_pred has shape {tuple(y_pred.shape)}; pass one class id per row of y_pred "
            f"(y_true of shape {tuple(y_pred.shape[:-1])}), or one-hot labels to "
            "categorical_crossentropy",
            op="sparse_categorical_crossentropy",
        )
    labels = cast(labels, "int64") if labels.dtype.is_floating else labels
    if from_logits:
        return nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=y_pred)
    depth = y_pred.shape[-1] if y_pred.ndim else 0
    return categorical_crossentropy(one_hot(labels, depth, dtype=y_pred.dtype), y_pred)


mse = MSE = mean_squared_error
mae = MAE = mean_absolute_error
mape = MAPE = mean_absolute_percentage_error


class MeanSquaredError(LossFunctionWrapper):
    """Mean of squared errors (``tf.keras.losses.MeanSquaredError``)."""

    def __init__(self, reduction=Reduction.AUTO, name="mean_squared_error"):
        super().__init__(mean_squared_error, reduction, name)


class MeanAbsoluteError(LossFunctionWrapper):
    """Mean of absolute errors."""

    def __init__(self, reduction=Reduction.AUTO, name="mean_absolute_error"):
        super().__init__(mean_absolute_error, reduction, name)


class MeanAbsolutePercentageError(LossFunctionWrapper):
    """Mean absolute percentage error."""

    def __init__(self, reduction=Reduction.AUTO, name="mean_absolute_percentage_error"):
        super().__init__(mean_absolute_percentage_error, reduction, name)


class Huber(LossFunctionWrapper):
    """Huber loss with threshold ``delta``."""

    def __init__(self, delta=1.0, reduction=Reduction.AUTO, name="huber_loss"):
        super().__init__(huber, reduction, name, delta=delta)


class BinaryCrossentropy(LossFunctionWrapper):
    """Binary cross-entropy; ``from_logits=True`` when the model outputs logits.

    Examples
    --------
    >>> import eagerkit as ek
    >>> bce = ek.keras.losses.BinaryCrossentropy()
    >>> round(float(bce([[0.0, 1.0], [0.0, 0.0]], [[0.6, 0.4], [0.4, 0.6]])), 3)
    0.815
    """

    def __init__(
        self,
        from_logits=False,
        label_smoothing=0.0,
        reduction=Reduction.AUTO,
        name="binary_crossentropy",
    ):
        number(label_smoothing, "label_smoothing", "BinaryCrossentropy")  # checked at once
        super().__init__(
            binary_crossentropy,
            reduction,
            name,
            from_logits=from_logits,
            label_smoothing=label_smoothing,
        )


class CategoricalCrossentropy(LossFunctionWrapper):
    """Cross-entropy with one-hot labels; ``from_logits=True`` for logits."""

    def __init__(
        self,
        from_logits=False,
        label_smoothing=0.0,
        reduction=Reduction.AUTO,
        name="categorical_crossentropy",
    ):
        number(label_smoothing, "label_smoothing", "CategoricalCrossentropy")  # checked at once
        super().__init__(
            categorical_crossentropy,
            reduction,
            name,
            from_logits=from_logits,
            label_smoothing=label_smoothing,
        )


class SparseCategoricalCrossentropy(LossFunctionWrapper):
    """Cross-entropy with integer class ids; ``from_logits=True`` for logits.

    Examples
    --------
    >>> import eagerkit as ek
    >>> scce = ek.keras.losses.SparseCategoricalCrossentropy()
    >>> round(float(scce([1, 2], [[0.05, 0.95, 0.0], [0.1, 0.8, 0.1]])), 3)
    1.177
    """

    def __init__(
        self, from_logits=False, reduction=Reduction.AUTO, name="sparse_categorical_crossentropy"
    ):
        super().__init__(sparse_categorical_crossentropy, reduction, name, from_logits=from_logits)


# Keras' other losses, each family in its own module (they build on loss_base.py too).
from eagerkit.keras.divergence_losses import (  # noqa: E402
    KLD,
    CosineSimilarity,
    KLDivergence,
    LogCosh,
    Poisson,
    cosine_similarity,
    kl_divergence,
    kld,
    kullback_leibler_divergence,
    log_cosh,
    logcosh,
    poisson,
)
from eagerkit.keras.focal_loss import (  # noqa: E402
    BinaryFocalCrossentropy,
    binary_focal_crossentropy,
)
from eagerkit.keras.hinge_losses import (  # noqa: E402
    CategoricalHinge,
    Hinge,
    SquaredHinge,
    categorical_hinge,
    hinge,
    squared_hinge,
)
from eagerkit.keras.log_error_loss import (  # noqa: E402
    MSLE,
    MeanSquaredLogarithmicError,
    mean_squared_logarithmic_error,
    msle,
)

# What this namespace exports (to ``import *`` and to the error boundary, namespaces.py);
# the helpers it imports or keeps for itself stay out.
__all__ = [
    "mean_squared_error",
    "mean_absolute_error",
    "mean_absolute_percentage_error",
    "mape",
    "MAPE",
    "huber",
    "mean_squared_logarithmic_error",
    "msle",
    "MSLE",
    "binary_crossentropy",
    "binary_focal_crossentropy",
    "categorical_crossentropy",
    "sparse_categorical_crossentropy",
    "kl_divergence",
    "kld",
    "KLD",
    "kullback_leibler_divergence",
    "poisson",
    "log_cosh",
    "logcosh",
    "cosine_similarity",
    "hinge",
    "squared_hinge",
    "categorical_hinge",
    "mse",
    "MSE",
    "mae",
    "MAE",
    "Reduction",
    "Loss",
    "MeanSquaredError",
    "MeanAbsoluteError",
    "MeanAbsolutePercentageError",
    "Huber",
    "MeanSquaredLogarithmicError",
    "BinaryCrossentropy",
    "BinaryFocalCrossentropy",
    "CategoricalCrossentropy",
    "SparseCategoricalCrossentropy",
    "KLDivergence",
    "Poisson",
    "LogCosh",
    "CosineSimilarity",
    "Hinge",
    "SquaredHinge",
    "CategoricalHinge",
]
