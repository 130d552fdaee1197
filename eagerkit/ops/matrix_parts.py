"""Parts of matrices: band_part, diag (vector to matrix), diag_part, trace.

All work on the last two axes and batch over the rest. Each is linear, and the gradient of
keeping a part of a matrix is keeping the same part of g: ``band_part`` is its own VJP, and
``matrix_diag`` / ``matrix_diag_part`` are each other's.
"""

from eagerkit.arguments import whole_number
from eagerkit.errors import InvalidArgumentError
from eagerkit.registry import defop
from eagerkit.tensor import convert_to_tensor


def _need_matrix(x, op):
    if x.ndim < 2:
        raise InvalidArgumentError(
            f"{op}: input must have rank >= 2 (a matrix or a batch of them), got shape {x.shape}",
            op=op,
        )


@defop("band_part")
def _band_part(xp, x, *, num_lower, num_upper):
    rows, cols = x.shape[-2:]
    below = xp.arange(rows)[:, None] - xp.arange(cols)[None, :]  # i - j
    keep = ((num_lower < 0) | (below <= num_lower)) & ((num_upper < 0) | (-below <= num_upper))
    return xp.where(keep, x, xp.zeros((), dtype=x.dtype))


_band_part.defvjp(
    lambda ops, g, ans, x, num_lower, num_upper: ops.band_part(
        g, num_lower=num_lower, num_upper=num_upper
    )
)


def band_part(input, num_lower, num_upper, name=None):  # noqa: A002 - TF's argument name
    """Keep ``num_lower`` diagonals below the main one and ``num_upper`` above (-1: all).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.matrix_band_part([[1, 2], [3, 4]], 0, -1)  # the upper triangle
    <ek.Tensor: shape=(2, 2), dtype=int32, numpy=
    array([[1, 2],
           [0, 4]], dtype=int32)>
    """
    x = convert_to_tensor(input)
    _need_matrix(x, "band_part")
    return _band_part(
        x,
        num_lower=whole_number(num_lower, "num_lower", "band_part"),
        num_upper=whole_number(num_upper, "num_upper", "band_part"),
    )


@defop("matrix_diag")
def _matrix_diag(xp, x, *, num_rows, num_cols):
    """A batch of num_rows x num_cols matrices with ``x`` on the main diagonal."""
    length = x.shape[-1]
    if num_cols > length:  # the diagonal is shorter than a row: pad x with zeros
        zeros = xp.zeros(tuple(x.shape[:-1]) + (num_cols - length,), dtype=x.dtype)
        x = xp.concatenate([x, zeros], axis=-1)
    return xp.eye(num_rows, num_cols, dtype=x.dtype) * x[..., None, :num_cols]


@defop("matrix_diag_part")
def _matrix_diag_part(xp, x):
    return xp.diagonal(x, axis1=-2, axis2=-1).copy()  # numpy's diagonal is a read-only view


_matrix_diag.defvjp(lambda ops, g, ans, x, num_rows, num_cols: ops.matrix_diag_part(g))
_matrix_diag_part.defvjp(
    lambda ops, g, ans, x: ops.matrix_diag(g, num_rows=x.shape[-2], num_cols=x.shape[-1])
)


def diag(diagonal, name=None):
    """Square matrices with ``diagonal`` (its last axis) on the main diagonal.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.matrix_diag([1.0, 2.0])
    <ek.Tensor: shape=(2, 2), dtype=float32, numpy=
    array([[1., 0.],
           [0., 2.]], dtype=float32)>
    """
    x = convert_to_tensor(diagonal)
    if x.ndim < 1:
        raise InvalidArgumentError(
            f"diag: diagonal must have rank >= 1, got a scalar {x.numpy()!r}; wrap it in a list",
            op="diag",
        )
    return _matrix_diag(x, num_rows=x.shape[-1], num_cols=x.shape[-1])


def diag_part(input, name=None):  # noqa: A002 - TF's argument name
    """The main diagonal of each matrix (the last two axes); works for non-square ones.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.matrix_diag_part([[1, 2, 3], [4, 5, 6]])
    <ek.Tensor: shape=(2,), dtype=int32, numpy=array([1, 5], dtype=int32)>
    """
    x = convert_to_tensor(input)
    _need_matrix(x, "diag_part")
    return _matrix_diag_part(x)


def trace(x, name=None):
    """The sum of each matrix's main diagonal.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.trace([[1.0, 2.0], [3.0, 4.0]])
    <ek.Tensor: shape=(), dtype=float32, numpy=5.0>
    """
    from eagerkit.ops.reduce import reduce_sum

    x = convert_to_tensor(x)
    _need_matrix(x, "trace")
    return reduce_sum(_matrix_diag_part(x), axis=-1)
