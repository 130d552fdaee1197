"""Masking: mark the time steps that are only padding, for the layers after it."""

from eagerkit.errors import InvalidArgumentError
from eagerkit.keras.layers.base import Layer, check_rank
from eagerkit.keras.layers.layer_arguments import real_number
from eagerkit.keras.layers.masks import get_mask, set_mask
from eagerkit.ops.compare import not_equal, where
from eagerkit.ops.reduce import reduce_any
from eagerkit.ops.reshaping import squeeze


class Masking(Layer):
    """Skip the time steps whose features all equal ``mask_value``.

    For inputs ``[batch, time, features]`` the mask is True where some feature of the step
    differs from ``mask_value``; it is attached to the output (``_keras_mask``), and the
    masked steps of the output are zeros, as in Keras. Recurrent layers after it then
    skip those steps (see keras/layers/masks.py).

    Examples
    --------
    >>> import eagerkit as ek
    >>> steps = ek.constant([[[1.0, 2.0], [0.0, 0.0], [3.0, 0.0]]])
    >>> masked = ek.keras.layers.Masking(mask_value=0.0)(steps)
    >>> masked._keras_mask
    <ek.Tensor: shape=(1, 3), dtype=bool, numpy=array([[ True, False,  True]])>
    >>> masked = ek.keras.layers.Masking(mask_value=1.0)(steps)
    >>> masked.numpy()[0].tolist(), masked._keras_mask.numpy().tolist()
    ([[1.0, 2.0], [0.0, 0.0], [3.0, 0.0]], [[True, True, True]])
    """

    supports_masking = True

    def __init__(self, mask_value=0.0, **kwargs):
        mask_value = real_number(mask_value, "mask_value", "Masking", example=0.0)
        super().__init__(**kwargs)
        self.mask_value = mask_value

    def compute_mask(self, inputs, mask=None):
        """True for each step where some feature differs from ``mask_value``."""
        return reduce_any(not_equal(inputs, self.mask_value), axis=-1)

    def call(self, inputs):
        check_rank(self, inputs.shape, 3, "[batch, time, features]", minimum=True)
        kept = reduce_any(not_equal(inputs, self.mask_value), axis=-1, keepdims=True)
        outputs = where(kept, inputs, 0.0)  # a masked step's features become zeros
        set_mask(outputs, squeeze(kept, -1))
        return outputs


class KerasMask(Layer):
    """The mask of a tensor of a functional model, as a layer of its graph: the KerasTensor
    ``x._keras_mask`` comes from it, and running the model reads the mask of ``x``'s value.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ids = ek.keras.Input(shape=[None], dtype="int32")
    >>> embedded = ek.keras.layers.Embedding(10, 2, mask_zero=True)(ids)
    >>> mask = embedded._keras_mask
    >>> mask.shape, mask.dtype
    (TensorShape([None, None]), ek.bool)
    >>> ek.keras.Model(ids, mask)(ek.constant([[4, 0]])).numpy().tolist()
    [[True, False]]
    """

    _autocast = False  # the tensor as it is: a cast copy would have no mask
    _warns_of_dropped_masks = False  # it reads the mask: nothing is lost

    def call(self, inputs):
        mask = get_mask(inputs)
        if mask is None:
            raise InvalidArgumentError(
                f"KerasMask layer '{self.name}': the tensor it reads has no mask this time; "
                "give the model inputs that its masking layers (Embedding(mask_zero=True), "
                "Masking) mask",
                op=self.name,
            )
        return mask
