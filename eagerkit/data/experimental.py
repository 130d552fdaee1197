"""``ek.data.experimental``: TF's experimental input helpers (``make_csv_dataset``,
``cardinality``, ``AUTOTUNE``).

>>> import eagerkit as ek
>>> callable(ek.data.experimental.make_csv_dataset)
True
"""

from eagerkit.data.cardinality import INFINITE_CARDINALITY, UNKNOWN_CARDINALITY, cardinality
from eagerkit.data.checks import AUTOTUNE
from eagerkit.data.csv_dataset import make_csv_dataset

__all__ = [
    "AUTOTUNE",
    "INFINITE_CARDINALITY",
    "UNKNOWN_CARDINALITY",
    "cardinality",
    "make_csv_dataset",
]
