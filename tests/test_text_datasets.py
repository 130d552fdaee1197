"""TextLineDataset and make_csv_dataset, on files the tests write (nothing is fetched)."""

import gzip
import zlib

import numpy as np
import pytest

import eagerkit as ek
from eagerkit.errors import InvalidArgumentError, NotFoundError

HEART = (
    "sbp,tobacco,famhist,age,chd\n"
    "160,12.0,Present,52,1\n"
    "144,0.01,Absent,63,1\n"
    "118,0.08,Present,46,0\n"
    "170,7.5,Present,58,1\n"
    "134,13.6,Absent,49,0\n"
)


@pytest.fixture
def heart(tmp_path):
    path = tmp_path / "heart.csv"
    path.write_text(HEART)
    return path


def test_text_lines_in_file_order_without_line_endings(tmp_path):
    first, second = tmp_path / "a.txt", tmp_path / "b.txt"
    first.write_bytes(b"one\r\ntwo\n\nthree")  # Windows ending, an empty line, no final newline
    second.write_text("four\n")
    ds = ek.data.TextLineDataset([str(first), second])
    lines = [line for line in ds]
    assert [line.numpy() for line in lines] == [b"one", b"two", b"", b"three", b"four"]
    assert all(line.dtype == ek.string and line.shape == () for line in lines)
    assert isinstance(ds, ek.data.Dataset)
    assert [line.numpy() for line in ds] == [line.numpy() for line in lines]  # re-readable
    assert repr(ds) == "<ek.data.Dataset TextLineDataset(2 files)>"


def test_text_lines_through_a_pipeline(tmp_path):
    path = tmp_path / "numbers.txt"
    path.write_text("1.5\n2.5\n# comment\n4.0\n")
    ds = (
        ek.data.TextLineDataset(str(path))
        .map(lambda line: (line, ek.strings.regex_replace(line, "^#.*", "0")))
        .map(lambda line, cleaned: ek.strings.to_number(cleaned))
        .batch(2)
    )
    assert [batch.numpy().tolist() for batch in ds] == [[1.5, 2.5], [0.0, 4.0]]


def test_compressed_text_files(tmp_path):
    zipped, deflated = tmp_path / "a.gz", tmp_path / "a.z"
    with gzip.open(zipped, "wb") as file:
        file.write(b"x\ny\n")
    deflated.write_bytes(zlib.compress(b"p\nq\n"))
    read = ek.data.TextLineDataset(str(zipped), compression_type="GZIP")
    assert [x.numpy() for x in read] == [b"x", b"y"]
    read = ek.data.TextLineDataset(str(deflated), compression_type="ZLIB")
    assert [x.numpy() for x in read] == [b"p", b"q"]


def test_text_line_errors(tmp_path):
    with pytest.raises(NotFoundError, match="TextLineDataset: no such file: '.*missing.txt'"):
        ek.data.TextLineDataset(str(tmp_path / "missing.txt"))
    with pytest.raises(InvalidArgumentError, match="compression_type must be None, '', 'GZIP'"):
        ek.data.TextLineDataset(str(tmp_path), compression_type="BZ2")
    with pytest.raises(InvalidArgumentError, match="filenames is empty"):
        ek.data.TextLineDataset([])
    with pytest.raises(InvalidArgumentError, match="filenames must be a path or a list"):
        ek.data.TextLineDataset(42)


def test_csv_batches_of_features_and_labels(heart):
    ds = ek.data.experimental.make_csv_dataset(
        str(heart), batch_size=2, label_name="chd", num_epochs=1, shuffle=False
    )
    batches = list(ds)
    assert len(batches) == 3  # 5 rows: 2 + 2 + 1
    features, label = batches[0]
    assert list(features) == ["sbp", "tobacco", "famhist", "age"]
    assert features["sbp"].dtype == ek.int32 and features["sbp"].numpy().tolist() == [160, 144]
    assert features["tobacco"].dtype == ek.float32
    assert features["famhist"].numpy().tolist() == [b"Present", b"Absent"]
    assert label.numpy().tolist() == [1, 1]
    assert batches[2][1].shape == (1,)


def test_csv_repeats_forever_by_default_and_shuffles_repeatably(heart):
    ds = ek.data.experimental.make_csv_dataset(str(heart), batch_size=4, shuffle_seed=3)
    ages = [b["age"].numpy().tolist() for b in ds.take(5)]  # 20 rows from a file of 5
    assert ages[0] != [52, 63, 46, 58]  # not in file order
    again = ek.data.experimental.make_csv_dataset(str(heart), batch_size=4, shuffle_seed=3)
    assert [b["age"].numpy().tolist() for b in again.take(5)] == ages
    counts = {age: sum(batch.count(age) for batch in ages) for age in (52, 63, 46, 58, 49)}
    assert counts == {52: 4, 63: 4, 46: 4, 58: 4, 49: 4}


def test_csv_defaults_selection_and_missing_values(tmp_path):
    path = tmp_path / "data.csv"
    path.write_text("a;b;c\n1;x;2.5\n;y;NA\n3;;1.0\n")
    ds = ek.data.experimental.make_csv_dataset(
        str(path),
        batch_size=3,
        column_defaults=[-1, "?", 0.0],
        select_columns=["a", "c"],
        field_delim=";",
        na_value="NA",
        num_epochs=1,
        shuffle=False,
    )
    (features,) = list(ds)
    assert list(features) == ["a", "c"]
    assert features["a"].numpy().tolist() == [1, -1, 3]
    assert features["c"].numpy().tolist() == [2.5, 0.0, 1.0]


def test_csv_without_header_and_across_files(tmp_path):
    for i in range(2):
        (tmp_path / f"part{i}.csv").write_text(f"{i},{i * 10}\n{i},{i * 10 + 1}\n")
    ds = ek.data.experimental.make_csv_dataset(
        str(tmp_path / "part*.csv"),
        batch_size=10,
        column_names=["id", "value"],
        header=False,
        num_epochs=1,
        shuffle=False,
    )
    (features,) = list(ds)
    assert features["value"].numpy().tolist() == [0, 1, 10, 11]


def test_csv_errors_name_the_row_and_the_fix(tmp_path, heart):
    make = ek.data.experimental.make_csv_dataset
    with pytest.raises(NotFoundError, match="make_csv_dataset: no files match"):
        make(str(tmp_path / "none*.csv"), batch_size=2)
    with pytest.raises(
        InvalidArgumentError, match=r"label_name 'target' is not among the columns \[.*\]; pass one"
    ):
        make(str(heart), batch_size=2, label_name="target")
    ragged = tmp_path / "ragged.csv"
    ragged.write_text("a,b\n1,2\n3\n4,5\n")
    with pytest.raises(InvalidArgumentError, match="row 2 has 1 fields but there are 2 columns"):
        make(str(ragged), batch_size=5, num_epochs=1, shuffle=False)  # found while inferring
    kept = make(str(ragged), batch_size=5, num_epochs=1, shuffle=False, ignore_errors=True)
    assert next(iter(kept))["a"].numpy().tolist() == [1, 4]
    typed = tmp_path / "typed.csv"
    typed.write_text("n\n1\n2\nthree\n")
    ds = make(str(typed), batch_size=5, num_epochs=1, num_rows_for_inference=2, shuffle=False)
    with pytest.raises(InvalidArgumentError, match="row 3, column 'n': 'three' is not a int32"):
        list(ds)
    with pytest.raises(InvalidArgumentError, match="header=False needs column_names"):
        make(str(heart), batch_size=2, header=False)
    with pytest.raises(
        InvalidArgumentError, match="one default .* per column, got 2 entries for 5"
    ):
        make(str(heart), batch_size=2, column_defaults=[0, 0])
    required = tmp_path / "required.csv"
    required.write_text("a,b\n1,2\n\n,3\n")  # a blank line is skipped; then a is missing
    ds = make(str(required), batch_size=2, column_defaults=[ek.int32, 0], num_epochs=1)
    with pytest.raises(
        InvalidArgumentError, match="row 3, column 'a' is empty but the column is required"
    ):
        list(ds)


def test_tf1_csv_pipeline_with_decode_csv(heart):
    # CS20's 05_csv_reader, eagerly: lines, skip the header, one tensor per column.
    def parse(line):
        sbp, tobacco, famhist, age, chd = ek.io.decode_csv(line, [[0], [0.0], [""], [0], [0]])
        return {"sbp": sbp, "tobacco": tobacco, "famhist": famhist, "age": age}, chd

    ds = ek.data.TextLineDataset(str(heart)).skip(1).map(parse).batch(5)
    features, chd = next(iter(ds))
    assert features["famhist"].numpy().tolist() == [b"Present", b"Absent", b"Present"] + [
        b"Present",
        b"Absent",
    ]
    assert features["tobacco"].dtype == ek.float32 and chd.numpy().tolist() == [1, 1, 0, 1, 0]


def test_decode_csv_defaults_shapes_and_errors():
    a, b = ek.io.decode_csv(ek.constant([["1;", "2;x"]]), [[-1], ["?"]], field_delim=";")
    assert a.shape == (1, 2) and a.numpy().tolist() == [[1, 2]]
    assert b.numpy().tolist() == [[b"?", b"x"]]
    (only,) = ek.decode_csv(['"a,b",1'], [[""]], select_cols=[0])
    assert only.numpy().tolist() == [b"a,b"]  # a quoted field keeps its comma
    (value,) = ek.io.decode_csv("NA", [[0.5]], na_value="NA")
    assert value.numpy() == np.float32(0.5)
    with pytest.raises(
        InvalidArgumentError,
        match=r"record 1 of records string\[2\] has 1 fields but record_defaults has 2: '3'; "
        r"give record_defaults one entry per field \(e.g. \[\[0.0\]\] \* 1\)",
    ):
        ek.io.decode_csv(["1,2", "3"], [[0], [0]])
    with pytest.raises(InvalidArgumentError, match="record 0, column 0 .* is empty but the column"):
        ek.io.decode_csv([",1"], [ek.int32, [0]])
    with pytest.raises(
        InvalidArgumentError,
        match=r"record 0, column 1 \(typed by record_defaults\[1\]\): 'x' is not a float32",
    ):
        ek.io.decode_csv(["1,x"], [[0], []])
    for select_cols in ([1, 0], ["a", "b"], [-1, 0], 3, [0.0, 1.0]):  # '<' of str and int said
        with pytest.raises(InvalidArgumentError, match=r"select_cols must be increasing column"):
            ek.io.decode_csv(["1,2"], [[0], [0]], select_cols=select_cols)
    with pytest.raises(InvalidArgumentError, match="records must be a string tensor, got int32"):
        ek.io.decode_csv([1, 2], [[0]])


def test_read_file(tmp_path):
    path = tmp_path / "blob.bin"
    path.write_bytes(b"\x00ab\n\xff")
    assert ek.io.read_file(str(path)).numpy() == b"\x00ab\n\xff"
    with pytest.raises(NotFoundError, match="read_file: no such file"):
        ek.io.read_file(str(tmp_path / "nothing"))


def test_filter_keeps_lines_that_pass(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("# comment\nkeep me\n\n# another\nand me\n")
    ds = ek.data.TextLineDataset(str(path)).filter(
        lambda line: ek.logical_and(line != "", ek.strings.regex_replace(line, "^#.*", "") != "")
    )
    assert [line.numpy() for line in ds] == [b"keep me", b"and me"]
    pairs = ek.data.Dataset.from_tensor_slices(([1, 2, 3], [10, 20, 30]))
    assert [int(y) for _, y in pairs.filter(lambda x, y: x > 1)] == [20, 30]
    assert [int(x) for x in ek.data.Dataset.range(4).filter(lambda x: bool(x % 2))] == [1, 3]
    with pytest.raises(InvalidArgumentError, match="filter: the predicate must return a bool"):
        list(ek.data.Dataset.range(3).filter(lambda x: x))


@pytest.mark.parametrize(
    "arguments, message",
    [
        ({"file_pattern": 3}, r"file_pattern must be a path or glob pattern \(a str\).*, got 3"),
        (
            {"column_names": "abc"},
            r"column_names must be a list of column names \(str\), got 'abc'",
        ),
        ({"column_names": [1.5, 2]}, "column_names must be a list of column names"),
        ({"select_columns": [None]}, r"select_columns must be a list of column names"),
        ({"select_columns": ["nope"]}, r"select_columns' column 'nope' is not among the columns"),
        ({"label_name": 1.5}, r"label_name 1.5 is not among the columns \[.*\]; pass one"),
        (
            {"column_defaults": 0},
            r"column_defaults must be a list with one default \(or dtype\) per column, got 0 for 5",
        ),
        (
            {"column_defaults": range(5)},
            r"column_defaults must be a list with one default \(or dtype\) per column, got range",
        ),
    ],
    ids=lambda v: str(v)[:30],
)
def test_csv_arguments_are_named_with_the_fix_before_a_file_is_read(heart, arguments, message):
    given = {"file_pattern": str(heart), "batch_size": 2, **arguments}
    with pytest.raises(InvalidArgumentError, match=f"^make_csv_dataset: {message}"):
        ek.data.experimental.make_csv_dataset(**given)


def _first_column(name, dataset):
    """The column ``a`` of what ``name`` read, in file order."""
    if name == "CsvDataset":
        return [float(a) for a, _ in dataset]
    return sorted(float(a) for batch in dataset for a in batch["a"])  # make_csv shuffles


CSV_READERS = {
    "CsvDataset": lambda path, **kw: ek.data.experimental.CsvDataset(str(path), [0.0, 0.0], **kw),
    "make_csv_dataset": lambda path, **kw: ek.data.experimental.make_csv_dataset(
        str(path), batch_size=2, column_names=["a", "b"], header=False, num_epochs=1, **kw
    ),
}


@pytest.mark.parametrize("name", CSV_READERS)
def test_csv_that_is_not_utf8_text_says_which_line_and_the_fix(tmp_path, name):
    # The overfit tutorial reads HIGGS.csv.gz with compression_type="GZIP"; without it, the
    # gzip bytes once escaped as Python's codec error (and crashed make_csv_dataset).
    read = CSV_READERS[name]
    zipped = tmp_path / "rows.csv.gz"
    with gzip.open(zipped, "wt") as file:
        file.write("1.0,2.0\n3.0,4.0\n")
    with pytest.raises(
        InvalidArgumentError,
        match=rf"^{name}: line 1 of '.*rows\.csv\.gz' is not UTF-8 text \(invalid start byte "
        r"at byte 1\); it is a gzip file: pass compression_type='GZIP'$",
    ):
        list(read(zipped))
    latin = tmp_path / "latin.csv"
    latin.write_bytes("1.0,2.0\n3.0,caf\u00e9\n".encode("latin-1"))
    with pytest.raises(InvalidArgumentError, match=rf"^{name}: line 2 of .* save it as UTF-8"):
        list(read(latin))
    assert _first_column(name, read(zipped, compression_type="GZIP")) == [1.0, 3.0]
