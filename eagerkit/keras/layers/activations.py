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

# The names Keras knows, each the function of the same name in ek.nn.
_NAMES = ("relu", "tanh", "sigmoid", "softmax", "softplus", "elu", "leaky_relu", "gelu")


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
        if activation in _NAMES:
            from eagerkit import nn  # the public namespace: its functions are inside the boundary

            return getattr(nn, activation)
        from eagerkit.keras.serialization import get_registered_object

        found = get_registered_object(activation)
        if found is not None:  # a custom one a saved model names
            return found
        raise ValueError(
            f"unknown activation {activation!r}; use one of {sorted(_NAMES)}, "
            "'linear', None or any callable (a custom one by name once registered with "
            "ek.keras.saving.register_keras_serializable)"
        )
    if callable(activation):
        return activation
    raise TypeError(f"activation must be a name or a callable, got {activation!r}")


# What this namespace exports (to ``import *`` and to the error boundary, namespaces.py);
# the helpers it imports or keeps for itself stay out.
__all__ = ["get"]
