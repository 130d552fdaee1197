"""``make_csv_dataset``: batches of (features, label) read from CSV files, as TF's.

Each column becomes one entry of a features dict; its dtype is inferred from the first
rows (int32, then int64, float32, and string when nothing else fits) unless
``column_defaults`` gives it. Empty fields and ``na_value`` take the column's default.
The rows are then shuffled, repeated (``num_epochs``, forever by default, as in TF) and
batched by the ordinary Dataset steps. A row with the wrong number of fields among the first
``num_rows_for_inference`` fails at once; later ones when they are read.
"""

import csv
import glob
import itertools
from collections import OrderedDict

import numpy as np

from eagerkit.arguments import positive, size
from eagerkit.data import csv_arguments, csv_fields
from eagerkit.data.dataset import Dataset
from eagerkit.data.steps import Failed, fits
from eagerkit.data.text import read_lines
from eagerkit.errors import InvalidArgumentError, NotFoundError
from eagerkit.ops.creation import constant

_OP = "make_csv_dataset"
_GZIP_MAGIC = b"\x1f\x8b"  # the first two bytes of every gzip file


def _files(file_pattern):
    patterns = csv_arguments.patterns(file_pattern)
    names = sorted({name for pattern in patterns for name in glob.glob(pattern)})
    if not names:
        raise NotFoundError(
            f"{_OP}: no files match {file_pattern!r}; pass a path or a glob pattern such as "
            "'data/*.csv' (a relative one starts at the working directory)",
            op=_OP,
        )
    return names


def _rows(names, field_delim, use_quote_delim, header, compression_type, op=_OP):
    """Each file's records as lists of str, the header row of each file skipped."""
    quoting = csv.QUOTE_MINIMAL if use_quote_delim else csv.QUOTE_NONE
    for name in names:
        lines = _texts(read_lines([name], compression_type), name, compression_type, op)
        records = csv.reader(lines, delimiter=field_delim, quoting=quoting)
        yield from itertools.islice(records, 1 if header else 0, None)


def _texts(lines, name, compression_type, op):
    """Each line of ``name`` as text; a line that is not UTF-8 (a gzipped file read without
    ``compression_type``, say) is an error that says so, not Python's codec error."""
    for number, line in enumerate(lines, start=1):
        try:
            yield line.decode("utf-8")
        except UnicodeDecodeError as error:
            if number == 1 and line.startswith(_GZIP_MAGIC) and not compression_type:
                fix = "it is a gzip file: pass compression_type='GZIP'"
            else:
                fix = "a CSV file is text: save it as UTF-8 (or pass the compression it has)"
            raise InvalidArgumentError(
                f"{op}: line {number} of {name!r} is not UTF-8 text ({error.reason} at byte "
                f"{error.start}); {fix}",
                op=op,
            ) from None


def _kinds(column_names, column_defaults, sample, na_value):
    """One (dtype, default or None when required) per column: given, or inferred from rows."""
    if column_defaults is None:
        columns = list(zip(*sample, strict=False)) or [()] * len(column_names)
        kinds = [csv_fields.infer_kind(list(values), na_value) for values in columns]
        return [(kind, "" if kind.is_string else 0) for kind in kinds]
    return csv_fields.kinds_from_defaults(column_defaults)  # checked: one per column


def make_csv_dataset(
    file_pattern,
    batch_size,
    column_names=None,
    column_defaults=None,
    label_name=None,
    select_columns=None,
    field_delim=",",
    use_quote_delim=True,
    na_value="",
    header=True,
    num_epochs=None,
    shuffle=True,
    shuffle_buffer_size=10000,
    shuffle_seed=None,
    prefetch_buffer_size=None,
    num_parallel_reads=None,
    sloppy=False,
    num_rows_for_inference=100,
    compression_type=None,
    ignore_errors=False,
):
    """Batches of ``(features, label)`` from CSV files (``features`` only without a label).

    Examples
    --------
    >>> import eagerkit as ek, pathlib, tempfile
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "heart.csv"
    >>> _ = path.write_text("age,chol,famhist,chd\\n52,2.5,Present,1\\n61,6.1,Absent,0\\n")
    >>> ds = ek.data.experimental.make_csv_dataset(
    ...     str(path), batch_size=2, label_name="chd", num_epochs=1, shuffle=False)
    >>> features, label = next(iter(ds))
    >>> {name: column.numpy().tolist() for name, column in features.items()}
    {'age': [52, 61], 'chol': [2.5, 6.099999904632568], 'famhist': [b'Present', b'Absent']}
    >>> label
    <ek.Tensor: shape=(2,), dtype=int32, numpy=array([1, 0], dtype=int32)>
    """
    # Sizes first, before a file is read: 2.5 is refused, and so is a batch too big to hold.
    batch_size = positive(batch_size, "batch_size", _OP)
    shuffle_buffer_size = positive(shuffle_buffer_size, "shuffle_buffer_size", _OP)
    num_rows_for_inference = size(num_rows_for_inference, "num_rows_for_inference", _OP)
    if column_names is not None:
        column_names = csv_arguments.names(column_names, "column_names")
    if select_columns is not None:
        select_columns = csv_arguments.names(select_columns, "select_columns")
    names = _files(file_pattern)
    compression = (compression_type or "").upper()
    read = _rows(names, field_delim, use_quote_delim, False, compression)
    first = next(read, None)
    read.close()
    if header:
        if first is None:
            raise InvalidArgumentError(f"{_OP}: {names[0]!r} is empty: no header row", op=_OP)
        column_names = list(column_names or first)
    elif column_names is None:
        raise InvalidArgumentError(
            f"{_OP}: header=False needs column_names; pass the names of the columns, e.g. "
            "column_names=['age', 'chd']",
            op=_OP,
        )
    if label_name is not None:
        csv_arguments.among(label_name, "label_name", column_names)
    for wanted in select_columns or []:
        csv_arguments.among(wanted, "select_columns' column", column_names)
    if column_defaults is not None:
        csv_arguments.defaults(column_defaults, column_names)

    def records():
        for row_number, row in enumerate(
            _rows(names, field_delim, use_quote_delim, header, compression), start=1
        ):
            if row:  # a blank line holds no record
                yield row_number, row

    def check_length(row_number, row):
        if len(row) != len(column_names):
            raise InvalidArgumentError(
                f"{_OP}: row {row_number} has {len(row)} fields but there are "
                f"{len(column_names)} columns {column_names}; fix the file, or pass "
                "ignore_errors=True to skip such rows",
                op=_OP,
            )

    sample = []
    for row_number, row in itertools.islice(records(), num_rows_for_inference):
        if ignore_errors and len(row) != len(column_names):
            continue
        check_length(row_number, row)
        sample.append(row)
    kinds = _kinds(column_names, column_defaults, sample, na_value)
    keep = [n for n in column_names if select_columns is None or n in select_columns]
    if label_name is not None and label_name not in keep:
        keep.append(label_name)

    def parse(row_number, row):
        check_length(row_number, row)
        element = OrderedDict()  # as TF gives it (its features print as an OrderedDict)
        for name, text, kind in zip(column_names, row, kinds, strict=True):
            if name in keep:
                where = f"row {row_number}, column {name!r}"
                value = csv_fields.parse_field(text, kind, where, na_value, _OP)
                element[name] = constant(np.asarray(value, dtype=kind[0].as_numpy_dtype))
        return element

    def make_iterator():
        for row_number, row in records():
            try:
                element = parse(row_number, row)
            except InvalidArgumentError as error:  # a bad row: raised when it comes out
                if ignore_errors:  # TF: skip it and move on to the next valid record
                    continue
                element = Failed(error)
            yield element

    if sample:  # a row tells how much a batch (and the shuffle buffer) would hold
        row = parse(1, sample[0])
        fits(batch_size, row, _OP, "batch_size")
        if shuffle:
            fits(shuffle_buffer_size, row, _OP, "shuffle_buffer_size")
    dataset = Dataset(make_iterator, f"make_csv_dataset({len(names)} file(s))")
    if shuffle:  # shuffle each epoch, then repeat: every row once per epoch, as in TF
        dataset = dataset.shuffle(shuffle_buffer_size, seed=shuffle_seed)
    dataset = dataset.repeat(num_epochs).batch(batch_size)
    if label_name is None:
        return dataset

    def split_label(features):
        label = features.pop(label_name)
        return features, label

    return dataset.map(split_label)
