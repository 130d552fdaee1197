"""``ek.linalg``: matrix products and matrix functions, laid out as ``tf.linalg``.

Examples
--------
>>> import eagerkit as ek
>>> ek.linalg.matmul([[1.0, 2.0]], [[3.0], [4.0]])
<ek.Tensor: shape=(1, 1), dtype=float32, numpy=array([[11.]], dtype=float32)>
"""

from eagerkit.errors import InvalidArgumentError
from eagerkit.ops.complex import conj, real
from eagerkit.ops.creation import eye
from eagerkit.ops.decompositions import cholesky, det, inv, slogdet, solve
from eagerkit.ops.eigh import eigh, eigvalsh
from eagerkit.ops.einsum import einsum
from eagerkit.ops.least_squares import lstsq, pinv
from eagerkit.ops.linalg import cross, matmul, tensordot
from eagerkit.ops.math import log
from eagerkit.ops.matrix_parts import band_part, diag, diag_part, trace
from eagerkit.ops.misc import global_norm
from eagerkit.ops.nn import l2_normalize
from eagerkit.ops.qr import qr
from eagerkit.ops.reduce import reduce_sum
from eagerkit.ops.shape import expand_dims, squeeze, transpose
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


def adjoint(matrix, name=None):
    """The conjugate transpose of each matrix: the last two axes swapped, complex values
    conjugated (a real matrix's adjoint is its transpose).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.linalg.adjoint([[1 + 2j, 3j], [4, 5 - 1j]]).numpy()
    array([[1.-2.j, 4.-0.j],
           [0.-3.j, 5.+1.j]])
    """
    x = convert_to_tensor(matrix)
    if x.ndim < 2:
        raise InvalidArgumentError(
            f"adjoint: matrix must be a matrix (rank >= 2), got shape {x.shape}; use "
            "ek.reshape first, or ek.math.conj for a vector",
            op="adjoint",
        )
    swapped = matrix_transpose(x)
    return conj(swapped) if x.dtype.is_complex else swapped


def logdet(matrix, name=None):
    """log(det(matrix)) of a symmetric (Hermitian) positive definite matrix, computed as TF
    does from its Cholesky factor: ``2 * sum(log(diag(cholesky(matrix))))``, which neither
    overflows nor underflows where ``det`` would.

    Examples
    --------
    >>> import eagerkit as ek
    >>> round(float(ek.linalg.logdet([[4.0, 2.0], [2.0, 3.0]])), 5)  # log(8)
    2.07944
    """
    x = convert_to_tensor(matrix)
    if x.ndim < 2 or x.shape[-1] != x.shape[-2] or not (x.dtype.is_floating or x.dtype.is_complex):
        raise InvalidArgumentError(
            f"logdet: matrix must be square float (or complex) matrices [..., n, n], got "
            f"{x.dtype.name}{list(x.shape)}",
            op="logdet",
        )
    diagonal = diag_part(cholesky(x))
    return 2.0 * reduce_sum(log(real(diagonal) if x.dtype.is_complex else diagonal), axis=-1)


def triangular_solve(matrix, rhs, lower=True, adjoint=False, name=None):
    """X with ``matrix @ X = rhs`` for a triangular ``matrix``: only its lower (or, with
    ``lower=False``, upper) triangle is read; ``adjoint=True`` solves with its adjoint.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.linalg.triangular_solve([[2.0, 9.0], [1.0, 4.0]], [[2.0], [9.0]]).numpy()
    array([[1.],
           [2.]], dtype=float32)
    """
    x = convert_to_tensor(matrix)
    if x.ndim < 2 or x.shape[-1] != x.shape[-2]:
        raise InvalidArgumentError(
            f"triangular_solve: matrix must be square matrices [..., n, n], got shape "
            f"{list(x.shape)}",
            op="triangular_solve",
        )
    triangle = band_part(x, -1, 0) if lower else band_part(x, 0, -1)  # the other one unread
    return solve(triangle, rhs, adjoint=bool(adjoint))


def matvec(
    a, b, transpose_a=False, adjoint_a=False, a_is_sparse=False, b_is_sparse=False, name=None
):
    """Matrix times vector: ``a @ b`` for a (batch of) matrix ``a`` and vector(s) ``b``.

    ``transpose_a``, ``adjoint_a`` and the sparse hints are ``ek.linalg.matmul``'s.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.linalg.matvec([[1.0, 2.0], [3.0, 4.0]], [1.0, 1.0])
    <ek.Tensor: shape=(2,), dtype=float32, numpy=array([3., 7.], dtype=float32)>
    """
    vector = convert_to_tensor(b)
    if vector.ndim < 1:
        raise InvalidArgumentError(
            f"matvec: b must be a vector (rank >= 1), got shape {vector.shape}; pass e.g. "
            "[1.0, 2.0]",
            op="matvec",
        )
    column = expand_dims(vector, -1)
    hints = {"a_is_sparse": a_is_sparse, "b_is_sparse": b_is_sparse}
    product = matmul(a, column, transpose_a=transpose_a, adjoint_a=adjoint_a, **hints)
    return squeeze(product, axis=-1)


__all__ = [
    "adjoint",
    "band_part",
    "cholesky",
    "cross",
    "det",
    "diag",
    "diag_part",
    "eigh",
    "eigvalsh",
    "einsum",
    "eye",
    "global_norm",
    "inv",
    "l2_normalize",
    "logdet",
    "lstsq",
    "matmul",
    "matrix_transpose",
    "matvec",
    "norm",
    "pinv",
    "qr",
    "slogdet",
    "solve",
    "svd",
    "tensordot",
    "trace",
    "triangular_solve",
]
