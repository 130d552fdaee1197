"""A Sequential model's graph: once its input shape is known, each layer is called on the
KerasTensor the layer before it returned, as it is added.

Keras builds a Sequential model that starts with ``keras.Input`` (or whose first layer has
``input_shape=``) as layers are added: each layer has its weights at once, ``summary()``
shows every shape so far, and the model has ``inputs`` and ``outputs`` like a functional
model, so ``keras.Model(model.inputs, [layer.output for layer in model.layers])`` extracts
the features of every layer. The model itself still runs its layers one after the other
(models.py); the graph only records what each layer was called on.

Examples
--------
>>> import eagerkit as ek
>>> model = ek.keras.Sequential([ek.keras.Input(shape=(4,)), ek.keras.layers.Dense(2)])
>>> len(model.weights), model.layers[0].output.shape
(2, TensorShape([None, 2]))
"""

from eagerkit.errors import InvalidArgumentError, OutOfRangeError
from eagerkit.keras.functional_checks import _number_type, with_input_rank
from eagerkit.keras.keras_tensor import KerasTensor
from eagerkit.ops.cast import cast
from eagerkit.tensor import Tensor


class SequentialGraph:
    """The model's Input, then the output of each layer in turn. A checkpoint does not
    follow it: the layers are saved as the model's own."""

    def __init__(self, inputs):
        self.tensors = [inputs]

    def _checkpoint_dependencies(self):
        return []


def start(model, inputs):
    """Begin ``model``'s graph at the KerasTensor ``inputs`` (an ``ek.keras.Input``)."""
    vars(model)["_graph"] = SequentialGraph(inputs)


def extend(model, layer):
    """Call ``layer`` on the graph's last tensor, which builds it; a first layer made with
    ``input_shape=`` starts the graph. Nothing to do while the input shape is unknown."""
    from eagerkit.keras.layers.input_layer import Input

    graph = vars(model).get("_graph")
    if graph is None and layer.input_spec_shape is not None and len(model.layers) == 1:
        graph = SequentialGraph(Input(shape=layer.input_spec_shape, dtype=layer.dtype))
    if graph is None:
        return
    output = layer(graph.tensors[-1])  # fails for a layer that cannot take that shape
    if not isinstance(output, KerasTensor):
        raise InvalidArgumentError(
            f"Sequential model '{model.name}': layer '{layer.name}' returned "
            f"{type(output).__name__}, but a Sequential model's layers must each return one "
            "tensor for the next; use the functional API (ek.keras.Model(inputs, outputs)) "
            "for layers with several outputs",
            op="Sequential.add",
        )
    layer.last_output_shape = tuple(output.shape.as_list())  # what summary() shows
    model.last_output_shape = layer.last_output_shape  # an outer model's summary shows it
    graph.tensors.append(output)
    vars(model)["_graph"] = graph


def drop_last(model):
    """Forget the output of the layer ``pop`` removed."""
    graph = vars(model).get("_graph")
    if graph is not None and len(graph.tensors) > 1:
        graph.tensors.pop()
        model.last_output_shape = tuple(graph.tensors[-1].shape.as_list())


def check_not_empty(model):
    """``pop`` on a model without layers: Keras 3's IndexError, with what to do."""
    if not model.layers:
        raise OutOfRangeError(
            f"Sequential.pop: model '{model.name}' has no layers to remove; add one with "
            "model.add(layer) first",
            op="Sequential.pop",
        )


def tensors(model, what):
    """The graph's first (``what`` ``"inputs"``) or last tensor, as a one-item list; a
    model whose input shape is still unknown has none (Keras 3's ValueError)."""
    graph = vars(model).get("_graph")
    if graph is None or len(graph.tensors) < 2:
        raise InvalidArgumentError(
            f"Sequential model '{model.name}' has no defined {what} yet: they are defined "
            "once it knows its input shape and has a layer. Start it with "
            "ek.keras.Input(shape=...) (or give its first layer input_shape=), then add layers",
            op=f"Sequential.{what}",
        )
    return [graph.tensors[0] if what in ("inputs", "input") else graph.tensors[-1]]


def check_input_shape(model, inputs):
    """Keras' check of the examples' shape against the model's ``Input`` (or its first
    layer's ``input_shape=``): otherwise the first layer would build for the wrong size.
    Returns the inputs, a last axis of 1 added or dropped where Keras does so, and numbers
    cast to the Input's dtype (``_input_dtype``)."""
    first = model._tracked_layers[0] if model._tracked_layers else None
    expected = model.input_spec_shape or getattr(first, "input_spec_shape", None)
    if expected is None or not isinstance(inputs, Tensor):
        return inputs
    inputs = with_input_rank(inputs, [None, *expected])  # a 1-D column into Input(shape=[1])
    found = tuple(inputs._data.shape)
    fits = len(found) == len(expected) + 1 and all(
        e is None or e == f for e, f in zip(expected, found[1:], strict=True)
    )
    if not fits:
        wanted = (None, *expected)
        raise InvalidArgumentError(
            f'Input 0 of layer "{model.name}" is incompatible with the layer: expected '
            f"shape={wanted}, found shape={found}. Give examples of shape "
            f"(batch, {', '.join(str(e) for e in expected)}), or make a model whose Input has "
            "the new shape",
            op=type(model).__name__,
        )
    return _input_dtype(model, inputs)


def _input_dtype(model, inputs):
    """``inputs`` cast to the dtype of the model's Input, as Keras 3 conforms the inputs of a
    model that has one (a functional model's, functional_checks.py): the numpy tutorial fits
    MNIST's uint8 pixels, unscaled, into ``Flatten(input_shape=(28, 28))``, a float32 Input.
    Text and other non-numbers are left for the first layer to judge."""
    graph = vars(model).get("_graph")
    wanted = graph.tensors[0].dtype if graph is not None else inputs.dtype
    if inputs.dtype == wanted or not (_number_type(inputs.dtype) and _number_type(wanted)):
        return inputs
    return cast(inputs, wanted)
