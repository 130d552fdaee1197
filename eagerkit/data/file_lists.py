"""``Dataset.list_files``: the names of the files that match a glob pattern, as a dataset.

The pattern is matched once, when the dataset is made (TF matches it when the dataset is
first read; for files that do not change between the two, the result is the same).
"""

import glob
import os

from eagerkit.errors import InvalidArgumentError
from eagerkit.tensor import Tensor


def list_files(file_pattern, shuffle=None, seed=None, name=None):
    """A dataset of the file names matching ``file_pattern`` (a glob, or a list of them).

    The names come in a random order, a new one each epoch, unless ``shuffle=False`` (then
    sorted); ``seed`` makes the order repeatable. ``name`` is accepted for TF's signature.

    Examples
    --------
    >>> import eagerkit as ek, os, tempfile
    >>> folder = tempfile.mkdtemp()
    >>> for part in ("b", "a"):
    ...     open(os.path.join(folder, part + ".txt"), "w").close()
    >>> names = ek.data.Dataset.list_files(os.path.join(folder, "*.txt"), shuffle=False)
    >>> [os.path.basename(n.numpy().decode()) for n in names]
    ['a.txt', 'b.txt']
    """
    from eagerkit.data.dataset import Dataset

    patterns = _patterns(file_pattern)
    found = sorted({match for pattern in patterns for match in glob.glob(pattern)})
    if not found:
        raise InvalidArgumentError(
            f"Dataset.list_files: no files matched file_pattern {patterns!r}; check the "
            f"path (a relative one starts at the working directory, {os.getcwd()!r})",
            op="Dataset.list_files",
        )
    dataset = Dataset.from_tensor_slices(found)
    if shuffle is None or shuffle:
        dataset = dataset.shuffle(len(found), seed=seed)
    return dataset


def _patterns(file_pattern):
    if isinstance(file_pattern, Tensor):
        file_pattern = file_pattern.numpy()
        file_pattern = file_pattern.tolist() if hasattr(file_pattern, "tolist") else file_pattern
    if isinstance(file_pattern, (str, bytes, os.PathLike)):
        file_pattern = [file_pattern]
    try:
        patterns = [os.fsdecode(pattern) for pattern in file_pattern]
    except TypeError:
        patterns = []
    if not patterns:
        raise InvalidArgumentError(
            "Dataset.list_files: file_pattern must be a glob pattern (a string such as "
            f"'data/*.csv') or a list of them, got {file_pattern!r}",
            op="Dataset.list_files",
        )
    return patterns
