"""``ek.keras.activations.serialize`` and ``deserialize``: an activation function as the
name a config holds, and back, as Keras 3 writes them (a built-in by its name, a custom
one by its registered name).

Examples
--------
>>> import eagerkit as ek
>>> ek.keras.activations.serialize(ek.keras.activations.relu)
'relu'
>>> ek.keras.activations.deserialize("hard_sigmoid") is ek.keras.activations.hard_sigmoid
True
"""


def _table():
    """Every activation by the name a config holds: ek.nn's, this module's, ``linear``."""
    from eagerkit.keras import builtin_objects
    from eagerkit.keras.layers import activations

    return builtin_objects.activations() | {
        "linear": activations.linear,
        "exponential": activations.exponential,
    }


def serialize(activation):
    """The name a config holds for ``activation`` (a built-in or registered function).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.keras.activations.serialize(ek.nn.tanh)
    'tanh'
    """
    from eagerkit.errors import InvalidArgumentError
    from eagerkit.keras.serialization import get_registered_name, serialize_keras_object

    if not callable(activation):
        raise InvalidArgumentError(
            f"activations.serialize: expected an activation function, got {activation!r:.80}; "
            "pass e.g. ek.keras.activations.relu",
            op="serialize",
        )
    for name, function in _table().items():
        if function is activation:
            return name
    name = serialize_keras_object(activation)  # refuses a lambda, with the fix
    return get_registered_name(activation) if isinstance(name, str) else name


def deserialize(config, custom_objects=None):
    """The activation function a config's name (or ``{"class_name", "config"}``) names.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.keras.activations.deserialize("sigmoid") is ek.nn.sigmoid
    True
    """
    from eagerkit.keras.serialization import deserialize_keras_object

    return deserialize_keras_object(config, _table(), custom_objects, "activation function")
