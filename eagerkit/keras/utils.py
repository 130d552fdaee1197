"""``ek.keras.utils``: Keras' utilities a training script meets.

``Progbar`` (the progress bar ``fit`` prints), ``set_random_seed``, ``to_categorical``,
``pad_sequences`` and ``normalize`` (keras/sequence_utils.py),
``timeseries_dataset_from_array`` (windows over a series), and the registry of custom
objects a saved model may name (``register_keras_serializable``, ``custom_object_scope``,
...; also in ``ek.keras.saving``).

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

from eagerkit import dtypes
from eagerkit.arguments import describe, positive
from eagerkit.errors import InvalidArgumentError
from eagerkit.keras.progress import Progbar
from eagerkit.keras.sequence_utils import normalize, pad_sequences
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
from eagerkit.keras.timeseries import timeseries_dataset_from_array
from eagerkit.ops.indexing import one_hot
from eagerkit.tensor import convert_to_tensor

__all__ = [
    "CustomObjectScope",
    "Progbar",
    "custom_object_scope",
    "deserialize_keras_object",
    "get_custom_objects",
    "get_registered_name",
    "get_registered_object",
    "normalize",
    "pad_sequences",
    "register_keras_serializable",
    "serialize_keras_object",
    "set_random_seed",
    "timeseries_dataset_from_array",
    "to_categorical",
]


def set_random_seed(seed):
    """Seed Python's ``random``, numpy's global generator and eagerkit's, as Keras does."""
    from eagerkit.random import set_seed

    set_seed(seed)  # checks that it is a whole number first
    python_random.seed(None if seed is None else int(seed))  # (random refuses numpy ints)
    np.random.seed(seed)


def to_categorical(y, num_classes=None, dtype="float32"):
    """Class ids as one-hot rows, a numpy array, as Keras' ``to_categorical``.

    ``y`` holds whole numbers (a trailing axis of size 1 is dropped, as Keras does);
    ``num_classes`` defaults to the largest id + 1.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.keras.utils.to_categorical([0, 2, 1])
    array([[1., 0., 0.],
           [0., 0., 1.],
           [0., 1., 0.]], dtype=float32)
    """
    ids = convert_to_tensor(y).numpy()  # labels: read on the host, as Keras reads them
    if ids.ndim > 1 and ids.shape[-1] == 1:
        ids = ids.reshape(ids.shape[:-1])
    if ids.dtype.kind not in "iuf" or (ids.dtype.kind == "f" and (ids % 1 != 0).any()):
        raise InvalidArgumentError(
            f"to_categorical: y must hold whole class ids such as [0, 2, 1], got "
            f"{describe(y)} of {ids.dtype}; round or cast the labels first",
            op="to_categorical",
        )
    ids = ids.astype("int64")
    if ids.size and ids.min() < 0:
        raise InvalidArgumentError(
            f"to_categorical: class ids must be >= 0, got {int(ids.min())}; pass ids counted "
            "from 0",
            op="to_categorical",
        )
    needed = int(ids.max()) + 1 if ids.size else 0
    classes = (
        needed if num_classes is None else positive(num_classes, "num_classes", "to_categorical")
    )
    if classes < needed:
        raise InvalidArgumentError(
            f"to_categorical: num_classes={classes} but y holds the id {needed - 1}; give "
            f"num_classes >= {needed} (or leave it out)",
            op="to_categorical",
        )
    return one_hot(convert_to_tensor(ids), classes, dtype=dtypes.as_dtype(dtype)).numpy()
