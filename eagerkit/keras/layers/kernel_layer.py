"""What Dense and the convolutions share: a learned kernel, an optional bias, an activation.

Each of them takes Keras' arguments ``activation``, ``use_bias``,
``kernel_initializer``, ``bias_initializer``, ``kernel_regularizer``,
``bias_regularizer``, ``kernel_constraint`` and ``bias_constraint`` in its own explicit
``__init__`` (users read ``help(Conv2D)``, and
``get_config`` reads that signature); ``KernelLayer`` keeps and uses them in one place.
``ConvLayer`` adds what the convolutions share: the channel count of inputs in either
``data_format``, checked against the one the kernel was built for.

Examples
--------
>>> import eagerkit as ek
>>> layer = ek.layers.Conv2D(2, 3, use_bias=False, activation="relu")
>>> isinstance(layer, KernelLayer), layer(ek.ones([1, 4, 4, 1])).shape, layer.bias
(True, TensorShape([1, 2, 2, 2]), None)
"""

from eagerkit.errors import InvalidArgumentError
from eagerkit.keras import constraints, regularizers
from eagerkit.keras.layers import activations
from eagerkit.keras.layers.base import Layer
from eagerkit.ops.nn import bias_add

_FORMATS = ("channels_last", "channels_first")


def checked_data_format(value, layer):
    """``value`` if it is Keras' ``'channels_last'`` or ``'channels_first'``; ``layer`` is the
    class name the error names.

    Examples
    --------
    >>> checked_data_format("channels_first", "Conv2D")
    'channels_first'
    >>> checked_data_format("NHWC", "Conv2D")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: Conv2D: data_format must be 'channels_last' (NHWC) or 'channels_first' (NCHW)...
    """
    if value not in _FORMATS:
        raise ValueError(
            f"{layer}: data_format must be 'channels_last' (NHWC) or 'channels_first' (NCHW), "
            f"got {value!r}"
        )
    return value


class KernelLayer(Layer):
    """A layer with a ``kernel``, an optional ``bias`` and an ``activation`` (a base class)."""

    def _keep_kernel_arguments(
        self,
        activation,
        use_bias,
        kernel_initializer,
        bias_initializer,
        kernel_regularizer,
        bias_regularizer,
        kernel_constraint=None,
        bias_constraint=None,
    ):
        """Check and keep the arguments every kernel layer takes."""
        layer = type(self).__name__
        self.activation = activations.get(activation)
        self.use_bias = use_bias
        self.kernel_initializer = kernel_initializer
        self.bias_initializer = bias_initializer
        self.kernel_regularizer = regularizers.resolve(
            kernel_regularizer, layer, "kernel_regularizer"
        )
        self.bias_regularizer = regularizers.resolve(bias_regularizer, layer, "bias_regularizer")
        self.kernel_constraint = constraints.resolve(kernel_constraint, layer, "kernel_constraint")
        self.bias_constraint = constraints.resolve(bias_constraint, layer, "bias_constraint")

    def _add_kernel_and_bias(self, kernel_shape, units):
        """Make ``kernel`` of ``kernel_shape`` and (with ``use_bias``) ``bias`` of ``units``."""
        self.kernel = self.add_weight(
            "kernel",
            kernel_shape,
            self.kernel_initializer,
            regularizer=self.kernel_regularizer,
            constraint=self.kernel_constraint,
        )
        self.bias = None
        if self.use_bias:
            self.bias = self.add_weight(
                "bias",
                [units],
                self.bias_initializer,
                regularizer=self.bias_regularizer,
                constraint=self.bias_constraint,
            )

    def _biased_and_activated(self, outputs):
        """``activation(outputs + bias)``, each part only when the layer has it."""
        if self.bias is not None:
            outputs = bias_add(outputs, self.bias)  # one op, as TF's layers record it
        return outputs if self.activation is None else self.activation(outputs)


class ConvLayer(KernelLayer):
    """Conv1D, Conv2D and Conv2DTranspose: ``filters`` kernels over the channels of inputs in
    ``data_format``.

    ``_WHAT`` names the inputs in errors; ``_KERNEL_CHANNELS`` is the kernel's axis that
    counts the input channels.
    """

    _WHAT = "images"
    _KERNEL_CHANNELS = 2

    def _input_channels(self, input_shape):
        """The channel count of ``input_shape`` (the last axis, or axis 1 if channels first)."""
        return input_shape[-1 if self.data_format == "channels_last" else 1]

    def _check_channels(self, channels_last_inputs, inputs):
        """Refuse inputs with another channel count than the kernel was built for."""
        built_for = self.kernel.shape[self._KERNEL_CHANNELS]
        if channels_last_inputs.shape[-1] != built_for:
            raise InvalidArgumentError(
                f"{type(self).__name__} layer '{self.name}' was built for {self._WHAT} with "
                f"{built_for} channels but got shape {inputs.shape} ({self.data_format}). Feed "
                f"{self._WHAT} with that many channels, or use a new layer for the new input.",
                op=self.name,
            )
