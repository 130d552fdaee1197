"""``ek.keras.Input``: where a functional model starts.

``Input(shape=[3])`` makes an ``InputLayer`` and returns its one output, a KerasTensor of
shape ``(None, 3)``: ``shape`` leaves out the batch axis, whose size stays unknown unless
``batch_size`` gives it. Layers called on it build the model's graph.
"""

import numbers

import numpy as np

from eagerkit import dtypes
from eagerkit.arguments import describe
from eagerkit.errors import InvalidArgumentError
from eagerkit.keras import symbolic
from eagerkit.keras.keras_tensor import KerasTensor
from eagerkit.keras.layers.base import Layer, unique_name
from eagerkit.keras.layers.sizes import whole_number


def Input(shape=None, batch_size=None, name=None, dtype=None, batch_shape=None):  # noqa: N802
    """A symbolic input of ``shape`` (without the batch axis) for a functional model.

    Parameters
    ----------
    shape : the size of each axis after the batch axis; ``None`` for a size that varies
        (``[None, 8]``: sequences of any length).
    batch_size : the batch axis' size, if fixed (default ``None``: any).
    name : the input's name (default ``input_1``, ``input_2``, ...); a model called on a
        dict finds its inputs by these names.
    dtype : the dtype of the tensors it stands for (default float32).
    batch_shape : the whole shape, batch axis included, instead of ``shape``/``batch_size``.

    Examples
    --------
    >>> import eagerkit as ek
    >>> inputs = ek.keras.Input(shape=[3], name="x")
    >>> outputs = ek.keras.layers.Dense(2, kernel_initializer="ones")(inputs)
    >>> model = ek.keras.Model(inputs=inputs, outputs=outputs)
    >>> model(ek.constant([[1.0, 2.0, 3.0]]))
    <ek.Tensor: shape=(1, 2), dtype=float32, numpy=array([[6., 6.]], dtype=float32)>
    """
    layer = InputLayer(
        input_shape=shape, batch_size=batch_size, dtype=dtype, name=name, batch_shape=batch_shape
    )
    return layer.output


class InputLayer(Layer):
    """The layer behind ``ek.keras.Input``: no variables; its output is the model's input.

    Examples
    --------
    >>> import eagerkit as ek
    >>> layer = ek.keras.layers.InputLayer(input_shape=[28, 28], name="image")
    >>> layer.output
    <KerasTensor: shape=(None, 28, 28) dtype=float32 (created by layer 'image')>
    """

    def __init__(self, input_shape=None, batch_size=None, dtype=None, name=None, batch_shape=None):
        name = name or unique_name("input", zero_based=False)  # Keras: input_1, input_2, ...
        super().__init__(name=name, dtype=dtype or dtypes.float32)
        shape = _batch_shape(self, input_shape, batch_size, batch_shape)
        self.built = True
        self.last_output_shape = shape
        node = symbolic.Node(self, (), {})
        node.outputs = KerasTensor(shape, self.dtype, self.name, node)
        vars(self)["_calls"] = symbolic.Calls()  # its making is its one call: layer.output
        self._calls.nodes.append(node)

    @property
    def input(self):
        """The Input tensor itself: an InputLayer's input and output are one tensor."""
        return self.output

    def call(self, inputs):
        return inputs


def _batch_shape(layer, shape, batch_size, batch_shape):
    """The whole shape, batch axis first, each size a whole number or None."""
    if batch_shape is not None:
        if shape is not None or batch_size is not None:
            raise InvalidArgumentError(
                f"{type(layer).__name__} '{layer.name}': give either batch_shape= or shape= "
                "(and batch_size=), not both",
                op="Input",
            )
        dims = _dims(layer, batch_shape, "batch_shape")
        if not dims:
            raise InvalidArgumentError(
                f"{type(layer).__name__} '{layer.name}': batch_shape={batch_shape!r} has no "
                "batch axis; write e.g. batch_shape=[None, 3]",
                op="Input",
            )
        return tuple(dims)
    if shape is None:
        raise InvalidArgumentError(
            f"{type(layer).__name__} '{layer.name}': say the shape of one example, without the "
            "batch axis, e.g. ek.keras.Input(shape=[3]) (InputLayer(input_shape=[3])) for "
            "batches of vectors of 3 numbers",
            op="Input",
        )
    batch = None if batch_size is None else whole_number(batch_size, "batch_size", layer)
    return (batch, *_dims(layer, shape, "shape"))


def _dims(layer, shape, what):
    if isinstance(shape, numbers.Integral) and not isinstance(shape, bool):
        shape = [shape]  # Keras takes shape=3 for (3,)
    elif isinstance(shape, np.ndarray) and shape.ndim == 1 and shape.dtype.kind in "iu":
        shape = shape.tolist()  # sizes computed with numpy
    elif hasattr(shape, "as_list") and not isinstance(shape, np.ndarray):  # a TensorShape
        shape = shape.as_list()
    if not isinstance(shape, (list, tuple)):
        raise InvalidArgumentError(
            f"{type(layer).__name__} '{layer.name}': {what} must be a list or tuple of sizes "
            f"(None for unknown), e.g. [3] or [None, 8], got {describe(shape)}",
            op="Input",
        )
    return [None if d is None else whole_number(d, what, layer) for d in shape]
