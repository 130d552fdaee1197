"""The masks of the merge layers (keras/layers/merge.py), as Keras 3 computes them.

A merge gets one mask (or None) per input, e.g. ``[batch, time]`` for sequences of
``[batch, time, features]``:

- the elementwise merges (``Add``, ``Subtract``, ``Multiply``, ``Average``, ``Maximum``,
  ``Minimum``) give the masks joined by logical OR, a step is real where it is real in some
  input; when an input has no mask, the output has none;
- ``Concatenate`` joins the masks along its axis, an unmasked input counting as all True;
- ``Dot`` sums the steps away: its output has no mask.

``Multiply``, ``Maximum`` and ``Minimum`` also leave the masked entries out of their values
(Keras 3 does): a masked entry counts as 1 in a product, and as absent in a maximum or
minimum; the product of steps masked in every input is 0.

Examples
--------
>>> import eagerkit as ek
>>> a = ek.keras.layers.Embedding(9, 2, mask_zero=True)(ek.constant([[4, 0, 0]]))
>>> b = ek.keras.layers.Embedding(9, 2, mask_zero=True)(ek.constant([[0, 5, 0]]))
>>> ek.keras.layers.Add()([a, b])._keras_mask.numpy().tolist()
[[True, True, False]]
>>> ek.keras.layers.Concatenate(axis=1)([a, b])._keras_mask.numpy().tolist()
[[True, False, False, False, True, False]]
"""

import functools

from eagerkit import dtypes
from eagerkit.errors import InvalidArgumentError
from eagerkit.ops.arithmetic import multiply
from eagerkit.ops.compare import logical_or, not_equal, where
from eagerkit.ops.creation import ones_like, zeros_like
from eagerkit.ops.reduce import reduce_any
from eagerkit.ops.reshaping import expand_dims
from eagerkit.ops.shape import broadcast_to, concat
from eagerkit.tensor import Tensor, convert_to_tensor


def checked_masks(layer, inputs, mask):
    """``mask`` as a list of one bool mask (or None) per input, or the error naming why."""
    if not isinstance(mask, (list, tuple)) or len(mask) != len(inputs):
        got = f"a list of {len(mask)}" if isinstance(mask, (list, tuple)) else type(mask).__name__
        raise InvalidArgumentError(
            f"{type(layer).__name__} layer '{layer.name}': mask must be a list of one mask "
            f"(or None) per input, {len(inputs)} in all, got {got}; pass e.g. "
            "mask=[a._keras_mask, None]",
            op=layer.name,
        )
    return [None if m is None else _bool_tensor(m) for m in mask]


def _bool_tensor(mask):
    mask = mask if isinstance(mask, Tensor) else convert_to_tensor(mask)
    return mask if mask.dtype == dtypes.bool else not_equal(mask, 0)


def elementwise_mask(layer, inputs, mask):
    """The OR of the inputs' masks; None when any input has none (Keras 3's ``Merge``)."""
    if mask is None:
        return None
    masks = checked_masks(layer, inputs, mask)
    if any(m is None for m in masks):
        return None
    return functools.reduce(logical_or, masks)


def concatenated_mask(layer, inputs, mask, axis):
    """The masks joined along ``axis`` as the inputs are (Keras 3's ``Concatenate``)."""
    if mask is None:
        return None
    masks = checked_masks(layer, inputs, mask)
    if all(m is None for m in masks):
        return None
    # Each mask spread over its input's entries (an unmasked input: all True), joined as
    # the inputs are, then one value per step again: the features' axis reduced away.
    spread = [
        ones_like(x, dtype=dtypes.bool) if m is None else _spread(m, x)
        for m, x in zip(masks, inputs, strict=True)
    ]
    return reduce_any(concat(spread, axis=axis), axis=-1)


def masked_product(inputs, masks):
    """The product of ``inputs``, a masked entry counting as 1; where every input is
    masked (all have masks), 0."""
    spread = [None if m is None else _spread(m, x) for m, x in zip(masks, inputs, strict=True)]
    factors = [
        x if m is None else where(m, x, ones_like(x)) for m, x in zip(spread, inputs, strict=True)
    ]
    product = functools.reduce(multiply, factors)
    if all(m is not None for m in spread):
        product = where(functools.reduce(logical_or, spread), product, zeros_like(product))
    return product


def masked_choice(choose, inputs, masks):
    """``choose`` (maximum or minimum) over ``inputs``, leaving masked entries out: each
    input's masked entries take the value chosen so far, and the choice so far is replaced
    by the next input where it was masked."""
    chosen = chosen_mask = None
    for x, mask in zip(inputs, masks, strict=True):
        mask = None if mask is None else _spread(mask, x)
        if chosen is None:
            chosen, chosen_mask = x, mask
            continue
        if mask is not None:
            x = where(mask, x, chosen)
        if chosen_mask is not None:
            chosen = where(chosen_mask, chosen, x)
        # Once an input has no mask, every entry of it counts: nothing is masked after it.
        both = mask is not None and chosen_mask is not None
        chosen_mask = logical_or(chosen_mask, mask) if both else None
        chosen = choose(chosen, x)
    return chosen


def _spread(mask, x):
    """``mask`` (one value per step, or per entry) over every entry of ``x``."""
    if mask.ndim < x.ndim:
        return broadcast_to(expand_dims(mask, -1), x.shape)
    return mask
