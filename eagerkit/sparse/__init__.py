"""``ek.sparse``: tensors stored as their nonzero values and indices, as ``tf.sparse``.

Examples
--------
>>> import eagerkit as ek
>>> st = ek.sparse.from_dense([[1, 0, 0, 8], [0, 0, 0, 0], [0, 0, 3, 0]])
>>> st.indices.numpy().tolist(), st.values.numpy().tolist()
([[0, 0], [0, 3], [2, 2]], [1, 8, 3])
"""

from eagerkit.sparse.ops import (
    add,
    concat,
    from_dense,
    map_values,
    reduce_max,
    reduce_sum,
    reorder,
    slice,
    sparse_dense_matmul,
    to_dense,
    transpose,
)
from eagerkit.sparse.sparse_tensor import SparseTensor

__all__ = [
    "SparseTensor",
    "add",
    "concat",
    "from_dense",
    "map_values",
    "reduce_max",
    "reduce_sum",
    "reorder",
    "slice",
    "sparse_dense_matmul",
    "to_dense",
    "transpose",
]
