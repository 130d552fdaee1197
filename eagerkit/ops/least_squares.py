"""Least squares: ``ek.linalg.pinv`` and ``ek.linalg.lstsq``, compositions of svd and solve.

Both are written as TF writes them (linalg_impl.py, linalg_ops.py), from primitives that
have gradients already, so they need no VJP of their own and differentiate to any order.
"""

import numpy as np

from eagerkit.arguments import describe
from eagerkit.errors import InvalidArgumentError
from eagerkit.ops.compare import where
from eagerkit.ops.creation import eye
from eagerkit.ops.decompositions import float_matrix, solve
from eagerkit.ops.linalg import matmul
from eagerkit.ops.reduce import reduce_max
from eagerkit.ops.shape import expand_dims
from eagerkit.ops.svd import svd


def pinv(a, rcond=None, validate_args=False, name=None):
    """The Moore-Penrose pseudo-inverse: ``v @ diag(1/s) @ u^T`` over the singular values
    above ``rcond * max(s)`` (smaller ones count as 0, as in TF and numpy).

    ``rcond`` defaults to TF's ``10 * max(m, n) * eps`` of the dtype.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.linalg.pinv([[1.0, 0.0], [0.0, 0.0]])  # singular: inv would refuse it
    <ek.Tensor: shape=(2, 2), dtype=float32, numpy=
    array([[1., 0.],
           [0., 0.]], dtype=float32)>
    """
    a = float_matrix(a, "a", "pinv")
    if rcond is None:
        rcond = 10.0 * max(a.shape[-2], a.shape[-1]) * float(np.finfo(a.dtype.as_numpy_dtype).eps)
    s, u, v = svd(a, full_matrices=False)
    cutoff = rcond * reduce_max(s, axis=-1, keepdims=True)
    # Dropped singular values become inf, so v / s is 0 there and so is its gradient (a
    # where around 1 / s would send 0 * inf = nan back).
    s = where(s > cutoff, s, np.inf)
    return matmul(v / expand_dims(s, -2), u, transpose_b=True)


def lstsq(matrix, rhs, l2_regularizer=0.0, fast=True, name=None):
    """X minimizing ``||matrix @ X - rhs||² + l2_regularizer ||X||²`` (rhs ``[..., m, k]``).

    ``fast=True`` solves TF's normal equations: ``(AᵀA + λI)⁻¹ AᵀB`` when m >= n, and the
    minimum-norm ``Aᵀ(AAᵀ + λI)⁻¹ B`` when m < n (A must have full rank). ``fast=False``
    gives the minimum-norm solution even for a rank-deficient A, as ``pinv(A) @ B``
    (l2_regularizer is then ignored, as in TF).

    Examples
    --------
    >>> import eagerkit as ek
    >>> A = [[1.0, 0.0], [1.0, 1.0], [1.0, 2.0]]  # fit y = c0 + c1 t at t = 0, 1, 2
    >>> ek.linalg.lstsq(A, [[1.0], [3.0], [5.0]]).numpy().round(4)
    array([[1.],
           [2.]], dtype=float32)
    """
    op = "lstsq"
    a = float_matrix(matrix, "matrix", op)
    b = float_matrix(rhs, "rhs", op)
    if b.shape[-2] != a.shape[-2] or b.dtype != a.dtype:
        raise InvalidArgumentError(
            f"{op}: rhs must be [..., {a.shape[-2]}, k] of {a.dtype.name} to match matrix "
            f"{describe(a)}, got {describe(b)}; a vector b becomes b[:, None]",
            op=op,
        )
    if not fast:
        return matmul(pinv(a), b)
    m, n = a.shape[-2], a.shape[-1]
    try:
        if m >= n:
            gram = matmul(a, a, transpose_a=True) + l2_regularizer * eye(n, dtype=a.dtype)
            return solve(gram, matmul(a, b, transpose_a=True))
        gram = matmul(a, a, transpose_b=True) + l2_regularizer * eye(m, dtype=a.dtype)
        return matmul(a, solve(gram, b), transpose_a=True)
    except InvalidArgumentError:  # the normal equations' matrix is singular
        raise InvalidArgumentError(
            f"{op}: matrix {describe(a)} does not have full rank, so the fast path's normal "
            "equations have no solution; pass fast=False for the minimum-norm solution, or an "
            "l2_regularizer > 0",
            op=op,
        ) from None
