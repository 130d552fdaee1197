"""``ek.keras.utils``: Keras' utilities a training script meets.

``Progbar`` (the progress bar ``fit`` prints), ``set_random_seed``, and the registry of
custom objects a saved model may name (``register_keras_serializable``,
``custom_object_scope``, ...; also in ``ek.keras.saving``).

Examples
--------
>>> import eagerkit as ek
>>> ek.keras.utils.set_random_seed(1)
>>> a = ek.random.uniform([2]).numpy()
>>> ek.keras.utils.set_random_seed(1)
>>> bool((a == ek.random.uniform([2]).numpy()).all())
True
"""

import random as python_random

import numpy as np

from eagerkit.keras.progress import Progbar
from eagerkit.keras.serialization import (
    CustomObjectScope,
    custom_object_scope,
    deserialize_keras_object,
    get_custom_objects,
    get_registered_name,
    get_registered_object,
    register_keras_serializable,
    serialize_keras_object,
)

__all__ = [
    "CustomObjectScope",
    "Progbar",
    "custom_object_scope",
    "deserialize_keras_object",
    "get_custom_objects",
    "get_registered_name",
    "get_registered_object",
    "register_keras_serializable",
    "serialize_keras_object",
    "set_random_seed",
]


def set_random_seed(seed):
    """Seed Python's ``random``, numpy's global generator and eagerkit's, as Keras does."""
    from eagerkit.random import set_seed

    set_seed(seed)  # checks that it is a whole number first
    python_random.seed(None if seed is None else int(seed))  # (random refuses numpy ints)
    np.random.seed(seed)
