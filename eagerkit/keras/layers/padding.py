"""ZeroPadding and Cropping: rows and columns of zeros added around an image (or steps
around a sequence), or cut from its edges.

``ZeroPadding2D(padding)`` and ``Cropping2D(cropping)`` take Keras' three spellings: one
int (the same on all four sides), a pair ``(height, width)`` (the same on both sides of
each axis), or two pairs ``((top, bottom), (left, right))``. The 1-D layers take an int or
a pair ``(before, after)`` along the time axis of ``[batch, time, features]``. Padding is
``ek.pad`` and cropping a slice: both are recorded, so gradients flow through them (the
padded zeros get none, the cropped edges get zero).

Examples
--------
>>> import eagerkit as ek
>>> ek.keras.layers.ZeroPadding2D(((1, 0), (2, 1)))(ek.ones([1, 2, 2, 3])).shape
TensorShape([1, 3, 5, 3])
>>> ek.keras.layers.Cropping1D(1)(ek.ones([1, 5, 2])).shape
TensorShape([1, 3, 2])
"""

import numbers

from eagerkit.arguments import describe
from eagerkit.errors import InvalidArgumentError
from eagerkit.keras import backend
from eagerkit.keras.layers.base import Layer, check_rank
from eagerkit.keras.layers.kernel_layer import checked_data_format
from eagerkit.ops.rearrange import pad

_IMAGE = {
    "channels_last": "[batch, height, width, channels]",
    "channels_first": "[batch, channels, height, width]",
}
_SEQUENCE = "[batch, time, features]"


class _EdgeLayer(Layer):
    """What the four layers share: how many rows to add or cut on each side of which axes.

    ``_ARGUMENT`` names the constructor's argument, ``_AXES`` the spatial axis count.
    """

    _ARGUMENT = "padding"
    _AXES = 2
    _HAS_DATA_FORMAT = True  # the 1-D layers have none

    def _keep(self, amounts, data_format):
        name = type(self).__name__
        self.data_format = checked_data_format(
            backend.image_data_format() if data_format is None else data_format, name
        )
        setattr(self, self._ARGUMENT, _sides(amounts, self._AXES, self._ARGUMENT, name))

    def _spatial_axes(self):
        first = 1 if self.data_format == "channels_last" else 2
        return list(range(first, first + self._AXES))

    def _checked_rank(self, inputs):
        example = _SEQUENCE if self._AXES == 1 else _IMAGE[self.data_format]
        check_rank(self, inputs.shape, self._AXES + 2, example)

    def get_config(self):
        """The common fields, the amounts as pairs, and ``data_format`` (as Keras writes
        them)."""
        config = {**super().get_config()}
        amounts = getattr(self, self._ARGUMENT)
        config[self._ARGUMENT] = list(amounts[0]) if self._AXES == 1 else [list(p) for p in amounts]
        if self._HAS_DATA_FORMAT:
            config["data_format"] = self.data_format
        return config


class ZeroPadding2D(_EdgeLayer):
    """Rows of zeros above and below an image, columns left and right of it.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.keras.layers.ZeroPadding2D(1)(ek.ones([1, 1, 1, 1]))[0, :, :, 0].numpy().tolist()
    [[0.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 0.0]]
    """

    def __init__(self, padding=(1, 1), data_format=None, **kwargs):
        super().__init__(**kwargs)
        self._keep(padding, data_format)

    def call(self, inputs):
        self._checked_rank(inputs)
        return _padded(inputs, self.padding, self._spatial_axes())


class ZeroPadding1D(_EdgeLayer):
    """Steps of zeros before and after a sequence ``[batch, time, features]``.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.keras.layers.ZeroPadding1D((1, 2))(ek.ones([1, 1, 1]))[0, :, 0].numpy().tolist()
    [0.0, 1.0, 0.0, 0.0]
    """

    _AXES = 1
    _HAS_DATA_FORMAT = False

    def __init__(self, padding=1, **kwargs):
        super().__init__(**kwargs)
        self._keep(padding, "channels_last")

    def call(self, inputs):
        self._checked_rank(inputs)
        return _padded(inputs, self.padding, [1])


class Cropping2D(_EdgeLayer):
    """Rows cut from the top and bottom of an image, columns from its left and right.

    Examples
    --------
    >>> import eagerkit as ek
    >>> image = ek.reshape(ek.range(16.0), [1, 4, 4, 1])
    >>> ek.keras.layers.Cropping2D(((1, 2), (0, 1)))(image)[0, :, :, 0].numpy().tolist()
    [[4.0, 5.0, 6.0]]
    """

    _ARGUMENT = "cropping"

    def __init__(self, cropping=((0, 0), (0, 0)), data_format=None, **kwargs):
        super().__init__(**kwargs)
        self._keep(cropping, data_format)

    def call(self, inputs):
        self._checked_rank(inputs)
        return _cropped(self, inputs, self.cropping, self._spatial_axes())


class Cropping1D(_EdgeLayer):
    """Steps cut from the start and the end of a sequence ``[batch, time, features]``.

    Examples
    --------
    >>> import eagerkit as ek
    >>> steps = ek.reshape(ek.range(5.0), [1, 5, 1])
    >>> ek.keras.layers.Cropping1D((1, 2))(steps)[0, :, 0].numpy().tolist()
    [1.0, 2.0]
    """

    _ARGUMENT = "cropping"
    _AXES = 1
    _HAS_DATA_FORMAT = False

    def __init__(self, cropping=(1, 1), **kwargs):
        super().__init__(**kwargs)
        self._keep(cropping, "channels_last")

    def call(self, inputs):
        self._checked_rank(inputs)
        return _cropped(self, inputs, self.cropping, [1])


def _padded(inputs, amounts, axes):
    paddings = [[0, 0] for _ in range(inputs.ndim)]
    for axis, pair in zip(axes, amounts, strict=True):
        paddings[axis] = list(pair)
    return pad(inputs, paddings)


def _cropped(layer, inputs, amounts, axes):
    window = [slice(None)] * inputs.ndim
    for axis, (before, after) in zip(axes, amounts, strict=True):
        size = inputs.shape[axis]
        if before + after >= size:
            raise InvalidArgumentError(
                f"{type(layer).__name__} layer '{layer.name}': cropping "
                f"{list(map(list, amounts))} removes {before + after} of the {size} rows of "
                f"axis {axis} of inputs shaped {inputs.shape}, leaving none; crop less than "
                "each axis' size, or feed larger inputs",
                op=layer.name,
            )
        window[axis] = slice(before, size - after)
    return inputs[tuple(window)]


def _sides(value, axes, argument, layer):
    """``value`` as one ``(before, after)`` pair of whole numbers >= 0 per spatial axis."""
    if _is_size(value):
        pairs = [(value, value)] * axes
    elif isinstance(value, (list, tuple)) and len(value) == 2 and all(map(_is_size, value)):
        pairs = [tuple(value)] if axes == 1 else [(value[0], value[0]), (value[1], value[1])]
    elif (
        axes == 2
        and isinstance(value, (list, tuple))
        and len(value) == 2
        and all(isinstance(p, (list, tuple)) and len(p) == 2 for p in value)
        and all(_is_size(n) for p in value for n in p)
    ):
        pairs = [tuple(p) for p in value]
    else:
        forms = (
            "an int, or a pair (before, after)"
            if axes == 1
            else "an int, a pair (height, width), or two pairs ((top, bottom), (left, right))"
        )
        example = "(1, 1)" if axes == 1 else "((1, 1), (2, 2))"
        raise InvalidArgumentError(
            f"{layer}: {argument} must be {forms} of whole numbers >= 0, got "
            f"{describe(value)}; pass e.g. {argument}={example}",
            op=layer,
        )
    return tuple((int(a), int(b)) for a, b in pairs)


def _is_size(value):
    return isinstance(value, numbers.Integral) and not isinstance(value, bool) and value >= 0
