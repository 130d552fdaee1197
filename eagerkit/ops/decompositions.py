"""Linear algebra on square matrices: inv, det, slogdet, solve, cholesky (batched).

Each VJP is written with matmul, inv, solve and band_part, which are primitives with VJPs
themselves, so second derivatives work (a Hessian through a determinant, say). A singular
matrix, or one that is not positive definite for cholesky, raises a clear error instead of
returning numbers that mean nothing.
"""

import numpy as np

from eagerkit.dtypes import FLOATING
from eagerkit.errors import InvalidArgumentError
from eagerkit.registry import defop
from eagerkit.tensor import convert_to_tensor


def _check_square(x, op):
    if x.ndim < 2 or x.shape[-1] != x.shape[-2]:
        raise InvalidArgumentError(
            f"{op}: input must be a square matrix (or a batch of them, shape [..., n, n]), got "
            f"shape {tuple(x.shape)}",
            op=op,
        )


def float_matrix(value, what, op):
    """``value`` as a Tensor, refused unless it is a float matrix or a batch of them."""
    from eagerkit.arguments import describe

    x = convert_to_tensor(value)
    if x.ndim < 2 or not x.dtype.is_floating:
        raise InvalidArgumentError(
            f"{op}: {what} must be a float matrix (or a batch of them, shape [..., m, n]), got "
            f"{describe(x)}; e.g. ek.constant([[1.0, 2.0], [3.0, 4.0]])",
            op=op,
        )
    return x


def _linalg_kernel(xp, op, function, *args):
    """``function(*args)`` with numpy/cupy's LinAlgError turned into an eagerkit error."""
    try:
        return function(*args)
    except np.linalg.LinAlgError as error:  # cupy raises numpy's too
        hint = (
            "the matrix must be symmetric positive definite"
            if op == "cholesky"
            else "the matrix is singular (its determinant is 0), so it has no inverse"
        )
        raise InvalidArgumentError(
            f"{op}: {hint} ({error}); input shape {tuple(args[0].shape)}", op=op
        ) from None


def _transpose(ops, x):
    """Swap the last two axes (the matrix transpose of every matrix in a batch)."""
    perm = tuple(range(len(x.shape) - 2)) + (len(x.shape) - 1, len(x.shape) - 2)
    return ops.transpose(x, perm=perm)


@defop("matrix_inverse", dtypes=FLOATING)
def _inv(xp, x):
    _check_square(x, "inv")
    return _linalg_kernel(xp, "inv", xp.linalg.inv, x)


# d(A^-1) = -A^-1 dA A^-1, so the gradient is -A^-T g A^-T (ans is A^-1).
_inv.defvjp(
    lambda ops, g, ans, x: (
        -ops.matmul(
            ops.matmul(ans, g, transpose_a=True),
            ans,
            transpose_a=False,
            transpose_b=True,
        )
    )
)


@defop("matrix_determinant", dtypes=FLOATING)
def _det(xp, x):
    _check_square(x, "det")
    return xp.linalg.det(x)


# d det(A) / dA = det(A) A^-T (Jacobi's formula).
def _det_vjp(ops, g, ans, x):
    scale = ops.reshape(g * ans, shape=tuple(ans.shape) + (1, 1))
    return scale * _transpose(ops, ops.matrix_inverse(x))


_det.defvjp(_det_vjp)


@defop("log_abs_determinant", dtypes=FLOATING)
def _log_abs_det(xp, x):
    _check_square(x, "slogdet")
    return xp.linalg.slogdet(x)[1]  # log |det|, without det's overflow for large matrices


# d log|det A| / dA = A^-T, as TF's LogMatrixDeterminant gradient (singular A: inv refuses).
_log_abs_det.defvjp(
    lambda ops, g, ans, x: (
        ops.reshape(g, shape=tuple(g.shape) + (1, 1)) * _transpose(ops, ops.matrix_inverse(x))
    )
)


@defop("determinant_sign", dtypes=FLOATING, differentiable=False)
def _det_sign(xp, x):
    _check_square(x, "slogdet")
    return xp.linalg.slogdet(x)[0]


@defop("matrix_solve", dtypes=FLOATING)
def _solve(xp, matrix, rhs, *, adjoint):
    _check_square(matrix, "solve")
    if rhs.ndim < 2 or rhs.shape[-2] != matrix.shape[-1]:
        raise InvalidArgumentError(
            f"solve: rhs must have shape [..., {matrix.shape[-1]}, k] to match matrix of shape "
            f"{tuple(matrix.shape)}, got {tuple(rhs.shape)}; a vector b becomes b[:, None]",
            op="solve",
        )
    if adjoint:
        matrix = xp.swapaxes(matrix, -1, -2)
    return _linalg_kernel(xp, "solve", xp.linalg.solve, matrix, rhs)


# X = A^-1 B: the rhs gets A^-T g (one more solve); A gets -(A^-T g) X^T.
def _solve_vjp_matrix(ops, g, ans, matrix, rhs, adjoint):
    grad_rhs = ops.matrix_solve(matrix, g, adjoint=not adjoint)
    if adjoint:  # X = A^-T B: the same with A^T in place of A
        return -ops.matmul(ans, grad_rhs, transpose_b=True)
    return -ops.matmul(grad_rhs, ans, transpose_b=True)


_solve.defvjp(
    _solve_vjp_matrix,
    lambda ops, g, ans, matrix, rhs, adjoint: ops.matrix_solve(matrix, g, adjoint=not adjoint),
)


@defop("cholesky", dtypes=FLOATING)
def _cholesky(xp, x):
    _check_square(x, "cholesky")
    return _linalg_kernel(xp, "cholesky", xp.linalg.cholesky, x)


def _cholesky_vjp(ops, g, ans, x):
    # Murray (2016), as TF computes it: with A = L L^T,
    #   grad A = sym(L^-T Phi(L^T g) L^-1) / 2, where Phi keeps the lower triangle and
    #   halves the diagonal, and sym(M) = M + M^T.
    inverse = ops.matrix_inverse(ans)
    middle = ops.matmul(ans, g, transpose_a=True)
    middle = ops.band_part(middle, num_lower=-1, num_upper=0) - 0.5 * ops.band_part(
        middle, num_lower=0, num_upper=0
    )
    grad = ops.matmul(ops.matmul(inverse, middle, transpose_a=True), inverse)
    return 0.5 * (grad + _transpose(ops, grad))


_cholesky.defvjp(_cholesky_vjp)


def inv(input, adjoint=False, name=None):  # noqa: A002 - TF's argument name
    """The inverse of a square matrix (or of each one in a batch).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.matrix_inverse([[2.0, 0.0], [0.0, 4.0]])
    <ek.Tensor: shape=(2, 2), dtype=float32, numpy=
    array([[0.5 , 0.  ],
           [0.  , 0.25]], dtype=float32)>
    """
    x = convert_to_tensor(input)
    if adjoint:
        from eagerkit.ops.shape import transpose

        x = transpose(x, list(range(x.ndim - 2)) + [x.ndim - 1, x.ndim - 2])
    return _inv(x)


def det(input, name=None):  # noqa: A002 - TF's argument name
    """The determinant of a square matrix (or of each one in a batch).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.matrix_determinant([[1.0, 2.0], [3.0, 4.0]])
    <ek.Tensor: shape=(), dtype=float32, numpy=-2.0>
    """
    return _det(input)


def slogdet(input, name=None):  # noqa: A002 - TF's argument name
    """``(sign, log_abs_determinant)`` of a square matrix (or of each one in a batch).

    ``det = sign * exp(log_abs_determinant)``, but the log does not overflow where det
    would (a 500x500 matrix of 10s). A singular matrix gives sign 0 and log -inf. Only the
    log has a gradient: ``inv(input)^T``.

    Examples
    --------
    >>> import eagerkit as ek
    >>> sign, log_abs = ek.linalg.slogdet([[1.0, 2.0], [3.0, 4.0]])
    >>> float(sign), round(float(log_abs), 4)  # det = -2
    (-1.0, 0.6931)
    """
    x = float_matrix(input, "input", "slogdet")
    _check_square(x, "slogdet")  # here, so the message names slogdet, not its two kernels
    return _det_sign(x), _log_abs_det(x)


def solve(matrix, rhs, adjoint=False, name=None):
    """X with ``matrix @ X = rhs`` (``matrix^T @ X = rhs`` with adjoint=True).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.matrix_solve([[2.0, 0.0], [0.0, 4.0]], [[1.0], [2.0]])
    <ek.Tensor: shape=(2, 1), dtype=float32, numpy=
    array([[0.5],
           [0.5]], dtype=float32)>
    """
    return _solve(matrix, rhs, adjoint=bool(adjoint))


def cholesky(input, name=None):  # noqa: A002 - TF's argument name
    """The lower-triangular L with ``L @ L^T = input`` (input symmetric positive definite).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.cholesky([[4.0, 2.0], [2.0, 2.0]])
    <ek.Tensor: shape=(2, 2), dtype=float32, numpy=
    array([[2., 0.],
           [1., 1.]], dtype=float32)>
    """
    return _cholesky(input)
