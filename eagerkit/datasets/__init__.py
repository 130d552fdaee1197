"""Datasets for the lessons: bundled (digits), generated (birth-life), downloaded (MNIST).

Each loader returns numpy arrays; wrap them with ``ek.data.Dataset.from_tensor_slices``.
"""

from eagerkit.datasets.birth_life import birth_life_data
from eagerkit.datasets.digits import load_digits
from eagerkit.datasets.mnist import load_mnist, read_idx

__all__ = ["birth_life_data", "load_digits", "load_mnist", "read_idx"]
