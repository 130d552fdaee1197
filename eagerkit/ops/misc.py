"""Clipping and norms: compositions of maximum, minimum and sums (no gradient code of their
own)."""

from eagerkit.arguments import describe
from eagerkit.errors import InvalidArgumentError, type_error
from eagerkit.ops import arithmetic, math, reduce
from eagerkit.ops.cast import cast
from eagerkit.tensor import convert_to_tensor


def clip_by_value(t, clip_value_min, clip_value_max, name=None):
    """Limit every element to [min, max]; the gradient passes only where nothing was clipped.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.clip_by_value([-2.0, 0.5, 3.0], -1.0, 1.0)
    <ek.Tensor: shape=(3,), dtype=float32, numpy=array([-1. ,  0.5,  1. ], dtype=float32)>
    """
    return arithmetic.minimum(arithmetic.maximum(t, clip_value_min), clip_value_max)


def clip_by_norm(t, clip_norm, axes=None, name=None):
    """Scale ``t`` down so its L2 norm (over ``axes``) is at most ``clip_norm``.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.clip_by_norm([3.0, 4.0], 1.0)
    <ek.Tensor: shape=(2,), dtype=float32, numpy=array([0.6, 0.8], dtype=float32)>
    """
    t = convert_to_tensor(t)
    norm = math.sqrt(reduce.reduce_sum(t * t, axis=axes, keepdims=True))
    # Divide by max(norm, clip_norm): unchanged when short enough, scaled to clip_norm if not.
    return t * clip_norm / arithmetic.maximum(norm, clip_norm)


def global_norm(t_list, name=None):
    """The L2 norm of all the tensors together: sqrt of the sum of every element squared
    (``None`` entries, the gradients of unconnected variables, are skipped).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.linalg.global_norm([ek.constant([3.0]), None, ek.constant([[4.0]])])
    <ek.Tensor: shape=(), dtype=float32, numpy=5.0>
    """
    tensors = [convert_to_tensor(t) for t in _tensor_list(t_list, "global_norm") if t is not None]
    if not tensors:
        raise InvalidArgumentError(
            f"global_norm: t_list holds no tensor (got {describe(t_list)}); pass the "
            "gradients, e.g. tape.gradient(loss, variables)",
            op="global_norm",
        )
    total = reduce.reduce_sum(tensors[0] * tensors[0])
    for t in tensors[1:]:
        total = total + reduce.reduce_sum(t * t)
    return math.sqrt(total)


def clip_by_global_norm(t_list, clip_norm, use_norm=None, name=None):
    """Scale all the tensors by one factor so that their global norm is at most
    ``clip_norm``; returns ``(clipped list, global norm before clipping)``, as TF's.

    ``None`` entries stay None; ``use_norm`` gives the global norm if it is known already.

    Examples
    --------
    >>> import eagerkit as ek
    >>> grads = [ek.constant([3.0]), ek.constant([4.0]), None]
    >>> clipped, norm = ek.clip_by_global_norm(grads, 1.0)
    >>> [g.numpy().tolist() for g in clipped[:2]], clipped[2], float(norm)
    ([[0.6000000238418579], [0.800000011920929]], None, 5.0)
    """
    tensors = [
        None if t is None else convert_to_tensor(t)
        for t in _tensor_list(t_list, "clip_by_global_norm")
    ]
    norm = global_norm(tensors) if use_norm is None else convert_to_tensor(use_norm)
    # Divide by max(norm, clip_norm): unchanged when short enough, scaled to clip_norm if not.
    scale = clip_norm / arithmetic.maximum(norm, clip_norm)
    clipped = [None if t is None else t * cast(scale, t.dtype) for t in tensors]
    return clipped, norm


def _tensor_list(t_list, op):
    """``t_list`` as a list: TF takes a list or tuple of tensors, not one tensor."""
    if not isinstance(t_list, (list, tuple)):
        raise type_error(
            f"{op}: t_list must be a list or tuple of tensors, got {describe(t_list)}; "
            "e.g. ek.clip_by_global_norm(grads, 5.0) with grads = tape.gradient(loss, vars)",
            op=op,
        )
    return list(t_list)
