"""Activation functions by name, for the ``activation=`` argument of layers.

Examples
--------
>>> import eagerkit as ek
>>> from eagerkit.keras.layers.activations import get
>>> get("relu")([-1.0, 2.0])
<ek.Tensor: shape=(2,), dtype=float32, numpy=array([0., 2.], dtype=float32)>
>>> get(None) is None
True
"""

from eagerkit.ops import nn

_BY_NAME = {
    "relu": nn.relu,
    "tanh": nn.tanh,
    "sigmoid": nn.sigmoid,
    "softmax": nn.softmax,
    "softplus": nn.softplus,
    "elu": nn.elu,
    "leaky_relu": nn.leaky_relu,
    "gelu": nn.gelu,
}


def get(activation):
    """A callable for ``activation`` (a name, a callable, or None / 'linear' for none).

    Examples
    --------
    >>> import eagerkit as ek
    >>> from eagerkit.keras.layers.activations import get
    >>> get("tanh") is ek.nn.tanh, get("linear")
    (True, None)
    """
    if activation is None or activation == "linear":
        return None
    if isinstance(activation, str):
        from eagerkit.keras.serialization import get_registered_object

        found = _BY_NAME.get(activation) or get_registered_object(activation)
        if found is not None:  # a built-in, or a custom one a saved model names
            return found
        raise ValueError(
            f"unknown activation {activation!r}; use one of {sorted(_BY_NAME)}, "
            "'linear', None or any callable (a custom one by name once registered with "
            "ek.keras.saving.register_keras_serializable)"
        )
    if callable(activation):
        return activation
    raise TypeError(f"activation must be a name or a callable, got {activation!r}")
