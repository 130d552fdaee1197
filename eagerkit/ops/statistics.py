"""How spread out and how big: reduce_variance, reduce_std and norm.

All three are compositions of reductions and elementwise ops (and, for the matrix 2-norm,
of svd), so they need no gradient code: the tape records the pieces. As in TF, the
Euclidean norm's gradient at the zero vector is NaN (x / |x| is 0 / 0 there).
"""

import math

from eagerkit.arguments import axis_index
from eagerkit.errors import InvalidArgumentError
from eagerkit.ops import math as math_ops
from eagerkit.ops import reduce
from eagerkit.ops.shape import reshape, transpose
from eagerkit.ops.svd import svd
from eagerkit.tensor import convert_to_tensor


def _floating(x, op):
    x = convert_to_tensor(x)
    if not x.dtype.is_floating:
        raise InvalidArgumentError(
            f"{op}: input must be a float tensor, got {x.dtype.name} (shape {x.shape}); cast it "
            "first, e.g. ek.cast(x, ek.float32)",
            op=op,
        )
    return x


def reduce_variance(input_tensor, axis=None, keepdims=False, name=None):
    """The mean squared distance from the mean over ``axis`` (all axes when None).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.reduce_variance([[1.0, 2.0], [3.0, 4.0]])
    <ek.Tensor: shape=(), dtype=float32, numpy=1.25>
    """
    x = _floating(input_tensor, "reduce_variance")
    centred = x - reduce.reduce_mean(x, axis=axis, keepdims=True)
    return reduce.reduce_mean(centred * centred, axis=axis, keepdims=keepdims)


def reduce_std(input_tensor, axis=None, keepdims=False, name=None):
    """The standard deviation (square root of the variance) over ``axis``.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.reduce_std([1.0, 3.0])
    <ek.Tensor: shape=(), dtype=float32, numpy=1.0>
    """
    x = _floating(input_tensor, "reduce_std")
    return math_ops.sqrt(reduce_variance(x, axis=axis, keepdims=keepdims))


def _vector_norm(x, order, axis, keepdims):
    magnitude = math_ops.abs(x)
    if order == math.inf:
        return reduce.reduce_max(magnitude, axis=axis, keepdims=keepdims)
    if order == 1:
        return reduce.reduce_sum(magnitude, axis=axis, keepdims=keepdims)
    if order == 2:  # x * x, not abs(x)**2: its gradient is defined everywhere but at 0
        return math_ops.sqrt(reduce.reduce_sum(x * x, axis=axis, keepdims=keepdims))
    return reduce.reduce_sum(magnitude**order, axis=axis, keepdims=keepdims) ** (1.0 / order)


def _matrix_norm(x, order, axes, keepdims):
    rows, cols = axes
    if order in ("fro", "euclidean"):
        return math_ops.sqrt(reduce.reduce_sum(x * x, axis=list(axes), keepdims=keepdims))
    if order == 2 and x.shape[rows] and x.shape[cols]:
        return _spectral_norm(x, axes, keepdims)
    if order == 2:  # an empty matrix: every norm of it is 0, the Frobenius one included
        return _matrix_norm(x, "fro", axes, keepdims)
    if order not in (1, math.inf):
        raise InvalidArgumentError(
            f"norm: a matrix norm takes ord='fro', 'euclidean', 1, 2 or np.inf, got {order!r}",
            op="norm",
        )
    # ord=1: the largest column sum of |x|; ord=inf: the largest row sum.
    inner, outer = (rows, cols) if order == 1 else (cols, rows)
    sums = reduce.reduce_sum(math_ops.abs(x), axis=inner, keepdims=True)
    result = reduce.reduce_max(sums, axis=outer, keepdims=True)
    return result if keepdims else reduce.reduce_sum(result, axis=list(axes))


def _spectral_norm(x, axes, keepdims):
    """The largest singular value of the matrices on ``axes`` (ord=2), through ek.linalg.svd."""
    rest = [axis for axis in range(x.ndim) if axis not in axes]
    matrices = transpose(x, rest + list(axes))  # the two axes last, as svd wants them
    largest = svd(matrices, compute_uv=False)[..., 0]  # singular values come descending
    if not keepdims:
        return largest
    return reshape(largest, [1 if axis in axes else x.shape[axis] for axis in range(x.ndim)])


def norm(tensor, ord="euclidean", axis=None, keepdims=None, name=None):  # noqa: A002
    """Vector and matrix norms, as ``tf.norm``.

    ``axis=None`` treats the whole tensor as one vector; an int gives vector norms along
    it; a pair of axes gives matrix norms. ``ord`` is 'euclidean', 'fro', 1, 2, np.inf or
    any p > 0 for vectors, and 'fro', 'euclidean', 1, 2 (the largest singular value, see
    ek.linalg.svd) or np.inf for matrices.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.norm([3.0, 4.0])
    <ek.Tensor: shape=(), dtype=float32, numpy=5.0>
    >>> ek.norm([[1.0, -2.0], [3.0, 4.0]], ord=1, axis=[0, 1])  # largest column sum
    <ek.Tensor: shape=(), dtype=float32, numpy=6.0>
    >>> ek.norm([[3.0, 0.0], [0.0, -4.0]], ord=2, axis=[-2, -1])  # largest singular value
    <ek.Tensor: shape=(), dtype=float32, numpy=4.0>
    """
    x = _floating(tensor, "norm")
    keepdims = bool(keepdims)
    if isinstance(axis, (list, tuple)) and len(axis) == 2:
        axes = tuple(axis_index(a, x.ndim, "norm") for a in axis)
        if axes[0] == axes[1]:
            raise InvalidArgumentError(
                f"norm: a matrix norm needs two different axes, got {axis}", op="norm"
            )
        return _matrix_norm(x, ord, axes, keepdims)
    if isinstance(axis, (list, tuple)):
        if len(axis) != 1:
            raise InvalidArgumentError(
                f"norm: axis must be None, an int or a pair of ints, got {axis}", op="norm"
            )
        axis = axis[0]
    if axis is not None:
        axis = axis_index(axis, x.ndim, "norm")
    order = 2 if ord in ("euclidean", "fro") else ord
    if isinstance(order, bool) or not isinstance(order, (int, float)) or not order > 0:
        raise InvalidArgumentError(
            f"norm: ord must be 'euclidean', 'fro', np.inf or a number > 0, got {ord!r}",
            op="norm",
        )
    return _vector_norm(x, order, axis, keepdims)
