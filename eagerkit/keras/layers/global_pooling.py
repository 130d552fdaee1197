"""GlobalAveragePooling2D and GlobalMaxPooling2D: one number per channel per image; the 1D
ones: one number per feature per sequence.

They squeeze each feature map to its mean (or max), so ``(batch, height, width, channels)``
becomes ``(batch, channels)`` (``keepdims=True`` keeps 1-sized height and width). A ConvNet
ends with one of them instead of Flatten to accept images of any size; the 1D ones turn
``(batch, steps, features)`` into ``(batch, features)``, for sequences of any length.
GlobalAveragePooling1D leaves masked steps out of its mean (keras/layers/masks.py), as
Keras does; GlobalMaxPooling1D, as in Keras, ignores the mask.
"""

from eagerkit.keras.layers.base import Layer, check_rank
from eagerkit.keras.layers.convolutional import _IMAGE
from eagerkit.keras.layers.kernel_layer import checked_data_format
from eagerkit.keras.layers.masks import sequence_mask
from eagerkit.ops.cast import cast
from eagerkit.ops.reduce import reduce_max, reduce_mean, reduce_sum
from eagerkit.ops.reshaping import expand_dims


class _GlobalPooling(Layer):
    """Shared by all: which axes are the image or the steps (by ``data_format``), and
    ``keepdims``."""

    _reduce = None
    _rank, _layout = 4, _IMAGE  # the rank of the inputs, and their axes in words

    def __init__(self, data_format="channels_last", keepdims=False, **kwargs):
        super().__init__(**kwargs)
        self.data_format = checked_data_format(data_format, type(self).__name__)
        self.keepdims = bool(keepdims)

    def call(self, inputs):
        check_rank(self, inputs.shape, self._rank, self._layout)
        pooled = range(self._rank - 2)  # every axis but the batch and the channels
        first = 1 if self.data_format == "channels_last" else 2
        axes = [first + i for i in pooled]
        return type(self)._reduce(inputs, axis=axes, keepdims=self.keepdims)


class GlobalAveragePooling2D(_GlobalPooling):
    """The mean of each feature map.

    Examples
    --------
    >>> import eagerkit as ek
    >>> images = ek.reshape(ek.range(8.0), [1, 2, 2, 2])  # channel 0: 0 2 4 6, channel 1: 1 3 5 7
    >>> ek.layers.GlobalAveragePooling2D()(images)
    <ek.Tensor: shape=(1, 2), dtype=float32, numpy=array([[3., 4.]], dtype=float32)>
    """

    _reduce = staticmethod(reduce_mean)


class GlobalMaxPooling2D(_GlobalPooling):
    """The largest value of each feature map.

    Examples
    --------
    >>> import eagerkit as ek
    >>> images = ek.reshape(ek.range(8.0), [1, 2, 2, 2])
    >>> ek.layers.GlobalMaxPooling2D(keepdims=True)(images).shape
    TensorShape([1, 1, 1, 2])
    """

    _reduce = staticmethod(reduce_max)


class GlobalAveragePooling1D(_GlobalPooling):
    """The mean over the steps of each feature; with a mask, over the unmasked steps only.

    Examples
    --------
    >>> import eagerkit as ek
    >>> steps = ek.reshape(ek.range(6.0), [1, 3, 2])
    >>> ek.layers.GlobalAveragePooling1D()(steps)
    <ek.Tensor: shape=(1, 2), dtype=float32, numpy=array([[2., 3.]], dtype=float32)>
    >>> ek.layers.GlobalAveragePooling1D()(steps, mask=[[True, True, False]])
    <ek.Tensor: shape=(1, 2), dtype=float32, numpy=array([[1., 2.]], dtype=float32)>
    """

    _reduce = staticmethod(reduce_mean)
    _rank, _layout = 3, "[batch, steps, features]"
    supports_masking = True

    def call(self, inputs, mask=None):
        if mask is None:
            return super().call(inputs)
        check_rank(self, inputs.shape, 3, self._layout)
        steps = 1 if self.data_format == "channels_last" else 2
        kept = sequence_mask(self, mask, inputs, time_axis=steps)
        weights = cast(expand_dims(kept, 3 - steps), inputs.dtype)  # 1 for a kept step, else 0
        total = reduce_sum(inputs * weights, axis=steps, keepdims=self.keepdims)
        return total / reduce_sum(weights, axis=steps, keepdims=self.keepdims)

    def compute_mask(self, inputs, mask=None):
        """None: the steps are pooled away, and their mask with them."""
        return None


class GlobalMaxPooling1D(_GlobalPooling):
    """The largest value over the steps of each feature.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.layers.GlobalMaxPooling1D()(ek.reshape(ek.range(6.0), [1, 3, 2]))
    <ek.Tensor: shape=(1, 2), dtype=float32, numpy=array([[4., 5.]], dtype=float32)>
    """

    _reduce = staticmethod(reduce_max)
    _rank, _layout = 3, "[batch, steps, features]"


GlobalAvgPool1D = GlobalAveragePooling1D
GlobalMaxPool1D = GlobalMaxPooling1D
GlobalAvgPool2D = GlobalAveragePooling2D
GlobalMaxPool2D = GlobalMaxPooling2D
