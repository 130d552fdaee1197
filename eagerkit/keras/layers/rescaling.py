"""Rescaling: ``inputs * scale + offset``, as TF's image tutorials start a model with.

``layers.Rescaling(1./255)`` turns images of bytes (0-255) into floats in [0, 1] inside the
model, so the model takes the raw images; ``Rescaling(1./127.5, offset=-1)`` maps them to
[-1, 1].
"""

from eagerkit.keras.layers.base import Layer
from eagerkit.keras.layers.layer_arguments import real_array
from eagerkit.ops.cast import cast
from eagerkit.tensor import convert_to_tensor


class Rescaling(Layer):
    """``inputs * scale + offset``, in the layer's dtype (float32): integer images too.

    ``scale`` and ``offset`` are numbers, or lists that broadcast against the inputs (one
    per channel, say).

    Examples
    --------
    >>> import eagerkit as ek
    >>> pixels = ek.constant([[0, 51, 255]], dtype=ek.uint8)
    >>> ek.keras.layers.Rescaling(1.0 / 255)(pixels).numpy().round(4)
    array([[0. , 0.2, 1. ]], dtype=float32)
    >>> ek.keras.layers.Rescaling(1.0 / 127.5, offset=-1)(pixels).numpy().round(4)
    array([[-1. , -0.6,  1. ]], dtype=float32)
    """

    _built_at_init = True  # no weights of its own: Keras 3 builds it in the constructor

    supports_masking = True  # passes the mask of its inputs on unchanged (Keras 3)

    def __init__(self, scale, offset=0.0, **kwargs):
        scale, _ = real_array(scale, "scale", "Rescaling", example="1/255")
        offset, _ = real_array(offset, "offset", "Rescaling", example="-1.0")
        super().__init__(**kwargs)
        self.scale, self.offset = scale, offset

    def call(self, inputs):
        if inputs.dtype != self.dtype:  # bytes or ints become the layer's floats, as in TF
            inputs = cast(inputs, self.dtype)
        scale = convert_to_tensor(self.scale, dtype=self.dtype)
        offset = convert_to_tensor(self.offset, dtype=self.dtype)
        return inputs * scale + offset

    def get_config(self):
        return {**super().get_config(), "scale": self.scale, "offset": self.offset}
