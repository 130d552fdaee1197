"""Softmax cross-entropy with integer labels as one primitive (TF has it as one op too).

Composed from log_softmax, one_hot, multiply and sum it would be about ten recorded ops per
training step; as a primitive it is one, with the well-known gradient
``softmax(logits) - one_hot(labels)``. That VJP is written with registered ops, so it is
differentiable again (second order works).

On a GPU (and the simulated one) the op takes a path of its own, as TF's GPU kernel does:
a label out of range gives a NaN loss (and NaN gradient) for its row instead of an error,
because checking the labels would make every training step wait for the GPU to report
them; and the elementwise steps are fused kernels, a handful of launches in all.
"""

import functools

from eagerkit.backends.fusion import elementwise
from eagerkit.dtypes import FLOATING
from eagerkit.errors import InvalidArgumentError
from eagerkit.registry import defop


@defop("sparse_softmax_cross_entropy_with_logits", dtypes=FLOATING, dtype_args=(0,))
def _sparse_softmax_cross_entropy(xp, logits, labels):
    if logits.ndim == 0:
        raise InvalidArgumentError(
            "sparse_softmax_cross_entropy_with_logits: logits must have a last axis of "
            f"classes (rank >= 1), got a scalar {logits[()]!r}; pass one row of logits per "
            "label, e.g. shape [batch, classes]",
            op="sparse_softmax_cross_entropy_with_logits",
        )
    classes = logits.shape[-1]
    if labels.dtype.kind not in "iu" or labels.shape != logits.shape[:-1]:
        raise InvalidArgumentError(
            f"sparse_softmax_cross_entropy_with_logits: labels must be integer class ids of "
            f"shape {tuple(logits.shape[:-1])} (one per row of logits {tuple(logits.shape)}), "
            f"got {labels.dtype} {tuple(labels.shape)}. For one-hot labels use "
            "softmax_cross_entropy_with_logits.",
            op="sparse_softmax_cross_entropy_with_logits",
        )
    if xp.kernels.fused:  # a GPU: no look at the labels from the host (see the top)
        return _loss_on_device(xp, logits, labels)
    low, high = (int(labels.min()), int(labels.max())) if labels.size else (0, 0)
    if low < 0 or high >= classes:
        raise InvalidArgumentError(
            f"sparse_softmax_cross_entropy_with_logits: received a label value of "
            f"{low if low < 0 else high} which is outside the valid range of [0, {classes}) "
            f"for logits of shape {tuple(logits.shape)}",
            op="sparse_softmax_cross_entropy_with_logits",
        )
    # log(sum(exp(x))) - x[label], in a table of our own so every step can work in place.
    rows, flat_labels = logits.reshape(-1, classes), labels.reshape(-1).astype(xp.intp, copy=False)
    count = rows.shape[0]
    # numpy reduces fast along one long axis but slowly along many short ones (a call per
    # row): with more rows than classes, the table is transposed and reduced down columns.
    if count >= classes:
        # a C-ordered copy always: ascontiguousarray would hand back rows.T itself where it
        # is already contiguous (one class, or transposed logits), and we write the table
        table, axis = rows.T.copy(), 0
        cells = flat_labels * count + xp.arange(count)  # where (label, row) sits in the table
    else:
        table, axis = rows.copy(), 1
        cells = _label_cells(xp, flat_labels, classes)
    table -= table.max(axis=axis, keepdims=True)  # shifted by the max: exp never overflows
    picked = table.take(cells)
    log_total = xp.log(xp.exp(table, out=table).sum(axis=axis))
    return (log_total - picked).reshape(labels.shape)


def _loss_on_device(xp, logits, labels):
    """The forward on a GPU: logsumexp(row) - row[label], NaN where the label is out of range."""
    classes = logits.shape[-1]
    rows, label = logits.reshape(-1, classes), labels.reshape(-1, 1)
    top = rows.max(axis=1, keepdims=True)  # shifted by the max: exp never overflows
    total = xp.kernels.shifted_exp(rows, top).sum(axis=1, keepdims=True)
    picked = xp.kernels.label_logit(rows, label)  # 0 where the label is out of range
    return xp.kernels.cross_entropy_loss(total, top, picked, label, classes).reshape(labels.shape)


@functools.lru_cache(maxsize=32)
def _columns(xp, classes, dtype):
    """``[[0, 1, ..., classes - 1]]`` on ``xp``'s device, made once: every step reads it."""
    return xp.arange(classes, dtype=dtype).reshape(1, classes)


# On a GPU, one thread per label reads its row's logit where it is, whatever the strides:
# no index arrays (cupy's take_along_axis makes an arange per call) and no pass over the
# other classes (a mask and a sum would be two launches).
_LABEL_LOGIT_CUDA = (
    "raw T rows, S label",
    "T picked",
    """
    const ptrdiff_t column = label;
    if (column >= 0 && column < rows.shape()[1]) {
        const ptrdiff_t cell[] = {_ind.get()[0], column};
        picked = rows[cell];
    } else {
        picked = (T)0.0f;
    }
    """,
)


@elementwise("label_logit", recordable=False, cuda=_LABEL_LOGIT_CUDA)
def _label_logit(xp, rows, label):
    """``rows[r, label[r, k]]`` for rows (n, classes) and labels (n, k); 0 where a label is
    out of range."""
    if rows.shape[1] == 0:  # nothing to pick from: every label is out of range
        return xp.zeros(label.shape, rows.dtype)
    in_range = (label >= 0) & (label < rows.shape[1])
    picked = xp.take_along_axis(rows, xp.where(in_range, label, 0), axis=1)
    return xp.where(in_range, picked, xp.zeros((), rows.dtype))


# The loss's kernels have CUDA bodies too, the same arithmetic in the same order: there a
# plain ElementwiseKernel call cost the host less than a cupy.fuse call (measured on an H100
# by benchmarks/gpu_calls.py: 0.66-0.88 of the time).
@elementwise(
    "shifted_exp",
    recordable=False,
    cuda=("T rows, T top", "T shifted", "shifted = exp(rows - top)"),
)
def _shifted_exp(xp, rows, top):
    return xp.exp(rows - top)


@elementwise(
    "cross_entropy_loss",
    recordable=False,
    cuda=(
        "T total, T top, T picked, S label, int64 classes",
        "T loss",
        'loss = label >= 0 && label < classes ? log(total) + top - picked : (T)nan("")',
    ),
)
def _cross_entropy_loss(xp, total, top, picked, label, classes):
    in_range = (label >= 0) & (label < classes)
    return xp.where(in_range, xp.log(total) + top - picked, xp.nan)


# No CUDA body: as an ElementwiseKernel it cost the host more than cupy.fuse (measured).
@elementwise("cross_entropy_grad", recordable=False)
def _cross_entropy_grad(xp, g, rows, ans, picked, label, column):
    """g * (softmax(row) - one_hot(label)), one kernel: ans + picked is the row's
    logsumexp (ans = logsumexp - picked); ``column`` is 0, 1, ... along a row."""
    return g * (xp.exp(rows - (ans + picked)) - (column == label))


def _gradient_on_device(xp, g, ans, logits, labels):
    """The VJP on a GPU: softmax minus the one-hot label, scaled by g: two launches."""
    classes = logits.shape[-1]
    rows, label = logits.reshape(-1, classes), labels.reshape(-1, 1)
    columns = _columns(xp, classes, label.dtype)
    grad = xp.kernels.cross_entropy_grad(
        g.reshape(-1, 1),
        rows,
        ans.reshape(-1, 1),
        xp.kernels.label_logit(rows, label),
        label,
        columns,
    )
    return grad.reshape(logits.shape)


def _label_cells(xp, labels, classes):
    """The flat positions of each row's label in a (rows, classes) table: row * classes + label.
    (One flat index is cheaper than a pair of index arrays, to read or to update.)"""
    return xp.arange(labels.shape[0]) * classes + labels


def _sparse_softmax_cross_entropy_vjp(ops, g, ans, logits, labels):
    if not ops.on_tensors:  # raw arrays: straight to the forward below, no dispatch
        return _gradient_on_arrays(ops.xp, g, ans, logits, labels)
    # Recorded (a tape around tape.gradient, ek.function's graph): one op, which runs the
    # same arrays code, where the formula's steps would be four ops and launches.
    return ops.sparse_softmax_cross_entropy_grad(g, ans, logits, labels)


@defop("sparse_softmax_cross_entropy_grad", dtypes=FLOATING, dtype_args=(0, 1, 2))
def _sparse_softmax_cross_entropy_grad(xp, gradients, loss, logits, labels):
    """The loss's gradient as one op, ``gradients * (softmax(logits) - one_hot(labels))``,
    TF's ``SparseSoftmaxCrossEntropyWithLogits`` backprop output; ``loss`` is the loss these
    logits and labels gave (from it comes each row's logsumexp without a pass over exp).
    Labels are the ones the loss checked: this op does not check them again."""
    return _gradient_on_arrays(xp, gradients, loss, logits, labels)


def _gradient_on_arrays(xp, g, ans, logits, labels):
    """The VJP above on raw arrays, bit for bit (tests/test_vjp_modes.py compares them),
    without one_hot's table: pick each row's label logit, subtract 1 at the label in place."""
    if xp.kernels.fused:
        return _gradient_on_device(xp, g, ans, logits, labels)
    classes = logits.shape[-1]
    rows = logits.reshape(-1, classes)
    cells = _label_cells(xp, labels.reshape(-1), classes)
    log_total = ans.reshape(-1) + rows.take(cells)
    probabilities = rows - log_total[:, None]  # a fresh array: ours to change
    xp.exp(probabilities, out=probabilities)
    probabilities.reshape(-1)[cells] -= 1
    probabilities *= g.reshape(-1, 1)
    return probabilities.reshape(logits.shape)


_sparse_softmax_cross_entropy.defvjp(_sparse_softmax_cross_entropy_vjp, None)


def _grad_terms(ops, u, gradients, loss, logits, labels):
    """For the gradient op's own VJP, ``u`` arriving at its output: ``(p, hot, s, total)``,
    where ``p = exp(logits - (loss + picked))`` (the softmax, as the op computes it),
    ``s = u * gradients * p`` and ``total`` is s summed along each row."""
    hot = ops.one_hot(labels, depth=logits.shape[-1], on_value=1, off_value=0, dtype=logits.dtype)
    kept = tuple(gradients.shape) + (1,)
    log_total = ops.reshape(loss + ops.reduce_sum(logits * hot, axis=-1), shape=kept)
    p = ops.exp(logits - log_total)  # logits - logsumexp <= 0: exp never overflows
    s = u * ops.reshape(gradients, shape=kept) * p
    return p, hot, s, ops.reduce_sum(s, axis=-1)


def _grad_vjp_gradients(ops, u, ans, gradients, loss, logits, labels):
    p, hot, _, _ = _grad_terms(ops, u, gradients, loss, logits, labels)
    return ops.reduce_sum(u * (p - hot), axis=-1)


def _grad_vjp_loss(ops, u, ans, gradients, loss, logits, labels):
    return -_grad_terms(ops, u, gradients, loss, logits, labels)[3]


def _grad_vjp_logits(ops, u, ans, gradients, loss, logits, labels):
    # logits reach the output twice: through exp, and through the picked logit in logsumexp.
    _, hot, s, total = _grad_terms(ops, u, gradients, loss, logits, labels)
    return s - hot * ops.reshape(total, shape=tuple(total.shape) + (1,))


# The partial derivatives of the op as written, one per input; with loss = the loss of
# these logits, their sum through the loss's own VJP is the softmax's second derivative.
_sparse_softmax_cross_entropy_grad.defvjp(
    _grad_vjp_gradients, _grad_vjp_loss, _grad_vjp_logits, None
)


def sparse_softmax_cross_entropy_with_logits(labels=None, logits=None, name=None):
    """Cross-entropy with integer class labels (one per example) and logits.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.nn.sparse_softmax_cross_entropy_with_logits(labels=[0, 1], logits=[[0.0, 0.0]] * 2)
    <ek.Tensor: shape=(2,), dtype=float32, numpy=array([0.6931472, 0.6931472], dtype=float32)>
    """
    return _sparse_softmax_cross_entropy(logits, labels)
