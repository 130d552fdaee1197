"""What the attention layers share: masks made boolean, the causal mask, the dropout rate,
and the refusal of inputs that are not floats.

A mask says which positions may be attended to: ``True`` (or any nonzero number) keeps a
position, ``False`` (0) hides it. Masks are constants: they are checked against the shapes
of the inputs, never against their values, so a layer that uses them still traces into
one graph with ``ek.function``.

Examples
--------
>>> from eagerkit.keras.layers.attention_masks import causal_mask
>>> causal_mask(3, 3).numpy().astype(int).tolist()  # position i sees positions j <= i
[[1, 0, 0], [1, 1, 0], [1, 1, 1]]
"""

import numbers

from eagerkit import dtypes
from eagerkit.errors import InvalidArgumentError
from eagerkit.ops.cast import cast
from eagerkit.ops.compare import greater_equal, logical_and
from eagerkit.ops.creation import range as _range
from eagerkit.ops.reshaping import expand_dims
from eagerkit.tensor import Tensor, convert_to_tensor


def refuse_integer_inputs(named, error):
    """Raise ``error(problem, fix)`` (the layer's own error) for the first of ``named``
    (``{"query": q, "value": v, ...}``) that is not a float tensor: scores are dot products
    of real vectors, and ids must be embedded first."""
    for name, tensor in named.items():
        if not tensor.dtype.is_floating:
            raise error(
                f"needs floating-point inputs, but {name} is {tensor.dtype.name}",
                "Cast it, e.g. ek.cast(x, ek.float32), or embed ids first "
                "(ek.keras.layers.Embedding).",
            )


def as_bool_mask(mask, what, layer):
    """``mask`` as a bool Tensor (nonzero numbers are ``True``, as Keras casts them), or an
    error naming ``layer`` and ``what`` the mask is for when it holds no numbers."""
    try:
        mask = mask if isinstance(mask, Tensor) else convert_to_tensor(mask)
    except (TypeError, ValueError) as error:
        raise _mask_error(layer, what, f"got {type(mask).__name__} ({error})") from None
    if mask.dtype == dtypes.bool:
        return mask
    if not (mask.dtype.is_floating or mask.dtype.is_integer):
        raise _mask_error(layer, what, f"got a {mask.dtype.name} tensor")
    return cast(mask, dtypes.bool)


def _mask_error(layer, what, got):
    return InvalidArgumentError(
        f"{type(layer).__name__} layer '{layer.name}': {what} must be a tensor of True/False "
        f"(or 1/0), {got}; pass e.g. ek.constant([[True, True, False]])",
        op=layer.name,
    )


def padding_mask(layer, query, value, query_mask=None, value_mask=None, key_mask=None):
    """The ``[batch, T, S]`` bool mask that Keras makes from the inputs' own masks (the
    ``_keras_mask`` of a padded sequence): True where the query position and the value (and
    key) position are both real; None when no mask is given. Each mask is ``[batch, time]``,
    checked against its input."""
    found = None
    for given, name, tensor, axis in (
        (query_mask, "query_mask", query, -1),  # [batch, T, 1]
        (value_mask, "value_mask", value, -2),  # [batch, 1, S]
        (key_mask, "key_mask", value, -2),  # (the key has the value's positions)
    ):
        if given is None:
            continue
        given = as_bool_mask(given, name, layer)
        wanted = tuple(tensor.shape[:2])
        if tensor.ndim != 3 or tuple(given.shape) != wanted:
            raise InvalidArgumentError(
                f"{type(layer).__name__} layer '{layer.name}': {name} must have one "
                f"True/False per position of inputs [batch, time, features], shape {wanted} "
                f"for {name.split('_')[0]} of shape {tuple(tensor.shape)}, but got "
                f"{tuple(given.shape)}; pass a mask of shape {wanted}, or an attention_mask",
                op=layer.name,
            )
        given = expand_dims(given, axis)
        found = given if found is None else logical_and(found, given)
    return found


def causal_mask(query_length, key_length):
    """A ``[query_length, key_length]`` bool tensor, ``True`` where key ``j <= i``: a query
    position sees itself and the past, never the future (decoder self-attention)."""
    rows = expand_dims(_range(query_length), 1)  # [T, 1]
    columns = expand_dims(_range(key_length), 0)  # [1, S]
    return greater_equal(rows, columns)


def broadcasts_to(shape, target):
    """Whether an array of ``shape`` broadcasts to ``target`` without growing its rank
    beyond it (each size equal, or 1).

    Examples
    --------
    >>> broadcasts_to((2, 1, 4), (2, 3, 4)), broadcasts_to((2, 4), (2, 3, 4))
    (True, False)
    """
    if len(shape) != len(target):
        return False
    return all(a in (b, 1) for a, b in zip(shape, target, strict=True))


def dropout_rate(value, layer_name):
    """``value`` as a float in [0, 1): the fraction of attention weights to drop."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not 0 <= value < 1:
        raise InvalidArgumentError(
            f"{layer_name}: dropout is the fraction of attention weights to DROP and must be "
            f"a number in [0, 1), got {value!r}",
            op=layer_name,
        )
    return float(value)
