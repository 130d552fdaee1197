"""TF functions that are compositions of eagerkit's ops (gradients come from the parts):
``reverse``, ``slice``, ``meshgrid``, ``sequence_mask``, ``count_nonzero``, ``ensure_shape``,
``identity_n`` and ``is_tensor``, as TF2 code calls them.

Examples
--------
>>> import eagerkit as ek
>>> ek.reverse([[1, 2, 3]], axis=[1]).numpy().tolist()
[[3, 2, 1]]
>>> ek.sequence_mask([1, 3], maxlen=4).numpy().tolist()
[[True, False, False, False], [True, True, True, False]]
"""

import builtins  # this module defines TF's slice; Python's is builtins.slice

from eagerkit import arguments, dtypes
from eagerkit.errors import InvalidArgumentError
from eagerkit.ops.cast import cast
from eagerkit.ops.compare import less, not_equal
from eagerkit.ops.copy import identity
from eagerkit.ops.creation import range as ek_range
from eagerkit.ops.reduce import reduce_max, reduce_sum
from eagerkit.ops.reshaping import expand_dims, reshape
from eagerkit.ops.shape import broadcast_to
from eagerkit.tensor import Tensor, convert_to_tensor


def reverse(tensor, axis, name=None):
    """``tensor`` with the order along each axis in ``axis`` (a list) reversed.

    >>> import eagerkit as ek
    >>> ek.reverse(ek.constant([[1, 2], [3, 4]]), [0, 1]).numpy().tolist()
    [[4, 3], [2, 1]]
    """
    x = convert_to_tensor(tensor)
    axes = _numbers(axis, "axis", "reverse")
    flipped = {arguments.axis_index(a, x.ndim, "reverse", "each of axis") for a in axes}
    if len(flipped) != len(axes):
        raise InvalidArgumentError(
            f"reverse: axis {list(axes)} names an axis twice; list each axis once", op="reverse"
        )
    everything, backward = builtins.slice(None), builtins.slice(None, None, -1)
    key = tuple(backward if i in flipped else everything for i in range(x.ndim))
    return x[key]


def slice(input_, begin, size, name=None):  # noqa: A001 - TF's name
    """The block of ``size`` elements starting at ``begin`` (a size of -1: to the end).

    >>> import eagerkit as ek
    >>> ek.slice(ek.reshape(ek.range(12), [3, 4]), [1, 1], [2, -1]).numpy().tolist()
    [[5, 6, 7], [9, 10, 11]]
    """
    x = convert_to_tensor(input_)
    starts, sizes = _numbers(begin, "begin", "slice"), _numbers(size, "size", "slice")
    if len(starts) != x.ndim or len(sizes) != x.ndim:
        raise InvalidArgumentError(
            f"slice: begin {starts} and size {sizes} need one entry per axis of the input "
            f"(rank {x.ndim}, shape {tuple(x.shape)}); give {x.ndim} of each",
            op="slice",
        )
    key = []
    for axis, (start, count, length) in enumerate(zip(starts, sizes, x.shape, strict=True)):
        stop = length if count == -1 else start + count
        if not 0 <= start <= stop <= length or count < -1:
            raise InvalidArgumentError(
                f"slice: on axis {axis} (size {length}) begin {start} and size {count} leave "
                f"the tensor; pass 0 <= begin and begin + size <= {length} (size -1: to the end)",
                op="slice",
            )
        # size -1 stays "to the end" (None), not the traced length: inside ek.function with
        # relaxed shapes each call slices to its own end
        key.append(builtins.slice(start, None if count == -1 else stop))
    return x[tuple(key)]


def _numbers(values, what, op):
    """Axes or positions as a list of ints (one, a list, tuple, numpy array or int tensor)."""
    if isinstance(values, Tensor):
        values = values.numpy()  # positions: read on the host
    if hasattr(values, "tolist"):
        values = values.tolist()
    if not isinstance(values, (list, tuple)):
        values = [values]
    return [arguments.whole_number(v, f"each of {what}", op) for v in values]


def meshgrid(*args, indexing="xy", name=None):
    """Coordinate grids from 1-D tensors: ``N`` tensors of shape ``(len(x1), ..., len(xN))``,
    the first two lengths swapped for ``indexing='xy'`` (the default, as numpy's).

    >>> import eagerkit as ek
    >>> X, Y = ek.meshgrid([1, 2, 3], [10, 20])
    >>> X.numpy().tolist(), Y.numpy().tolist()
    ([[1, 2, 3], [1, 2, 3]], [[10, 10, 10], [20, 20, 20]])
    """
    if indexing not in ("xy", "ij"):
        raise InvalidArgumentError(
            f"meshgrid: indexing must be 'xy' or 'ij', got {indexing!r}", op="meshgrid"
        )
    vectors = [reshape(convert_to_tensor(a), [-1]) for a in args]
    shape = [v.shape[0] for v in vectors]
    if indexing == "xy" and len(vectors) > 1:
        shape[0], shape[1] = shape[1], shape[0]
    grids = []
    for i, vector in enumerate(vectors):
        axis = (1 - i if i < 2 else i) if indexing == "xy" and len(vectors) > 1 else i
        lifted = [1] * len(vectors)
        lifted[axis] = vector.shape[0]
        grids.append(broadcast_to(reshape(vector, lifted), shape))
    return grids


def sequence_mask(lengths, maxlen=None, dtype=dtypes.bool, name=None):
    """``mask[..., j] = j < lengths[...]``: which steps of each sequence are real (padding
    masks for text); ``maxlen`` defaults to the longest length.

    >>> import eagerkit as ek
    >>> ek.sequence_mask([2, 0], maxlen=3, dtype=ek.float32).numpy().tolist()
    [[1.0, 1.0, 0.0], [0.0, 0.0, 0.0]]
    """
    lengths = convert_to_tensor(lengths)
    if not lengths.dtype.is_integer:
        raise InvalidArgumentError(
            f"sequence_mask: lengths must be integers, got {lengths.dtype.name}; cast them, "
            "e.g. ek.cast(lengths, ek.int32)",
            op="sequence_mask",
        )
    if maxlen is None:
        maxlen = reduce_max(lengths) if lengths.shape.num_elements() else 0
    steps = ek_range(maxlen)  # in maxlen's dtype, as TF: a large maxlen is never cut short
    mask = less(steps, cast(expand_dims(lengths, -1), steps.dtype))
    return mask if dtypes.as_dtype(dtype) == dtypes.bool else cast(mask, dtype)


def count_nonzero(input, axis=None, keepdims=False, dtype=dtypes.int64, name=None):  # noqa: A002
    """How many elements are not zero (over ``axis``), as ``dtype`` (int64 by default).

    >>> import eagerkit as ek
    >>> ek.math.count_nonzero([[0, 1, 2], [0, 0, 3]], axis=1).numpy().tolist()
    [2, 1]
    """
    x = convert_to_tensor(input)
    zero = "" if x.dtype == dtypes.string else False if x.dtype == dtypes.bool else 0
    return reduce_sum(cast(not_equal(x, zero), dtype), axis=axis, keepdims=keepdims)


def ensure_shape(x, shape, name=None):
    """``x`` itself when its shape fits ``shape`` (``None`` sizes match any), else an error.

    >>> import eagerkit as ek
    >>> ek.ensure_shape(ek.zeros([4, 3]), [None, 3]).shape
    TensorShape([4, 3])
    """
    x = convert_to_tensor(x)
    if hasattr(shape, "as_list"):  # a TensorShape
        shape = shape.as_list()
    wanted = None if shape is None else list(shape)
    fits = wanted is None or (
        len(wanted) == x.ndim
        and all(w is None or w == have for w, have in zip(wanted, x.shape, strict=True))
    )
    if not fits:
        raise InvalidArgumentError(
            f"ensure_shape: Shape of tensor x {list(x.shape)} is not compatible with expected "
            f"shape {wanted}; reshape x, or give None for sizes that may vary",
            op="EnsureShape",
        )
    return identity(x)


def identity_n(input, name=None):  # noqa: A002 - TF's argument name
    """Each tensor of the list ``input`` passed through ``identity``."""
    return [identity(t) for t in input]


def is_tensor(x):
    """Whether ``x`` is an eagerkit tensor (a Tensor, Variable, RaggedTensor or SparseTensor).

    >>> import eagerkit as ek
    >>> ek.is_tensor(ek.constant(1)), ek.is_tensor(1), ek.is_tensor(ek.Variable(1.0))
    (True, False, True)
    """
    from eagerkit.ragged import RaggedTensor
    from eagerkit.sparse import SparseTensor

    return isinstance(x, (Tensor, RaggedTensor, SparseTensor))
