"""The singular value decomposition, ``ek.linalg.svd``: a = u @ diag(s) @ v^T.

A primitive has one output, and an SVD has three. So the primitive ``svd`` returns them
packed in one array of shape ``[..., m + n + 1, width]`` (rows ``0..m-1`` hold u, the next
``n`` rows v, the last row s, each padded with zeros to the widest of them) and the public
function slices the three out. The tape records one decomposition; a loss that uses only
``s`` sends zeros back for ``u`` and ``v``.

The VJP is the well-known one (Townsend 2016, "Differentiating the Singular Value
Decomposition"; Giles 2008 for ``full_matrices``), written as TF writes it and with the
``ops`` namespace only, so it is differentiable again. Where two singular values are
equal the terms coupling their vectors divide by ``s_i^2 - s_j^2 = 0``: like TF, eagerkit
drops those terms (a "safe" reciprocal that is 0 at 0), so the gradient stays finite;
PyTorch returns inf/NaN there instead. Gradients through ``s`` alone are exact everywhere.
"""

import numpy as np

from eagerkit.dtypes import FLOATING
from eagerkit.errors import InvalidArgumentError, UnimplementedError
from eagerkit.registry import TENSOR_OPS, defop
from eagerkit.tensor import convert_to_tensor


def _widths(m, n, full_matrices):
    """The numbers of columns of u and v."""
    k = min(m, n)
    return (m, n) if full_matrices else (k, k)


@defop("svd", dtypes=FLOATING)
def _svd(xp, x, *, full_matrices):
    if x.ndim < 2:
        raise InvalidArgumentError(
            f"svd: input must be a matrix (or a batch of them, shape [..., m, n]), got shape "
            f"{tuple(x.shape)}",
            op="svd",
        )
    m, n = x.shape[-2:]
    try:
        u, s, vh = xp.linalg.svd(x, full_matrices=full_matrices)
    except np.linalg.LinAlgError as error:  # cupy raises numpy's too
        raise InvalidArgumentError(
            f"svd: the decomposition failed ({error}); input shape {tuple(x.shape)}: look for "
            "NaN or Inf in it",
            op="svd",
        ) from None
    u_width, v_width = _widths(m, n, full_matrices)
    packed = xp.zeros(x.shape[:-2] + (m + n + 1, max(u_width, v_width, 1)), dtype=x.dtype)
    packed[..., :m, :u_width] = u
    packed[..., m : m + n, :v_width] = xp.swapaxes(vh, -1, -2)  # v, as TF returns it
    packed[..., m + n, : min(m, n)] = s
    return packed


def _unpack(ops, packed, m, n, full_matrices):
    """``(s, u, v)`` sliced out of the packed array (with ``ops``: recorded if on Tensors)."""
    u_width, v_width = _widths(m, n, full_matrices)
    s = ops.getitem(packed, key=(Ellipsis, m + n, slice(0, min(m, n))))
    u = ops.getitem(packed, key=(Ellipsis, slice(0, m), slice(0, u_width)))
    v = ops.getitem(packed, key=(Ellipsis, slice(m, m + n), slice(0, v_width)))
    return s, u, v


def _t(ops, x):
    """The matrix transpose of every matrix in a batch."""
    rank = len(x.shape)
    return ops.transpose(x, perm=(*range(rank - 2), rank - 1, rank - 2))


def _safe_reciprocal(x):
    """1 / x, but 0 where x is 0 (TF's choice for repeated singular values)."""
    return x / (x * x + 1e-20)


def _svd_vjp(ops, g, ans, x, full_matrices):
    m, n = (int(size) for size in x.shape[-2:])
    s, u, v = _unpack(ops, ans, m, n, full_matrices)
    grad_s, grad_u, grad_v = _unpack(ops, g, m, n, full_matrices)
    transposed = m > n  # work on a^T = v diag(s) u^T, so that m <= n below
    if transposed:
        m, n, u, v, grad_u, grad_v = n, m, v, u, grad_v, grad_u
    if full_matrices and n - m > 1:
        raise UnimplementedError(
            f"svd: the gradient with full_matrices=True is defined only when the matrix is "
            f"square or nearly so (|m - n| <= 1, as in TF); got {x.shape[-2]}x{x.shape[-1]}. "
            "Use full_matrices=False: the extra columns are not unique.",
            op="svd",
        )
    batch = tuple(s.shape[:-1])
    s_row = ops.reshape(s, shape=batch + (1, m))  # x * s_row is x @ diag(s)
    s_column = ops.reshape(s, shape=batch + (m, 1))  # x * s_column is diag(s) @ x
    # f[i, j] = 1 / (s_j^2 - s_i^2), 0 on the diagonal and between equal singular values.
    # The diagonal is masked, not left to the safe reciprocal: its slope at 0 is 1e20, which
    # would swamp a second derivative.
    off_diagonal = 1.0 - ops.matrix_diag(0.0 * s + 1.0, num_rows=m, num_cols=m)
    f = off_diagonal * _safe_reciprocal(s_row * s_row - s_column * s_column)
    v1 = ops.getitem(v, key=(Ellipsis, slice(0, m)))
    grad_v1 = ops.getitem(grad_v, key=(Ellipsis, slice(0, m)))
    f_u = f * ops.matmul(u, grad_u, transpose_a=True)
    f_v = f * ops.matmul(v1, grad_v1, transpose_a=True)
    middle = (
        ops.matrix_diag(grad_s, num_rows=m, num_cols=m)
        + (f_u + _t(ops, f_u)) * s_row
        + (f_v + _t(ops, f_v)) * s_column
    )
    grad = ops.matmul(u, ops.matmul(middle, v1, transpose_b=True))
    if m < n:  # the part of grad_v outside the span of v1 (Townsend's extra term)
        grad_v1_t = _t(ops, grad_v1)
        outside = grad_v1_t - ops.matmul(ops.matmul(grad_v1_t, v1), v1, transpose_b=True)
        if full_matrices:
            v2 = ops.getitem(v, key=(Ellipsis, slice(m, n)))
            grad_v2 = ops.getitem(grad_v, key=(Ellipsis, slice(m, n)))
            outside = outside - ops.matmul(
                ops.matmul(v1, grad_v2, transpose_a=True), v2, transpose_b=True
            )
        grad = grad + ops.matmul(u * _safe_reciprocal(s_row), outside)
    return _t(ops, grad) if transposed else grad


_svd.defvjp(_svd_vjp)


def svd(tensor, full_matrices=False, compute_uv=True, name=None):
    """Singular values ``s`` (descending) and vectors ``u``, ``v``, as ``tf.linalg.svd``.

    ``a = u @ diag(s) @ v^T`` (note: ``v``, not numpy's ``vh``). For ``a`` of shape
    ``[..., m, n]`` and ``k = min(m, n)``: ``s`` is ``[..., k]``; ``u`` is ``[..., m, k]``
    and ``v`` ``[..., n, k]``, or ``[..., m, m]`` and ``[..., n, n]`` with
    ``full_matrices=True``. With ``compute_uv=False`` only ``s`` is returned. Differentiable
    to any order (see the module docstring for repeated singular values).

    Examples
    --------
    >>> import eagerkit as ek
    >>> s, u, v = ek.linalg.svd([[3.0, 0.0], [0.0, -2.0]])
    >>> s
    <ek.Tensor: shape=(2,), dtype=float32, numpy=array([3., 2.], dtype=float32)>
    >>> ek.linalg.svd([[1.0, 1.0], [1.0, 1.0]], compute_uv=False).numpy().round(4)
    array([2., 0.], dtype=float32)
    """
    x = convert_to_tensor(tensor)
    packed = _svd(x, full_matrices=bool(full_matrices))
    m, n = (int(size) for size in x.shape[-2:])
    s, u, v = _unpack(TENSOR_OPS, packed, m, n, bool(full_matrices))
    return (s, u, v) if compute_uv else s
