"""``ek.ragged``: tensors whose rows have different lengths, as ``tf.ragged``.

``ek.ragged.constant`` builds a RaggedTensor from nested lists; ``ek.RaggedTensor`` has the
``from_*`` factories; ops given a RaggedTensor (``ek.add``, ``ek.reduce_mean``,
``ek.concat``, the string ops, ...) work on it as TF's do (ragged/dispatch.py lists them).

Examples
--------
>>> import eagerkit as ek
>>> digits = ek.ragged.constant([[3, 1, 4, 1], [], [5, 9, 2], [6], []])
>>> digits + 3
<ek.RaggedTensor [[6, 4, 7, 4], [], [8, 12, 5], [9], []]>
>>> digits.shape
TensorShape([5, None])
"""

from eagerkit.ragged import dispatch as _dispatch  # noqa: F401 - registers the ragged ops
from eagerkit.ragged import operators as _operators  # noqa: F401 - rt + 1, -rt, rt[i]
from eagerkit.ragged.construction import constant
from eagerkit.ragged.elementwise import map_flat_values
from eagerkit.ragged.ragged_tensor import RaggedTensor

__all__ = ["RaggedTensor", "constant", "map_flat_values"]
