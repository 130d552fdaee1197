"""Reductions, ``concat`` and ``tile`` on ragged tensors (TF's ragged dispatch for them).

A reduction over a ragged dimension pads the rows with the reduction's identity (0 for a
sum, the lowest value for a max) into a dense tensor and reduces that: ``to_tensor`` is a
gather, so gradients reach the flat values. A mean divides by each row's own length, so
an empty row's mean is nan, as in TF.

Examples
--------
>>> import eagerkit as ek
>>> digits = ek.ragged.constant([[3, 1, 4, 1], [], [5, 9, 2], [6], []])
>>> print(ek.reduce_mean(digits, axis=1))
ek.Tensor([2.25       nan 5.33333333 6.                nan], shape=(5,), dtype=float64)
>>> ek.concat([digits, [[5, 3]]], axis=0)
<ek.RaggedTensor [[3, 1, 4, 1], [], [5, 9, 2], [6], [], [5, 3]]>
"""

import numpy as np

from eagerkit import arguments
from eagerkit.errors import UnimplementedError
from eagerkit.ops import reduce
from eagerkit.ops.creation import ones_like
from eagerkit.ops.indexing import gather
from eagerkit.ops.shape import concat as dense_concat
from eagerkit.ragged import partition
from eagerkit.ragged.indexing import select_rows
from eagerkit.ragged.ragged_tensor import RaggedTensor
from eagerkit.tensor import convert_to_tensor


def _identity(name, np_dtype):
    """The value a reduction ignores: what pads the rows."""
    if name in ("reduce_sum", "reduce_mean"):
        return 0
    if name == "reduce_prod":
        return 1
    if name in ("reduce_any", "reduce_all"):
        return name == "reduce_all"
    info = np.finfo(np_dtype) if np_dtype.kind == "f" else np.iinfo(np_dtype)
    return info.min if name == "reduce_max" else info.max


def reduction(op_name):
    """The ragged form of the reduction ``ek.<op_name>``."""
    dense = getattr(reduce, op_name)

    def handler(input_tensor, axis=None, keepdims=False, name=None):
        rt = input_tensor
        if keepdims:
            raise UnimplementedError(
                f"{op_name}: keepdims=True is not supported on a RaggedTensor", op=op_name
            )
        if axis is None:
            return dense(rt.flat_values)
        axes = axis if isinstance(axis, (list, tuple)) else [axis]
        if len(axes) != 1:
            raise UnimplementedError(
                f"{op_name}: reduce a RaggedTensor over one axis at a time, got {axis}",
                op=op_name,
            )
        axis = arguments.axis_index(axes[0], rt.ndim, op_name)
        return _reduce(rt, axis, op_name, dense)

    return handler


def _reduce(rt, axis, name, dense):
    if axis >= 2:  # below the first ragged dimension: within each row's values
        return rt.with_values(_reduce(rt.values, axis - 1, name, dense))
    if axis == 1 and isinstance(rt.values, RaggedTensor):
        raise UnimplementedError(
            f"{name}: reducing a ragged dimension whose values are ragged is not supported; "
            "reduce an inner axis first",
            op=name,
        )
    if axis == 0 and rt.ragged_rank != 1:
        raise UnimplementedError(
            f"{name}: axis 0 of a RaggedTensor is supported for ragged_rank 1 only", op=name
        )
    padded = rt.to_tensor(_identity(name, rt.dtype.as_numpy_dtype))
    if name != "reduce_mean":
        return dense(padded, axis=axis)
    total = reduce.reduce_sum(padded, axis=axis)
    ones = rt.with_flat_values(ones_like(rt.flat_values))  # each value counts once
    count = reduce.reduce_sum(ones.to_tensor(0), axis=axis)
    return total / count  # 0 / 0 for an empty row: nan, as in TF


def concat(values, axis, name=None):
    """``ek.concat`` of ragged (and dense) tensors along axis 0 (rows) or 1 (within rows)."""
    ragged = [v if isinstance(v, RaggedTensor) else RaggedTensor.from_tensor(v) for v in values]
    rank = ragged[0].ndim
    axis = arguments.axis_index(axis, rank, "concat")
    if axis == 0:
        return _stack_rows(ragged)
    if axis == 1 and all(r.ragged_rank == 1 for r in ragged):
        return _join_rows(ragged)
    raise UnimplementedError(
        f"concat: ragged tensors join along axis 0 or 1 (ragged_rank 1) here, got axis {axis}",
        op="concat",
    )


def _stack_rows(ragged):
    """Rows of the first tensor, then the second's, ..."""
    splits, offset, values = [np.zeros(1, np.int64)], 0, []
    for rt in ragged:
        splits.append(rt._row_splits[1:] + offset)
        offset += rt._row_splits[-1]
        values.append(rt.values)
    if all(isinstance(v, RaggedTensor) for v in values):
        joined = _stack_rows(values)
    else:
        joined = dense_concat(values, axis=0)  # the flat values (one ragged_rank for all)
    return RaggedTensor.from_row_splits(joined, np.concatenate(splits))


def _join_rows(ragged):
    """Row i of each tensor, one after the other, as row i."""
    nrows = {rt.nrows_int() for rt in ragged}
    if len(nrows) != 1:
        raise UnimplementedError(
            f"concat: along axis 1 the tensors need the same number of rows, got {sorted(nrows)}",
            op="concat",
        )
    offsets = np.cumsum([0] + [rt._row_splits[-1] for rt in ragged[:-1]])
    order, lengths = [], np.zeros(nrows.pop(), dtype=np.int64)
    for row in range(len(lengths)):
        for rt, offset in zip(ragged, offsets, strict=True):
            start, stop = rt._row_splits[row], rt._row_splits[row + 1]
            order.append(np.arange(start, stop) + offset)
            lengths[row] += stop - start
    values = dense_concat([rt.values for rt in ragged], axis=0)
    index = np.concatenate(order).astype(np.int64) if order else np.zeros(0, np.int64)
    return RaggedTensor.from_row_lengths(gather(values, index), lengths)


def tile(input, multiples, name=None):  # noqa: A002 - TF's argument name
    """``ek.tile`` of a 2-D ragged tensor: the rows repeated, and each row's values."""
    rt = input
    times = partition.int64_vector(convert_to_tensor(multiples).numpy().reshape(-1), "multiples")
    if rt.ndim != 2 or len(times) != 2:
        raise UnimplementedError(
            "tile: a RaggedTensor of rank 2 with two multiples is supported here", op="tile"
        )
    rows = select_rows(rt, np.tile(np.arange(rt.nrows_int()), int(times[0])))
    splits = rows._row_splits
    bounds = zip(splits[:-1], splits[1:], strict=True)
    index = [np.tile(np.arange(a, b), int(times[1])) for a, b in bounds]
    flat = np.concatenate(index).astype(np.int64) if index else np.zeros(0, np.int64)
    return RaggedTensor.from_row_lengths(gather(rows.values, flat), np.diff(splits) * times[1])
