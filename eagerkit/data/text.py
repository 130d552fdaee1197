"""Datasets read from text files: ``TextLineDataset``, one string tensor per line.

Files are read lazily, one line at a time, each time the dataset is iterated (every epoch
reads the files again), so a file larger than memory streams through. Lines keep their
bytes as they are in the file, without the line ending, as in TF.
"""

import gzip
import os
import zlib

import numpy as np

from eagerkit import dtypes
from eagerkit.arguments import size, whole_number
from eagerkit.data.dataset import Dataset
from eagerkit.errors import InvalidArgumentError, NotFoundError
from eagerkit.graph.signature import TensorSpec
from eagerkit.tensor import Tensor

_COMPRESSIONS = ("", "GZIP", "ZLIB")


def file_names(filenames, op):
    """``filenames`` (a path, a list of paths, or a string tensor of them) as a list of str."""
    if isinstance(filenames, Tensor):
        filenames = np.asarray(filenames.numpy()).tolist()  # a scalar gives bytes, not a list
    names = [filenames] if isinstance(filenames, (str, bytes, os.PathLike)) else filenames
    try:
        names = [os.fsdecode(name) for name in names]
    except TypeError:
        raise InvalidArgumentError(
            f"{op}: filenames must be a path or a list of paths, got {filenames!r}", op=op
        ) from None
    if not names:
        raise InvalidArgumentError(f"{op}: filenames is empty; give at least one file", op=op)
    for name in names:
        if not os.path.isfile(name):
            raise NotFoundError(
                f"{op}: no such file: {name!r}; check the path (a relative path starts at "
                f"the working directory, {os.getcwd()!r})",
                op=op,
            )
    return names


def _open(name, compression_type):
    """The file as bytes, uncompressed."""
    if compression_type == "GZIP":
        return gzip.open(name, "rb")
    if compression_type == "ZLIB":  # a whole zlib stream: small files, so read it at once
        import io

        with open(name, "rb") as raw:
            return io.BytesIO(zlib.decompress(raw.read()))
    return open(name, "rb")


def read_lines(names, compression_type):
    """Every line of every file in order, as bytes without its line ending."""
    for name in names:
        with _open(name, compression_type) as file:
            for line in file:
                yield line.rstrip(b"\n").rstrip(b"\r")


def checked_compression(compression_type, op):
    """TF's ``compression_type``: None or '' (plain text), 'GZIP' or 'ZLIB', in capitals."""
    compression = (compression_type or "").upper()
    if compression not in _COMPRESSIONS:
        raise InvalidArgumentError(
            f"{op}: compression_type must be None, '', 'GZIP' or 'ZLIB', got {compression_type!r}",
            op=op,
        )
    return compression


def _check_tuning(buffer_size, num_parallel_reads, op):
    """TF's reading knobs, which eagerkit reads without (it reads files one at a time, all
    of a line at once), still checked as TF checks them: whole numbers, nothing fractional."""
    if buffer_size is not None:  # bytes to buffer; 0 is TF's default buffering
        size(buffer_size, "buffer_size", op)
    if num_parallel_reads is not None:
        reads = whole_number(num_parallel_reads, "num_parallel_reads", op)
        if reads < 1 and reads != -1:  # -1 is TF's AUTOTUNE
            raise InvalidArgumentError(
                f"{op}: num_parallel_reads must be >= 1, or -1 (TF's AUTOTUNE), got {reads}",
                op=op,
            )


class TextLineDataset(Dataset):
    """The lines of one or more text files, each a scalar ``ek.string`` tensor.

    Examples
    --------
    >>> import eagerkit as ek, pathlib, tempfile
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "poem.txt"
    >>> _ = path.write_text("roses are red\\nviolets are blue\\n")
    >>> [line.numpy() for line in ek.data.TextLineDataset(str(path))]
    [b'roses are red', b'violets are blue']
    """

    def __init__(self, filenames, compression_type=None, buffer_size=None, num_parallel_reads=None):
        op = "TextLineDataset"
        compression = checked_compression(compression_type, op)
        names = file_names(filenames, op)
        _check_tuning(buffer_size, num_parallel_reads, op)

        def make_iterator():
            from eagerkit.ops.creation import constant

            for line in read_lines(names, compression):
                yield constant(line)

        shown = names[0] if len(names) == 1 else f"{len(names)} files"
        super().__init__(
            make_iterator,
            f"TextLineDataset({os.path.basename(shown)})",
            spec=lambda: TensorSpec((), dtypes.string),
        )
