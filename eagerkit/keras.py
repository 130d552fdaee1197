"""``ek.keras``: the ``tf.keras`` names the articles use, for code written against Keras.

``ek.keras.layers`` is ``ek.layers``; ``ek.keras.Model`` and ``ek.keras.Sequential`` are
``ek.Model`` and ``ek.Sequential``.

Examples
--------
>>> import eagerkit as ek
>>> conv = ek.keras.layers.Conv2D(filters=64, kernel_size=3, padding="SAME")
>>> pool = ek.keras.layers.MaxPool2D(pool_size=2, strides=2, padding="SAME")
>>> imgs = ek.random_uniform(shape=(128, 32, 32, 3))
>>> pool(conv(imgs)).shape
(128, 16, 16, 64)
"""

from eagerkit import initializers, layers
from eagerkit.models import Model, Sequential

__all__ = ["Model", "Sequential", "initializers", "layers"]
