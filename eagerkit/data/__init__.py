"""Input pipelines: ``Dataset`` (sources and transformations), ``Iterator``, text files.

>>> import eagerkit as ek
>>> [int(x) for x in ek.data.Dataset.range(5).skip(1).take(3)]
[1, 2, 3]
"""

from eagerkit.data import experimental
from eagerkit.data.cardinality import INFINITE_CARDINALITY, UNKNOWN_CARDINALITY
from eagerkit.data.checks import AUTOTUNE
from eagerkit.data.dataset import Dataset
from eagerkit.data.iterator import Iterator
from eagerkit.data.text import TextLineDataset

__all__ = [
    "AUTOTUNE",
    "Dataset",
    "INFINITE_CARDINALITY",
    "Iterator",
    "TextLineDataset",
    "UNKNOWN_CARDINALITY",
    "experimental",
]
