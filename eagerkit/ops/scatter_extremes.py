"""tensor_scatter_nd_min and tensor_scatter_nd_max: keep the smaller (larger) of each slice
of a tensor and the updates aimed at it.

As in scatter.py, each index tuple is numbered row-major among the slices; one primitive,
``scatter_extreme``, then works on rows. Repeated indices all take part (the minimum over
the tensor's slice and every update aimed there), with no undefined winner: the updates are
sorted by (row, value) and only the extreme of each run is written, so no position is
written twice (a GPU's scatter does not say which of two writes wins).

The gradient goes to whichever input gave each output value; ties share it equally, so the
gradients of the tensor and of the updates add up to g.
"""

from eagerkit.ops.scatter import _flat_indices, _tensor_and_updates
from eagerkit.ops.shape import reshape
from eagerkit.registry import defop


@defop("scatter_extreme", dtype_args=(0, 2))
def _scatter_extreme(xp, rows, flat, updates, *, largest):
    """``rows`` with row ``flat[i]`` replaced by its elementwise min/max with ``updates[i]``."""
    width = int(updates.size // max(len(flat), 1))
    positions = (flat.reshape(-1, 1) * width + xp.arange(width)).reshape(-1)
    values = updates.reshape(-1)
    # Sorted by value, then (stably) by position: each position's run ends at its largest.
    by_value = xp.argsort(values, kind="stable")
    order = by_value[xp.argsort(positions[by_value], kind="stable")]
    positions, values = positions[order], values[order]
    if largest:  # the last of each run of equal positions
        keep = xp.concatenate([positions[1:] != positions[:-1], xp.ones(1, dtype=bool)])
    else:  # the first of each run
        keep = xp.concatenate([xp.ones(1, dtype=bool), positions[1:] != positions[:-1]])
    keep = keep[: len(positions)]  # no updates: nothing kept
    result = rows.copy().reshape(-1)
    picked = positions[keep]
    pick = xp.maximum if largest else xp.minimum
    result[picked] = pick(result[picked], values[keep])
    return result.reshape(rows.shape)


def _shares(ops, ans, rows, flat, updates):
    """Where each input equals the answer (1.0) and how many inputs tie there, per element."""
    from_rows = ops.cast(ops.equal(rows, ans), dtype=rows.dtype)
    from_updates = ops.cast(ops.equal(updates, ops.gather(ans, flat, axis=0)), dtype=rows.dtype)
    ties = from_rows + ops.scatter_add(from_updates, flat, shape=tuple(rows.shape), axis=0)
    return from_rows, from_updates, ops.where(ties == 0, ties + 1, ties)


def _rows_vjp(ops, g, ans, rows, flat, updates, largest):
    won, _, ties = _shares(ops, ans, rows, flat, updates)
    return g * won / ties


def _updates_vjp(ops, g, ans, rows, flat, updates, largest):
    _, won, ties = _shares(ops, ans, rows, flat, updates)
    return ops.gather(g / ties, flat, axis=0) * won


_scatter_extreme.defvjp(_rows_vjp, None, _updates_vjp)  # indices get no gradient


def _extreme(tensor, indices, updates, largest, op):
    tensor, indices, updates, shape = _tensor_and_updates(tensor, indices, updates, op)
    depth = indices.shape[-1]
    flat = reshape(_flat_indices(indices, shape=shape, op=op), (-1,))
    rows = reshape(tensor, (-1, *shape[depth:]))
    slices = reshape(updates, (-1, *shape[depth:]))
    return reshape(_scatter_extreme(rows, flat, slices, largest=largest), shape)


def tensor_scatter_nd_min(tensor, indices, updates, name=None):
    """``tensor`` with each slice at ``indices`` replaced by its minimum with the updates
    there (repeated indices: the minimum of them all). Shapes as in ``scatter_nd``.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.tensor_scatter_nd_min([5, 5, 5], [[0], [2], [2]], [7, 3, 1]).numpy()
    array([5, 5, 1], dtype=int32)
    """
    return _extreme(tensor, indices, updates, False, "tensor_scatter_nd_min")


def tensor_scatter_nd_max(tensor, indices, updates, name=None):
    """``tensor`` with each slice at ``indices`` replaced by its maximum with the updates
    there (repeated indices: the maximum of them all). Shapes as in ``scatter_nd``.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.tensor_scatter_nd_max([[1, 1], [1, 1]], [[1]], [[0, 9]]).numpy()
    array([[1, 1],
           [1, 9]], dtype=int32)
    """
    return _extreme(tensor, indices, updates, True, "tensor_scatter_nd_max")
