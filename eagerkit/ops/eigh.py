"""Eigenvalues and eigenvectors of symmetric matrices: ``ek.linalg.eigh`` and ``eigvalsh``.

As for the SVD (ops/svd.py), the two results travel packed in one array, ``[..., n + 1, n]``:
rows ``0..n-1`` hold the eigenvectors (as columns, like TF's ``v``), the last row the
eigenvalues (ascending). Like TF and LAPACK, only the lower triangle of the input is read.

The VJP is TF's (linalg_grad.py, SelfAdjointEigV2): with ``f[i, j] = 1 / (e_j - e_i)``
off the diagonal,

    grad = v (diag(g_e) + f * (v^T g_v)) v^T,

then symmetrized and folded onto the lower triangle, since that is all the forward read.
Where two eigenvalues are equal their eigenvectors are not unique and ``f`` would divide by
0: like TF, eagerkit drops those terms (0 instead of inf), so gradients stay finite; through
the eigenvalues alone they are exact everywhere.
"""

import numpy as np

from eagerkit.dtypes import FLOATING
from eagerkit.errors import InvalidArgumentError
from eagerkit.ops.decompositions import _check_square, _transpose, float_matrix
from eagerkit.ops.svd import _safe_reciprocal
from eagerkit.registry import TENSOR_OPS, defop


@defop("eigh", dtypes=FLOATING)
def _eigh(xp, x):
    _check_square(x, "eigh")
    try:
        e, v = xp.linalg.eigh(x)  # UPLO="L": the lower triangle, as TF
    except np.linalg.LinAlgError as error:  # cupy raises numpy's too
        raise InvalidArgumentError(
            f"eigh: the decomposition did not converge ({error}); input shape "
            f"{tuple(x.shape)}: look for NaN or Inf in it",
            op="eigh",
        ) from None
    return xp.concatenate([v, e[..., None, :]], axis=-2)


def _unpack(ops, packed, n):
    """``(e, v)`` sliced out of the packed array (with ``ops``: recorded if on Tensors)."""
    e = ops.getitem(packed, key=(Ellipsis, n, slice(None)))
    v = ops.getitem(packed, key=(Ellipsis, slice(0, n), slice(None)))
    return e, v


def _eigh_vjp(ops, g, ans, x):
    n = int(x.shape[-1])
    e, v = _unpack(ops, ans, n)
    grad_e, grad_v = _unpack(ops, g, n)
    batch = tuple(e.shape[:-1])
    e_row = ops.reshape(e, shape=batch + (1, n))  # [i, j] holds e_j
    e_column = ops.reshape(e, shape=batch + (n, 1))  # [i, j] holds e_i
    # The diagonal is masked, not left to the safe reciprocal (its slope at 0 is huge).
    off_diagonal = 1.0 - ops.matrix_diag(0.0 * e + 1.0, num_rows=n, num_cols=n)
    f = off_diagonal * _safe_reciprocal(e_row - e_column)
    middle = ops.matrix_diag(grad_e, num_rows=n, num_cols=n) + f * ops.matmul(
        v, grad_v, transpose_a=True
    )
    grad = ops.matmul(v, ops.matmul(middle, v, transpose_b=True))
    # Only the lower triangle was read: fold the symmetric gradient onto it.
    lower = ops.band_part(grad + _transpose(ops, grad), num_lower=-1, num_upper=0)
    diagonal = ops.matrix_diag(ops.matrix_diag_part(lower), num_rows=n, num_cols=n)
    return lower - 0.5 * diagonal


_eigh.defvjp(_eigh_vjp)


def eigh(tensor, name=None):
    """Eigenvalues ``e`` (ascending) and eigenvectors ``v`` of a symmetric matrix, as TF.

    ``tensor @ v == v @ diag(e)``; only the lower triangle of ``tensor`` is read. For a
    batch ``[..., n, n]``, ``e`` is ``[..., n]`` and ``v`` ``[..., n, n]`` (one eigenvector
    per column). Each eigenvector's sign is arbitrary (LAPACK's choice, as in TF).

    Examples
    --------
    >>> import eagerkit as ek
    >>> e, v = ek.linalg.eigh([[2.0, 1.0], [1.0, 2.0]])
    >>> e
    <ek.Tensor: shape=(2,), dtype=float32, numpy=array([1., 3.], dtype=float32)>
    >>> (abs(v.numpy()) * 2**0.5).round(4)
    array([[1., 1.],
           [1., 1.]], dtype=float32)
    """
    x = float_matrix(tensor, "tensor", "eigh")
    return _unpack(TENSOR_OPS, _eigh(x), int(x.shape[-1]))


def eigvalsh(tensor, name=None):
    """The eigenvalues of a symmetric matrix, ascending (``eigh`` without the vectors).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.linalg.eigvalsh([[2.0, 0.0], [0.0, -1.0]])
    <ek.Tensor: shape=(2,), dtype=float32, numpy=array([-1.,  2.], dtype=float32)>
    """
    return eigh(tensor)[0]
