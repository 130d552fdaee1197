"""``CsvDataset``: the records of CSV files, one tuple of scalar tensors per row, as TF's.

Unlike ``make_csv_dataset`` nothing is inferred, batched or shuffled: ``record_defaults``
gives each column's dtype and default (``[0.0]`` or ``0.0``: float32 defaulting to 0.0;
``ek.int32`` or ``[]``: a required column), one entry per column read. ``select_cols`` or
``exclude_cols`` (indices, ascending) pick the columns. A row with the wrong number of
fields, or a field that does not parse, fails when it is read. TF's "overfit and underfit"
tutorial reads its gzipped HIGGS file this way.

Examples
--------
>>> import eagerkit as ek, pathlib, tempfile
>>> path = pathlib.Path(tempfile.mkdtemp()) / "points.csv"
>>> _ = path.write_text("1,0.5,a\\n0,,b\\n")
>>> ds = ek.data.experimental.CsvDataset(str(path), [ek.int32, [9.0]], select_cols=[0, 1])
>>> [(int(label), float(x)) for label, x in ds]
[(1, 0.5), (0, 9.0)]
"""

from eagerkit.arguments import describe, whole_number
from eagerkit.data import csv_fields
from eagerkit.data.csv_dataset import _rows
from eagerkit.data.dataset import Dataset
from eagerkit.data.steps import Failed
from eagerkit.data.text import _check_tuning, checked_compression, file_names
from eagerkit.errors import InvalidArgumentError
from eagerkit.graph.signature import TensorSpec

_OP = "CsvDataset"


class CsvDataset(Dataset):
    """Each row of the files as a tuple of scalar tensors, one per column read.

    Examples
    --------
    >>> import eagerkit as ek, gzip, pathlib, tempfile
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "rows.csv.gz"
    >>> with gzip.open(path, "wt") as f:
    ...     _ = f.write("x,y\\n1.5,2\\n")
    >>> ds = ek.data.experimental.CsvDataset(
    ...     str(path), [float(), 0], compression_type="GZIP", header=True)
    >>> ds.element_spec[1]
    TensorSpec(shape=(), dtype=ek.int32, name=None)
    >>> [(float(x), int(y)) for x, y in ds]
    [(1.5, 2)]
    """

    def __init__(
        self,
        filenames,
        record_defaults,
        compression_type=None,
        buffer_size=None,
        header=False,
        field_delim=",",
        use_quote_delim=True,
        na_value="",
        select_cols=None,
        exclude_cols=None,
    ):
        compression = checked_compression(compression_type, _OP)
        names = file_names(filenames, _OP)
        _check_tuning(buffer_size, None, _OP)
        kinds = _kinds(record_defaults)
        picked = _picked(select_cols, exclude_cols, len(kinds))
        fields = len(kinds) + len(exclude_cols or ())  # a row's fields, when all are counted

        if select_cols is None:
            expected = f"record_defaults and exclude_cols make {fields} columns"
        else:
            expected = f"select_cols reads column {max(picked(fields))}"

        def parse(row_number, row):
            too_short = len(row) <= max(picked(fields))
            if too_short or (select_cols is None and len(row) != fields):
                raise InvalidArgumentError(
                    f"{_OP}: row {row_number} has {len(row)} fields but {expected}; fix the "
                    "file, or give one record default per column read",
                    op=_OP,
                )
            texts = [row[i] for i in picked(len(row))]
            return tuple(
                _value(text, kind, f"row {row_number}, column {i}", na_value)
                for text, kind, i in zip(texts, kinds, picked(len(row)), strict=True)
            )

        def make_iterator():
            rows = _rows(names, field_delim, use_quote_delim, header, compression, _OP)
            for row_number, row in enumerate(rows, start=1):
                if not row:  # a blank line holds no record
                    continue
                try:
                    yield parse(row_number, row)
                except InvalidArgumentError as error:  # raised when the row comes out
                    yield Failed(error)

        shown = names[0] if len(names) == 1 else f"{len(names)} files"
        super().__init__(
            make_iterator,
            f"CsvDataset({shown!r}, {len(kinds)} columns)",
            spec=lambda: tuple(TensorSpec((), dtype) for dtype, _ in kinds),
        )


def _kinds(record_defaults):
    """One ``(dtype, default or None)`` per column read, from TF-style record_defaults."""
    if not isinstance(record_defaults, (list, tuple)) or not record_defaults:
        raise InvalidArgumentError(
            f"{_OP}: record_defaults must be a list with one entry per column read (a "
            f"default such as 0.0 or [0.0], or a dtype for a required column), got "
            f"{describe(record_defaults)}",
            op=_OP,
        )
    try:
        return csv_fields.kinds_from_defaults(record_defaults)
    except (TypeError, ValueError) as error:
        raise InvalidArgumentError(
            f"{_OP}: each record default must be a number, a string, a one-entry list of "
            f"one, or a dtype; got {describe(record_defaults)} ({error})",
            op=_OP,
        ) from None


def _picked(select_cols, exclude_cols, count):
    """``row_length -> indices of the columns read``, after checking the two ways to pick."""
    if select_cols is not None and exclude_cols is not None:
        raise InvalidArgumentError(f"{_OP}: give select_cols or exclude_cols, not both", op=_OP)
    given = select_cols if select_cols is not None else exclude_cols
    if given is None:
        return lambda length: range(length)
    what = "select_cols" if select_cols is not None else "exclude_cols"
    indices = [whole_number(i, f"each of {what}", _OP) for i in given]
    if any(i < 0 for i in indices) or indices != sorted(set(indices)):
        raise InvalidArgumentError(
            f"{_OP}: {what} must be column indices >= 0 in ascending order, without "
            f"repeats, got {list(given)}",
            op=_OP,
        )
    if select_cols is not None:
        if len(indices) != count:
            raise InvalidArgumentError(
                f"{_OP}: select_cols picks {len(indices)} columns but record_defaults gives "
                f"{count}; give one default per selected column",
                op=_OP,
            )
        return lambda length: indices
    dropped = set(indices)
    return lambda length: [i for i in range(length) if i not in dropped]


def _value(text, kind, where, na_value):
    from eagerkit.ops.creation import constant

    value = csv_fields.parse_field(text, kind, where, na_value, _OP)
    return constant(value, dtype=kind[0])


__all__ = ["CsvDataset"]
