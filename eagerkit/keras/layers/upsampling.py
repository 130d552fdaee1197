"""Conv2DTranspose and UpSampling2D: the layers that make images larger (a decoder's, a
generator's, a U-Net's), NHWC or NCHW with ``data_format``.

``Conv2DTranspose`` is ``ek.nn.conv2d_transpose`` (conv2d's gradient with respect to its
input) with an output size computed as Keras computes it (``deconv_output_length``),
``output_padding`` included; ``UpSampling2D`` repeats pixels (``"nearest"``) or
interpolates them (``"bilinear"``, ``ek.image.resize``'s half-pixel centres, as Keras).

Examples
--------
>>> import eagerkit as ek
>>> up = ek.keras.layers.Conv2DTranspose(filters=8, kernel_size=3, strides=2, padding="same")
>>> up(ek.zeros([1, 7, 7, 16])).shape, up.kernel.shape
(TensorShape([1, 14, 14, 8]), TensorShape([3, 3, 8, 16]))
"""

from eagerkit.errors import InvalidArgumentError
from eagerkit.image.resize import resize
from eagerkit.keras.layers.base import Layer, check_rank
from eagerkit.keras.layers.convolutional import _IMAGE, _from_nhwc, _to_nhwc
from eagerkit.keras.layers.kernel_layer import ConvLayer, checked_data_format
from eagerkit.keras.layers.sizes import size_pair, whole_number
from eagerkit.ops.conv import padding_name
from eagerkit.ops.conv_compositions import conv2d_transpose


def deconv_output_length(size, kernel, padding, output_padding, stride, dilation):
    """The output length of a transposed convolution along one axis (Keras' rule).

    Examples
    --------
    >>> from eagerkit.keras.layers.upsampling import deconv_output_length
    >>> same, valid = "SAME", "VALID"
    >>> deconv_output_length(7, 3, same, None, 2, 1), deconv_output_length(7, 3, valid, None, 2, 1)
    (14, 15)
    """
    span = (kernel - 1) * dilation + 1
    if output_padding is None:
        return size * stride if padding == "SAME" else size * stride + max(span - stride, 0)
    cut = span // 2 if padding == "SAME" else 0
    return (size - 1) * stride + span - 2 * cut + output_padding


class Conv2DTranspose(ConvLayer):
    """The transposed 2-D convolution: each input pixel spreads a learned ``kernel_size``
    patch over an image ``strides`` times larger. The kernel is
    ``[height, width, filters, channels]``.

    Examples
    --------
    >>> import eagerkit as ek
    >>> layer = ek.keras.layers.Conv2DTranspose(2, 3, strides=2, output_padding=1)
    >>> layer(ek.ones([1, 4, 4, 3])).shape
    TensorShape([1, 10, 10, 2])
    """

    _KERNEL_CHANNELS = 3

    def __init__(
        self,
        filters,
        kernel_size,
        strides=(1, 1),
        padding="valid",
        output_padding=None,
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
        self.padding = padding_name(padding, "Conv2DTranspose")
        self.output_padding = None
        if output_padding is not None:
            self.output_padding = self._checked_output_padding(output_padding)
        self.data_format = checked_data_format(data_format, "Conv2DTranspose")
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

    def _checked_output_padding(self, output_padding):
        """A pair below the strides (Keras: "Strides must be greater than output padding")."""
        values = list(output_padding) if isinstance(output_padding, (list, tuple)) else None
        values = values or [output_padding, output_padding]
        pair = tuple(whole_number(v, "output_padding", self, minimum=0) for v in values)
        if len(pair) != 2 or any(p >= s for p, s in zip(pair, self.strides, strict=False)):
            raise InvalidArgumentError(
                f"Conv2DTranspose '{self.name}': output_padding {output_padding!r} must be one "
                f"or two whole numbers each smaller than its stride {self.strides}; pass e.g. "
                f"output_padding={self.strides[0] - 1} (or strides greater than it)",
                op=self.name,
            )
        return pair

    def build(self, input_shape):
        check_rank(self, input_shape, 4, _IMAGE)
        channels = self._input_channels(input_shape)
        self._add_kernel_and_bias(list(self.kernel_size) + [self.filters, channels], self.filters)

    def call(self, inputs):
        check_rank(self, inputs.shape, 4, _IMAGE)
        x = _to_nhwc(inputs, self.data_format)
        self._check_channels(x, inputs)
        paddings = self.output_padding or (None, None)
        height, width = (
            deconv_output_length(
                x.shape[i + 1],
                self.kernel_size[i],
                self.padding,
                paddings[i],
                self.strides[i],
                self.dilation_rate[i],
            )
            for i in range(2)
        )
        output_shape = [x.shape[0], height, width, self.filters]
        try:
            outputs = conv2d_transpose(
                x,
                self.kernel,
                output_shape,
                self.strides,
                self.padding,
                dilations=self.dilation_rate,
            )
        except InvalidArgumentError:
            if self.output_padding is None:
                raise
            raise InvalidArgumentError(  # Keras' formula can give what conv2d cannot undo
                f"Conv2DTranspose '{self.name}': output_padding {self.output_padding} with "
                f"kernel_size {self.kernel_size}, strides {self.strides} and padding "
                f"'{self.padding.lower()}' gives {height}x{width} images, which conv2d with "
                f"the same settings does not map back to the input's {x.shape[1]}x{x.shape[2]}; "
                "pass another output_padding (or leave it None)",
                op=self.name,
            ) from None
        return _from_nhwc(self._biased_and_activated(outputs), self.data_format)


class UpSampling2D(Layer):
    """Each image ``size`` times larger: pixels repeated (``interpolation="nearest"``) or
    interpolated (``"bilinear"``).

    Examples
    --------
    >>> import eagerkit as ek
    >>> image = ek.reshape(ek.constant([1.0, 2.0]), [1, 1, 2, 1])
    >>> ek.keras.layers.UpSampling2D(size=(1, 2))(image)[0, 0, :, 0]
    <ek.Tensor: shape=(4,), dtype=float32, numpy=array([1., 1., 2., 2.], dtype=float32)>
    >>> ek.keras.layers.UpSampling2D((1, 2), interpolation="bilinear")(image)[0, 0, :, 0]
    <ek.Tensor: shape=(4,), dtype=float32, numpy=array([1.  , 1.25, 1.75, 2.  ], dtype=float32)>
    """

    _METHODS = ("nearest", "bilinear")

    def __init__(self, size=(2, 2), data_format="channels_last", interpolation="nearest", **kwargs):
        super().__init__(**kwargs)
        self.size = size_pair(size, "size", self)
        self.data_format = checked_data_format(data_format, "UpSampling2D")
        if interpolation not in self._METHODS:
            raise InvalidArgumentError(
                f"UpSampling2D: interpolation must be one of {list(self._METHODS)}, got "
                f"{interpolation!r}",
                op="UpSampling2D",
            )
        self.interpolation = interpolation

    def call(self, inputs):
        check_rank(self, inputs.shape, 4, _IMAGE)
        x = _to_nhwc(inputs, self.data_format)
        new_size = [x.shape[1] * self.size[0], x.shape[2] * self.size[1]]
        return _from_nhwc(resize(x, new_size, method=self.interpolation), self.data_format)
