"""``segment_mean`` and ``segment_max``: the mean and the largest of the rows of ``data``
that share a sorted segment id, as TF's ``tf.math.segment_mean`` / ``segment_max``.

Both build on primitives that already have gradients: the mean is the segment sum
(segment.py) divided by each segment's row count, the maximum is a max-scatter
(scatter_extremes.py) of the rows into their segments, so its gradient goes to the rows
that hold each maximum (ties share it, as in TF). A segment no row falls in gives 0.

Examples
--------
>>> import eagerkit as ek
>>> ek.math.segment_mean([1.0, 3.0, 10.0], [0, 0, 2])
<ek.Tensor: shape=(3,), dtype=float32, numpy=array([ 2.,  0., 10.], dtype=float32)>
"""

import numpy as np

from eagerkit.errors import InvalidArgumentError
from eagerkit.ops.arithmetic import floordiv
from eagerkit.ops.math import abs as abs_
from eagerkit.ops.math import sign
from eagerkit.ops.scatter_extremes import _scatter_extreme
from eagerkit.ops.segment import _unsorted_segment_sum, sorted_ids
from eagerkit.tensor import convert_to_tensor


def _sorted_segments(data, segment_ids, op):
    """data and ids checked (sorted, non-negative, one per row, real numbers), the number
    of segments and each segment's row count."""
    data, ids, host = sorted_ids(
        data, segment_ids, op, "sort the rows by id first (ek.argsort(ids) and ek.gather)"
    )
    if not (data.dtype.is_floating or data.dtype.is_integer):
        raise InvalidArgumentError(
            f"{op}: data must hold real numbers (float or int), got {data.dtype.name}",
            op=op,
        )
    segments = int(host[-1]) + 1 if host.size else 0
    return data, ids, segments, np.bincount(host, minlength=segments)


def _per_segment(counts, data, device):
    """``counts`` as a tensor shaped to broadcast against the segments' rows."""
    shaped = counts.reshape((len(counts),) + (1,) * (data.ndim - 1))
    return convert_to_tensor(shaped, dtype=data.dtype, device=device)


def segment_mean(data, segment_ids, name=None):
    """The mean of the rows of ``data`` in each segment; ids sorted and non-negative.

    As many segments as the largest id needs; an empty one gives 0. Integer data gives
    TF's integer mean (the sum divided by the count, rounded toward zero).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.math.segment_mean([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], [0, 0, 1]).numpy()
    array([[2., 3.],
           [5., 6.]], dtype=float32)
    >>> ek.math.segment_mean([-3, 0, 7], [0, 0, 1]).numpy()  # -3 / 2 rounds toward 0
    array([-1,  7], dtype=int32)
    """
    data, ids, segments, counts = _sorted_segments(data, segment_ids, "segment_mean")
    total = _unsorted_segment_sum(data, ids, num_segments=segments)
    if data.dtype.is_floating:  # an empty segment's sum is 0: divide it by 1
        return total / _per_segment(np.maximum(counts, 1), data, data._device)
    # Integers: TF's division, rounded toward zero (floordiv rounds down: split the sign off).
    sizes = _per_segment(np.maximum(counts, 1), data, data._device)
    return sign(total) * floordiv(abs_(total), sizes)


def segment_max(data, segment_ids, name=None):
    """The elementwise largest row of ``data`` in each segment; ids sorted and non-negative.

    As many segments as the largest id needs; an empty one gives 0 (as TF). The gradient
    goes to the rows that hold each maximum, shared equally among ties.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.math.segment_max([[1, 9], [4, 2], [5, 6]], [0, 0, 2]).numpy()
    array([[4, 9],
           [0, 0],
           [5, 6]], dtype=int32)
    """
    data, ids, segments, counts = _sorted_segments(data, segment_ids, "segment_max")
    np_dtype = data.dtype.as_numpy_dtype
    lowest = -np.inf if data.dtype.is_floating else np.iinfo(np_dtype).min
    # Each segment starts at the lowest value, an empty one at 0 (its answer, as TF's): no
    # op makes an infinity that is not the answer (enable_check_numerics would flag it).
    start = np.full((segments, *data.shape[1:]), lowest, dtype=np_dtype)
    start[counts == 0] = 0
    start = convert_to_tensor(start, device=data._device)
    return _scatter_extreme(start, ids, data, largest=True)
