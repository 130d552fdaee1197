"""Jacobians: one reverse sweep (backprop.gradients) per element of the target, stacked."""

import numpy as np

from eagerkit.backprop import gradients
from eagerkit.tensor import convert_to_tensor


def jacobian(tape, target, source, unconnected="none"):
    """Row by row: one reverse sweep per element of ``target``."""
    from eagerkit.ops import shape as shape_ops

    size = int(np.prod(target.shape))
    rows = []
    for i in range(size):
        seed = np.zeros(size, target.dtype.as_numpy_dtype)
        seed[i] = 1
        seed = convert_to_tensor(seed.reshape(target.shape), device=target._device)
        (row,) = gradients(tape, [target], [source], [seed], unconnected)
        if row is None:
            return None
        rows.append(row)
    if not rows:
        from eagerkit.ops.creation import zeros

        return zeros(tuple(target.shape) + tuple(source.shape), dtype=source.dtype)
    return shape_ops.reshape(shape_ops.stack(rows), tuple(target.shape) + tuple(source.shape))


def batch_jacobian(tape, target, source, unconnected="none"):
    """Per-example Jacobian, assuming example b of target depends only on example b of source."""
    from eagerkit.ops import shape as shape_ops

    batch = target.shape[0]
    if source.shape[0] != batch:
        raise ValueError(
            f"batch_jacobian: target has batch size {batch} but source has {source.shape[0]}; "
            "pass a target and a source with the same first (batch) axis, or use "
            "tape.jacobian for the full Jacobian"
        )
    inner = int(np.prod(target.shape[1:]))
    columns = []
    for j in range(inner):
        seed = np.zeros((batch, inner), target.dtype.as_numpy_dtype)
        seed[:, j] = 1
        seed = convert_to_tensor(seed.reshape(target.shape), device=target._device)
        (column,) = gradients(tape, [target], [source], [seed], unconnected)
        if column is None:
            return None
        columns.append(column)
    stacked = shape_ops.stack(columns, axis=1)  # (batch, inner, *source.shape[1:])
    return shape_ops.reshape(stacked, (batch,) + tuple(target.shape[1:]) + tuple(source.shape[1:]))
