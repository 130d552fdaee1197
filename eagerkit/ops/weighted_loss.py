"""TF 1's ``tf.losses.Reduction`` and ``compute_weighted_loss``: how ``ek.losses`` reduce.

Every TF 1 loss computes one loss per element, multiplies it by ``weights`` (a scalar, or a
tensor of the losses' rank whose sizes are 1 or the losses'), then reduces as ``reduction``
says. TF 1 does this in float32 whatever the losses' dtype and casts the result back;
eagerkit does too, float64 losses aside (reduced in float64: never narrowed silently). The
divisions are "no nan" ones: 0 when nothing is counted (all weights 0, no elements).
"""

from eagerkit import dtypes
from eagerkit.errors import InvalidArgumentError
from eagerkit.ops.cast import cast
from eagerkit.ops.creation import ones_like
from eagerkit.ops.reduce import reduce_mean, reduce_sum
from eagerkit.ops.safe_math import divide_no_nan
from eagerkit.ops.shape import size
from eagerkit.tensor import convert_to_tensor


class Reduction:
    """How a TF 1 loss (``ek.losses.*``) reduces its weighted per-element losses.

    ``NONE``: the weighted losses, one per element. ``SUM``: their sum. ``MEAN``: the sum
    divided by the sum of the weights. ``SUM_OVER_BATCH_SIZE``: the sum divided by the number
    of elements. ``SUM_BY_NONZERO_WEIGHTS`` (TF 1's default; ``SUM_OVER_NONZERO_WEIGHTS`` is
    the same): the sum divided by the number of non-zero weights.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.losses.Reduction.SUM_OVER_NONZERO_WEIGHTS
    'weighted_sum_by_nonzero_weights'
    >>> ek.losses.absolute_difference([0.0, 0.0], [1.0, -3.0], reduction=ek.losses.Reduction.SUM)
    <ek.Tensor: shape=(), dtype=float32, numpy=4.0>
    """

    NONE = "none"
    SUM = "weighted_sum"
    MEAN = "weighted_mean"
    SUM_OVER_BATCH_SIZE = "weighted_sum_over_batch_size"
    SUM_BY_NONZERO_WEIGHTS = "weighted_sum_by_nonzero_weights"
    SUM_OVER_NONZERO_WEIGHTS = SUM_BY_NONZERO_WEIGHTS

    @staticmethod
    def all():
        """Every reduction key, as TF 1 lists them (TF 1's classmethods are static here: the
        class never changes).

        Examples
        --------
        >>> import eagerkit as ek
        >>> len(ek.losses.Reduction.all())
        6
        """
        return (
            Reduction.NONE,
            Reduction.SUM,
            Reduction.MEAN,
            Reduction.SUM_OVER_BATCH_SIZE,
            Reduction.SUM_OVER_NONZERO_WEIGHTS,
            Reduction.SUM_BY_NONZERO_WEIGHTS,
        )

    @staticmethod
    def validate(key):
        """Refuse a key that is not a reduction (TF 1 raises ValueError: this is one).

        Examples
        --------
        >>> import eagerkit as ek
        >>> ek.losses.Reduction.validate("weighted_sum")
        >>> ek.losses.Reduction.validate("sum")
        Traceback (most recent call last):
        ...
        eagerkit.errors.InvalidArgumentError: Invalid ReductionKey 'sum'; ...
        """
        if not isinstance(key, str) or key not in Reduction.all():
            names = ", ".join(n for n in vars(Reduction) if n.isupper())
            raise InvalidArgumentError(
                f"Invalid ReductionKey {key!r}; pass one of ek.losses.Reduction's: {names} "
                "(Keras' 'sum' / 'sum_over_batch_size' are ek.keras.losses.Reduction's)",
                op="Reduction.validate",
            )


def checked_weights(op, weights, losses):
    """``weights`` as a tensor, refused unless TF 1 can broadcast it to ``losses``: a scalar,
    or the same rank with each size 1 or the losses' size."""
    if weights is None:
        raise InvalidArgumentError(
            f"{op}: weights must not be None; pass 1.0 to weigh every element the same",
            op=op,
        )
    weights = convert_to_tensor(weights)
    shape, wanted = tuple(weights.shape), tuple(losses.shape)
    fits = len(shape) == len(wanted) and all(
        w in (1, n) for w, n in zip(shape, wanted, strict=True)
    )
    if shape and not fits:
        raise InvalidArgumentError(
            f"{op}: weights can not be broadcast to the losses: weights have shape {list(shape)}"
            f" but the losses {list(wanted)}; pass a scalar, or weights of rank {len(wanted)}"
            " whose sizes are 1 or the losses' (e.g. one weight per example: shape "
            f"{[wanted[0]] + [1] * (len(wanted) - 1) if wanted else []})",
            op=op,
        )
    return weights


def as_dtype(x, dtype):
    """``x`` in ``dtype``: itself when it is already (no cast op on the tape)."""
    return x if x.dtype == dtype else cast(x, dtype)


def checked_pair(name, labels, predictions, to_float=True):
    """Labels and predictions in the predictions' dtype (float32 for integers with
    ``to_float``, TF 1's ``to_float``), refused unless their shapes match."""
    if labels is None or predictions is None:
        which = "labels" if labels is None else "predictions"
        raise InvalidArgumentError(f"{name}: {which} must not be None", op=name)
    predictions = convert_to_tensor(predictions)
    dtype = predictions.dtype
    if to_float and not dtype.is_floating:
        dtype = dtypes.float32
    predictions = as_dtype(predictions, dtype)
    labels = as_dtype(convert_to_tensor(labels), dtype)
    if labels.shape != predictions.shape:
        raise InvalidArgumentError(
            f"{name}: labels have shape {labels.shape} but predictions have shape "
            f"{predictions.shape}; they must match (reshape one, e.g. ek.reshape(labels, "
            f"{list(predictions.shape)}))",
            op=name,
        )
    return labels, predictions


def weighted_loss(op, losses, weights, reduction):
    """The TF 1 reduction of ``losses`` (a tensor) under ``weights``, for the loss ``op``."""
    Reduction.validate(reduction)
    if _is_plain_mean(losses, weights, reduction):
        return reduce_mean(losses)  # fast path: equal to the general one (a test proves it)
    weights = checked_weights(op, weights, losses)
    input_dtype = losses.dtype
    # TF 1 reduces in float32, then casts back (float64 stays float64 here)
    working = dtypes.float64 if input_dtype == dtypes.float64 else dtypes.float32
    losses = as_dtype(losses, working)
    weights = as_dtype(weights, working)
    weighted = losses * weights
    if reduction == Reduction.NONE:
        return as_dtype(weighted, input_dtype)
    total = reduce_sum(weighted)
    if reduction == Reduction.SUM:
        return as_dtype(total, input_dtype)
    if reduction == Reduction.MEAN:
        count = reduce_sum(ones_like(losses) * weights)
    elif reduction == Reduction.SUM_OVER_BATCH_SIZE:
        count = cast(size(losses), working)
    else:  # SUM_BY_NONZERO_WEIGHTS: weights that are 0 drop their elements from the count
        count = reduce_sum(ones_like(losses) * cast(weights != 0, working))
    return as_dtype(divide_no_nan(total, count), input_dtype)


def _is_plain_mean(losses, weights, reduction):
    """The default weights (Python's 1.0) with a per-element reduction: the sum over the
    count is the plain mean, one op on the tape instead of five (empty losses aside: TF 1
    gives 0 there, the mean nan)."""
    return (
        isinstance(weights, (int, float))
        and not isinstance(weights, bool)
        and weights == 1
        and reduction in (Reduction.SUM_BY_NONZERO_WEIGHTS, Reduction.SUM_OVER_BATCH_SIZE)
        and losses.dtype == dtypes.float32
        and losses.size > 0
    )


def compute_weighted_loss(
    losses,
    weights=1.0,
    scope=None,
    loss_collection="losses",
    reduction=Reduction.SUM_BY_NONZERO_WEIGHTS,
):
    """The weighted ``losses`` reduced as TF 1's ``tf.losses.compute_weighted_loss``.

    Parameters
    ----------
    losses : tensor-like
        One loss per element, any shape.
    weights : float or tensor-like
        A scalar, or a tensor of the losses' rank whose sizes are 1 or the losses' sizes.
    scope, loss_collection :
        TF 1's graph bookkeeping; executing eagerly, TF 1 names no ops and collects no losses,
        and neither does eagerkit.
    reduction : str
        One of ``ek.losses.Reduction``; TF 1's default divides the weighted sum by the number
        of non-zero weights.

    Returns
    -------
    Tensor
        The losses' dtype (reduced in float32, or float64 for float64 losses): the losses'
        shape for ``Reduction.NONE``, else a scalar.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.losses.compute_weighted_loss([1.0, 2.0, 6.0], weights=[1.0, 0.0, 1.0])
    <ek.Tensor: shape=(), dtype=float32, numpy=3.5>
    >>> ek.losses.compute_weighted_loss([1.0, 2.0], 2.0, reduction=ek.losses.Reduction.NONE)
    <ek.Tensor: shape=(2,), dtype=float32, numpy=array([2., 4.], dtype=float32)>
    """
    del scope, loss_collection  # (eager: see the docstring)
    return weighted_loss("compute_weighted_loss", convert_to_tensor(losses), weights, reduction)
