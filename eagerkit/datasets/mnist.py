"""MNIST from its four original idx files: downloaded once, checked, cached, parsed.

The idx format is tiny: a big-endian header (two zero bytes, a type code, the number of
dimensions, then each dimension as a 4-byte integer) followed by the raw values. MNIST uses
type 0x08 (unsigned bytes): images are ``(n, 28, 28)``, labels ``(n,)``.
"""

import gzip
import os
import struct

import numpy as np

from eagerkit.datasets import download
from eagerkit.errors import DataLossError, UnavailableError

# TensorFlow's mirror first (the one the seed's input_data.read_data_sets used), then PyTorch's.
MIRRORS = (
    "https://storage.googleapis.com/cvdf-datasets/mnist/",
    "https://ossci-datasets.s3.amazonaws.com/mnist/",
)
FILES = {
    "train_images": "train-images-idx3-ubyte.gz",
    "train_labels": "train-labels-idx1-ubyte.gz",
    "test_images": "t10k-images-idx3-ubyte.gz",
    "test_labels": "t10k-labels-idx1-ubyte.gz",
}
# SHA-256 of the published files (9,912,422 / 28,881 / 1,648,877 / 4,542 bytes).
SHA256 = {
    FILES["train_images"]: "440fcabf73cc546fa21475e81ea370265605f56be210a4024d2ca8f203523609",
    FILES["train_labels"]: "3552534a0a558bbed6aed32b30c495cca23d567ec52cac8be1a0730e8010255c",
    FILES["test_images"]: "8d422c7b0a1c1c79245a5bcf07fe86e33eeafee792b84584aec276f5a2dbc4e6",
    FILES["test_labels"]: "f7ae60f92e00ec6debd23a6088c31dbd2371eca3ffa0defaefb259924204aec6",
}


def default_directory():
    """Where downloads are cached: ``$EAGERKIT_DATA/mnist`` or ``~/.cache/eagerkit/mnist``."""
    root = os.environ.get("EAGERKIT_DATA") or os.path.join(
        os.path.expanduser("~"), ".cache", "eagerkit"
    )
    return os.path.join(root, "mnist")


def load_mnist(path=None, mirrors=MIRRORS, checksums=SHA256, progress=True):
    """MNIST as ``(x_train, y_train), (x_test, y_test)``, downloading it on first use.

    Images are float32 ``(n, 28, 28)`` scaled to [0, 1]; labels int32 (60,000 training and
    10,000 test images). The four files are fetched from the first mirror that answers,
    checked against ``checksums`` (SHA-256 by file name), cached in ``path`` (default
    ``default_directory()``) and read from there next time. Offline, it raises
    ``UnavailableError`` saying what to do; for offline lessons use ``load_digits()``.
    """
    directory = os.fspath(path) if path is not None else default_directory()
    try:
        paths = {
            key: download.fetch(name, directory, mirrors, checksums[name], progress)
            for key, name in FILES.items()
        }
    except UnavailableError as error:
        raise UnavailableError(
            f"load_mnist: {error.message} To work offline, put the four files "
            f"({', '.join(FILES.values())}) into {directory} and call "
            f"ek.datasets.load_mnist(path={directory!r}), or use ek.datasets.load_digits().",
            op="load_mnist",
        ) from error
    arrays = {key: read_idx(file) for key, file in paths.items()}
    for split in ("train", "test"):
        images, labels = arrays[f"{split}_images"], arrays[f"{split}_labels"]
        if images.ndim != 3 or labels.ndim != 1 or len(images) != len(labels):
            raise DataLossError(
                f"load_mnist: the {split} files do not fit together: images {images.shape}, "
                f"labels {labels.shape}",
                op="load_mnist",
            )
    return tuple(
        (
            (arrays[f"{split}_images"] / np.float32(255)).astype(np.float32),
            arrays[f"{split}_labels"].astype(np.int32),
        )
        for split in ("train", "test")
    )


def read_idx(path):
    """The array in an idx file (gzip-compressed when the name ends in ``.gz``).

    Examples
    --------
    >>> import numpy as np, os, struct, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "labels-idx1-ubyte")
    >>> with open(path, "wb") as f:
    ...     _ = f.write(struct.pack(">BBBBI", 0, 0, 0x08, 1, 3) + bytes([7, 0, 9]))
    >>> read_idx(path)
    array([7, 0, 9], dtype=uint8)
    """
    opener = gzip.open if path.endswith(".gz") else open
    try:
        with opener(path, "rb") as f:
            data = f.read()
    except (OSError, EOFError) as error:
        raise DataLossError(f"{path} cannot be read: {error}", op="read_idx") from error
    if len(data) < 4 or data[:2] != b"\0\0" or data[2] != 0x08:
        raise DataLossError(
            f"{path} is not an idx file of unsigned bytes (header {data[:4].hex()})",
            op="read_idx",
        )
    ndim = data[3]
    header = 4 + 4 * ndim
    if len(data) < header:
        raise DataLossError(f"{path}: the idx header is truncated", op="read_idx")
    shape = struct.unpack(f">{ndim}I", data[4:header])
    expected = int(np.prod(shape))
    if len(data) - header != expected:
        raise DataLossError(
            f"{path}: the header announces shape {shape} ({expected} bytes) but "
            f"{len(data) - header} bytes follow; the file is truncated or damaged",
            op="read_idx",
        )
    return np.frombuffer(data, dtype=np.uint8, offset=header).reshape(shape)
