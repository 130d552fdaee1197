"""Conv2D and 2-D pooling layers over images (NHWC, or NCHW with data_format)."""

from eagerkit.keras.layers.base import Layer, check_rank
from eagerkit.keras.layers.kernel_layer import ConvLayer, checked_data_format
from eagerkit.keras.layers.sizes import size_pair, whole_number
from eagerkit.ops.conv import conv2d, padding_name
from eagerkit.ops.pool import avg_pool, max_pool
from eagerkit.ops.shape import transpose


def _to_nhwc(inputs, data_format):
    return inputs if data_format == "channels_last" else transpose(inputs, [0, 2, 3, 1])


def _from_nhwc(outputs, data_format):
    return outputs if data_format == "channels_last" else transpose(outputs, [0, 3, 1, 2])


_IMAGE = "[batch, height, width, channels]"


class Conv2D(ConvLayer):
    """2-D convolution: ``filters`` learned kernels slid over the image.

    Examples
    --------
    >>> import eagerkit as ek
    >>> conv = ek.layers.Conv2D(filters=64, kernel_size=3, padding="SAME")
    >>> conv(ek.zeros([2, 32, 32, 3])).shape, conv.kernel.shape
    (TensorShape([2, 32, 32, 64]), TensorShape([3, 3, 3, 64]))
    """

    def __init__(
        self,
        filters,
        kernel_size,
        strides=(1, 1),
        padding="valid",
        data_format="channels_last",
        dilation_rate=(1, 1),
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
        self.kernel_size = size_pair(kernel_size, "kernel_size", self)
        self.strides = size_pair(strides, "strides", self)
        self.padding = padding_name(padding, "Conv2D")
        self.data_format = checked_data_format(data_format, "Conv2D")
        self.dilation_rate = size_pair(dilation_rate, "dilation_rate", self)
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
        check_rank(self, input_shape, 4, _IMAGE)
        channels = self._input_channels(input_shape)
        self._add_kernel_and_bias(list(self.kernel_size) + [channels, self.filters], self.filters)

    def call(self, inputs):
        check_rank(self, inputs.shape, 4, _IMAGE)
        x = _to_nhwc(inputs, self.data_format)
        self._check_channels(x, inputs)
        outputs = conv2d(x, self.kernel, self.strides, self.padding, self.dilation_rate)
        return _from_nhwc(self._biased_and_activated(outputs), self.data_format)


class _Pooling2D(Layer):
    """Shared by the pooling layers: a window, strides (default: the window) and padding."""

    _pool = None

    def __init__(
        self, pool_size=(2, 2), strides=None, padding="valid", data_format="channels_last", **kwargs
    ):
        super().__init__(**kwargs)
        self.pool_size = size_pair(pool_size, "pool_size", self)
        self.strides = self.pool_size if strides is None else size_pair(strides, "strides", self)
        self.padding = padding_name(padding, type(self).__name__)
        self.data_format = checked_data_format(data_format, type(self).__name__)

    def call(self, inputs):
        check_rank(self, inputs.shape, 4, _IMAGE)
        x = _to_nhwc(inputs, self.data_format)
        pooled = type(self)._pool(x, self.pool_size, self.strides, self.padding)
        return _from_nhwc(pooled, self.data_format)


class MaxPooling2D(_Pooling2D):
    """The largest value in each ``pool_size`` window.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.layers.MaxPool2D(pool_size=2, strides=2, padding="SAME")(ek.zeros([1, 5, 5, 3])).shape
    TensorShape([1, 3, 3, 3])
    """

    _pool = staticmethod(max_pool)


class AveragePooling2D(_Pooling2D):
    """The mean of each ``pool_size`` window ('SAME' padding is left out of the mean).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.layers.AveragePooling2D()(ek.ones([1, 4, 4, 1])).shape
    TensorShape([1, 2, 2, 1])
    """

    _pool = staticmethod(avg_pool)


MaxPool2D = MaxPooling2D
AvgPool2D = AveragePooling2D
