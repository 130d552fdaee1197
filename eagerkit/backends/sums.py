"""Sums over axes of float arrays, through BLAS where numpy's own sum is slow.

Why: numpy sums down the columns of a (rows, columns) array one row at a time, and along a
short row one row at a time as well. A bias's gradient, (1437, 128) summed over the batch,
took 35 us in float32, and logits (1437, 10) summed along each row 25 us. The same sums
written as a product with a vector of ones, ``ones @ rows`` or ``rows @ ones``, are
matrix-vector products, which BLAS computes 3 to 7 times faster (9 and 4 us).

So ``sum_over`` is the sum that ``reduce_sum`` and ``reduce_logsumexp`` take, and with them
the gradient of a broadcast input (``backprop.unbroadcast``); ``reduce_mean`` keeps
``np.mean``'s bits. A C-ordered float32 or float64 numpy array of at least ``MIN_SIZE``
elements, summed over a leading or a trailing block of its axes, is summed as a product with
ones; anything else (integers, complex, cupy, other axes) by ``x.sum``, as before.

What changes: the same numbers, added in another order (BLAS keeps several running sums), so
the last bits of a sum can differ from numpy's, as TF's own sums differ from numpy's.
tests/test_sums.py checks ``sum_over`` against ``x.sum``: the same bits where every partial
sum is exact, and within numpy's own error bound everywhere else.

Examples
--------
>>> import numpy as np
>>> x = np.arange(12000, dtype=np.float32).reshape(4000, 3) % 7
>>> sum_over(x, (0,))  # down the columns: ones(4000) @ x
array([12000., 11996., 11999.], dtype=float32)
>>> sum_over(x, (1,), keepdims=True)[:2]  # along each row: x @ ones(3)
array([[ 3.],
       [12.]], dtype=float32)
"""

from math import prod

import numpy as np

from eagerkit.backends.shared_vectors import shared_vector

# Smaller arrays: numpy's sum is about as fast, and the product's calls cost more (an MLP
# step at batch 64, whose biases' gradients are (64, 128) and (64, 10), ran 3% slower with
# 512 here; at the full digits batch, (1437, 10), the step runs 8% faster either way).
MIN_SIZE = 10_000
_BLAS_FLOATS = (np.dtype(np.float32), np.dtype(np.float64))


def sum_over(x, axis, keepdims=False):
    """``x.sum(axis=axis, keepdims=keepdims, dtype=x.dtype)``, through BLAS where faster.

    Parameters
    ----------
    x : numpy or cupy array.
    axis : tuple of int, non-negative and increasing (``arguments.normalize_axis``'s form).
    keepdims : keep each summed axis as an axis of length 1.
    """
    if type(x) is not np.ndarray:  # cupy: its own sum
        return x.sum(axis=axis, keepdims=keepdims, dtype=x.dtype)
    if x.size >= MIN_SIZE and x.dtype in _BLAS_FLOATS:
        ndim, count = x.ndim, len(axis)
        if 0 < count < ndim and x.flags.c_contiguous:
            if axis[-1] == count - 1:  # axes (0, ..., k-1): the rows of a table, summed
                return _down_columns(x, axis, keepdims)
            if axis[0] == ndim - count:  # axes (k, ..., ndim-1): along each row
                return _along_rows(x, axis, keepdims)
    # add.reduce: what ndarray.sum calls, without sum's Python wrapper (small sums: the
    # gradient of every broadcast input)
    return _add_reduce(x, axis, x.dtype, None, keepdims)


_add_reduce = np.add.reduce


def _down_columns(x, axis, keepdims):
    """``x`` summed over its first ``len(axis)`` axes: ``ones @ table``."""
    kept = x.shape[len(axis) :]
    columns = prod(kept)
    rows = x.size // columns
    if rows < 2 or columns < 2:  # a sum of one row, or of one column: numpy's, exactly
        return _add_reduce(x, axis, x.dtype, None, keepdims)
    total = shared_vector(1, rows, x.dtype) @ x.reshape(rows, columns)
    return total.reshape((1,) * len(axis) + kept if keepdims else kept)


def _along_rows(x, axis, keepdims):
    """``x`` summed over its axes from ``axis[0]`` on: ``table @ ones``."""
    kept = x.shape[: axis[0]]
    rows = prod(kept)
    columns = x.size // rows
    if rows < 2 or columns < 2:
        return _add_reduce(x, axis, x.dtype, None, keepdims)
    total = x.reshape(rows, columns) @ shared_vector(1, columns, x.dtype)
    return total.reshape(kept + (1,) * len(axis) if keepdims else kept)
