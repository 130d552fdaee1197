"""``ek.io``: reading files and parsing text records, as ``tf.io``.

With ``TextLineDataset`` these make TF1's CSV pipeline work eagerly: read lines, skip the
header, ``decode_csv`` each line into one tensor per column.

Examples
--------
>>> import eagerkit as ek
>>> age, name = ek.io.decode_csv(["52,Ann", "61,Bo"], record_defaults=[[0], [""]])
>>> age.numpy().tolist(), name.numpy().tolist()
([52, 61], [b'Ann', b'Bo'])
"""

import csv
import numbers
import os

import numpy as np

from eagerkit.arguments import describe, whole_number
from eagerkit.data import csv_fields
from eagerkit.errors import InvalidArgumentError, NotFoundError
from eagerkit.ops.creation import constant
from eagerkit.tensor import convert_to_tensor


def read_file(filename, name=None):
    """The whole contents of a file as one scalar ``ek.string`` tensor (its bytes).

    Examples
    --------
    >>> import eagerkit as ek, pathlib, tempfile
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "note.txt"
    >>> _ = path.write_bytes(b"hi\\n")
    >>> ek.io.read_file(str(path))
    <ek.Tensor: shape=(), dtype=string, numpy=b'hi\\n'>
    """
    if hasattr(filename, "numpy"):
        filename = filename.numpy()
    try:
        path = os.fsdecode(filename)
    except TypeError:
        raise InvalidArgumentError(
            f"read_file: filename must be a path, got {filename!r}", op="read_file"
        ) from None
    if not os.path.isfile(path):
        raise NotFoundError(
            f"read_file: no such file: {path!r}; check the path (a relative path starts at the "
            f"working directory, {os.getcwd()!r})",
            op="read_file",
        )
    with open(path, "rb") as file:
        return constant(file.read())


def decode_csv(
    records,
    record_defaults,
    field_delim=",",
    use_quote_delim=True,
    name=None,
    na_value="",
    select_cols=None,
):
    """Parse CSV records (a string tensor) into one tensor per column, shaped like ``records``.

    ``record_defaults`` gives each column's type and default: ``[0.0]``, ``[0]``, ``[""]``,
    ``[]`` (a required float32) or a dtype (required); ``select_cols`` keeps only those
    column indices (then there is one default per selected column).
    """
    op = "decode_csv"
    records = convert_to_tensor(records)
    if not records.dtype.is_string:
        raise InvalidArgumentError(
            f"{op}: records must be a string tensor, got {records.dtype.name}", op=op
        )
    kinds = csv_fields.kinds_from_defaults(record_defaults)
    if select_cols is not None and not _increasing_indices(select_cols, len(kinds)):
        raise InvalidArgumentError(
            f"{op}: select_cols must be increasing column indices (ints >= 0), one per record "
            f"default; got {describe(select_cols)} for {len(kinds)} defaults; pass e.g. "
            f"select_cols={list(range(len(kinds)))}",
            op=op,
        )
    quoting = csv.QUOTE_MINIMAL if use_quote_delim else csv.QUOTE_NONE
    lines = [record.decode("utf-8") for record in records._data.reshape(-1)]  # on the host
    columns = [[] for _ in kinds]
    for number, row in enumerate(csv.reader(lines, delimiter=field_delim, quoting=quoting)):
        row = row or [""]  # an empty record is one empty field
        if select_cols is not None and len(row) > max(select_cols, default=-1):
            row = [row[i] for i in select_cols]
        if len(row) != len(kinds):
            raise InvalidArgumentError(
                f"{op}: record {number} of records {records.dtype.name}{list(records.shape)} "
                f"has {len(row)} fields but record_defaults has "
                f"{len(kinds)}: {lines[number]!r}; give record_defaults one entry per field "
                f"(e.g. [[0.0]] * {len(row)}), or check field_delim={field_delim!r}",
                op=op,
            )
        for column, (text, kind) in enumerate(zip(row, kinds, strict=True)):
            where = f"record {number}, column {column} (typed by record_defaults[{column}])"
            columns[column].append(csv_fields.parse_field(text, kind, where, na_value, op))
    return [
        constant(np.array(values, dtype=dtype.as_numpy_dtype).reshape(records.shape))
        for values, (dtype, _) in zip(columns, kinds, strict=True)
    ]


def _increasing_indices(select_cols, count):
    """Whether ``select_cols`` is ``count`` column indices (ints >= 0) in increasing order."""
    if isinstance(select_cols, np.ndarray) and select_cols.ndim == 1:
        select_cols = select_cols.tolist()
    if not isinstance(select_cols, (list, tuple)) or len(select_cols) != count:
        return False
    if not all(isinstance(i, numbers.Integral) and not isinstance(i, bool) for i in select_cols):
        return False
    return min(select_cols, default=0) >= 0 and list(select_cols) == sorted(set(select_cols))


def decode_raw(input_bytes, out_type, little_endian=True, fixed_length=None, name=None):
    """Each string's bytes read as numbers of ``out_type``: one more dimension, as long as
    the string holds numbers (every string must hold as many).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.io.decode_raw(ek.constant("Duck"), ek.uint8)
    <ek.Tensor: shape=(4,), dtype=uint8, numpy=array([ 68, 117,  99, 107], dtype=uint8)>
    """
    from eagerkit import dtypes

    op = "decode_raw"
    texts = convert_to_tensor(input_bytes, dtype=dtypes.string).numpy()
    out = dtypes.as_dtype(out_type)
    if out.is_string or out.is_bool:
        raise InvalidArgumentError(f"{op}: out_type must be a number type, got {out.name}", op=op)
    np_dtype = out.as_numpy_dtype.newbyteorder("<" if little_endian else ">")
    if fixed_length is not None:
        fixed_length = whole_number(fixed_length, "fixed_length", op)
        if not 0 <= fixed_length < 2**31:  # TF's is an int32 count of bytes
            raise InvalidArgumentError(
                f"{op}: fixed_length must be a byte count from 0 to 2**31 - 1, got {fixed_length}",
                op=op,
            )
    rows = []
    for text in np.asarray(texts, dtype=object).reshape(-1):
        if fixed_length is not None:
            text = bytes(text[:fixed_length]).ljust(fixed_length, b"\0")
        if len(text) % np_dtype.itemsize:
            raise InvalidArgumentError(
                f"{op}: a string of {len(text)} bytes is not a whole number of {out.name}s "
                f"({np_dtype.itemsize} bytes each); pick an out_type whose size divides it, "
                "or give fixed_length=",
                op=op,
            )
        rows.append(np.frombuffer(text, dtype=np_dtype).astype(out.as_numpy_dtype))
    if len({len(row) for row in rows}) > 1:
        raise InvalidArgumentError(
            f"{op}: every string must hold as many {out.name}s; got lengths "
            f"{sorted({len(row) for row in rows})} (use fixed_length=... to pad or cut them)",
            op=op,
        )
    width = len(rows[0]) if rows else 0
    return constant(np.array(rows, dtype=out.as_numpy_dtype).reshape(*np.shape(texts), width))


# What this namespace exports (to ``import *`` and to the error boundary, namespaces.py);
# the helpers it imports or keeps for itself stay out.
__all__ = ["read_file", "decode_csv", "decode_raw"]
