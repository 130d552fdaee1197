"""Reductions (sum, mean, max, ...) over axes, with TF's ``axis`` / ``keepdims`` arguments.

A reduction's gradient has the reduced shape; each VJP reshapes it to "keepdims" form so
it broadcasts back over the axes that were summed away.
"""

import numpy as np

from eagerkit.arguments import axis_index, normalize_axis, whole_number
from eagerkit.backends.sums import sum_over
from eagerkit.dtypes import COMPLEX, FLOATING, NUMERIC
from eagerkit.dtypes import bool as bool_
from eagerkit.errors import InvalidArgumentError
from eagerkit.registry import defop
from eagerkit.tensor import convert_to_tensor


def kept_shape(shape, axis):
    """The shape a reduction over ``axis`` (normalized: non-negative axes) has with
    keepdims=True."""
    kept = list(shape)
    for i in axis:  # a loop, not a generator: a third of the time (every reduction's VJP)
        kept[i] = 1
    return tuple(kept)


def _reduction(name, allowed, kernel, doc, differentiable=True):
    """Register a reduction primitive whose kernel is ``kernel(xp, x, axis, keepdims)``.

    Its public signature is TF's: ``reduce_sum(input_tensor, axis=None, keepdims=False)``.
    """

    def forward(xp, input_tensor, axis=None, keepdims=False):
        axes = normalize_axis(axis, input_tensor.ndim, name)
        return kernel(xp, input_tensor, axes, keepdims)

    forward.__name__ = forward.__qualname__ = name
    forward.__doc__ = doc
    return defop(name, dtypes=allowed, differentiable=differentiable)(forward)


def _reshape_to_kept(ops, g, x, axis, keepdims):
    if keepdims:
        return g
    kept = kept_shape(x.shape, normalize_axis(axis, len(x.shape)))
    if type(g) is np.ndarray or isinstance(g, np.generic):  # numpy (a 0-d result of a
        return g.reshape(kept)  # ufunc is a numpy scalar): the method ops.reshape ends in
    return ops.reshape(g, shape=kept)


reduce_sum = _reduction(
    "reduce_sum",
    NUMERIC + COMPLEX,
    # x.sum, or BLAS where numpy's sum is slow (backends/sums.py)
    lambda xp, x, axis, keepdims: sum_over(x, axis, keepdims),
    """Sum over ``axis`` (all axes when None).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.reduce_sum([[1.0, 2.0], [3.0, 4.0]], axis=0)
    <ek.Tensor: shape=(2,), dtype=float32, numpy=array([4., 6.], dtype=float32)>
    """,
)
reduce_sum.defvjp(
    lambda ops, g, ans, x, axis=None, keepdims=False: ops.broadcast_to(
        _reshape_to_kept(ops, g, x, axis, keepdims), shape=tuple(x.shape)
    )
)


def _mean(xp, x, axis, keepdims):
    if x.dtype.kind in "iu":  # TF keeps integer means integer: mean([1, 2]) == 1
        total = xp.sum(x, axis=axis, keepdims=keepdims, dtype=xp.int64)
        count = x.size // max(xp.size(total), 1)
        return xp.trunc(total / count).astype(x.dtype)
    count = 1
    for a in axis:
        count *= x.shape[a]
    if x.dtype.kind != "f" or x.dtype.itemsize < 4 or not 0 < count <= 2**24:
        # complex, float16 (summed in float32), empty (a warning), too many to count exactly
        return xp.mean(x, axis=axis, keepdims=keepdims)
    # xp.mean without numpy's Python wrapper (most of the time of a small mean). It divides
    # the sum in float64 and rounds back; dividing in x's dtype rounds to the same bits.
    # (numpy's own sum, not sum_over's: a mean keeps np.mean's bits.)
    return x.sum(axis=axis, keepdims=keepdims) / count


def _count(x, axis):
    axis = normalize_axis(axis, len(x.shape))
    count = 1
    for a in axis:
        count *= x.shape[a]
    return count


reduce_mean = _reduction(
    "reduce_mean",
    NUMERIC + COMPLEX,
    _mean,
    """Mean over ``axis``; integer tensors give an integer mean, as in TF.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.reduce_mean([1.0, 2.0]), ek.reduce_mean([1, 2])
    (<ek.Tensor: shape=(), dtype=float32, numpy=1.5>, <ek.Tensor: shape=(), dtype=int32, numpy=1>)
    """,
)
reduce_mean.defvjp(
    lambda ops, g, ans, x, axis=None, keepdims=False: ops.broadcast_to(
        _reshape_to_kept(ops, g, x, axis, keepdims) / _count(x, axis), shape=tuple(x.shape)
    )
)


def _extreme_vjp(ops, g, ans, x, axis=None, keepdims=False):
    # The gradient goes to the element(s) that won, split evenly between ties.
    g = _reshape_to_kept(ops, g, x, axis, keepdims)
    ans = _reshape_to_kept(ops, ans, x, axis, keepdims)
    winners = ops.cast(ops.equal(x, ans), dtype=x.dtype)
    return g * winners / ops.reduce_sum(winners, axis=axis, keepdims=True)


def _max(xp, x, axis, keepdims):
    if x.size:  # (no axis of size 0)
        return xp.max(x, axis=axis, keepdims=keepdims)
    return _over_nothing(xp, x, axis, keepdims, -np.inf, "min")


def _min(xp, x, axis, keepdims):
    if x.size:
        return xp.min(x, axis=axis, keepdims=keepdims)
    return _over_nothing(xp, x, axis, keepdims, np.inf, "max")


def _over_nothing(xp, x, axis, keepdims, infinity, end):
    """max or min of an empty tensor: TF's identity (-inf for max of floats, the lowest int
    for max of ints) where numpy raises (``x`` has no elements)."""
    shape = kept_shape(x.shape, axis)
    if not keepdims:
        shape = tuple(n for i, n in enumerate(x.shape) if i not in axis)
    kind = x.dtype.kind
    value = infinity if kind == "f" else getattr(np.iinfo(x.dtype), end) if kind in "iu" else 0
    return xp.full(shape, value, dtype=x.dtype)


reduce_max = _reduction(
    "reduce_max",
    NUMERIC,
    _max,
    "Maximum over ``axis``; the gradient goes to the largest element (shared by ties).",
)
reduce_max.defvjp(_extreme_vjp)

reduce_min = _reduction(
    "reduce_min",
    NUMERIC,
    _min,
    "Minimum over ``axis``; the gradient goes to the smallest element (shared by ties).",
)
reduce_min.defvjp(_extreme_vjp)

reduce_prod = _reduction(
    "reduce_prod",
    NUMERIC,
    lambda xp, x, axis, keepdims: xp.prod(x, axis=axis, keepdims=keepdims, dtype=x.dtype),
    "Product over ``axis``; its gradient is right at zeros too (TF's answer, not NaN).",
)


def _prod_vjp(ops, g, ans, x, axis=None, keepdims=False):
    # d prod / d x_i is the product of all the *other* entries. product / x_i would be 0/0
    # at a zero, so (as TF does) multiply the running products before and after each entry:
    # move the reduced axes to the end, flatten them into one, take both exclusive cumprods.
    axes = normalize_axis(axis, len(x.shape))
    kept = [i for i in range(len(x.shape)) if i not in axes]
    perm = tuple(kept + list(axes))
    lead = tuple(x.shape[i] for i in kept)
    flat = ops.reshape(ops.transpose(x, perm=perm), shape=lead + (-1,))
    before = ops.cumprod(flat, axis=len(lead), exclusive=True, reverse=False)
    after = ops.cumprod(flat, axis=len(lead), exclusive=True, reverse=True)
    others = ops.reshape(before * after, shape=tuple(x.shape[i] for i in perm))
    inverse = tuple(sorted(range(len(perm)), key=perm.__getitem__))
    return _reshape_to_kept(ops, g, x, axis, keepdims) * ops.transpose(others, perm=inverse)


reduce_prod.defvjp(_prod_vjp)

reduce_any = _reduction(
    "reduce_any",
    (bool_,),
    lambda xp, x, axis, keepdims: xp.any(x, axis=axis, keepdims=keepdims),
    "Logical or over ``axis`` of a bool tensor.",
    differentiable=False,
)
reduce_all = _reduction(
    "reduce_all",
    (bool_,),
    lambda xp, x, axis, keepdims: xp.all(x, axis=axis, keepdims=keepdims),
    "Logical and over ``axis`` of a bool tensor.",
    differentiable=False,
)


@defop("argmax", dtypes=NUMERIC, differentiable=False)
def _argmax(xp, x, *, axis, output_type="int64"):
    return xp.argmax(x, axis=axis).astype(output_type)


@defop("argmin", dtypes=NUMERIC, differentiable=False)
def _argmin(xp, x, *, axis, output_type="int64"):
    return xp.argmin(x, axis=axis).astype(output_type)


def _index_options(op, axis, output_type, ndim):
    """argmax/argmin's axis (0 when None, as in TF) and output dtype (int32 or int64)."""
    from eagerkit.dtypes import as_dtype

    output_type = as_dtype(output_type)
    if output_type.name not in ("int32", "int64"):
        raise InvalidArgumentError(
            f"{op}: output_type must be ek.int32 or ek.int64, got {output_type.name}", op=op
        )
    axis = 0 if axis is None else whole_number(axis, "axis", op)
    if ndim:  # in range, said with the rank (2**40 would reach numpy's C int)
        axis = axis_index(axis, ndim, op)
    return {"axis": axis, "output_type": output_type.name}


def argmax(input, axis=None, output_type="int64", name=None):  # noqa: A002 - TF's argument name
    """Index of the largest value along ``axis`` (int64 unless output_type=ek.int32).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.argmax([[1.0, 5.0], [7.0, 2.0]], axis=1)
    <ek.Tensor: shape=(2,), dtype=int64, numpy=array([1, 0])>
    >>> ek.argmax([1.0, 5.0], output_type=ek.int32)
    <ek.Tensor: shape=(), dtype=int32, numpy=1>
    """
    x = convert_to_tensor(input)
    return _argmax(x, **_index_options("argmax", axis, output_type, x.ndim))


def argmin(input, axis=None, output_type="int64", name=None):  # noqa: A002 - TF's argument name
    """Index of the smallest value along ``axis`` (int64 unless output_type=ek.int32)."""
    x = convert_to_tensor(input)
    return _argmin(x, **_index_options("argmin", axis, output_type, x.ndim))


def reference_reduce_logsumexp(input_tensor, axis=None, keepdims=False):
    """log(sum(exp(x))) over ``axis``, written with ops (the plain reference; TF's own way).

    ``reduce_logsumexp`` below computes the same values in one primitive, with one VJP
    (softmax) instead of nine recorded ops; tests/test_logsumexp.py proves the two equal.
    """
    from eagerkit.ops import compare, math, shape

    x = input_tensor
    # Subtracting the max keeps exp() in range; the max's own gradient cancels out exactly.
    top = shape.stop_gradient(reduce_max(x, axis=axis, keepdims=True))
    # An infinite (or nan) max is not subtracted (TF shifts by 0 there): x - inf would give
    # nan for log(sum(exp(inf))) = inf. x * 0 == 0 holds exactly for the finite x.
    top = compare.where(compare.equal(top * 0, 0), top, 0)
    total = math.log(reduce_sum(math.exp(x - top), axis=axis, keepdims=True)) + top
    return total if keepdims else shape.squeeze_axes(total, axis)


def _logsumexp(xp, x, axis, keepdims):
    # reference_reduce_logsumexp's steps on arrays, in its order, so the same bits come out.
    if x.size:
        top = _shift(xp, x, axis)
        top = xp.where(xp.isfinite(top), top, xp.zeros((), x.dtype))  # TF shifts by 0 there
    else:  # over no elements: the sum is 0 and the answer log(0) = -inf, as in TF
        top = xp.zeros(kept_shape(x.shape, axis), x.dtype)
    total = xp.log(sum_over(xp.exp(x - top), axis, keepdims=True)) + top
    if keepdims:
        return total
    return total.reshape(tuple(n for i, n in enumerate(x.shape) if i not in axis))


def _shift(xp, x, axis):
    """``x.max(axis=axis, keepdims=True)``, the max that logsumexp subtracts.

    numpy reduces a short contiguous axis one row at a time: the max over the last axis of
    logits (1437, 10) took 113 us in float32. With more rows than columns, the max down the
    columns of the transposed copy gives the same values in 17 us (as sparse softmax
    cross-entropy's table does). The only possible difference, on a tie of -0.0 and 0.0,
    is which of the two comes out, and as a shift they give the same bits: x - top and
    log(...) + top agree for both (tests/test_logsumexp.py compares the bits).
    """
    if type(x) is np.ndarray and x.ndim == 2 and axis == (1,) and x.shape[0] >= x.shape[1]:
        return xp.ascontiguousarray(x.T).max(axis=0).reshape(-1, 1)
    return x.max(axis=axis, keepdims=True)  # array methods: xp.max/xp.sum, unwrapped


reduce_logsumexp = _reduction(
    "reduce_logsumexp",
    FLOATING,
    _logsumexp,
    """log(sum(exp(x))) over ``axis``, computed without overflow.

    One primitive: the max is subtracted before exp() and added back after log() (as
    ``reference_reduce_logsumexp``, the same steps written with ops), and the gradient is
    softmax, ``g * exp(x - ans)``.

    Examples
    --------
    >>> import eagerkit as ek
    >>> round(float(ek.reduce_logsumexp([1000.0, 1000.0])), 3)
    1000.693
    >>> ek.reduce_logsumexp([float("inf"), 1.0])  # as TF: inf, not inf - inf = nan
    <ek.Tensor: shape=(), dtype=float32, numpy=inf>
    """,
)
reduce_logsumexp.defvjp(
    lambda ops, g, ans, x, axis=None, keepdims=False: (
        _reshape_to_kept(ops, g, x, axis, keepdims)
        * ops.exp(x - _reshape_to_kept(ops, ans, x, axis, keepdims))
    )
)
