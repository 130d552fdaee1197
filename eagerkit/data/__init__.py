"""Input pipelines: ``Dataset`` (sources and transformations) and ``Iterator``.

>>> import eagerkit as ek
>>> [int(x) for x in ek.data.Dataset.range(5).skip(1).take(3)]
[1, 2, 3]
"""

from eagerkit.data.dataset import Dataset
from eagerkit.data.iterator import Iterator

__all__ = ["Dataset", "Iterator"]
