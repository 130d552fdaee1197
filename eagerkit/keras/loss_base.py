"""The loss objects' machinery: ``Loss`` reduces the per-example losses its ``call`` gives
(by ``Reduction``) with an optional ``sample_weight``; ``LossFunctionWrapper`` makes a loss
object of a per-example function; ``checked_pair`` readies a loss function's arguments.
losses.py, hinge_losses.py and divergence_losses.py have Keras' own losses built on them.

Examples
--------
>>> Loss(reduction=Reduction.SUM).reduction
'sum'
"""

from eagerkit.errors import InvalidArgumentError, UnimplementedError
from eagerkit.ops.cast import cast
from eagerkit.ops.reduce import reduce_sum
from eagerkit.tensor import Tensor, convert_to_tensor

EPSILON = 1e-7  # Keras clips probabilities to [EPSILON, 1 - EPSILON] before taking logs


def checked_pair(name, y_true, y_pred):
    """``y_pred`` as a float tensor and ``y_true`` cast to its dtype, shapes checked."""
    y_pred = convert_to_tensor(y_pred)
    if not y_pred.dtype.is_floating:
        y_pred = cast(y_pred, "float32")
    y_true = cast(convert_to_tensor(y_true), y_pred.dtype)
    if y_true.shape != y_pred.shape:
        raise InvalidArgumentError(
            f"{name}: y_true has shape {y_true.shape} but y_pred has shape {y_pred.shape}; "
            "they must match (for integer class ids use sparse_categorical_crossentropy)",
            op=name,
        )
    return y_true, y_pred


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
        losses = self.call(y_true, y_pred)
        if not isinstance(losses, Tensor):
            losses = convert_to_tensor(losses)
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
        return total / max(losses.size, 1)  # mean over the batch; an empty batch gives 0

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
        """The per-example losses."""
        return self.fn(y_true, y_pred, **self.fn_kwargs)

    def get_config(self):
        return {**super().get_config(), **self.fn_kwargs}
