"""Ragged to dense and back, and ragged to sparse and back.

``to_tensor`` is one ``gather``: each slot of the dense result takes a flat value or the
padding, by an index worked out on the host from the row splits. ``gather`` has a
gradient, so a tape sees through ``to_tensor`` to the flat values (and to the padding).

Examples
--------
>>> import eagerkit as ek
>>> rt = ek.ragged.constant([[1, 2], [3]])
>>> print(rt.to_tensor(default_value=-1))
ek.Tensor(
[[ 1  2]
 [ 3 -1]], shape=(2, 2), dtype=int32)
>>> ek.RaggedTensor.from_tensor([[1, 3, -1], [2, -1, -1]], padding=-1)
<ek.RaggedTensor [[1, 3], [2]]>
"""

import numpy as np

from eagerkit.errors import InvalidArgumentError, UnimplementedError
from eagerkit.limits import check_tensor
from eagerkit.ops.indexing import gather
from eagerkit.ops.shape import broadcast_to, concat, expand_dims, reshape
from eagerkit.ragged import partition
from eagerkit.tensor import Tensor, convert_to_tensor


def _levels(rt):
    """Each ragged level's splits (numpy), outermost first, and the flat values."""
    levels = []
    while hasattr(rt, "_row_splits"):
        levels.append(rt._row_splits)
        rt = rt._values
    return levels, rt


def bounding_shape(rt):
    """[nrows, the longest row at each ragged level, the flat values' inner sizes]."""
    levels, flat = _levels(rt)
    longest = [int(np.diff(s).max()) if len(s) > 1 else 0 for s in levels]
    return [len(levels[0]) - 1, *longest, *flat.shape[1:]]


def dense_indices(levels, sizes):
    """For each slot of a dense shape ``sizes`` (one per ragged level, plus the rows), the
    flat value there, or -1 for padding; rows and values past ``sizes`` are cut off."""
    rows = len(levels[0]) - 1
    index = np.arange(sizes[0], dtype=np.int64)
    index[index >= rows] = -1
    for splits, size in zip(levels, sizes[1:], strict=True):
        valid = index >= 0
        safe = np.where(valid, index, 0)
        starts = np.where(valid, splits[safe], 0)
        lengths = np.where(valid, splits[safe + 1] - splits[safe], 0)
        column = np.arange(size, dtype=np.int64)
        index = np.where(column < lengths[..., None], starts[..., None] + column, -1)
    return index


def to_tensor(rt, default_value=None, shape=None):
    """``rt`` as a dense Tensor padded with ``default_value`` (zeros), shaped ``shape``."""
    levels, flat = _levels(rt)
    sizes = bounding_shape(rt)
    if shape is not None:
        shape = list(shape.as_list() if hasattr(shape, "as_list") else shape)
        if len(shape) != len(sizes):
            raise InvalidArgumentError(
                f"RaggedTensor.to_tensor: shape {shape} must have rank {len(sizes)}, the "
                f"ragged tensor's rank",
                op="to_tensor",
            )
        pairs = zip(sizes, shape, strict=True)
        sizes = [s if want is None else partition.count(want, "shape") for s, want in pairs]
    ragged = len(levels) + 1
    if list(sizes[ragged:]) != list(flat.shape[1:]):
        raise UnimplementedError(
            f"RaggedTensor.to_tensor: cannot change the uniform inner dimensions "
            f"{tuple(flat.shape[1:])} to {tuple(sizes[ragged:])}",
            op="to_tensor",
        )
    # The host index (int64, one per slot) and the result, refused before numpy allocates:
    # where the kernel overcommits memory, numpy's allocation succeeds and filling it kills.
    check_tensor(sizes[:ragged], 8, "RaggedTensor.to_tensor")
    check_tensor(sizes, np.dtype(flat.dtype.as_numpy_dtype).itemsize, "RaggedTensor.to_tensor")
    inner = tuple(flat.shape[1:])
    if default_value is None:  # TF pads with zeros, or empty strings
        default_value = b"" if flat.dtype.is_string else 0
    value = convert_to_tensor(default_value, dtype=flat.dtype, device=flat._device)
    padding = expand_dims(broadcast_to(value, inner), 0)
    index = dense_indices(levels, sizes[:ragged])
    index = np.where(index < 0, flat.shape[0], index)  # the padding row, after the values
    return gather(concat([flat, padding], axis=0), index)


def from_tensor(cls, tensor, lengths, padding, ragged_rank):
    """``RaggedTensor.from_tensor``: rows of a dense tensor, cut by lengths or padding."""
    tensor = tensor if isinstance(tensor, Tensor) else convert_to_tensor(tensor)
    if ragged_rank != 1 or tensor.ndim < 2:
        raise UnimplementedError(
            f"RaggedTensor.from_tensor: only ragged_rank=1 on a tensor of rank >= 2 is "
            f"supported here, got ragged_rank={ragged_rank} and rank {tensor.ndim}",
            op="from_tensor",
        )
    rows, width = tensor.shape[0], tensor.shape[1]
    if lengths is not None and padding is not None:
        raise InvalidArgumentError(
            "RaggedTensor.from_tensor: give lengths or padding, not both", op="from_tensor"
        )
    if lengths is not None:
        row_lengths = np.minimum(partition.int64_vector(lengths, "lengths"), width)
    elif padding is not None:
        pad = convert_to_tensor(padding, dtype=tensor.dtype).numpy()
        is_pad = tensor.numpy() == pad
        is_pad = is_pad.reshape(rows, width, -1).all(axis=2)
        # A row ends after its last value that is not padding.
        kept = ~is_pad
        last = np.where(kept.any(axis=1), width - np.argmax(kept[:, ::-1], axis=1), 0)
        row_lengths = last.astype(np.int64)
    else:
        row_lengths = np.full(rows, width, dtype=np.int64)
    keep = np.arange(width)[None, :] < row_lengths[:, None]
    index = np.flatnonzero(keep.reshape(-1))
    flat = reshape(tensor, (rows * width, *tensor.shape[2:]))
    return cls.from_row_lengths(gather(flat, index), row_lengths)


def to_sparse(rt):
    """A SparseTensor holding every scalar of ``rt`` at its index."""
    from eagerkit.sparse.sparse_tensor import SparseTensor

    levels, flat = _levels(rt)
    coordinates = [np.arange(len(levels[0]) - 1)]  # the index of each row at this level
    for splits in levels:
        owner = partition.rowids(splits)
        column = np.arange(splits[-1]) - splits[owner]
        coordinates = [c[owner] for c in coordinates] + [column]
    inner = flat.shape[1:]
    count = int(np.prod(inner)) if inner else 1
    outer = np.stack(coordinates, axis=1).reshape(-1, len(coordinates))
    inner_index = np.indices(inner).reshape(len(inner), -1).T if inner else np.zeros((1, 0))
    indices = np.concatenate(
        [np.repeat(outer, count, axis=0), np.tile(inner_index, (len(outer), 1))], axis=1
    ).astype(np.int64)
    return SparseTensor(indices, reshape(flat, (-1,)), bounding_shape(rt))


def from_sparse(cls, st):
    """``RaggedTensor.from_sparse``: a 2-D SparseTensor's rows, its columns 0, 1, ... in order."""
    indices = st.indices.numpy()
    if indices.shape[1] != 2:
        raise InvalidArgumentError(
            f"RaggedTensor.from_sparse: the SparseTensor must have rank 2, got rank "
            f"{indices.shape[1]}",
            op="from_sparse",
        )
    rowids = indices[:, 0]
    splits = partition.splits_from_rowids(rowids, int(st.dense_shape.numpy()[0]), len(rowids))
    expected = np.arange(len(rowids)) - splits[rowids]
    if not np.array_equal(indices[:, 1], expected):
        raise InvalidArgumentError(
            "RaggedTensor.from_sparse: the SparseTensor's indices must be in row-major order "
            "with each row's columns 0, 1, 2, ... (use ek.sparse.reorder first)",
            op="from_sparse",
        )
    return cls.from_row_splits(st.values, splits)
