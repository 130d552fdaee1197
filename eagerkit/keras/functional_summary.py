"""``summary()`` of a functional model, as Keras prints it.

One row per layer: name (type), output shape with ``None`` for the batch axis (an Input's in
brackets, ``[(None, 3)]``, as Keras shows it), parameter count, and, when the graph is more
than a chain, the layer outputs each layer is connected to, written
``layer_name[node][output]``: which call of that layer (a shared layer is called more than
once), and which of its outputs.
"""

from eagerkit import nest
from eagerkit.keras.keras_tensor import shape_text
from eagerkit.keras.layers.input_layer import InputLayer
from eagerkit.keras.model_summary import summary_table


def summary_lines(model):
    """The lines ``model.summary()`` prints.

    Examples
    --------
    >>> import eagerkit as ek
    >>> from eagerkit.keras.functional_summary import summary_lines
    >>> ek.keras.backend.clear_session()  # default names from the start: ek.concat, ...
    >>> a = ek.keras.Input(shape=[2], name="a")
    >>> b = ek.keras.Input(shape=[3], name="b")
    >>> joined = ek.concat([a, b], axis=1)
    >>> model = ek.keras.Model([a, b], ek.keras.layers.Dense(1, name="out")(joined), name="m")
    >>> print("\\n".join(summary_lines(model)))
    Model: "m"
    =================================================================
    Layer (type)             Output Shape   Param #   Connected to
    =================================================================
    a (InputLayer)           [(None, 2)]    0
    b (InputLayer)           [(None, 3)]    0
    ek.concat (TFOpLambda)   (None, 5)      0         a[0][0]
                                                      b[0][0]
    out (Dense)              (None, 1)      6         ek.concat[0][0]
    =================================================================
    Total params: 6
    Trainable params: 6
    Non-trainable params: 0
    """
    calls = _calls_by_layer(model)
    header = ["Layer (type)", "Output Shape", "Param #"]
    rows = [
        [
            f"{layer.name} ({type(layer).__name__})",
            _output_shape(layer, calls[id(layer)]),
            f"{layer.count_params():,}",
        ]
        for layer in model.layers
    ]
    if not _is_a_chain(model, calls):
        header.append("Connected to")
        for row, layer in zip(rows, model.layers, strict=True):
            row.append(
                [_source(tensor, calls) for node in calls[id(layer)] for tensor in node.inputs]
            )
    return summary_table(model, header, rows)


def _calls_by_layer(model):
    """For each layer (by id), its nodes in this model, in the order they were made."""
    calls = {id(layer): [] for layer in model.layers}
    for tensor in model.inputs:
        calls[id(tensor.node.layer)].append(tensor.node)
    for node in model._nodes:
        calls[id(node.layer)].append(node)
    return calls


def _output_shape(layer, nodes):
    shapes = {_shapes_text(node.outputs) for node in nodes}
    if isinstance(layer, InputLayer):
        return f"[{shapes.pop()}]"
    return shapes.pop() if len(shapes) == 1 else "multiple"


def _shapes_text(outputs):
    texts = [shape_text(t.shape) for t in nest.flatten(outputs)]
    return texts[0] if len(texts) == 1 else f"[{', '.join(texts)}]"


def _source(tensor, calls):
    """``name[node][output]`` for the KerasTensor ``tensor``."""
    layer = tensor.node.layer
    return f"{layer.name}[{calls[id(layer)].index(tensor.node)}][{tensor.index}]"


def _is_a_chain(model, calls):
    """One input, one output, and each layer called once on one tensor (Keras then leaves
    out the "Connected to" column)."""
    return (
        len(model.inputs) == 1
        and len(model.outputs) == 1
        and all(len(nodes) == 1 for nodes in calls.values())
        and all(len(node.inputs) == 1 for node in model._nodes)
    )
