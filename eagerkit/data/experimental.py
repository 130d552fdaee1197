"""``ek.data.experimental``: TF's experimental input helpers (``make_csv_dataset``, ``CsvDataset``,
``cardinality``, ``group_by_window``, ``bucket_by_sequence_length``, ``AUTOTUNE``).

>>> import eagerkit as ek
>>> callable(ek.data.experimental.make_csv_dataset)
True
"""

from eagerkit.data.cardinality import INFINITE_CARDINALITY, UNKNOWN_CARDINALITY, cardinality
from eagerkit.data.checks import AUTOTUNE
from eagerkit.data.csv_dataset import make_csv_dataset
from eagerkit.data.csv_records import CsvDataset
from eagerkit.data.grouping import bucket_by_sequence_length, group_by_window

__all__ = [
    "AUTOTUNE",
    "CsvDataset",
    "INFINITE_CARDINALITY",
    "UNKNOWN_CARDINALITY",
    "bucket_by_sequence_length",
    "cardinality",
    "group_by_window",
    "make_csv_dataset",
]
