"""The loss objects' machinery: ``Loss`` reduces the per-example losses its ``call`` gives
(by ``Reduction``) with an optional ``sample_weight``; ``LossFunctionWrapper`` makes a loss
object of a per-example function and, as Keras 3's does, first brings labels of shape
(batch,) and predictions of shape (batch, 1) to one rank (``same_rank``, the metrics'
helper); ``checked_pair`` readies a loss function's arguments. losses.py, hinge_losses.py
and divergence_losses.py have Keras' own losses built on them.

Examples
--------
>>> Loss(reduction=Reduction.SUM).reduction
'sum'
"""

import warnings

from eagerkit import boundary, recording
from eagerkit.errors import InvalidArgumentError, UnimplementedError
from eagerkit.keras.layers import masks
from eagerkit.keras.metric_inputs import same_rank
from eagerkit.ops.cast import cast
from eagerkit.ops.reduce import reduce_sum
from eagerkit.ops.safe_math import divide_no_nan
from eagerkit.ops.shape import size
from eagerkit.tensor import Tensor, convert_to_tensor

EPSILON = 1e-7  # Keras clips probabilities to [EPSILON, 1 - EPSILON] before taking logs


def checked_pair(name, y_true, y_pred, align=False):
    """``y_pred`` as a float tensor and ``y_true`` cast to its dtype, shapes checked.

    ``align``: first bring ranks one apart, the larger with a last axis of 1, to one rank
    (``same_rank``), as Keras 3's functions that call ``squeeze_or_expand_to_same_rank`` do
    (mean_squared_error, huber, ...). The others (the cross-entropies, hinges, KL, Poisson)
    do not, and there Keras would broadcast (batch,) against (batch, 1) into a
    (batch, batch) table: eagerkit refuses that pair instead, and says what aligns it.
    """
    y_pred = convert_to_tensor(y_pred)
    if not y_pred.dtype.is_floating:
        y_pred = cast(y_pred, "float32")
    y_true = cast(convert_to_tensor(y_true), y_pred.dtype)
    if align:
        y_true, y_pred = same_rank(y_true, y_pred, name, "a loss's values")
    if y_true.shape != y_pred.shape:
        raise InvalidArgumentError(
            f"{name}: y_true has shape {y_true.shape} but y_pred has shape {y_pred.shape}; "
            f"they must match{_fix(name, y_true.shape, y_pred.shape)}",
            op=name,
        )
    return y_true, y_pred


_CLASS_NAMES = {"kl_divergence": "KLDivergence"}  # the one class not spelled from its function


def _fix(name, true_shape, pred_shape):
    """What to do about shapes that do not match: for shapes one last axis of 1 apart (which
    this function does not align, as in Keras), the loss object or a reshape."""
    longer, shorter = sorted((tuple(true_shape), tuple(pred_shape)), key=len, reverse=True)
    if longer == (*shorter, 1):  # one rank apart, and matching once aligned
        cls = _CLASS_NAMES.get(name) or "".join(word.capitalize() for word in name.split("_"))
        return (
            f" (the loss object ek.keras.losses.{cls}() and fit align a last axis of 1 as "
            f"Keras does; called as a function, reshape y_true to {tuple(pred_shape)})"
        )
    return " (for integer class ids use sparse_categorical_crossentropy)"


def warn_one_class(name, y_pred):
    """Keras' warning for a categorical cross-entropy over one class (``y_pred`` shaped
    (batch, 1)): a distribution over one class is 1, so every loss is 0 and nothing trains.
    A SyntaxWarning, as Keras' (a filter written for Keras catches it here too)."""
    if y_pred.ndim and y_pred.shape[-1] == 1:
        warnings.warn(
            f"{name}: y_pred has shape {tuple(y_pred.shape)}, one class, so every loss is 0; "
            "give one column per class, or for two classes one probability per example to "
            "binary_crossentropy",
            SyntaxWarning,
            stacklevel=boundary.user_stacklevel(),  # the user's call, past eagerkit's frames
        )


class Reduction:
    """How a loss object turns per-example losses into what it returns."""

    AUTO = "auto"
    NONE = "none"
    SUM = "sum"
    SUM_OVER_BATCH_SIZE = "sum_over_batch_size"
    ALL = (AUTO, NONE, SUM, SUM_OVER_BATCH_SIZE)


class Loss:
    """Base of the loss objects: ``loss(y_true, y_pred, sample_weight=None)`` reduces what
    ``call(y_true, y_pred)`` gives per example. Subclass it and write ``call``.

    Examples
    --------
    >>> import eagerkit as ek
    >>> class Doubled(ek.keras.losses.Loss):
    ...     def call(self, y_true, y_pred):
    ...         return 2.0 * ek.keras.losses.mean_squared_error(y_true, y_pred)
    >>> Doubled(reduction="none")([[0.0], [1.0]], [[1.0], [1.0]])
    <ek.Tensor: shape=(2,), dtype=float32, numpy=array([2., 0.], dtype=float32)>
    """

    def __init__(self, reduction=Reduction.AUTO, name=None):
        if reduction not in Reduction.ALL:
            raise InvalidArgumentError(
                f"{type(self).__name__}: unknown reduction {reduction!r}; use one of "
                f"{', '.join(Reduction.ALL)}",
                op=type(self).__name__,
            )
        self.reduction = reduction
        self.name = name

    def call(self, y_true, y_pred):
        """The per-example losses (subclasses define it)."""
        raise UnimplementedError(
            f"{type(self).__name__} must define call(self, y_true, y_pred), the loss of each "
            "example",
            op="call",
        )

    def __call__(self, y_true, y_pred, sample_weight=None):
        mask = masks.get_mask(y_pred) if masks.made[0] else None  # read before call() casts
        losses = self.call(y_true, y_pred)
        if not isinstance(losses, Tensor):
            losses = convert_to_tensor(losses)
        if mask is not None:  # as Keras: a masked step weighs 0; the mean is over the rest
            mean = self.reduction not in (Reduction.NONE, Reduction.SUM)
            sample_weight = masks.mask_weights(mask, losses, sample_weight, self.name, mean)
        if sample_weight is not None:
            weights = sample_weight
            if not isinstance(weights, Tensor):
                weights = convert_to_tensor(weights, dtype=losses.dtype)
            losses = losses * cast(weights, losses.dtype)
        if self.reduction == Reduction.NONE:
            return losses
        total = reduce_sum(losses)
        if self.reduction == Reduction.SUM:
            return total
        if recording.graph_tracers:  # inside ek.function the batch's size is an op, so a
            # replay on another batch (reduce_retracing) divides by its own; 0 for none
            return divide_no_nan(total, cast(size(losses), total.dtype))
        return total / max(losses.size, 1)  # eagerly, the same number without three more ops

    def get_config(self):
        """The arguments that rebuild this loss (``from_config``), as Keras saves them."""
        return {"reduction": self.reduction, "name": self.name}

    @classmethod
    def from_config(cls, config):
        """The loss ``get_config`` describes."""
        return cls(**config)

    def __repr__(self):
        return f"<ek.keras.losses.{type(self).__name__} '{self.name}'>"


class LossFunctionWrapper(Loss):
    """A loss object around a per-example function ``fn(y_true, y_pred, **kwargs)``.

    Examples
    --------
    >>> import eagerkit as ek
    >>> loss = ek.keras.losses.LossFunctionWrapper(ek.keras.losses.mean_absolute_error)
    >>> loss.name, float(loss([[0.0, 0.0]], [[1.0, 3.0]]))
    ('mean_absolute_error', 2.0)
    """

    def __init__(self, fn, reduction=Reduction.AUTO, name=None, **kwargs):
        super().__init__(reduction, name or getattr(fn, "__name__", None))
        self.fn, self.fn_kwargs = fn, kwargs

    def call(self, y_true, y_pred):
        """The per-example losses, labels and predictions first brought to one rank."""
        y_true, y_pred = same_rank(y_true, y_pred, self.name or "loss", "a loss's values")
        return self.fn(y_true, y_pred, **self.fn_kwargs)

    def get_config(self):
        return {**super().get_config(), **self.fn_kwargs}
