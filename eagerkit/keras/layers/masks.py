"""Keras masks: which time steps of a padded batch are real, carried on the tensors.

A batch of sequences of different lengths is padded to one length (ids ``[[5, 8, 0],
[3, 0, 0]]``). ``Embedding(mask_zero=True)`` and ``Masking`` say which steps are real with
a bool mask of shape ``[batch, time]`` and attach it to their output as ``_keras_mask``,
as Keras 3 does. Each later layer call reads it from its inputs (``Layer.__call__``):

- a layer whose ``call`` takes ``mask`` receives it (and one that takes ``query_mask``,
  ``value_mask``, ... receives the mask of ``query``, ``value``, ...);
- a layer that ``supports_masking`` attaches ``compute_mask(inputs, mask)`` to its
  outputs (by default the mask unchanged: Dense, Dropout, activations, ...);
- any other layer drops it, and warns that it did (Keras 3 does too): the layers after it
  no longer skip the padded steps.

Examples
--------
>>> import eagerkit as ek
>>> embedded = ek.keras.layers.Embedding(10, 2, mask_zero=True)(ek.constant([[5, 8, 0]]))
>>> embedded._keras_mask
<ek.Tensor: shape=(1, 3), dtype=bool, numpy=array([[ True,  True, False]])>
>>> ek.keras.layers.Dense(4)(embedded)._keras_mask.numpy().tolist()  # Dense passes it on
[[True, True, False]]
"""

import inspect
import warnings

from eagerkit import boundary, dtypes
from eagerkit.errors import InvalidArgumentError
from eagerkit.keras.keras_tensor import KerasTensor
from eagerkit.ops.cast import cast
from eagerkit.ops.reduce import reduce_sum
from eagerkit.ops.reshaping import expand_dims
from eagerkit.ops.safe_math import divide_no_nan
from eagerkit.ops.shape import reshape, size
from eagerkit.tensor import Tensor, convert_to_tensor

# Whether any mask was ever attached: until one is, a layer call skips the mask work.
made = [False]


def get_mask(x):
    """The mask attached to ``x`` (a Tensor or KerasTensor), or None."""
    return getattr(x, "_keras_mask", None)


def set_mask(x, mask):
    """Attach ``mask`` to the tensor ``x`` as ``x._keras_mask`` (anything else: no-op)."""
    if isinstance(x, (Tensor, KerasTensor)):
        x._keras_mask = mask
        made[0] = True


def masks_of(inputs):
    """The masks of ``inputs``: one mask (or None), or a list for a list of tensors."""
    if isinstance(inputs, (list, tuple)):
        return [get_mask(x) for x in inputs]
    return get_mask(inputs)


def _flat(structure):
    return list(structure) if isinstance(structure, (list, tuple)) else [structure]


_PARAMETERS = {}


def _call_parameters(cls):
    """The names of ``cls.call``'s parameters after ``self`` (looked up once per class)."""
    if cls not in _PARAMETERS:
        names = list(inspect.signature(cls.call).parameters)[1:]
        _PARAMETERS[cls] = (names, {n for n in names if n == "mask" or n.endswith("_mask")})
    return _PARAMETERS[cls]


def takes_mask(layer):
    """Whether ``layer.call`` has a ``mask`` parameter.

    Examples
    --------
    >>> import eagerkit as ek
    >>> from eagerkit.keras.layers.masks import takes_mask
    >>> takes_mask(ek.keras.layers.LSTM(2)), takes_mask(ek.keras.layers.Dense(2))
    (True, False)
    """
    return "mask" in _call_parameters(type(layer))[1]


def fill_mask_arguments(layer, inputs, args, kwargs):
    """Give ``layer.call``'s mask arguments that nobody passed the masks of the inputs
    (``kwargs`` is changed in place), as Keras does; return the mask the layer received:
    ``kwargs["mask"]`` when given, else the mask of ``inputs``."""
    names, mask_names = _call_parameters(type(layer))
    if mask_names:
        given = dict(zip(names, (inputs, *args), strict=False))
        for name in mask_names:
            if name in given or kwargs.get(name) is not None:
                continue
            source = inputs if name == "mask" else given.get(name[: -len("_mask")])
            if source is None:
                source = kwargs.get(name[: -len("_mask")])
            found = masks_of(source)
            if any(m is not None for m in _flat(found)):
                kwargs[name] = found
    if kwargs.get("mask") is not None:
        return kwargs["mask"]
    found = masks_of(inputs)
    return found if any(m is not None for m in _flat(found)) else None


def attach_output_masks(layer, inputs, outputs, previous_mask):
    """Attach ``layer.compute_mask(inputs, previous_mask)`` to the outputs that have none."""
    flat_outputs = _flat(outputs)
    if all(get_mask(x) is not None for x in flat_outputs):
        return  # the layer set them itself (Masking, MultiHeadAttention)
    output_masks = layer.compute_mask(inputs, previous_mask)
    if output_masks is None:
        return
    for tensor, mask in zip(flat_outputs, _flat(output_masks), strict=False):
        if mask is not None and get_mask(tensor) is None:
            # A mask passed as a list or numpy array travels on as a tensor.
            set_mask(tensor, mask if isinstance(mask, (Tensor, KerasTensor)) else _tensor(mask))


def warn_dropped(layer):
    """Warn that ``layer``, which does not support masking, drops the mask it was given."""
    warnings.warn(  # from the user's line that called the layer (or the model): once there
        f"Layer '{layer.name}' (of type {type(layer).__name__}) was passed an input with a "
        "mask attached to it, but it does not support masking and will therefore destroy "
        f"the mask information: the layers after it will not see the mask. {_fix(layer)}",
        UserWarning,
        stacklevel=boundary.user_stacklevel(),
    )


def _fix(layer):
    """What to do about a dropped mask: the user's own layer can pass it on."""
    name = type(layer).__name__
    if not type(layer).__module__.startswith("eagerkit."):
        return (
            f"If {name} keeps the time steps, set supports_masking = True in it (or write "
            "compute_mask(inputs, mask)) to pass the mask on"
        )
    return (
        "Let a layer that uses the mask take the time steps away before it (an LSTM "
        "without return_sequences, GlobalAveragePooling1D)" + getattr(layer, "_mask_fix", "")
    )


def _tensor(mask):
    mask = convert_to_tensor(mask)
    return mask if mask.dtype == dtypes.bool else cast(mask, dtypes.bool)


def sequence_mask(layer, mask, inputs, time_axis=1):
    """``mask`` as a bool ``[batch, time]`` tensor for the sequences ``inputs``
    (``[batch, time, features]``, or the time on ``time_axis``), or a clear error naming
    ``layer``, both shapes and the fix."""
    name = type(layer).__name__
    try:
        mask = mask if isinstance(mask, Tensor) else convert_to_tensor(mask)
    except (TypeError, ValueError) as error:
        raise _mask_error(layer, f"got {type(mask).__name__} ({error})") from None
    if not (mask.dtype == dtypes.bool or mask.dtype.is_integer or mask.dtype.is_floating):
        raise _mask_error(layer, f"got a {mask.dtype.name} tensor")
    wanted = (inputs.shape[0], inputs.shape[time_axis])
    if tuple(mask.shape) != wanted:
        raise InvalidArgumentError(
            f"{name} layer '{layer.name}': mask must have one True/False per time step, shape "
            f"[batch, time] = {wanted} for inputs of shape {tuple(inputs.shape)}, but got "
            f"shape {tuple(mask.shape)}. Pass a mask of shape {wanted}, e.g. "
            "ek.not_equal(ids, 0) for the ids that were embedded",
            op=layer.name,
        )
    return mask if mask.dtype == dtypes.bool else cast(mask, dtypes.bool)


def _mask_error(layer, got):
    return InvalidArgumentError(
        f"{type(layer).__name__} layer '{layer.name}': mask must be a tensor of True/False "
        f"(or 1/0), one per time step, {got}; pass e.g. ek.constant([[True, True, False]])",
        op=layer.name,
    )


def mask_weights(mask, values, sample_weight, what, mean):
    """The weights that leave masked entries out of a loss's or metric's ``values`` (one
    per example and step, ``[batch, time]``), as Keras' ``apply_mask``: 0 where masked; 1
    elsewhere, or ``total / valid`` for a ``mean`` (the mean then runs over the valid
    entries only); times ``sample_weight`` (one per example: spread over its steps)."""
    given = tuple(mask.shape)
    mask = mask if mask.ndim == values.ndim else _same_rank(mask, values.ndim)
    if tuple(mask.shape) != tuple(values.shape):
        raise InvalidArgumentError(
            f"{what}: the predictions' mask has shape {given}, but the values "
            f"it weighs have shape {tuple(values.shape)}; the outputs of a masked sequence "
            "model need one value per step (e.g. return_sequences=True and a per-step loss)",
            op=what,
        )
    weights = cast(mask, values.dtype)
    if mean:
        valid = reduce_sum(weights)  # may be 0: every entry masked gives weights of 0
        weights = weights * divide_no_nan(cast(size(weights), values.dtype), valid)
    if sample_weight is None:
        return weights
    sample_weight = cast(convert_to_tensor(sample_weight), values.dtype)
    if 0 < sample_weight.ndim < weights.ndim:  # one per example: its axis on the right
        sample_weight = reshape(sample_weight, [*sample_weight.shape, *[1] * (weights.ndim - 1)])
    return weights * sample_weight


def _same_rank(mask, rank):
    """``mask`` with a last axis of 1 added or dropped to match ``rank`` where it can."""
    if mask.ndim == rank + 1 and mask.shape[-1] == 1:
        return reshape(mask, mask.shape[:-1])
    if mask.ndim + 1 == rank:
        return expand_dims(mask, -1)
    return mask
