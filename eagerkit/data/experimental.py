"""``ek.data.experimental``: TF's experimental input helpers (``make_csv_dataset``).

>>> import eagerkit as ek
>>> callable(ek.data.experimental.make_csv_dataset)
True
"""

from eagerkit.data.csv_dataset import make_csv_dataset

__all__ = ["make_csv_dataset"]
