"""``ek.data.experimental``: TF's experimental input helpers (``make_csv_dataset``, ``CsvDataset``,
``cardinality``, ``group_by_window``, ``bucket_by_sequence_length``, ``AUTOTUNE``, and
``Counter``, TF's older name of ``Dataset.counter``).

>>> import eagerkit as ek
>>> callable(ek.data.experimental.make_csv_dataset)
True
"""

from eagerkit.data.cardinality import INFINITE_CARDINALITY, UNKNOWN_CARDINALITY, cardinality
from eagerkit.data.checks import AUTOTUNE
from eagerkit.data.csv_dataset import make_csv_dataset
from eagerkit.data.csv_records import CsvDataset
from eagerkit.data.dataset import Dataset
from eagerkit.data.grouping import bucket_by_sequence_length, group_by_window


def Counter(start=0, step=1, dtype="int64"):  # noqa: N802 - TF's name, from the tf.data guide
    """TF's older name of ``ek.data.Dataset.counter``: ``start``, ``start + step``, ...

    >>> import eagerkit as ek
    >>> [int(x) for x in ek.data.experimental.Counter().take(3)]
    [0, 1, 2]
    """
    return Dataset.counter(start, step, dtype)


__all__ = [
    "AUTOTUNE",
    "Counter",
    "CsvDataset",
    "INFINITE_CARDINALITY",
    "UNKNOWN_CARDINALITY",
    "bucket_by_sequence_length",
    "cardinality",
    "group_by_window",
    "make_csv_dataset",
]
