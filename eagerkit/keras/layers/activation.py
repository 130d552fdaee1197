"""Activation: a layer that applies an activation function and nothing else."""

from eagerkit.keras.layers import activations
from eagerkit.keras.layers.base import Layer


class Activation(Layer):
    """``activation(inputs)``, as a layer (by name, ``"relu"``, or any function).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.keras.layers.Activation("relu")(ek.constant([[-1.0, 2.0]]))
    <ek.Tensor: shape=(1, 2), dtype=float32, numpy=array([[0., 2.]], dtype=float32)>
    """

    supports_masking = True  # passes the mask of its inputs on unchanged (Keras)

    def __init__(self, activation, **kwargs):
        super().__init__(**kwargs)
        self.activation = activations.get(activation)

    def call(self, inputs):
        return inputs if self.activation is None else self.activation(inputs)
