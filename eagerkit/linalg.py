"""``ek.linalg``: matrix products and matrix functions, laid out as ``tf.linalg``.

Examples
--------
>>> import eagerkit as ek
>>> ek.linalg.matmul([[1.0, 2.0]], [[3.0], [4.0]])
<ek.Tensor: shape=(1, 1), dtype=float32, numpy=array([[11.]], dtype=float32)>
"""

from eagerkit.errors import InvalidArgumentError
from eagerkit.ops.creation import eye
from eagerkit.ops.decompositions import cholesky, det, inv, solve
from eagerkit.ops.einsum import einsum
from eagerkit.ops.linalg import matmul, tensordot
from eagerkit.ops.matrix_parts import band_part, diag, diag_part, trace
from eagerkit.ops.shape import transpose
from eagerkit.ops.statistics import norm
from eagerkit.ops.svd import svd
from eagerkit.tensor import convert_to_tensor


def matrix_transpose(a, name=None):
    """Swap the last two axes (a batch of matrices stays a batch).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.linalg.matrix_transpose(ek.zeros([5, 2, 3])).shape
    TensorShape([5, 3, 2])
    """
    x = convert_to_tensor(a)
    if x.ndim < 2:
        raise InvalidArgumentError(
            f"matrix_transpose: needs a matrix (rank >= 2), got shape {x.shape}; "
            "use ek.reshape first, or ek.transpose for vectors",
            op="matrix_transpose",
        )
    perm = [*range(x.ndim - 2), x.ndim - 1, x.ndim - 2]
    return transpose(x, perm)


__all__ = [
    "band_part",
    "cholesky",
    "det",
    "diag",
    "diag_part",
    "einsum",
    "eye",
    "inv",
    "matmul",
    "matrix_transpose",
    "norm",
    "solve",
    "svd",
    "tensordot",
    "trace",
]
