"""Numbers given to layers (a slope, a cap, a scale, a mean, axes): checked when made.

``ReLU(max_value=-1)``, ``Rescaling("1/255")`` or ``Normalization(mean=[0, None])`` are
refused when the layer is made, with an error that names the layer, the argument and an
example of a good value.
"""

import numbers

from eagerkit.arguments import whole_number
from eagerkit.errors import InvalidArgumentError


def real_number(value, what, call, minimum=None, example="0.1"):
    """``value`` as a float (finite, at least ``minimum``), or an error naming ``call``.

    Examples
    --------
    >>> from eagerkit.keras.layers.layer_arguments import real_number
    >>> real_number(2, "alpha", "ELU")
    2.0
    >>> real_number(-1, "max_value", "ReLU", minimum=0.0)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    eagerkit.errors.InvalidArgumentError: ReLU: max_value must be a finite number >= 0.0...
    """
    # A bool is an int to Python, and float(True) would pass: refuse it with strings.
    plain = isinstance(value, numbers.Real) and not isinstance(value, bool)
    ok = plain and abs(float(value)) != float("inf") and float(value) == float(value)
    if ok and (minimum is None or float(value) >= minimum):
        return float(value)
    bound = "" if minimum is None else f" >= {minimum}"
    raise InvalidArgumentError(
        f"{call}: {what} must be a finite number{bound}, got {value!r}; pass e.g. {what}={example}",
        op=call,
    )


def real_numbers(value, what, call, example="0.5"):
    """A number, or a (nested) list, tuple or array of numbers, as a float or nested lists.

    Examples
    --------
    >>> from eagerkit.keras.layers.layer_arguments import real_numbers
    >>> real_numbers(1, "scale", "Rescaling"), real_numbers((1, [2, 3.5]), "scale", "Rescaling")
    (1.0, [1.0, [2.0, 3.5]])
    """
    if hasattr(value, "tolist") and not isinstance(value, numbers.Number):
        value = value.tolist()  # a numpy array: its numbers as lists
    if isinstance(value, (list, tuple)):
        return [real_numbers(item, what, call, example) for item in value]
    return real_number(value, what, call, example=example)


def real_array(value, what, call, example="0.5"):
    """``real_numbers``, checked to be a box of numbers (no ragged lists): ``(value, shape)``.

    Examples
    --------
    >>> from eagerkit.keras.layers.layer_arguments import real_array
    >>> real_array([[1, 2], [3, 4]], "mean", "Normalization")
    ([[1.0, 2.0], [3.0, 4.0]], (2, 2))
    """
    from eagerkit.tensor import convert_to_tensor

    if hasattr(value, "numpy") and hasattr(value, "dtype"):  # an ek.Tensor
        value = value.numpy()
    value = real_numbers(value, what, call, example)
    try:
        shape = tuple(convert_to_tensor(value).shape)
    except (ValueError, TypeError):
        raise InvalidArgumentError(
            f"{call}: {what} must be a number or a list of numbers with one length per "
            f"level (a box, not ragged), got {value!r:.80}; pass e.g. {what}={example}",
            op=call,
        ) from None
    return value, shape


def distinct_axes(axis, call, example, none_ok=False):
    """``axis`` (an int, or a list, tuple or 1-D array of distinct ints) as a list of ints;
    with ``none_ok``, None or an empty list is the empty list.

    Examples
    --------
    >>> from eagerkit.keras.layers.layer_arguments import distinct_axes
    >>> distinct_axes(-1, "Softmax", "axis=-1"), distinct_axes((1, 2), "Softmax", "axis=-1")
    ([-1], [1, 2])
    """
    many = isinstance(axis, (list, tuple)) or getattr(axis, "ndim", None) == 1
    given = [] if none_ok and axis is None else list(axis) if many else [axis]
    try:
        values = [whole_number(a, "axis", call) for a in given]
    except InvalidArgumentError:
        values = None  # refused below, with the whole argument shown
    if values is None or len(set(values)) != len(values) or not (values or none_ok):
        allowed = "a list of distinct integers" + (" or None" if none_ok else "")
        raise InvalidArgumentError(
            f"{call}: axis must be an integer or {allowed}, got {axis!r}; pass e.g. {example}",
            op=call,
        )
    return values
