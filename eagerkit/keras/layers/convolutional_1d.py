"""Conv1D and the 1-D pooling layers over sequences ``[batch, steps, channels]`` (or
``[batch, channels, steps]`` with ``data_format="channels_first"``).

They compute with ``ek.nn.conv1d`` / ``max_pool1d`` / ``avg_pool1d``, which are the 2-D
kernels on images one pixel high. ``padding="causal"`` (Conv1D only, as Keras) pads the
start of the sequence only, so output step t sees input steps up to t.

Examples
--------
>>> import eagerkit as ek
>>> layer = ek.keras.layers.Conv1D(filters=4, kernel_size=3, padding="causal")
>>> layer(ek.zeros([2, 10, 3])).shape, layer.kernel.shape
(TensorShape([2, 10, 4]), TensorShape([3, 3, 4]))
"""

from eagerkit.errors import InvalidArgumentError
from eagerkit.keras.layers.base import Layer, check_rank
from eagerkit.keras.layers.kernel_layer import ConvLayer, checked_data_format
from eagerkit.keras.layers.sizes import whole_number
from eagerkit.ops.conv import padding_name
from eagerkit.ops.conv_compositions import conv1d
from eagerkit.ops.pool import avg_pool1d, max_pool1d
from eagerkit.ops.rearrange import pad
from eagerkit.ops.shape import transpose

_SEQUENCE = "[batch, steps, channels]"


def size_one(value, what, layer):
    """A 1-D window, stride or dilation: a whole number or a tuple of one.

    Examples
    --------
    >>> import eagerkit as ek
    >>> from eagerkit.keras.layers.convolutional_1d import size_one
    >>> size_one((3,), "kernel_size", ek.layers.Layer(name="l"))
    3
    """
    values = list(value) if isinstance(value, (list, tuple)) else [value]
    if len(values) != 1:
        raise InvalidArgumentError(
            f"{type(layer).__name__} '{layer.name}': {what} must be a whole number or a tuple "
            f"of one, got {value!r}",
            op=layer.name,
        )
    return whole_number(values[0], what, layer)


def _to_nwc(inputs, data_format):
    return inputs if data_format == "channels_last" else transpose(inputs, [0, 2, 1])


def _conv_padding(padding):
    """Conv1D's 'valid', 'same' or 'causal' (any case)."""
    name = str(padding).upper()
    if name not in ("VALID", "SAME", "CAUSAL"):
        raise InvalidArgumentError(
            f"Conv1D: padding must be 'valid', 'same' or 'causal', got {padding!r}", op="Conv1D"
        )
    return name


class Conv1D(ConvLayer):
    """1-D convolution: ``filters`` learned kernels of ``kernel_size`` steps slid along a
    sequence; the kernel is ``[kernel_size, channels, filters]``.

    Examples
    --------
    >>> import eagerkit as ek
    >>> conv = ek.keras.layers.Conv1D(8, 5, strides=2, activation="relu")
    >>> conv(ek.ones([4, 20, 2])).shape
    TensorShape([4, 8, 8])
    """

    _WHAT = "sequences"
    _KERNEL_CHANNELS = 1

    def __init__(
        self,
        filters,
        kernel_size,
        strides=1,
        padding="valid",
        data_format="channels_last",
        dilation_rate=1,
        activation=None,
        use_bias=True,
        kernel_initializer="glorot_uniform",
        bias_initializer="zeros",
        kernel_regularizer=None,
        bias_regularizer=None,
        activity_regularizer=None,
        kernel_constraint=None,
        bias_constraint=None,
        **kwargs,
    ):
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        self.filters = whole_number(filters, "filters", self)
        self.kernel_size = (size_one(kernel_size, "kernel_size", self),)
        self.strides = (size_one(strides, "strides", self),)
        self.padding = _conv_padding(padding)
        self.data_format = checked_data_format(data_format, "Conv1D")
        self.dilation_rate = (size_one(dilation_rate, "dilation_rate", self),)
        self._keep_kernel_arguments(
            activation,
            use_bias,
            kernel_initializer,
            bias_initializer,
            kernel_regularizer,
            bias_regularizer,
            kernel_constraint,
            bias_constraint,
        )

    def build(self, input_shape):
        check_rank(self, input_shape, 3, _SEQUENCE)
        channels = self._input_channels(input_shape)
        self._add_kernel_and_bias([self.kernel_size[0], channels, self.filters], self.filters)

    def call(self, inputs):
        check_rank(self, inputs.shape, 3, _SEQUENCE)
        x = _to_nwc(inputs, self.data_format)
        self._check_channels(x, inputs)
        padding = self.padding
        if padding == "CAUSAL":  # pad the start only: step t sees steps <= t
            x = pad(x, [[0, 0], [self.dilation_rate[0] * (self.kernel_size[0] - 1), 0], [0, 0]])
            padding = "VALID"
        outputs = conv1d(x, self.kernel, self.strides[0], padding, dilations=self.dilation_rate[0])
        outputs = self._biased_and_activated(outputs)
        return _to_nwc(outputs, self.data_format)  # the same transpose takes it back


class _Pooling1D(Layer):
    """Shared by the 1-D pooling layers: a window, strides (default: the window), padding."""

    _pool = None

    def __init__(
        self, pool_size=2, strides=None, padding="valid", data_format="channels_last", **kwargs
    ):
        super().__init__(**kwargs)
        self.pool_size = (size_one(pool_size, "pool_size", self),)
        self.strides = self.pool_size if strides is None else (size_one(strides, "strides", self),)
        self.padding = padding_name(padding, type(self).__name__)
        self.data_format = checked_data_format(data_format, type(self).__name__)

    def call(self, inputs):
        check_rank(self, inputs.shape, 3, _SEQUENCE)
        x = _to_nwc(inputs, self.data_format)
        pooled = type(self)._pool(x, self.pool_size[0], self.strides[0], self.padding)
        return _to_nwc(pooled, self.data_format)


class MaxPooling1D(_Pooling1D):
    """The largest value in each window of ``pool_size`` steps.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.keras.layers.MaxPooling1D(pool_size=2)(ek.reshape(ek.range(6.0), [1, 6, 1]))[0, :, 0]
    <ek.Tensor: shape=(3,), dtype=float32, numpy=array([1., 3., 5.], dtype=float32)>
    """

    _pool = staticmethod(max_pool1d)


class AveragePooling1D(_Pooling1D):
    """The mean of each window of ``pool_size`` steps ('same' leaves the padding out).

    Examples
    --------
    >>> import eagerkit as ek
    >>> x = ek.reshape(ek.range(5.0), [1, 5, 1])
    >>> ek.keras.layers.AveragePooling1D(2, padding="same")(x)[0, :, 0]
    <ek.Tensor: shape=(3,), dtype=float32, numpy=array([0.5, 2.5, 4. ], dtype=float32)>
    """

    _pool = staticmethod(avg_pool1d)


MaxPool1D = MaxPooling1D
AvgPool1D = AveragePooling1D
