"""What a functional model checks: its inputs and outputs when built, its data when called.

Each check fails with an eagerkit error that names the model, the input and the fix, as
Keras' "Input 0 of layer "model" is incompatible with the layer" does, but readable.
"""

import numpy as np

from eagerkit import nest
from eagerkit.errors import InvalidArgumentError
from eagerkit.keras.keras_tensor import KerasTensor, shape_text
from eagerkit.keras.layers.input_layer import InputLayer
from eagerkit.ops.cast import cast
from eagerkit.ops.shape import expand_dims, squeeze_axes
from eagerkit.tensor import Tensor, convert_to_tensor


def input_tensors(model, inputs):
    """The flat list of ``inputs`` (one, a list or a dict of ``ek.keras.Input`` tensors)."""
    flat = nest.flatten(inputs)
    for tensor in flat:
        if not (isinstance(tensor, KerasTensor) and isinstance(tensor.node.layer, InputLayer)):
            raise InvalidArgumentError(
                f"Model '{model.name}': inputs must be tensors made by ek.keras.Input (or lists "
                f"or dicts of them), got {tensor!r:.100}. Start the model with e.g. "
                "inputs = ek.keras.Input(shape=[3]) and call the layers on it",
                op="Model",
            )
    if not flat:
        raise InvalidArgumentError(
            f"Model '{model.name}': inputs= is empty; give the ek.keras.Input tensors the "
            "model starts from",
            op="Model",
        )
    if len(set(map(id, flat))) != len(flat):
        raise InvalidArgumentError(
            f"Model '{model.name}': the same Input appears twice among inputs=", op="Model"
        )
    return flat


def output_tensors(model, outputs):
    """The flat list of ``outputs``: KerasTensors computed from the model's inputs."""
    flat = nest.flatten(outputs)
    for tensor in flat:
        if not isinstance(tensor, KerasTensor):
            raise InvalidArgumentError(
                f"Model '{model.name}': outputs must be KerasTensors, the results of layers "
                f"and ops called on ek.keras.Input tensors, got {tensor!r:.100}. A tensor with "
                "a value (ek.constant, a model's result) was computed eagerly, outside the "
                "graph: call the layers on the Input instead",
                op="Model",
            )
    if not flat:
        raise InvalidArgumentError(
            f"Model '{model.name}': outputs= is empty; give the KerasTensors it computes",
            op="Model",
        )
    return flat


def conform(model, inputs):
    """The data for each of ``model.inputs``, as tensors of its dtype, shapes checked."""
    flat = _flat_like(model, inputs)
    return [
        _conformed(model, i, t, x) for i, (t, x) in enumerate(zip(model.inputs, flat, strict=True))
    ]


def _flat_like(model, inputs):
    """``inputs`` as a flat list lined up with ``model.inputs``."""
    expected = model._nested_inputs
    if isinstance(expected, dict) and isinstance(inputs, dict):
        missing = sorted(set(expected) - set(inputs))
        if missing:
            raise InvalidArgumentError(
                f"Model '{model.name}' was called without input(s) {', '.join(missing)}: "
                f"give a dict with the keys {sorted(expected)}",
                op=model.name,
            )
        return [inputs[key] for key in sorted(expected)]
    if isinstance(inputs, dict):  # a dict for inputs given as a list: match by Input name
        by_name = {t.name: t for t in model.inputs}
        if set(inputs) == set(by_name):
            return [inputs[t.name] for t in model.inputs]
    count = len(model.inputs)
    if count == 1:  # a nested list of numbers is one input's value; [tensor] is one input
        single = isinstance(inputs, (list, tuple)) and len(inputs) == 1
        return [inputs[0] if single and isinstance(inputs[0], Tensor) else inputs]
    if isinstance(inputs, (list, tuple)) and len(inputs) == count:
        return list(inputs)
    names = ", ".join(t.name for t in model.inputs)
    got = f"{len(inputs)} values" if isinstance(inputs, (list, tuple)) else "one value"
    raise InvalidArgumentError(
        f"Model '{model.name}' takes {count} inputs ({names}) but was called with {got}. "
        f"Pass a list of {count} tensors in that order, or a dict keyed by the Input names",
        op=model.name,
    )


def _conformed(model, index, expected, value):
    """``value`` as Keras conforms a functional model's input: cast to the Input's dtype (any
    number type: Keras casts every input), a ``(batch,)`` vector taken as the ``(batch, 1)``
    an Input of shape ``[1]`` expects and the other way round, then its shape checked."""
    if not isinstance(value, Tensor):
        own = isinstance(value, np.ndarray) or not _numeric(value)  # numpy keeps its dtype
        value = convert_to_tensor(value, dtype=None if own else expected.dtype)
    if value.dtype != expected.dtype:
        if not (_number_type(value.dtype) and _number_type(expected.dtype)):
            raise InvalidArgumentError(
                f"Model '{model.name}': input {index} ('{expected.name}') expects "
                f"{expected.dtype.name} tensors, got {value.dtype.name}. Cast it with "
                f"ek.cast(x, ek.{expected.dtype.name}), or make the Input with "
                f"dtype='{value.dtype.name}'",
                op=model.name,
            )
        value = cast(value, expected.dtype)
    value = with_input_rank(value, expected.shape.as_list())
    _check_shape(model, index, expected, value._data.shape)  # the array's: a plain tuple
    return value


def _number_type(dtype):
    return dtype.is_floating or dtype.is_integer or dtype.is_bool


def with_input_rank(value, wanted):
    """``value`` with a last axis of 1 added or dropped when that is all it lacks to have
    the Input's rank (``wanted``, batch axis included), as Keras conforms its inputs: TF's
    regression tutorial fits a 1-D column of numbers into ``Input(shape=[1])``."""
    got = value._data.shape
    if len(got) == len(wanted) - 1 and wanted[-1] == 1:
        return expand_dims(value, -1)
    if len(got) == len(wanted) + 1 and got[-1:] == (1,):
        return squeeze_axes(value, -1)
    return value


def _numeric(value):
    return not isinstance(value, (str, bytes))


def _check_shape(model, index, expected, shape):
    wanted, got = expected.shape.as_list(), shape
    if len(wanted) == len(got) and all(w in (None, g) for w, g in zip(wanted, got, strict=True)):
        return
    wanted_text = shape_text(expected.shape)
    fix = (
        "Add the batch axis, e.g. model(ek.expand_dims(x, 0))"
        if len(got) == len(wanted) - 1
        else f"Give it tensors of shape {wanted_text}, None standing for any size"
    )
    raise InvalidArgumentError(
        f"Model '{model.name}': input {index} ('{expected.name}') expects shape "
        f"{wanted_text}, but got shape {tuple(got)}. {fix}",
        op=model.name,
    )
