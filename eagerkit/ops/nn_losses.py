"""Two ``tf.nn`` loss helpers of TF 2: ``weighted_cross_entropy_with_logits`` (a sigmoid
cross-entropy whose positive examples count ``pos_weight`` times) and
``compute_average_loss`` (per-example losses summed and divided by the global batch size,
as a custom training loop reduces them).

Examples
--------
>>> import eagerkit as ek
>>> ek.nn.compute_average_loss([1.0, 2.0, 3.0, 6.0])
<ek.Tensor: shape=(), dtype=float32, numpy=3.0>
"""

from eagerkit.arguments import positive
from eagerkit.errors import InvalidArgumentError
from eagerkit.ops import math
from eagerkit.ops.arithmetic import maximum
from eagerkit.ops.reduce import reduce_sum
from eagerkit.ops.reshaping import expand_dims
from eagerkit.tensor import convert_to_tensor


def weighted_cross_entropy_with_logits(labels, logits, pos_weight, name=None):
    """Sigmoid cross-entropy of ``labels`` and ``logits`` with the positive term weighted:
    ``pos_weight * z * -log(sigmoid(x)) + (1 - z) * -log(1 - sigmoid(x))``, elementwise.

    Computed in TF's stable form, ``(1 - z) * x + (1 + (pos_weight - 1) * z) *
    (log(1 + exp(-|x|)) + max(-x, 0))``, which does not overflow for large ``|x|``.
    ``pos_weight > 1`` raises recall, ``< 1`` raises precision.

    Examples
    --------
    >>> import eagerkit as ek
    >>> loss = ek.nn.weighted_cross_entropy_with_logits([1.0, 0.0], [0.0, 0.0], pos_weight=3.0)
    >>> loss.numpy().round(4)  # 3 log 2, then log 2
    array([2.0794, 0.6931], dtype=float32)
    """
    op = "weighted_cross_entropy_with_logits"
    x = convert_to_tensor(logits)
    if not x.dtype.is_floating:
        raise InvalidArgumentError(
            f"{op}: logits must be floats, got {x.dtype.name}{list(x.shape)}; cast them first "
            "(ek.cast(logits, ek.float32))",
            op=op,
        )
    z = convert_to_tensor(labels, dtype=x.dtype)
    if tuple(z.shape) != tuple(x.shape):
        raise InvalidArgumentError(
            f"{op}: logits and labels must have the same shape, got logits {list(x.shape)} "
            f"and labels {list(z.shape)}",
            op=op,
        )
    weight = convert_to_tensor(pos_weight, dtype=x.dtype)
    log_weight = 1.0 + (weight - 1.0) * z
    softplus_of_minus_x = math.log1p(math.exp(-math.abs(x))) + maximum(-x, 0.0)
    return (1.0 - z) * x + log_weight * softplus_of_minus_x


def compute_average_loss(per_example_loss, sample_weight=None, global_batch_size=None):
    """``sum(per_example_loss * sample_weight) / global_batch_size``: the mean a custom
    training loop minimizes (``global_batch_size`` defaults to the first axis's size; one
    replica, as in eagerkit).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.nn.compute_average_loss([1.0, 2.0], sample_weight=[1.0, 0.0], global_batch_size=4)
    <ek.Tensor: shape=(), dtype=float32, numpy=0.25>
    """
    op = "compute_average_loss"
    losses = convert_to_tensor(per_example_loss)
    if losses.ndim < 1:
        raise InvalidArgumentError(
            f"{op}: per_example_loss must have at least rank 1 (one loss per example), got "
            f"a scalar; pass the losses before reducing them",
            op=op,
        )
    if not losses.dtype.is_floating:
        raise InvalidArgumentError(
            f"{op}: per_example_loss must be floats, got {losses.dtype.name}", op=op
        )
    if sample_weight is not None:
        weights = convert_to_tensor(sample_weight, dtype=losses.dtype)
        if weights.ndim == losses.ndim - 1:  # one weight per example: TF expands it
            weights = expand_dims(weights, -1)
        try:
            losses = losses * weights
        except InvalidArgumentError as error:
            raise InvalidArgumentError(
                f"{op}: sample_weight of shape {list(weights.shape)} does not broadcast "
                f"against per_example_loss of shape {list(losses.shape)} ({error.message})",
                op=op,
            ) from None
    if global_batch_size is None:  # one replica: the batch is this one
        global_batch_size = losses.shape[0]
    global_batch_size = positive(global_batch_size, "global_batch_size", op)
    return reduce_sum(losses) / float(global_batch_size)
