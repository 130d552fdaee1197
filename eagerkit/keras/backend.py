"""``ek.keras.backend``: what of Keras' backend module a lesson needs."""

from eagerkit.keras.layers import base

__all__ = ["clear_session"]


def clear_session():
    """Start Keras' default names again: the next Dense is ``dense``, the next Input
    ``input_1``. Layers and models already made keep their names and variables.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.keras.backend.clear_session()
    >>> ek.keras.layers.Dense(1).name, ek.keras.Input(shape=[2]).name
    ('dense', 'input_1')
    """
    base._name_counts.clear()
