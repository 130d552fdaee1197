"""Valid calls of ``ek.data`` (Dataset, its iterators, text and CSV files), ``ek.io`` and
``ek.datasets`` (MNIST read offline from files the call writes)."""

import dataclasses
import gzip
import hashlib
import os
import struct

import numpy as np

import eagerkit as ek

from . import calls_train, walk
from .declare import call, fresh, fresh_arguments
from .values import F32, P3

CLASSES = walk.public_callables()


def _text_file():
    path = os.path.join(calls_train._directory(), "lines.txt")
    with open(path, "w") as f:
        f.write("first line\nsecond line\n")
    return path


def _csv_file():
    path = os.path.join(calls_train._directory(), "rows.csv")
    with open(path, "w") as f:
        f.write("x,y,label\n1.0,2.0,0\n3.0,4.0,1\n5.0,6.0,0\n")
    return path


def _mnist_directory():
    """Four small idx files under MNIST's names; returns (directory, their checksums)."""
    directory = calls_train._directory()
    images = np.arange(2 * 28 * 28, dtype=np.uint8).reshape(2, 28, 28)
    files = {
        "train-images-idx3-ubyte.gz": struct.pack(">BBBBIII", 0, 0, 8, 3, 2, 28, 28)
        + images.tobytes(),
        "train-labels-idx1-ubyte.gz": struct.pack(">BBBBI", 0, 0, 8, 1, 2) + bytes([3, 1]),
        "t10k-images-idx3-ubyte.gz": struct.pack(">BBBBIII", 0, 0, 8, 3, 2, 28, 28)
        + images.tobytes(),
        "t10k-labels-idx1-ubyte.gz": struct.pack(">BBBBI", 0, 0, 8, 1, 2) + bytes([0, 7]),
    }
    checksums = {}
    for name, data in files.items():
        packed = gzip.compress(data, mtime=0)
        with open(os.path.join(directory, name), "wb") as f:
            f.write(packed)
        checksums[name] = hashlib.sha256(packed).hexdigest()
    return directory, checksums


def _mnist_arguments():
    """load_mnist's path, mirrors (never asked: the files are there), checksums, progress."""
    directory, checksums = _mnist_directory()
    return directory, ("https://mirror.invalid/",), checksums, False


def _dataset():
    return ek.data.Dataset.from_tensor_slices([1, 2, 3, 4, 5, 6])


def _pairs():
    yield 1, [0.5]
    yield 2, [1.5]


DATASET_METHODS = {
    "__iter__": call(),
    "__next__": call(raises=TypeError),  # a Dataset is not an iterator (as in TF)
    "__repr__": call(check=lambda r: r.startswith("<ek.data.Dataset")),
    "batch": call(4, check=lambda r: [b.numpy().tolist() for b in r] == [[1, 2, 3, 4], [5, 6]]),
    "cardinality": call(check=lambda r: r.dtype == ek.int64 and int(r) in (6, -2)),  # a file: -2
    "filter": call(lambda x: x > 3, check=lambda r: [int(x) for x in r] == [4, 5, 6]),
    "map": call(ek.square, check=lambda r: [int(x) for x in r] == [1, 4, 9, 16, 25, 36]),
    "prefetch": call(2),
    "repeat": call(2, check=lambda r: len(list(r)) == 12),
    "shuffle": call(6, seed=1, check=lambda r: sorted(int(x) for x in r) == [1, 2, 3, 4, 5, 6]),
    "skip": call(4, check=lambda r: [int(x) for x in r] == [5, 6]),
    "take": call(2, check=lambda r: [int(x) for x in r] == [1, 2]),
    "make_one_shot_iterator": call(),
    "from_tensor_slices": call(F32, check=lambda r: len(list(r)) == 3),
    "range": call(1, 7, 2, check=lambda r: [int(x) for x in r] == [1, 3, 5]),
    "from_generator": call(_pairs, (ek.int64, ek.float32), check=lambda r: len(list(r)) == 2),
    "from_tensors": call([1, 2], check=lambda r: [x.numpy().tolist() for x in r] == [[1, 2]]),
    "zip": call(fresh(_dataset), fresh(_dataset), check=lambda r: len(list(r)) == 6),
    "concatenate": call(fresh(_dataset), check=lambda r: len(list(r)) == 12),
    "enumerate": call(1, check=lambda r: [int(i) for i, _ in r] == [1, 2, 3, 4, 5, 6]),
    "unbatch": call(
        on=lambda: _dataset().batch(4), check=lambda r: [int(x) for x in r] == [1, 2, 3, 4, 5, 6]
    ),
    "padded_batch": call(4, check=lambda r: [b.numpy().tolist() for b in r][1] == [5, 6]),
    "flat_map": call(
        lambda x: ek.data.Dataset.from_tensors(x).repeat(2), check=lambda r: len(list(r)) == 12
    ),
    "cache": call(check=lambda r: [int(x) for x in r] == [1, 2, 3, 4, 5, 6]),
    "as_numpy_iterator": call(check=lambda r: list(r) == [1, 2, 3, 4, 5, 6]),
    "reduce": call(0, lambda count, _: count + 1, check=lambda r: int(r) in (6, 2)),  # a file: 2
    "get_single_element": call(on=lambda: _dataset().take(1), check=lambda r: int(r) == 1),
    "take_while": call(lambda x: x < 3, check=lambda r: [int(x) for x in r] == [1, 2]),
    "apply": call(lambda ds: ds.skip(4), check=lambda r: [int(x) for x in r] == [5, 6]),
    "__len__": call(check=lambda r: r == 6),
    "__bool__": call(check=lambda r: r is True),
    "window": call(
        4, 2, check=lambda r: [[int(x) for x in w] for w in r][1:] == [[3, 4, 5, 6], [5, 6]]
    ),
    "interleave": call(
        lambda x: ek.data.Dataset.from_tensors(x).repeat(2),
        2,
        check=lambda r: [int(x) for x in r][:4] == [1, 2, 1, 2],
    ),
    "counter": call(5, 2, check=lambda r: [int(x) for x in r.take(2)] == [5, 7]),
    "sample_from_datasets": call(
        [fresh(_dataset), fresh(_dataset)],
        seed=1,
        check=lambda r: sorted(int(x) for x in r) == sorted([1, 2, 3, 4, 5, 6] * 2),
    ),
    "choose_from_datasets": call(
        [fresh(_dataset), fresh(_dataset)],
        fresh(lambda: ek.data.Dataset.range(2)),
        check=lambda r: [int(x) for x in r] == [1, 1],
    ),
    "group_by_window": call(
        lambda x: ek.cast(x % 2, ek.int64),
        lambda key, window: window.batch(2),
        2,
        check=lambda r: [b.numpy().tolist() for b in r] == [[1, 3], [2, 4], [6], [5]],
    ),
    "bucket_by_sequence_length": call(
        lambda x: x,
        [3],
        [2, 3],
        check=lambda r: [b.numpy().tolist() for b in r] == [[1, 2], [3, 4, 5], [6]],
    ),
    "rebatch": call(
        [3, 1], on=lambda: _dataset().batch(4), check=lambda r: len([b for b in r]) == 3
    ),
    "random": call(seed=1, check=lambda r: len([int(x) for x in r.take(3)]) == 3),
    "scan": call(
        0, lambda total, x: (total + x, total + x), check=lambda r: [int(x) for x in r][-1] == 21
    ),
    "rejection_resample": call(
        lambda x: x % 2,
        [0.5, 0.5],
        seed=1,
        check=lambda r: all(int(c) == int(x) % 2 for c, x in r),
    ),
    "list_files": call(
        fresh(_text_file),
        check=lambda r: [os.path.basename(n.numpy()) for n in r] == [b"lines.txt"],
    ),
}
CALLS = {
    "ek.data.Dataset": call(lambda: iter([P3]), "one element"),
    "ek.data.TextLineDataset": call(
        fresh(_text_file), check=lambda r: [x.numpy() for x in r] == [b"first line", b"second line"]
    ),
    "ek.Iterator": call(fresh(_dataset)),
    "ek.Iterator.__iter__": call(),
    "ek.Iterator.__next__": call(check=lambda r: int(r) == 1),
    "ek.Iterator.next": call(check=lambda r: int(r) == 1),
    "ek.Iterator.get_next": call(check=lambda r: int(r) == 1),
    "ek.data.experimental.cardinality": call(
        fresh(lambda: _dataset().repeat()), check=lambda r: int(r) == -1
    ),
    "ek.data.experimental.group_by_window": call(
        lambda x: ek.cast(x % 2, ek.int64), lambda key, window: window.batch(3), 3
    ),
    "ek.data.experimental.Counter": call(
        5, 2, check=lambda r: [int(x) for x in r.take(2)] == [5, 7]
    ),
    "ek.data.experimental.bucket_by_sequence_length": call(lambda x: x, [3], [2, 3]),
    # (group_by_window's transformation runs the same code: declared once, here)
    "ek.data.experimental.bucket_by_sequence_length()": call(
        fresh(_dataset),
        on=lambda: ek.data.experimental.bucket_by_sequence_length(lambda x: x, [3], [2, 3]),
        check=lambda r: [b.numpy().tolist() for b in r] == [[1, 2], [3, 4, 5], [6]],
    ),
    "ek.data.experimental.CsvDataset": call(
        fresh(_csv_file),
        [0.0],
        header=True,
        select_cols=[0],
        check=lambda r: [float(x) for (x,) in r] == [1.0, 3.0, 5.0],
    ),
    "ek.data.experimental.make_csv_dataset": call(
        fresh(_csv_file), 2, label_name="label", shuffle=False, num_epochs=1
    ),
    "ek.read_file": call(
        fresh(_text_file), check=lambda r: r.numpy() == b"first line\nsecond line\n"
    ),
    "ek.decode_csv": call(
        ek.constant(["1,2.5", "3,4.5"]),
        [[0], [0.0]],
        check=lambda r: r[1].numpy().tolist() == [2.5, 4.5],
    ),
    "ek.datasets.birth_life_data": call(n_samples=10),
    "ek.datasets.load_digits": call(),
    "ek.datasets.load_mnist": call(
        fresh_arguments(_mnist_arguments), check=lambda r: r[1][1].tolist() == [0, 7]
    ),
    # Offline (the walk cuts the network) it says what to do; the downloads are tested offline
    # in test_keras_datasets.py, through a fake URL opener.
    "ek.keras.datasets.mnist.load_data": call(
        fresh(lambda: os.path.join(calls_train._directory(), "mnist.npz")),
        raises=ek.errors.UnavailableError,
    ),
    "ek.datasets.read_idx": call(
        fresh(lambda: os.path.join(_mnist_directory()[0], "t10k-labels-idx1-ubyte.gz")),
        numpy=lambda path: np.array([0, 7], dtype=np.uint8),
    ),
}
for _entry in walk.methods("ek.data.Dataset", CLASSES["ek.data.Dataset"].target).values():
    _declared = DATASET_METHODS[_entry.attribute]
    CALLS[_entry.name] = dataclasses.replace(_declared, on=_declared.on or _dataset)
# A text file's lines, read through the same methods (answers checked above, on numbers).
_TEXT = CLASSES["ek.data.TextLineDataset"].target
_TEXT_METHODS = {  # where lines differ from numbers: a file's length is unknown (as in TF)
    "__len__": call(raises=TypeError),
    "unbatch": call(on=lambda: ek.data.TextLineDataset(_text_file()).batch(2)),
    "get_single_element": call(on=lambda: ek.data.TextLineDataset(_text_file()).take(1)),
    "take_while": call(lambda line: ek.strings.length(line) > 0),
    "window": call(2),
    "interleave": call(lambda line: ek.data.Dataset.from_tensors(line), 2),
    "group_by_window": call(
        lambda line: ek.cast(ek.strings.length(line), ek.int64), lambda key, w: w.batch(2), 2
    ),
    "bucket_by_sequence_length": call(lambda line: ek.strings.length(line), [11], [1, 1]),
    "rebatch": call(1, on=lambda: ek.data.TextLineDataset(_text_file()).batch(2)),
    "scan": call(0, lambda count, line: (count + 1, line)),
    "rejection_resample": call(lambda line: ek.strings.length(line) % 2, [0.5, 0.5], seed=1),
}
for _entry in walk.methods("ek.data.TextLineDataset", _TEXT).values():
    _declared = _TEXT_METHODS.get(_entry.attribute, DATASET_METHODS[_entry.attribute])
    CALLS[_entry.name] = dataclasses.replace(_declared, check=None)
# A CSV file's first column, read through the same methods (one-column records: 1-tuples,
# which Dataset functions receive unpacked, as numbers).
_CSV = CLASSES["ek.data.experimental.CsvDataset"].target


def _csv_records():
    return ek.data.experimental.CsvDataset(_csv_file(), [0.0], header=True, select_cols=[0])


_CSV_METHODS = {  # where records differ from numbers: a file's length is unknown (as in TF)
    "__len__": call(raises=TypeError),
    "unbatch": call(on=lambda: _csv_records().batch(2)),
    "get_single_element": call(on=lambda: _csv_records().take(1)),
    "rebatch": call(1, on=lambda: _csv_records().batch(2)),
    "window": call(2),
    "interleave": call(lambda x: ek.data.Dataset.from_tensors(x), 2),
    "group_by_window": call(lambda x: ek.cast(x, ek.int64) % 2, lambda key, w: w.batch(2), 2),
    "bucket_by_sequence_length": call(lambda x: ek.cast(x, ek.int32), [4], [1, 1]),
    "scan": call(0.0, lambda total, x: (total + x, total + x)),
    "rejection_resample": call(lambda x: ek.cast(x, ek.int32) % 2, [0.5, 0.5], seed=1),
}
for _entry in walk.methods("ek.data.experimental.CsvDataset", _CSV).values():
    _declared = _CSV_METHODS.get(_entry.attribute, DATASET_METHODS[_entry.attribute])
    CALLS[_entry.name] = dataclasses.replace(_declared, check=None)
