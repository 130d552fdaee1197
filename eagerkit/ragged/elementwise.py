"""Elementwise ops on ragged tensors: the op on the flat values, the rows kept.

``rt + 3``, ``ek.exp(rt)``, ``ek.add(rt, other_rt)`` (same rows) and ``rt + dense`` (the
dense tensor broadcast over the rows, as TF's guide shows) each run the ordinary op on
``rt.flat_values``, so a tape records it and gradients reach the flat values.

Examples
--------
>>> import eagerkit as ek
>>> x = ek.ragged.constant([[10, 87, 12], [19, 53], [12, 32]])
>>> x + [[1000], [2000], [3000]]
<ek.RaggedTensor [[1010, 1087, 1012], [2019, 2053], [3012, 3032]]>
>>> ek.ragged.map_flat_values(lambda v: v * 2 + 1, ek.ragged.constant([[1, 2], [3]]))
<ek.RaggedTensor [[3, 5], [7]]>
"""

import numpy as np

from eagerkit.arguments import describe
from eagerkit.errors import InvalidArgumentError
from eagerkit.ops.indexing import gather
from eagerkit.ops.shape import reshape
from eagerkit.ragged import partition
from eagerkit.ragged.ragged_tensor import RaggedTensor
from eagerkit.tensor import Tensor, convert_to_tensor


def binary(op):
    """The ragged form of the binary op ``op``: ``handler(x, y, **params)``."""

    def handler(x, y, **params):
        if isinstance(x, RaggedTensor):
            template = x
            a, b = x.flat_values, _matched(x, y)
        else:
            template = y
            a, b = _matched(y, x), y.flat_values
        return template.with_flat_values(op(a, b, **params))

    return handler


def unary(op):
    """The ragged form of an op on one tensor (and parameters): ``handler(x, ...)``."""

    def handler(x, *args, **params):
        return x.with_flat_values(op(x.flat_values, *args, **params))

    return handler


def map_flat_values(op, *args, **kwargs):
    """``op`` applied to the flat values of the ragged tensors among the arguments (which
    must share their rows); the answer has those rows.

    Examples
    --------
    >>> import eagerkit as ek
    >>> rt = ek.ragged.constant([[1.0, 4.0], [9.0]])
    >>> ek.ragged.map_flat_values(ek.sqrt, rt)
    <ek.RaggedTensor [[1.0, 2.0], [3.0]]>
    """
    template = None

    def flat(value):
        nonlocal template
        if isinstance(value, RaggedTensor):
            if template is None:
                template = value
            elif not same_rows(template, value):
                raise InvalidArgumentError(
                    "ragged.map_flat_values: the ragged arguments must have the same rows "
                    "(nested row splits)",
                    op="map_flat_values",
                )
            return value.flat_values
        if isinstance(value, (list, tuple)):
            return type(value)(flat(item) for item in value)
        return value

    args = [flat(a) for a in args]
    kwargs = {k: flat(v) for k, v in kwargs.items()}
    result = op(*args, **kwargs)
    if template is None:
        return result
    outer = template.flat_values.shape[0]
    if not isinstance(result, Tensor) or result.ndim == 0 or result.shape[0] != outer:
        raise InvalidArgumentError(
            f"ragged.map_flat_values: op {describe(op)} must return a tensor that keeps the "
            f"number of flat values ({outer}) as its first dimension, got {describe(result)}",
            op="map_flat_values",
        )
    return template.with_flat_values(result)


def same_rows(a, b):
    """True when two ragged tensors have the same nested row splits."""
    if a.ragged_rank != b.ragged_rank:
        return False
    while isinstance(a, RaggedTensor):
        if not np.array_equal(a._row_splits, b._row_splits):
            return False
        a, b = a._values, b._values
    return True


def _matched(rt, other):
    """``other`` shaped to meet ``rt.flat_values`` elementwise: another ragged tensor's flat
    values (same rows), a scalar, or a dense tensor broadcast over the rows."""
    if isinstance(other, RaggedTensor):
        if not same_rows(rt, other):
            raise InvalidArgumentError(
                f"Unable to broadcast: the ragged dimensions differ (row lengths "
                f"{rt.row_lengths().numpy().tolist()} and "
                f"{other.row_lengths().numpy().tolist()}); ragged tensors combine "
                "elementwise only when their rows match",
                op="ragged",
            )
        return other.flat_values
    if not isinstance(other, Tensor):
        if np.ndim(other) == 0:
            return other  # a Python or numpy scalar: the op converts it with TF's rules
        other = convert_to_tensor(other, dtype=rt.dtype, device=rt.flat_values._device)
    inner = len(rt.flat_values.shape) - 1
    if other.ndim <= inner:
        return other  # it covers only the uniform inner dimensions: plain broadcasting
    return _over_rows(rt, other, inner)


def _over_rows(rt, dense, inner):
    """``dense`` (covering some ragged dimensions too) repeated for each flat value."""
    rank = 1 + rt.ragged_rank + inner
    if dense.ndim > rank:
        raise InvalidArgumentError(
            f"Unable to broadcast: a dense operand of rank {dense.ndim} ({describe(dense)}) "
            f"against a ragged tensor of rank {rank}; give a scalar or a dense tensor of "
            f"rank <= {rank}",
            op="ragged",
        )
    sizes = list(dense.shape)
    first = rank - dense.ndim  # the dimension of rt that dense's first one meets
    kept = []
    for position, size in enumerate(sizes):
        dimension = first + position
        if 1 <= dimension <= rt.ragged_rank and size != 1:
            raise InvalidArgumentError(
                f"Unable to broadcast: dimension size mismatch in dimension {dimension}: the "
                f"ragged tensor's rows there have lengths {_lengths(rt, dimension)} but the "
                f"dense operand has size {size} (only 1 broadcasts over a ragged dimension)",
                op="ragged",
            )
        if dimension == 0 or dimension > rt.ragged_rank:
            kept.append(size)
    squeezed = reshape(dense, kept)  # the size-1 ragged dimensions dropped
    if first > 0 or sizes[0] == 1:
        return reshape(squeezed, kept[1:]) if first == 0 else squeezed
    if sizes[0] != rt.nrows_int():
        raise InvalidArgumentError(
            f"Unable to broadcast: dimension size mismatch in dimension 0: {rt.nrows_int()} "
            f"rows and a dense operand of size {sizes[0]}",
            op="ragged",
        )
    return gather(squeezed, _outer_rows_of_values(rt))


def _outer_rows_of_values(rt):
    """The outermost row each flat value belongs to."""
    levels = []
    while isinstance(rt, RaggedTensor):
        levels.append(rt._row_splits)
        rt = rt._values
    owner = np.arange(levels[-1][-1], dtype=np.int64)
    for splits in reversed(levels):
        owner = partition.rowids(splits)[owner]
    return owner


def _lengths(rt, dimension):
    for _ in range(dimension - 1):
        rt = rt._values
    return np.diff(rt._row_splits).tolist()
