"""The QR decomposition, ``ek.linalg.qr``: a = q @ r, q orthonormal, r upper triangular.

Packed like the SVD (ops/svd.py): one array ``[..., m + k, width]`` holds q in rows
``0..m-1`` and r in the next ``k`` rows (``k`` = r's number of rows), each padded with
zeros to the wider of the two.

The VJP is TF's (linalg_grad.py, QrGrad; Walter & Lehmann 2018), written with ``ops`` so it
can be differentiated again. As in TF it needs ``full_matrices=False`` when a has more rows
than columns (the extra columns of q are not unique), and a full-rank a (it divides by r's
diagonal).
"""

import numpy as np

from eagerkit.dtypes import FLOATING
from eagerkit.errors import InvalidArgumentError, UnimplementedError
from eagerkit.ops.decompositions import _transpose, float_matrix
from eagerkit.registry import TENSOR_OPS, defop


def _sizes(m, n, full_matrices):
    """``(q_columns, r_rows)``: k = min(m, n) each, or m each with full_matrices."""
    k = m if full_matrices else min(m, n)
    return k, k


@defop("qr", dtypes=FLOATING)
def _qr(xp, x, *, full_matrices):
    if x.ndim < 2:
        raise InvalidArgumentError(
            f"qr: input must be a matrix (or a batch of them, shape [..., m, n]), got shape "
            f"{tuple(x.shape)}",
            op="qr",
        )
    m, n = x.shape[-2:]
    try:
        q, r = xp.linalg.qr(x, mode="complete" if full_matrices else "reduced")
    except np.linalg.LinAlgError as error:  # cupy raises numpy's too
        raise InvalidArgumentError(
            f"qr: the decomposition failed ({error}); input shape {tuple(x.shape)}: look for "
            "NaN or Inf in it",
            op="qr",
        ) from None
    columns, rows = _sizes(m, n, full_matrices)
    packed = xp.zeros(x.shape[:-2] + (m + rows, max(columns, n, 1)), dtype=x.dtype)
    packed[..., :m, :columns] = q
    packed[..., m:, :n] = r
    return packed


def _unpack(ops, packed, m, n, full_matrices):
    """``(q, r)`` sliced out of the packed array (with ``ops``: recorded if on Tensors)."""
    columns, _ = _sizes(m, n, full_matrices)
    q = ops.getitem(packed, key=(Ellipsis, slice(0, m), slice(0, columns)))
    r = ops.getitem(packed, key=(Ellipsis, slice(m, None), slice(0, n)))
    return q, r


def _times_inverse_transpose(ops, x, r):
    """``x @ r^-T`` for a square r, as one solve: (r^-1 x^T)^T."""
    return _transpose(ops, ops.matrix_solve(r, _transpose(ops, x), adjoint=False))


def _square_or_tall_vjp(ops, q, r, grad_q, grad_r):
    """TF's gradient for m >= n (r is square)."""
    q_grad_q = ops.matmul(q, grad_q, transpose_a=True)
    r_grad_r = ops.matmul(r, grad_r, transpose_b=True)
    skew = q_grad_q - _transpose(ops, q_grad_q) + r_grad_r - _transpose(ops, r_grad_r)
    lower = ops.band_part(skew, num_lower=-1, num_upper=0)
    from_r = ops.matmul(q, grad_r + _times_inverse_transpose(ops, lower, r))
    from_q = _times_inverse_transpose(ops, grad_q - ops.matmul(q, q_grad_q), r)
    return from_r + from_q


def _qr_vjp(ops, g, ans, x, full_matrices):
    m, n = (int(size) for size in x.shape[-2:])
    if full_matrices and m > n:
        raise UnimplementedError(
            f"qr: the gradient with full_matrices=True is not defined when the matrix has "
            f"more rows than columns ({m}x{n}), as in TF: the extra columns of q are not "
            "unique. Use full_matrices=False.",
            op="qr",
        )
    q, r = _unpack(ops, ans, m, n, full_matrices)
    grad_q, grad_r = _unpack(ops, g, m, n, full_matrices)
    if m >= n:
        return _square_or_tall_vjp(ops, q, r, grad_q, grad_r)
    # Wide: split a = [x | y] and r = [u | v] with u square; x = q u is the square case.
    y = ops.getitem(x, key=(Ellipsis, slice(m, None)))
    u = ops.getitem(r, key=(Ellipsis, slice(0, m)))
    grad_u = ops.getitem(grad_r, key=(Ellipsis, slice(0, m)))
    grad_v = ops.getitem(grad_r, key=(Ellipsis, slice(m, None)))
    grad_x = _square_or_tall_vjp(
        ops, q, u, grad_q + ops.matmul(y, grad_v, transpose_b=True), grad_u
    )
    return ops.concat(grad_x, ops.matmul(q, grad_v), axis=len(x.shape) - 1)


_qr.defvjp(_qr_vjp)


def qr(input, full_matrices=False, name=None):  # noqa: A002 - TF's argument name
    """``(q, r)`` with ``input = q @ r``: q's columns orthonormal, r upper triangular.

    For ``[..., m, n]`` and ``k = min(m, n)``: q is ``[..., m, k]`` and r ``[..., k, n]``,
    or ``[..., m, m]`` and ``[..., m, n]`` with ``full_matrices=True``. Signs follow LAPACK
    (r's diagonal may be negative), as in TF and numpy.

    Examples
    --------
    >>> import eagerkit as ek
    >>> q, r = ek.linalg.qr([[3.0, 1.0], [4.0, 2.0]])
    >>> (abs(r.numpy())).round(4)
    array([[5. , 2.2],
           [0. , 0.4]], dtype=float32)
    >>> bool(ek.reduce_max(ek.abs(q @ r - [[3.0, 1.0], [4.0, 2.0]])) < 1e-5)
    True
    """
    x = float_matrix(input, "input", "qr")
    full_matrices = bool(full_matrices)
    packed = _qr(x, full_matrices=full_matrices)
    m, n = (int(size) for size in x.shape[-2:])
    return _unpack(TENSOR_OPS, packed, m, n, full_matrices)
