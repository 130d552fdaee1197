"""``ek.keras.datasets.mnist.load_data()``: MNIST as TF's Keras returns it (uint8 arrays).

Only MNIST is here: no other of TF's Keras datasets. It reuses eagerkit's own downloader
(``ek.datasets.load_mnist``'s mirrors, SHA-256 checksums and all-or-nothing cache), so both
share one cached copy of the four original files. TF keeps one file, ``mnist.npz``, under
``~/.keras/datasets``; eagerkit keeps the four files in a folder named after ``path``
without ``.npz`` under its data cache (``$EAGERKIT_DATA`` or ``~/.cache/eagerkit``):
``path="mnist.npz"`` is the folder ``mnist`` that ``ek.datasets.load_mnist()`` uses too.

Examples
--------
>>> import eagerkit as ek
>>> (x_train, y_train), (x_test, y_test) = ek.keras.datasets.mnist.load_data()  # doctest: +SKIP
>>> x_train.shape, x_train.dtype, y_test.shape  # doctest: +SKIP
((60000, 28, 28), dtype('uint8'), (10000,))
"""

import os

from eagerkit.arguments import describe
from eagerkit.datasets import mnist
from eagerkit.errors import InvalidArgumentError


def load_data(path="mnist.npz"):
    """MNIST as ``(x_train, y_train), (x_test, y_test)``, downloaded on first use.

    As in TF: ``x_train`` is a uint8 array ``(60000, 28, 28)`` of pixels 0-255, ``y_train``
    uint8 labels 0-9 ``(60000,)``, and the test set has 10,000 of each. ``path`` names the
    cache entry (relative to eagerkit's data cache, see the module's docstring). Scale the
    images yourself, as TF's tutorial does: ``x_train / 255.0``.
    """
    directory = _cache_folder(path)
    (x_train, y_train), (x_test, y_test) = mnist.raw_arrays(
        directory,
        mnist.MIRRORS,
        mnist.SHA256,
        True,
        "load_data",
        f"call ek.keras.datasets.mnist.load_data(path={path!r}) again",
    )
    # Writable copies, as TF's (the files' bytes are read-only arrays).
    return (x_train.copy(), y_train.copy()), (x_test.copy(), y_test.copy())


def _cache_folder(path):
    """Where ``path``'s files are cached: the data cache's folder named ``path`` less .npz."""
    if not isinstance(path, (str, os.PathLike)) or not os.fspath(path):
        raise InvalidArgumentError(
            f"load_data: path must be a file name such as 'mnist.npz' (where to cache the "
            f"dataset, relative to eagerkit's data cache), got {describe(path)}; leave it out "
            "for the default",
            op="load_data",
        )
    path = os.fspath(path)
    stem = path[: -len(".npz")] if path.endswith(".npz") else path
    if not os.path.basename(stem):
        raise InvalidArgumentError(
            f"load_data: path must name a file, got {path!r}; pass e.g. path='mnist.npz'",
            op="load_data",
        )
    cache = os.path.dirname(mnist.default_directory())  # $EAGERKIT_DATA or ~/.cache/eagerkit
    return os.path.join(cache, stem)  # (an absolute path stays as it is)


__all__ = ["load_data"]
