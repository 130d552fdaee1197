"""``ek.keras.datasets``: TF's dataset loaders; only ``mnist`` (TF's first tutorial line).

TF has more (``fashion_mnist``, ``cifar10``, ``imdb``, ...); eagerkit, a teaching subset, has
MNIST only, on top of its own downloader (``ek.datasets.load_mnist``), and ``ek.datasets``'
bundled ``load_digits`` for offline lessons.
"""

from eagerkit.keras.datasets import mnist

__all__ = ["mnist"]
