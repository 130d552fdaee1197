"""What the metrics are given, as tensors: values, labels, predictions and weights checked
and brought to one dtype and shape with eagerkit ops.

Metrics keep their state in variables and update it with ops (``assign_add``), as Keras
does, so ``update_state`` runs eagerly and inside ``ek.function`` alike: there it becomes
part of the graph and a replay updates the state with the new call's values. So nothing
here reads a value on the host, except the checks of values (probabilities in [0, 1],
class ids below the number of classes), which ``host_check`` runs at every call.

Examples
--------
>>> import eagerkit as ek
>>> metric_tensor([1, 2], "doc", ek.float32)
<ek.Tensor: shape=(2,), dtype=float32, numpy=array([1., 2.], dtype=float32)>
>>> equal_values(ek.constant([1, 2]), ek.constant([1.0, 2.5])).numpy().tolist()
[True, False]
"""

import numpy as np

from eagerkit import dtypes
from eagerkit.arguments import describe
from eagerkit.asserts import at_every_call
from eagerkit.errors import InvalidArgumentError
from eagerkit.ops.cast import cast
from eagerkit.ops.compare import equal
from eagerkit.ops.creation import ones_like
from eagerkit.ops.shape import expand_dims, reshape
from eagerkit.tensor import Tensor, convert_to_tensor

host_check = at_every_call  # a check of values: eagerly now, in ek.function at every call


def metric_tensor(value, where, dtype=None, what="metric values"):
    """``value`` (a tensor, number or list) as a tensor of numbers (cast to ``dtype``);
    ``what`` the error calls it.

    ``None``, text and ragged lists are refused: a running total must not turn them into
    a silent NaN. A Python value is read on the host as numpy reads it (``0.1`` becomes
    float64's 0.1, not float32's, before any cast), as the metrics always did.
    """
    if isinstance(value, Tensor):
        tensor = value
        numbers = tensor.dtype.is_floating or tensor.dtype.is_integer or tensor.dtype == dtypes.bool
    else:
        try:
            array = np.asarray(value)  # no dtype yet: [None, 1.0] must not become [nan, 1.0]
        except (TypeError, ValueError):  # ragged lists
            array = None
        numbers = array is not None and array.dtype.kind in "biuf"
        if numbers and dtype is not None:
            array = array.astype(dtype.as_numpy_dtype)
        tensor = convert_to_tensor(array) if numbers else None
    if not numbers:
        shown = describe(value) if isinstance(value, Tensor) else repr(value)
        raise InvalidArgumentError(
            f"{where}: cannot use {shown:.200} as {what}; pass numbers, a list of "
            "numbers of one shape, or a tensor",
            op=where,
        )
    if dtype is not None and tensor.dtype != dtype:
        tensor = cast(tensor, dtype)
    return tensor


def equal_values(a, b):
    """``a == b`` by value, for tensors of any two number dtypes (``1 == 1.0``): unlike
    dtypes are compared as float64, exact for every int32 and float32."""
    if a.dtype != b.dtype:
        a, b = cast(a, dtypes.float64), cast(b, dtypes.float64)
    return equal(a, b)


def without_last_axis(tensor):
    """``tensor`` without its last axis (of size 1). A reshape with -1 for the batch, not
    ``squeeze``: inside ek.function (reduce_retracing) it follows each call's batch size."""
    return reshape(tensor, [-1, *tensor.shape[1:-1]] if tensor.ndim > 1 else [])


def _broadcasts(shape, target):
    """Whether numpy's rule broadcasts ``shape`` to ``target`` (checked on the shapes: inside
    ek.function a failing op would only fail later, with a less clear error)."""
    shape, target = tuple(shape), tuple(target)
    if len(shape) > len(target):
        return False
    pairs = zip(reversed(shape), reversed(target), strict=False)
    return all(a in (1, b) or a is None or b is None for a, b in pairs)


def weights_to(weights, values, where):
    """``weights`` spread over ``values`` (numpy's broadcasting), or eagerkit's error naming
    both shapes. A product with ``ones_like``, not ``broadcast_to`` a fixed shape: inside
    ek.function it follows each call's batch size."""
    if not _broadcasts(weights.shape, values.shape):
        raise InvalidArgumentError(
            f"{where}: weights of shape {tuple(weights.shape)} do not broadcast to the values' "
            f"shape {tuple(values.shape)}; pass one weight, or one per value",
            op=where,
        )
    return weights * ones_like(values)


def example_weights(sample_weight, like, where, dtype):
    """``sample_weight`` spread over ``like`` (the predictions): one weight per example is
    spread over the example's values (its axis added on the right, as Keras does), or one
    per value; None when there are none (every value weighs 1)."""
    if sample_weight is None:
        return None
    weights = metric_tensor(sample_weight, where, dtype)
    rank = like.ndim
    if weights.ndim == rank + 1 and tuple(weights.shape[-1:]) == (1,):
        weights = without_last_axis(weights)
    if 0 < weights.ndim < rank:  # -1: the batch size is whatever each call brings
        weights = reshape(weights, [-1, *weights.shape[1:], *[1] * (rank - weights.ndim)])
    if not _broadcasts(weights.shape, like.shape):
        raise InvalidArgumentError(
            f"{where}: sample_weight of shape {tuple(weights.shape)} does not broadcast to "
            f"the predictions' shape {tuple(like.shape)}; pass one weight per example, or one "
            "per prediction",
            op=where,
        )
    return weights * ones_like(like, dtype=weights.dtype)  # like's shape, the weights' dtype


def _shape(value):
    """``value``'s shape, read without converting it (None for a ragged list: the metric's
    own check then refuses it by name)."""
    if isinstance(value, Tensor):
        return tuple(value.shape)
    try:
        return np.shape(value)  # host data (lists, numpy arrays): no device is read
    except ValueError:
        return None


def same_rank(y_true, y_pred, where="metric", what="metric values"):
    """Keras' ``squeeze_or_expand_to_same_rank``: labels and predictions whose ranks differ
    by one, the larger with a last axis of 1 (labels (batch,) beside predictions (batch, 1)),
    are brought to one rank: a rank-1 side gains that axis, otherwise the larger loses it.
    Other pairs are returned as they are (and as given: lists stay lists), so a metric never
    broadcasts (batch,) against (batch, 1) into (batch, batch). ``fit`` and the Keras loss
    objects and functions that Keras aligns use this too (``what``: what an error calls
    the values).

    Examples
    --------
    >>> import eagerkit as ek
    >>> [tuple(t.shape) for t in same_rank([1.0, 0.0], ek.constant([[0.9], [0.2]]))]
    [(2, 1), (2, 1)]
    >>> [tuple(t.shape) for t in same_rank(ek.zeros((2, 3)), ek.zeros((2, 3, 1)))]
    [(2, 3), (2, 3)]
    """
    true_shape, pred_shape = _shape(y_true), _shape(y_pred)
    if true_shape is None or pred_shape is None:
        return y_true, y_pred
    if len(pred_shape) == len(true_shape) + 1 and pred_shape[-1:] == (1,):
        if len(true_shape) == 1:
            y_true = expand_dims(metric_tensor(y_true, where, what=what), -1)
        else:
            y_pred = without_last_axis(metric_tensor(y_pred, where, what=what))
    elif len(true_shape) == len(pred_shape) + 1 and true_shape[-1:] == (1,):
        if len(pred_shape) == 1:
            y_pred = expand_dims(metric_tensor(y_pred, where, what=what), -1)
        else:
            y_true = without_last_axis(metric_tensor(y_true, where, what=what))
    return y_true, y_pred


def matched_last_axis(y_true, y_pred, where, fix):
    """Labels and predictions (tensors) brought to one rank (``same_rank``); then their
    shapes must match (``fix`` says what to pass)."""
    y_true, y_pred = same_rank(y_true, y_pred, where)
    if tuple(y_true.shape) != tuple(y_pred.shape):
        raise InvalidArgumentError(
            f"{where}: y_true has shape {tuple(y_true.shape)} but y_pred has shape "
            f"{tuple(y_pred.shape)}; {fix}",
            op=where,
        )
    return y_true, y_pred
