"""Keras 3's binary focal cross-entropy (Lin et al., 2018): the binary cross-entropy of each
value scaled by ``(1 - p_t) ** gamma``, where ``p_t`` is the probability given to the true
label, so examples the model already gets right count less and the hard ones more.
losses.py re-exports it.

Examples
--------
>>> import eagerkit as ek
>>> loss = ek.keras.losses.binary_focal_crossentropy([[1.0]], [[0.5]], gamma=2.0)
>>> [round(float(v), 4) for v in loss]  # (1 - 0.5)^2 * -log(0.5)
[0.1733]
"""

from eagerkit.arguments import axis_index
from eagerkit.errors import InvalidArgumentError
from eagerkit.keras.loss_base import EPSILON, LossFunctionWrapper, Reduction, checked_pair
from eagerkit.ops.math import log, sigmoid
from eagerkit.ops.misc import clip_by_value
from eagerkit.ops.reduce import reduce_mean
from eagerkit.train.checks import number

OP = "binary_focal_crossentropy"


def _checked(alpha, gamma, label_smoothing):
    gamma = number(gamma, "gamma", OP)  # >= 0; 0 gives the plain binary cross-entropy
    alpha = number(alpha, "alpha", OP)
    smoothing = number(label_smoothing, "label_smoothing", OP)
    if not 0 <= smoothing <= 1 or not 0 <= alpha <= 1:
        raise InvalidArgumentError(
            f"{OP}: alpha and label_smoothing must be in [0, 1], got alpha={alpha}, "
            f"label_smoothing={smoothing}",
            op=OP,
        )
    return alpha, gamma, smoothing


def binary_focal_crossentropy(
    y_true,
    y_pred,
    apply_class_balancing=False,
    alpha=0.25,
    gamma=2.0,
    from_logits=False,
    label_smoothing=0.0,
    axis=-1,
):
    """``mean((1 - p_t) ** gamma * bce)`` over ``axis``, Keras 3's formula: ``bce`` is the
    binary cross-entropy of each value (probabilities clipped to [1e-7, 1 - 1e-7]),
    ``p_t = y * p + (1 - y) * (1 - p)``; with ``apply_class_balancing`` each value is also
    weighted by ``alpha`` (label 1) or ``1 - alpha`` (label 0). ``label_smoothing`` moves
    the labels toward 0.5 first; ``from_logits`` takes ``sigmoid(y_pred)`` as ``p``.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.keras.losses.binary_focal_crossentropy([[0.0, 1.0]], [[0.0, 1.0]]).numpy() < 1e-6
    array([ True])
    """
    alpha, gamma, smoothing = _checked(alpha, gamma, label_smoothing)
    y_true, y_pred = checked_pair(OP, y_true, y_pred)
    axis = axis_index(axis, y_pred.ndim, OP)
    if smoothing:
        y_true = y_true * (1.0 - smoothing) + 0.5 * smoothing
    p = sigmoid(y_pred) if from_logits else y_pred
    clipped = clip_by_value(p, EPSILON, 1.0 - EPSILON)  # log(0) would be -inf
    bce = -(y_true * log(clipped) + (1.0 - y_true) * log(1.0 - clipped))
    p_t = y_true * p + (1.0 - y_true) * (1.0 - p)
    focal = (1.0 - p_t) ** gamma * bce
    if apply_class_balancing:
        focal = (y_true * alpha + (1.0 - y_true) * (1.0 - alpha)) * focal
    return reduce_mean(focal, axis=axis)


class BinaryFocalCrossentropy(LossFunctionWrapper):
    """Binary focal cross-entropy, averaged over the batch (see
    ``binary_focal_crossentropy`` for the arguments).

    Examples
    --------
    >>> import eagerkit as ek
    >>> loss = ek.keras.losses.BinaryFocalCrossentropy(gamma=0.0)  # gamma 0: plain BCE
    >>> round(float(loss([[0.0, 1.0]], [[0.4, 0.6]])), 4)
    0.5108
    """

    def __init__(
        self,
        apply_class_balancing=False,
        alpha=0.25,
        gamma=2.0,
        from_logits=False,
        label_smoothing=0.0,
        axis=-1,
        reduction=Reduction.AUTO,
        name="binary_focal_crossentropy",
    ):
        _checked(alpha, gamma, label_smoothing)  # at once, not at the first call
        super().__init__(
            binary_focal_crossentropy,
            reduction,
            name,
            apply_class_balancing=apply_class_balancing,
            alpha=alpha,
            gamma=gamma,
            from_logits=from_logits,
            label_smoothing=label_smoothing,
            axis=axis,
        )
