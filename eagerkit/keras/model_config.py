"""The configs of Sequential and functional models: their layers, and how they connect.

A Sequential model's config is its layers' configs, in order (an ``InputLayer`` first when
the model knows its input shape). A functional model's config lists its layers, then its
calls (``nodes``) in the order they were made, each naming the layer and giving the
arguments with every KerasTensor replaced by a reference ``{"keras_tensor": [layer name,
call number, output number]}``; ``input_layers`` and ``output_layers`` refer to tensors
the same way. Rebuilding calls the layers again on new Inputs, in that order.

Examples
--------
>>> import eagerkit as ek
>>> inputs = ek.keras.Input(shape=[3], name="x")
>>> hidden = ek.keras.layers.Dense(4, activation="relu", name="hidden")(inputs)
>>> model = ek.keras.Model(inputs, ek.keras.layers.Dense(1, name="out")(hidden), name="mlp")
>>> config = model.get_config()
>>> [layer["name"] for layer in config["layers"]], config["output_layers"]
(['x', 'hidden', 'out'], {'keras_tensor': ['out', 0, 0]})
>>> clone = ek.keras.Model.from_config(config)
>>> clone.name, [layer.name for layer in clone.layers]
('mlp', ['x', 'hidden', 'out'])
"""

import numpy as np

from eagerkit import nest
from eagerkit.errors import InvalidArgumentError
from eagerkit.keras import builtin_objects
from eagerkit.keras.keras_tensor import KerasTensor
from eagerkit.keras.serialization import deserialize_keras_object, serialize_keras_object
from eagerkit.tensor import Tensor


def serialize_layer(layer):
    return serialize_keras_object(layer)


def deserialize_layer(config, custom_objects=None):
    return deserialize_keras_object(config, builtin_objects.layers(), custom_objects, "layer")


# --- Sequential -----------------------------------------------------------------------------
def sequential_config(model):
    layers = []
    graph = vars(model).get("_graph")  # its Input's dtype: a model of strings says string
    dtype = graph.tensors[0].dtype if graph is not None else model.dtype
    if model.input_spec_shape is not None:
        layers.append(
            {
                "class_name": "InputLayer",
                "config": {
                    "batch_shape": [None, *model.input_spec_shape],
                    "dtype": dtype.name,
                    "name": f"{model.name}_input",
                },
            }
        )
    layers += [serialize_layer(layer) for layer in model._tracked_layers]
    return {"name": model.name, "layers": layers}


def sequential_from_config(cls, config, custom_objects=None):
    from eagerkit.keras.layers.input_layer import Input

    _expect(config, ("layers",), "Sequential")
    model = cls(name=config.get("name"))
    for layer_config in config["layers"]:
        if isinstance(layer_config, dict) and layer_config.get("class_name") == "InputLayer":
            shape = layer_config.get("config", {})
            model.add(Input(batch_shape=shape.get("batch_shape"), dtype=shape.get("dtype")))
        else:
            model.add(deserialize_layer(layer_config, custom_objects))
    return model


# --- functional ---------------------------------------------------------------------------
def functional_config(model):
    names = [layer.name for layer in model.layers]
    if len(set(names)) != len(names):
        repeated = sorted({name for name in names if names.count(name) > 1})
        raise InvalidArgumentError(
            f"Model '{model.name}': all layer names should be unique to save its config, but "
            f"{repeated} appear more than once; give the layers distinct name= arguments",
            op="get_config",
        )
    calls = {}  # id(node) -> its number among the calls of its layer
    counts = {}
    for node in [t.node for t in model.inputs] + model._nodes:
        calls[id(node)] = counts.get(id(node.layer), 0)
        counts[id(node.layer)] = calls[id(node)] + 1

    def reference(tensor):
        return {"keras_tensor": [tensor.node.layer.name, calls[id(tensor.node)], tensor.index]}

    return {
        "name": model.name,
        "layers": [{**serialize_layer(layer), "name": layer.name} for layer in model.layers],
        "nodes": [
            {
                "layer": node.layer.name,
                "args": _encoded(list(node.args), reference),
                "kwargs": _encoded(node.kwargs, reference),
            }
            for node in model._nodes
        ],
        "input_layers": _encoded(model._nested_inputs, reference),
        "output_layers": _encoded(model._nested_outputs, reference),
    }


def functional_from_config(cls, config, custom_objects=None):
    from eagerkit.keras.functional import Functional
    from eagerkit.keras.layers.input_layer import InputLayer

    _expect(config, ("layers", "nodes", "input_layers", "output_layers"), "Functional")
    layers = {}
    for entry in config["layers"]:
        layer = deserialize_layer(entry, custom_objects)
        layers[entry.get("name", layer.name)] = layer
    made = {}  # (layer name, call number) -> the outputs of that call
    for name, layer in layers.items():
        if isinstance(layer, InputLayer):
            made[(name, 0)] = layer.output  # its call is its making

    def tensor(ref):
        name, call, index = ref
        if (name, call) not in made:
            raise InvalidArgumentError(
                f"model config refers to call {call} of layer '{name}', which the config "
                "does not make (the config is damaged or was edited)",
                op="from_config",
            )
        return nest.flatten(made[(name, call)])[index]

    for node in config["nodes"]:
        name = node["layer"]
        if name not in layers:
            raise InvalidArgumentError(
                f"model config calls layer '{name}', which it does not list", op="from_config"
            )
        args = _decoded(node["args"], tensor)
        outputs = layers[name](*args, **_decoded(node["kwargs"], tensor))
        call = sum(1 for key in made if key[0] == name)
        made[(name, call)] = outputs
    inputs = _decoded(config["input_layers"], tensor)
    outputs = _decoded(config["output_layers"], tensor)
    target = cls if isinstance(cls, type) and issubclass(cls, Functional) else Functional
    return target(inputs=inputs, outputs=outputs, name=config.get("name"))


def _encoded(value, reference):
    """``value`` as JSON-able data, KerasTensors as references, arrays as lists."""
    if isinstance(value, KerasTensor):
        return reference(value)
    if isinstance(value, (Tensor, np.ndarray, np.generic)):
        array = np.asarray(value.numpy() if isinstance(value, Tensor) else value)
        return {"ndarray": array.tolist(), "dtype": array.dtype.name}
    if isinstance(value, dict):
        return {"dict": {str(k): _encoded(v, reference) for k, v in value.items()}}
    if isinstance(value, (list, tuple)):
        return [_encoded(item, reference) for item in value]
    return serialize_keras_object(value)


def _decoded(value, tensor):
    if isinstance(value, list):
        return [_decoded(item, tensor) for item in value]
    if isinstance(value, dict):
        if "keras_tensor" in value:
            return tensor(value["keras_tensor"])
        if "ndarray" in value:
            return np.asarray(value["ndarray"], dtype=value["dtype"])
        if "dict" in value:
            return {k: _decoded(v, tensor) for k, v in value["dict"].items()}
        return deserialize_keras_object(value, builtin_objects.layers(), None, "object")
    return value


def _expect(config, keys, what):
    if not isinstance(config, dict) or any(key not in config for key in keys):
        raise InvalidArgumentError(
            f"not a {what} model config: it needs the keys {list(keys)}, got "
            f"{sorted(config) if isinstance(config, dict) else type(config).__name__}",
            op="from_config",
        )
