"""Max and average pooling (NHWC) as primitives whose gradients are primitives too.

Pooling reads windows the same way convolution does (``conv.windows``: a strided view,
no copy, no Python loop over pixels). The gradients write each window's share back:

- ``avg_pool`` is linear; its VJP ``avg_pool_grad`` spreads g evenly over each window, and
  the VJP of that is ``avg_pool`` again.
- ``max_pool`` routes g to the largest element of each window (the first one on ties, as
  TF does). ``max_pool_grad(x, g)`` does the routing; its VJP with respect to g is
  ``max_pool_gather(x, h)``, which reads h at those same positions, and vice versa. The
  positions themselves do not move when x moves a little, so x gets no gradient there.
"""

from eagerkit.dtypes import FLOATING
from eagerkit.errors import InvalidArgumentError
from eagerkit.ops.conv import (
    as_pair,
    from_one_pixel_high,
    one_pixel_high,
    one_size,
    padded,
    padding_name,
    pads,
    windows,
)
from eagerkit.registry import defop
from eagerkit.tensor import convert_to_tensor


def _layout(shape, ksize, strides, padding):
    """((top, bottom, out_h), (left, right, out_w)) for pooling an NHWC ``shape``."""
    rows = pads(shape[1], ksize[0], strides[0], padding)
    cols = pads(shape[2], ksize[1], strides[1], padding)
    return rows, cols


def _check(op, x, ksize, strides, padding):
    if x.ndim != 4:
        raise InvalidArgumentError(
            f"{op}: input must be NHWC (rank 4: batch, height, width, channels), got shape "
            f"{tuple(x.shape)}; reshape it first, e.g. ek.reshape(x, [-1, 28, 28, 1])",
            op=op,
        )
    rows, cols = _layout(x.shape, ksize, strides, padding)
    if rows[2] < 1 or cols[2] < 1:
        raise InvalidArgumentError(
            f"{op}: the window {ksize} does not fit in the {tuple(x.shape[1:3])} image with "
            "padding 'VALID'; use padding='SAME' or a smaller pool_size",
            op=op,
        )
    return rows, cols


def _spread(xp, part, shape, dtype, ksize, strides, rows, cols):
    """col2im: add ``part(i, j)``, the (N, OH, OW, C) share of window position (i, j) of
    every window, back into an NHWC image of ``shape``.

    The loop runs over the KH * KW positions inside a window (4 for a 2x2 pool); each step
    adds one strided slab covering every window at once.
    """
    n, height, width, channels = shape
    (sh, sw), (kh, kw) = strides, ksize
    total = xp.zeros((n, height + rows[0] + rows[1], width + cols[0] + cols[1], channels), dtype)
    for i in range(kh):
        for j in range(kw):
            share = part(i, j)
            out_h, out_w = share.shape[1], share.shape[2]
            total[:, i : i + sh * out_h : sh, j : j + sw * out_w : sw, :] += share
    return total[:, rows[0] : rows[0] + height, cols[0] : cols[0] + width, :]


def _max_windows(xp, x, ksize, strides, rows, cols):
    """The windows view of x, padded with the lowest float so padding never wins."""
    low = xp.finfo(x.dtype).min
    return windows(xp, padded(xp, x, rows[:2], cols[:2], low), ksize, strides)


def _first_max_index(xp, view):
    """For each window of ``view`` (N, OH, OW, C, KH, KW): the position ``i * KW + j`` of its
    first largest element. One pass per window position, over all windows at once."""
    kw = view.shape[5]
    best = view[..., 0, 0]
    index = xp.zeros(best.shape, dtype=xp.int32)
    for k in range(1, view.shape[4] * kw):
        candidate = view[..., k // kw, k % kw]
        better = candidate > best  # strictly: on ties the earlier position keeps it, as in TF
        best = xp.where(better, candidate, best)
        index = xp.where(better, k, index)
    return index


@defop("max_pool", dtypes=FLOATING)
def _max_pool(xp, x, *, ksize, strides, padding):
    rows, cols = _check("max_pool", x, ksize, strides, padding)
    return _max_windows(xp, x, ksize, strides, rows, cols).max(axis=(4, 5))


@defop("max_pool_grad", dtypes=FLOATING)
def _max_pool_grad(xp, x, g, *, ksize, strides, padding):
    """g routed to the winner of each window (the gradient of max_pool)."""
    rows, cols = _layout(x.shape, ksize, strides, padding)
    index = _first_max_index(xp, _max_windows(xp, x, ksize, strides, rows, cols))
    kw, zero = ksize[1], g.dtype.type(0)

    def share(i, j):  # g where (i, j) won the window, else 0
        return xp.where(index == i * kw + j, g, zero)

    return _spread(xp, share, x.shape, g.dtype, ksize, strides, rows, cols)


@defop("max_pool_gather", dtypes=FLOATING)
def _max_pool_gather(xp, x, h, *, ksize, strides, padding):
    """h read at the winner of each window of x (the adjoint of max_pool_grad in g)."""
    rows, cols = _layout(x.shape, ksize, strides, padding)
    index = _first_max_index(xp, _max_windows(xp, x, ksize, strides, rows, cols))
    view = windows(xp, padded(xp, h, rows[:2], cols[:2]), ksize, strides)
    kh, kw = ksize
    picked = xp.zeros(index.shape, dtype=h.dtype)
    for k in range(kh * kw):
        picked += xp.where(index == k, view[..., k // kw, k % kw], h.dtype.type(0))
    return picked


_max_pool.defvjp(lambda ops, g, ans, x, **p: ops.max_pool_grad(x, g, **p))
_max_pool_grad.defvjp(None, lambda ops, h, ans, x, g, **p: ops.max_pool_gather(x, h, **p))
_max_pool_gather.defvjp(None, lambda ops, g, ans, x, h, **p: ops.max_pool_grad(x, g, **p))


def _window_counts(xp, shape, ksize, strides, rows, cols, dtype):
    """How many real (not padding) pixels each window covers: TF's 'SAME' average divisor."""
    ones = padded(xp, xp.ones((1, shape[1], shape[2], 1), dtype=dtype), rows[:2], cols[:2])
    return windows(xp, ones, ksize, strides).sum(axis=(4, 5))


@defop("avg_pool", dtypes=FLOATING)
def _avg_pool(xp, x, *, ksize, strides, padding):
    rows, cols = _check("avg_pool", x, ksize, strides, padding)
    view = windows(xp, padded(xp, x, rows[:2], cols[:2]), ksize, strides)
    counts = _window_counts(xp, x.shape, ksize, strides, rows, cols, x.dtype)
    return view.sum(axis=(4, 5), dtype=x.dtype) / counts


@defop("avg_pool_grad", dtypes=FLOATING)
def _avg_pool_grad(xp, g, *, input_shape, ksize, strides, padding):
    """Each window's g shared evenly among its real pixels (the gradient of avg_pool)."""
    rows, cols = _layout(input_shape, ksize, strides, padding)
    share = g / _window_counts(xp, input_shape, ksize, strides, rows, cols, g.dtype)
    return _spread(xp, lambda i, j: share, input_shape, g.dtype, ksize, strides, rows, cols)


_avg_pool.defvjp(lambda ops, g, ans, x, **p: ops.avg_pool_grad(g, input_shape=tuple(x.shape), **p))
_avg_pool_grad.defvjp(lambda ops, h, ans, g, input_shape, **p: ops.avg_pool(h, **p))


def _pool(primitive, op, value, ksize, strides, padding, data_format):
    if data_format != "NHWC":
        raise InvalidArgumentError(
            f"{op}: only data_format='NHWC' is supported, got {data_format!r}; transpose NCHW "
            "input with ek.transpose(x, [0, 2, 3, 1])",
            op=op,
        )
    return primitive(
        value,
        ksize=as_pair(ksize, "ksize", op),
        strides=as_pair(strides, "strides", op),
        padding=padding_name(padding, op),
    )


def max_pool(value, ksize, strides, padding, data_format="NHWC", name=None):
    """The largest value in each window (``tf.nn.max_pool``, NHWC).

    Examples
    --------
    >>> import eagerkit as ek
    >>> x = ek.reshape(ek.range(16.0), [1, 4, 4, 1])
    >>> ek.nn.max_pool(x, 2, 2, "VALID")[0, :, :, 0]
    <ek.Tensor: shape=(2, 2), dtype=float32, numpy=
    array([[ 5.,  7.],
           [13., 15.]], dtype=float32)>
    """
    return _pool(_max_pool, "max_pool", value, ksize, strides, padding, data_format)


def avg_pool(value, ksize, strides, padding, data_format="NHWC", name=None):
    """The mean of each window (``tf.nn.avg_pool``, NHWC); 'SAME' ignores the padding.

    Examples
    --------
    >>> import eagerkit as ek
    >>> x = ek.reshape(ek.range(16.0), [1, 4, 4, 1])
    >>> ek.nn.avg_pool(x, 2, 2, "VALID")[0, :, :, 0]
    <ek.Tensor: shape=(2, 2), dtype=float32, numpy=
    array([[ 2.5,  4.5],
           [10.5, 12.5]], dtype=float32)>
    """
    return _pool(_avg_pool, "avg_pool", value, ksize, strides, padding, data_format)


def _pool1d(primitive, op, input, ksize, strides, padding, data_format):  # noqa: A002
    """A 1-D pool is the 2-D pool of images one pixel high, as TF computes it."""
    if data_format != "NWC":
        raise InvalidArgumentError(
            f"{op}: only data_format='NWC' is supported, got {data_format!r}; transpose NCW "
            "input with ek.transpose(x, [0, 2, 1])",
            op=op,
        )
    x = convert_to_tensor(input)
    if x.ndim != 3:
        raise InvalidArgumentError(
            f"{op}: input must be [batch, width, channels] (rank 3), got shape "
            f"{tuple(x.shape)}; a single sequence is x[None], a plain series x[None, :, None]",
            op=op,
        )
    window = (1, one_size(ksize, "ksize", op))
    step = (1, one_size(strides, "strides", op))
    pooled = primitive(
        one_pixel_high(x), ksize=window, strides=step, padding=padding_name(padding, op)
    )
    return from_one_pixel_high(pooled)


def max_pool1d(input, ksize, strides, padding, data_format="NWC", name=None):  # noqa: A002
    """The largest value in each window of a ``[batch, width, channels]`` sequence
    (``tf.nn.max_pool1d``).

    Examples
    --------
    >>> import eagerkit as ek
    >>> x = ek.reshape(ek.constant([1.0, 3.0, 2.0, 5.0, 4.0]), [1, 5, 1])
    >>> ek.nn.max_pool1d(x, 2, 2, "SAME")[0, :, 0]
    <ek.Tensor: shape=(3,), dtype=float32, numpy=array([3., 5., 4.], dtype=float32)>
    """
    return _pool1d(_max_pool, "max_pool1d", input, ksize, strides, padding, data_format)


def avg_pool1d(input, ksize, strides, padding, data_format="NWC", name=None):  # noqa: A002
    """The mean of each window of a ``[batch, width, channels]`` sequence
    (``tf.nn.avg_pool1d``); 'SAME' leaves the padding out of the mean.

    Examples
    --------
    >>> import eagerkit as ek
    >>> x = ek.reshape(ek.constant([1.0, 3.0, 2.0, 5.0, 4.0]), [1, 5, 1])
    >>> ek.nn.avg_pool1d(x, 2, 2, "SAME")[0, :, 0]
    <ek.Tensor: shape=(3,), dtype=float32, numpy=array([2. , 3.5, 4. ], dtype=float32)>
    """
    return _pool1d(_avg_pool, "avg_pool1d", input, ksize, strides, padding, data_format)
