"""Sizes given to layers (units, filters, window sizes, strides): whole numbers, checked.

``Dense(2.5)`` or ``Conv2D(8, kernel_size=2.5)`` are refused with an error that names the
layer and the argument; a size is never rounded or truncated. ``3.0`` and numpy or tensor
integers are accepted as the whole numbers they are.
"""

import numbers
import operator

from eagerkit.errors import InvalidArgumentError


def whole_number(value, what, layer, minimum=1):
    """``value`` as an int: a fraction (2.5), a bool or a string is refused, never truncated.

    Examples
    --------
    >>> import eagerkit as ek
    >>> from eagerkit.keras.layers.sizes import whole_number
    >>> whole_number(3.0, "units", ek.layers.Layer(name="l"))
    3
    >>> whole_number(2.5, "units", ek.layers.Layer(name="l"))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    eagerkit.errors.InvalidArgumentError: Layer 'l': units must be a whole number >= 1, got 2.5...
    """
    number = None
    if not isinstance(value, bool):
        try:
            number = operator.index(value)  # ints, numpy ints, integer scalar tensors
        except TypeError:
            if isinstance(value, numbers.Real) and float(value).is_integer():
                number = int(value)  # 3.0 is 3; 2.5 is no number of units
    if number is None or number < minimum:
        raise InvalidArgumentError(
            f"{type(layer).__name__} '{layer.name}': {what} must be a whole number >= {minimum}, "
            f"got {value!r}; eagerkit does not round sizes (write e.g. {max(minimum, 1)})",
            op=layer.name,
        )
    return number


def size_pair(value, what, layer):
    """A window size or stride: one whole number or a pair (or TF's [1, h, w, 1]), as a pair.

    Examples
    --------
    >>> import eagerkit as ek
    >>> from eagerkit.keras.layers.sizes import size_pair
    >>> layer = ek.layers.Layer(name="l")
    >>> size_pair(3, "kernel_size", layer), size_pair([1, 2, 2, 1], "strides", layer)
    ((3, 3), (2, 2))
    """
    values = list(value) if isinstance(value, (list, tuple)) else [value, value]
    if len(values) == 4:
        values = values[1:3]
    if len(values) != 2:
        raise InvalidArgumentError(
            f"{what} must be a positive whole number or a pair (height, width), got {value!r}",
            op=what,
        )
    return tuple(whole_number(v, what, layer) for v in values)
