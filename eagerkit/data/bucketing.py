"""``Dataset.bucket_by_sequence_length``, built on ``group_by_window`` as TF builds it: an
element's key is the bucket its length falls in, a bucket's window size is its batch size,
and each full window (or what is left at the end) is padded and batched.

Examples
--------
>>> key = bucket_key(len, [3, 5], pad_to_boundary=False, op="demo")
>>> [int(key([0] * n)) for n in (1, 3, 4, 9)]
[0, 1, 1, 2]
"""

import itertools

import numpy as np

from eagerkit import dtypes
from eagerkit.arguments import positive
from eagerkit.data import padding, structure
from eagerkit.errors import InvalidArgumentError
from eagerkit.tensor import Tensor, convert_to_tensor

_INT32_MAX = int(np.iinfo(np.int32).max)  # TF's upper bound of the last bucket


def checked_buckets(bucket_boundaries, bucket_batch_sizes, op):
    """The boundaries and batch sizes as lists of ints, refused as TF refuses them."""
    boundaries = [positive(b, "bucket_boundaries", op) for b in listed(bucket_boundaries)]
    sizes = [positive(b, "bucket_batch_sizes", op) for b in listed(bucket_batch_sizes)]
    if len(sizes) != len(boundaries) + 1:
        raise InvalidArgumentError(
            f"{op}: len(bucket_batch_sizes) must equal len(bucket_boundaries) + 1 (one batch "
            f"size per bucket, the last for lengths >= the last boundary), got {len(sizes)} "
            f"and {len(boundaries)}",
            op=op,
        )
    if any(a >= b for a, b in itertools.pairwise(boundaries)):
        raise InvalidArgumentError(
            f"{op}: bucket_boundaries must increase, got {boundaries}", op=op
        )
    return boundaries, sizes


def bucket_key(element_length_func, boundaries, pad_to_boundary, op):
    """key_func: the int64 bucket of an element, ``i`` where boundaries[i-1] <= length <
    boundaries[i]; past the last boundary is refused when padding to the boundary."""
    lower, upper = [-_INT32_MAX - 1, *boundaries], [*boundaries, _INT32_MAX]

    def key(*element):
        length = int(structure.to_tensors(element_length_func(*element)).numpy())
        spans = zip(lower, upper, strict=True)
        bucket = next(i for i, (low, high) in enumerate(spans) if low <= length < high)
        if pad_to_boundary and bucket == len(boundaries):
            raise InvalidArgumentError(
                f"{op}: with pad_to_bucket_boundary=True, elements must be shorter than "
                f"max(bucket_boundaries) = {boundaries[-1]}; this one has length {length}",
                op=op,
            )
        return convert_to_tensor(bucket, dtype=dtypes.int64)

    return key


def bucket_batcher(boundaries, sizes, padded_shapes, padding_values, mode, drop, op):
    """reduce_func: a bucket's window batched, padded (``mode``) to the longest element of
    the batch ("pad"), to the bucket's boundary - 1 ("boundary"), or not at all ("none")."""

    def batch(bucket, window):
        size = sizes[int(bucket)]
        if mode == "none":
            return window.batch(size, drop_remainder=drop)
        shapes = padded_shapes
        if mode == "boundary":  # open sizes padded to the bucket's longest length
            shapes = _filled(padded_shapes, window.element_spec, boundaries[int(bucket)] - 1, op)
        return window.padded_batch(size, shapes, padding_values, drop_remainder=drop)

    return batch


def listed(values):
    """A size or a list of sizes as a list of Python ints (tensors allowed)."""
    if isinstance(values, Tensor):
        values = values.numpy().tolist()
    return list(values) if isinstance(values, (list, tuple, np.ndarray)) else [values]


def _filled(padded_shapes, spec, longest, op):
    """``padded_shapes`` (default: the spec's shapes), one per tensor, with the sizes left
    open (None, -1) set to ``longest``."""
    given = padding.per_tensor(spec, padded_shapes, "padded_shapes", op)
    shapes = []
    for leaf, shape in zip(structure.flatten(spec), given, strict=True):
        sizes = leaf.shape if shape is None else padding.sizes_of(shape)
        shapes.append([longest if n is None or n == -1 else int(n) for n in sizes])
    return structure.pack(spec, shapes)
