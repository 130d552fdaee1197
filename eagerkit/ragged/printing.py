"""How a RaggedTensor prints: TF's format, ``<ek.RaggedTensor [[3, 1], [], [4]]>``.

TF formats ``rt.numpy()`` (an object array of rows) with numpy, each row comma-separated;
doing the same here gives the same text, line breaks included.

Examples
--------
>>> import eagerkit as ek
>>> print(ek.ragged.constant([[1.5, 2.0], []]))
<ek.RaggedTensor [[1.5, 2.0], []]>
"""

import numpy as np


def text(rt):
    """The value part of ``rt``'s printed form."""
    with np.printoptions(formatter={"all": _formatted}):
        return _formatted(rt.numpy())


def _formatted(value):
    """An array with its elements separated by commas (an empty one as its nested lists)."""
    if isinstance(value, np.ndarray):
        if value.size:
            return np.array2string(value, separator=", ")
        return repr(value.tolist())  # array2string writes any empty array as []
    return str(value)
