"""MNIST from its four original idx files: downloaded once, checked, cached, parsed.

The idx format is tiny: a big-endian header (two zero bytes, a type code, the number of
dimensions, then each dimension as a 4-byte integer) followed by the raw values. MNIST uses
type 0x08 (unsigned bytes): images are ``(n, 28, 28)``, labels ``(n,)``.
"""

import gzip
import os
import struct
from collections.abc import Mapping

import numpy as np

from eagerkit.arguments import describe
from eagerkit.datasets import download
from eagerkit.errors import DataLossError, InvalidArgumentError, NotFoundError, UnavailableError

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
    directory = _directory(path)
    _check_mirrors(mirrors)
    _check_checksums(checksums)
    offline_fix = f"call ek.datasets.load_mnist(path={directory!r})"
    (x_train, y_train), (x_test, y_test) = raw_arrays(
        directory, mirrors, checksums, progress, "load_mnist", offline_fix
    )
    return tuple(
        ((images / np.float32(255)).astype(np.float32), labels.astype(np.int32))
        for images, labels in ((x_train, y_train), (x_test, y_test))
    )


def raw_arrays(directory, mirrors, checksums, progress, caller, offline_fix):
    """``(x_train, y_train), (x_test, y_test)`` as the files hold them (uint8), fetched into
    ``directory`` if missing; errors name ``caller`` and, offline, suggest ``offline_fix``."""
    try:  # all four files or none: a failure leaves the cache as it was
        fetched = download.fetch_all(
            {name: checksums[name] for name in FILES.values()}, directory, mirrors, progress
        )
    except UnavailableError as error:
        raise UnavailableError(
            f"{caller}: {error.message} To work offline, put the four files "
            f"({', '.join(FILES.values())}) into {directory} and {offline_fix}, or use "
            "ek.datasets.load_digits().",
            op=caller,
        ) from error
    arrays = {key: read_idx(fetched[name]) for key, name in FILES.items()}
    for split in ("train", "test"):
        images, labels = arrays[f"{split}_images"], arrays[f"{split}_labels"]
        if images.ndim != 3 or labels.ndim != 1 or len(images) != len(labels):
            raise DataLossError(
                f"{caller}: the {split} files do not fit together: images {images.shape}, "
                f"labels {labels.shape}",
                op=caller,
            )
    return tuple((arrays[f"{s}_images"], arrays[f"{s}_labels"]) for s in ("train", "test"))


def _directory(path):
    """Where the files go: ``path`` (a str, bytes or ``pathlib.Path``) or the default."""
    if path is None:
        return default_directory()
    if not isinstance(path, (str, bytes, os.PathLike)):
        raise InvalidArgumentError(
            f"load_mnist: path must be a directory (a str or pathlib.Path), got "
            f"{describe(path)}; pass e.g. path='data/mnist', or leave it out for "
            f"{default_directory()!r}",
            op="load_mnist",
        )
    return os.fsdecode(os.fspath(path))  # bytes too: they would not mix with the file names


def _check_mirrors(mirrors):
    if (
        not isinstance(mirrors, (list, tuple))
        or not mirrors
        or not all(isinstance(m, str) for m in mirrors)
    ):
        raise InvalidArgumentError(
            f"load_mnist: mirrors must be a non-empty list or tuple of base URLs (str), got "
            f"{describe(mirrors)}; pass e.g. mirrors=('https://example.org/mnist/',), or "
            "leave it out for the published mirrors",
            op="load_mnist",
        )


def _check_checksums(checksums):
    names = sorted(FILES.values())
    given = checksums if isinstance(checksums, Mapping) else {}
    bad = [n for n in names if not _is_sha256(given.get(n))]
    if bad:
        raise InvalidArgumentError(
            f"load_mnist: checksums must map each of the four file names to its SHA-256 (64 "
            f"hex digits), got {describe(checksums)} (wrong or missing for {', '.join(bad)}); "
            "pass such a dict, or leave checksums out for the published ones",
            op="load_mnist",
        )


def _is_sha256(text):
    return (
        isinstance(text, str)
        and len(text) == 64
        and all(c in "0123456789abcdefABCDEF" for c in text)
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
    if not isinstance(path, (str, bytes, os.PathLike)):  # an int would be a file descriptor
        raise InvalidArgumentError(
            f"read_idx: path must be a file path (a str or pathlib.Path), got {describe(path)}; "
            "pass e.g. 'mnist/t10k-labels-idx1-ubyte.gz'",
            op="read_idx",
        )
    path = os.fsdecode(os.fspath(path))
    if not os.path.isfile(path):
        raise NotFoundError(
            f"read_idx: no such file: {path!r}; check the path (a relative path starts at the "
            f"working directory, {os.getcwd()!r})",
            op="read_idx",
        )
    opener = gzip.open if path.endswith(".gz") else open
    try:
        with opener(path, "rb") as f:
            data = f.read()
    except (OSError, EOFError) as error:
        raise DataLossError(
            f"read_idx: {path} cannot be read ({error}); download the file again", op="read_idx"
        ) from error
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
