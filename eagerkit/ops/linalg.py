"""Matrix multiplication (the one linear-algebra primitive) and tensordot built on it."""

from eagerkit import dtypes
from eagerkit.arguments import axis_index, size
from eagerkit.backends import host_pool
from eagerkit.dtypes import COMPLEX, NUMERIC
from eagerkit.errors import InvalidArgumentError
from eagerkit.ops.cast import cast
from eagerkit.ops.complex import conj
from eagerkit.registry import defop
from eagerkit.tensor import convert_to_tensor


@defop("matmul", dtypes=NUMERIC + COMPLEX)  # complex: the same VJP (backprop._conjugated)
def _matmul(xp, a, b, *, transpose_a=False, transpose_b=False):
    if a.ndim < 2 or b.ndim < 2:
        raise InvalidArgumentError(
            f"matmul: both inputs need rank >= 2, got shapes {tuple(a.shape)} and "
            f"{tuple(b.shape)}. For vectors use ek.tensordot(a, b, 1) or reshape to [1, n].",
            op="matmul",
        )
    if transpose_a:  # every matmul VJP transposes one side: views, never copies
        a = _swap_last_axes(xp, a)
    if transpose_b:
        b = _swap_last_axes(xp, b)
    if a.shape[-1] != b.shape[-2]:
        raise InvalidArgumentError(
            f"matmul: inner dimensions do not match: a is {tuple(a.shape)} and b is "
            f"{tuple(b.shape)} (after transposes), so a's last dimension ({a.shape[-1]}) "
            f"must equal b's second-to-last ({b.shape[-2]}). Transpose one of them "
            "(transpose_a=/transpose_b=) or fix the shapes.",
            op="matmul",
        )
    out = host_pool.matmul_output(a, b)  # a big host result: into a reused array
    return xp.matmul(a, b) if out is None else xp.matmul(a, b, out=out)


def _swap_last_axes(xp, m):
    """``m`` with its last two axes swapped: ``.T`` for a matrix (a tenth of swapaxes' cost)."""
    return m.T if m.ndim == 2 else xp.swapaxes(m, -1, -2)


# For C = op(A) @ op(B), the four transpose cases each have their own pair of products.
# Batch dimensions that were broadcast are summed away by the engine.
def _matmul_vjp_a(ops, g, ans, a, b, transpose_a=False, transpose_b=False):
    if transpose_a:
        return ops.matmul(b, g, transpose_a=transpose_b, transpose_b=True)
    return ops.matmul(g, b, transpose_b=not transpose_b)


def _matmul_vjp_b(ops, g, ans, a, b, transpose_a=False, transpose_b=False):
    if transpose_b:
        return ops.matmul(g, a, transpose_a=True, transpose_b=transpose_a)
    return ops.matmul(a, g, transpose_a=not transpose_a)


_matmul.defvjp(_matmul_vjp_a, _matmul_vjp_b)


def matmul(
    a,
    b,
    transpose_a=False,
    transpose_b=False,
    adjoint_a=False,
    adjoint_b=False,
    a_is_sparse=False,
    b_is_sparse=False,
    output_type=None,
    name=None,
):
    """Matrix product ``a @ b`` (batched over leading dimensions), optionally transposing.

    Parameters
    ----------
    a, b : tensor-like
        Rank >= 2; the last two axes are the matrices, the others are broadcast batches.
    transpose_a, transpose_b : bool
        Use the transpose of ``a`` (``b``).
    adjoint_a, adjoint_b : bool
        Use the adjoint, the conjugate transpose (for real inputs, the transpose). One of
        transpose and adjoint per side, as in TF.
    a_is_sparse, b_is_sparse : bool
        TF's hint that a matrix is mostly zeros (a faster kernel, the same values); as in
        TF, only for plain 2-D matrices.
    output_type : DType, optional
        The result's dtype: the inputs' (None), or int32 for int8/uint8 inputs (TF's only
        other case; the products are summed in int32, so they cannot overflow int8).

    Examples
    --------
    >>> import eagerkit as ek
    >>> print(ek.matmul([[2.0]], [[2.0]]))
    ek.Tensor([[4.]], shape=(1, 1), dtype=float32)
    >>> ek.linalg.matmul([[1.0, 2.0]], [[3.0, 4.0]], adjoint_b=True)
    <ek.Tensor: shape=(1, 1), dtype=float32, numpy=array([[11.]], dtype=float32)>
    """
    for side, transposed, adjoint in (("a", transpose_a, adjoint_a), ("b", transpose_b, adjoint_b)):
        if transposed and adjoint:
            raise InvalidArgumentError(
                f"matmul: only one of transpose_{side} and adjoint_{side} can be True (the "
                f"adjoint already transposes: pass adjoint_{side}=True alone)",
                op="matmul",
            )
    if adjoint_a or adjoint_b or a_is_sparse or b_is_sparse or output_type is not None:
        a, b = _as_plain_product(
            a, b, adjoint_a, adjoint_b, a_is_sparse or b_is_sparse, output_type
        )
        transpose_a, transpose_b = transpose_a or adjoint_a, transpose_b or adjoint_b
    if transpose_a or transpose_b:
        return _matmul(a, b, transpose_a=bool(transpose_a), transpose_b=bool(transpose_b))
    return _matmul(a, b)  # no flags recorded: the plain product takes the engine's fast paths


def _as_plain_product(a, b, adjoint_a, adjoint_b, sparse_hint, output_type):
    """``a`` and ``b`` ready for a (transposing) product: conjugated for an adjoint, cast
    for an int32 ``output_type``; TF's refusals of the hints and output types it lacks."""
    a, b = convert_to_tensor(a), convert_to_tensor(b)
    if sparse_hint and (a.ndim != 2 or b.ndim != 2):
        raise InvalidArgumentError(
            f"matmul: a_is_sparse/b_is_sparse are hints for plain 2-D matrices (TF's MatMul), "
            f"got shapes {tuple(a.shape)} and {tuple(b.shape)}; drop them for a batched product",
            op="matmul",
        )
    if adjoint_a and a.dtype.is_complex:  # the adjoint of a real matrix is its transpose
        a = conj(a)
    if adjoint_b and b.dtype.is_complex:
        b = conj(b)
    if output_type is None:
        return a, b
    output_type = dtypes.as_dtype(output_type)
    if output_type == a.dtype == b.dtype:
        return a, b
    small = (dtypes.int8, dtypes.uint8)
    if output_type == dtypes.int32 and a.dtype in small and b.dtype in small:
        return cast(a, dtypes.int32), cast(b, dtypes.int32)
    raise InvalidArgumentError(
        f"matmul: output_type={output_type.name} for {a.dtype.name} and {b.dtype.name} inputs; "
        "TF gives another dtype only as int32 for int8/uint8 inputs: cast the result instead, "
        f"ek.cast(ek.matmul(a, b), ek.{output_type.name})",
        op="matmul",
    )


def tensordot(a, b, axes, name=None):
    """Sum products over the last ``axes`` axes of a and the first of b (or given axis lists).

    Built from transpose, reshape and matmul, so it needs no gradient code of its own.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.tensordot([10, 20], [2, 3], 1)
    <ek.Tensor: shape=(), dtype=int32, numpy=80>
    """
    from eagerkit.ops.shape import reshape, transpose

    a, b = convert_to_tensor(a), convert_to_tensor(b)
    if not isinstance(axes, (list, tuple)):
        # A count of trailing/leading axes: TF refuses a negative one ("must be at least 0").
        count = size(axes, "axes", "tensordot")
        if count > min(a.ndim, b.ndim):
            raise InvalidArgumentError(
                f"tensordot: axes={count} is more than the ranks of a{a.shape} and b{b.shape} "
                f"allow; use at most {min(a.ndim, b.ndim)}",
                op="tensordot",
            )
        axes_a, axes_b = list(range(a.ndim - count, a.ndim)), list(range(count))
    else:
        if len(axes) != 2:
            raise InvalidArgumentError(
                f"tensordot: axes must be an int or a pair [axes_of_a, axes_of_b], got {axes!r}",
                op="tensordot",
            )
        axes_a, axes_b = (
            list(side) if isinstance(side, (list, tuple)) else [side] for side in axes
        )
    # Listed axes may count from the end (-1 is the last), as in TF; out of range is refused.
    axes_a = [axis_index(x, a.ndim, "tensordot", "axis of a") for x in axes_a]
    axes_b = [axis_index(x, b.ndim, "tensordot", "axis of b") for x in axes_b]
    if [a.shape[i] for i in axes_a] != [b.shape[i] for i in axes_b]:
        raise InvalidArgumentError(
            f"tensordot: contracted axes differ in size: a{a.shape} axes {axes_a} vs "
            f"b{b.shape} axes {axes_b}; pick axes of equal sizes (axes=[[i], [j]]), or "
            "transpose one input first",
            op="tensordot",
        )
    free_a = [i for i in range(a.ndim) if i not in axes_a]
    free_b = [i for i in range(b.ndim) if i not in axes_b]
    inner = 1
    for i in axes_a:
        inner *= a.shape[i]
    # Move the contracted axes together, flatten to matrices, multiply, unflatten.
    a2 = reshape(transpose(a, free_a + axes_a), (-1, inner))
    b2 = reshape(transpose(b, axes_b + free_b), (inner, -1))
    out_shape = [a.shape[i] for i in free_a] + [b.shape[i] for i in free_b]
    return reshape(matmul(a2, b2), out_shape)


def cross(a, b, name=None):
    """The cross product of 3-vectors along the last axis (``tf.linalg.cross``).

    ``a`` and ``b`` have one shape ``[..., 3]``. Built from slices, products and stack, so
    its gradient needs no code of its own.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.linalg.cross([1.0, 0.0, 0.0], [0.0, 1.0, 0.0])
    <ek.Tensor: shape=(3,), dtype=float32, numpy=array([0., 0., 1.], dtype=float32)>
    """
    from eagerkit.ops.shape import stack

    a = convert_to_tensor(a)
    b = convert_to_tensor(b, dtype=a.dtype)
    if tuple(a.shape) != tuple(b.shape) or a.ndim < 1 or a.shape[-1] != 3:
        raise InvalidArgumentError(
            f"cross: a and b must have one shape [..., 3] (3-vectors along the last axis), "
            f"got {a.shape} and {b.shape}; broadcast them first (ek.broadcast_to)",
            op="cross",
        )
    a1, a2, a3 = (a[..., i] for i in range(3))
    b1, b2, b3 = (b[..., i] for i in range(3))
    return stack([a2 * b3 - a3 * b2, a3 * b1 - a1 * b3, a1 * b2 - a2 * b1], axis=-1)
