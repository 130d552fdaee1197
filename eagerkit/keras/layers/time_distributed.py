"""TimeDistributed: one layer applied to every time step of a sequence, weights shared.

A video is ``[batch, time, height, width, channels]``; ``TimeDistributed(Conv2D(...))``
runs the same convolution on each frame. Every step is an independent sample for the inner
layer, so the batch and time axes are folded into one batch axis, the layer is called once
on ``[batch * time, ...]``, and its output is unfolded to ``[batch, time, ...]``: one call,
as tf.keras does whenever the shapes are known (Keras 3 calls the layer once per step and
stacks the outputs, which gives the same values for a layer that treats samples
independently). A masked input (``[batch, time]``, keras/layers/masks.py) keeps its mask,
and a wrapped layer whose ``call`` takes ``mask`` gets each step's part of it, as in Keras 3.
"""

from eagerkit.arguments import describe
from eagerkit.errors import InvalidArgumentError
from eagerkit.keras.layers import masks
from eagerkit.keras.layers.base import Layer, check_rank
from eagerkit.ops.shape import reshape
from eagerkit.tensor import Tensor, convert_to_tensor

_STEPS = "[batch, time, ...]"


class TimeDistributed(Layer):
    """``layer`` applied to each step ``inputs[:, t]``; the output is ``[batch, time, ...]``.

    The wrapped layer is built for one step's shape (``[batch, ...]`` without the time
    axis) and its weights are this layer's: every step uses the same ones. ``training`` is
    passed on to layers that take it (Dropout, BatchNormalization), and so is the mask of a
    masked input (``[batch, time, ...]``: each sample gets its step's part) to layers whose
    ``call`` takes ``mask``; the output keeps the input's mask (Keras 3).

    Examples
    --------
    >>> import eagerkit as ek
    >>> dense = ek.keras.layers.Dense(8)
    >>> steps = ek.keras.layers.TimeDistributed(dense)
    >>> steps(ek.ones([32, 10, 16])).shape, dense.kernel.shape
    (TensorShape([32, 10, 8]), TensorShape([16, 8]))
    >>> steps.count_params()  # 16 * 8 + 8, whatever the number of steps
    136
    >>> ids = ek.constant([[3, 1, 0]])
    >>> embedded = ek.keras.layers.Embedding(5, 16, mask_zero=True)(ids)
    >>> steps(embedded)._keras_mask.numpy().tolist()
    [[True, True, False]]
    """

    supports_masking = True  # the output keeps the input's mask (Keras 3)

    def __init__(self, layer, **kwargs):
        if not isinstance(layer, Layer):
            raise InvalidArgumentError(
                f"TimeDistributed: layer must be a layer instance (ek.keras.layers.Dense(8), "
                f"...), got {describe(layer)}; make the layer first, then wrap it: "
                "TimeDistributed(ek.keras.layers.Dense(8))",
                op="TimeDistributed",
            )
        super().__init__(**kwargs)
        self.layer = layer

    def call(self, inputs, training=None, mask=None):
        check_rank(self, inputs.shape, 3, _STEPS, minimum=True)
        batch, steps = inputs.shape[0], inputs.shape[1]
        folded = reshape(inputs, [batch * steps, *inputs.shape[2:]])  # each step a sample
        kwargs = {} if training is None else {"training": training}
        if mask is not None:
            mask = self._checked_mask(mask, inputs)
            if masks.takes_mask(self.layer):  # each sample gets its step's part of the mask
                kwargs["mask"] = reshape(mask, [batch * steps, *mask.shape[2:]])
        outputs = self.layer(folded, **kwargs)
        if not isinstance(outputs, Tensor) or outputs.ndim == 0 or outputs.shape[0] != len(folded):
            got = f"shape {outputs.shape}" if isinstance(outputs, Tensor) else describe(outputs)
            raise InvalidArgumentError(
                f"TimeDistributed layer '{self.name}': the wrapped {type(self.layer).__name__} "
                f"layer '{self.layer.name}' must return one tensor with a row per sample "
                f"(shape [{len(folded)}, ...] for {batch} sequences of {steps} steps), got "
                f"{got}; wrap a layer that maps each sample to its own output",
                op=self.name,
            )
        return reshape(outputs, [batch, steps, *outputs.shape[1:]])

    def _checked_mask(self, mask, inputs):
        """``mask`` as a tensor whose first two sizes are the inputs' [batch, time], or the
        error naming both shapes and the fix."""
        mask = mask if isinstance(mask, Tensor) else convert_to_tensor(mask)
        if mask.ndim < 2 or tuple(mask.shape[:2]) != tuple(inputs.shape[:2]):
            raise InvalidArgumentError(
                f"TimeDistributed layer '{self.name}': the mask must start with the inputs' "
                f"[batch, time] sizes {tuple(inputs.shape[:2])} (one True/False per step), "
                f"but got shape {tuple(mask.shape)} for inputs of shape "
                f"{tuple(inputs.shape)}; pass a mask of shape {tuple(inputs.shape[:2])}",
                op=self.name,
            )
        return mask

    def get_config(self):
        """The common fields and the wrapped layer's config (Keras' key ``layer``)."""
        from eagerkit.keras.serialization import serialize_keras_object

        return {**super().get_config(), "layer": serialize_keras_object(self.layer)}

    @classmethod
    def from_config(cls, config, custom_objects=None):
        """The layer ``config`` describes, the wrapped layer made again from its config."""
        from eagerkit.keras.layers import deserialize

        if isinstance(config, dict):  # (anything else: the base class's error)
            config = dict(config)
            config["layer"] = deserialize(config.get("layer"), custom_objects)
        return super().from_config(config)
