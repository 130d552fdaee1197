"""Softmax cross-entropy with integer labels as one primitive (TF has it as one op too).

Composed from log_softmax, one_hot, multiply and sum it would be about ten recorded ops per
training step; as a primitive it is one, with the well-known gradient
``softmax(logits) - one_hot(labels)``. That VJP is written with registered ops, so it is
differentiable again (second order works).
"""

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
        table, axis = xp.ascontiguousarray(rows.T), 0
        cells = flat_labels * count + xp.arange(count)  # where (label, row) sits in the table
    else:
        table, axis = rows.copy(), 1
        cells = _label_cells(xp, flat_labels, classes)
    table -= table.max(axis=axis, keepdims=True)  # shifted by the max: exp never overflows
    picked = table.take(cells)
    log_total = xp.log(xp.exp(table, out=table).sum(axis=axis))
    return (log_total - picked).reshape(labels.shape)


def _label_cells(xp, labels, classes):
    """The flat positions of each row's label in a (rows, classes) table: row * classes + label.
    (One flat index is cheaper than a pair of index arrays, to read or to update.)"""
    return xp.arange(labels.shape[0]) * classes + labels


def _sparse_softmax_cross_entropy_vjp(ops, g, ans, logits, labels):
    if not ops.on_tensors:  # raw arrays: the same formula in one fresh array, updated in place
        return _gradient_on_arrays(ops.xp, g, ans, logits, labels)
    hot = ops.one_hot(labels, depth=logits.shape[-1], on_value=1, off_value=0, dtype=logits.dtype)
    # ans = logsumexp(logits) - logits[label], so logsumexp comes back without another pass
    # over exp; logits - logsumexp <= 0, so the exp below never overflows.
    log_total = ans + ops.reduce_sum(logits * hot, axis=-1)
    kept = tuple(g.shape) + (1,)
    probabilities = ops.exp(logits - ops.reshape(log_total, shape=kept))
    return ops.reshape(g, shape=kept) * (probabilities - hot)


def _gradient_on_arrays(xp, g, ans, logits, labels):
    """The VJP above on raw arrays, bit for bit (tests/test_vjp_modes.py compares them),
    without one_hot's table: pick each row's label logit, subtract 1 at the label in place."""
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


def sparse_softmax_cross_entropy_with_logits(labels=None, logits=None, name=None):
    """Cross-entropy with integer class labels (one per example) and logits.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.nn.sparse_softmax_cross_entropy_with_logits(labels=[0, 1], logits=[[0.0, 0.0]] * 2)
    <ek.Tensor: shape=(2,), dtype=float32, numpy=array([0.6931472, 0.6931472], dtype=float32)>
    """
    return _sparse_softmax_cross_entropy(logits, labels)
