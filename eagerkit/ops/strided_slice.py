"""``strided_slice``: TF's op behind ``t[begin:end:stride]``, with its bit masks.

It is a composition: the masks and the three lists become one Python index, and
``t[index]`` (indexing.py) does the rest, its gradient included. Bit ``i`` of each mask
says how entry ``i`` of ``begin``/``end``/``strides`` is read:

- ``begin_mask`` / ``end_mask``: ignore that bound (``t[:5]``, ``t[2:]``);
- ``ellipsis_mask``: the entry is ``...`` (at most one);
- ``new_axis_mask``: the entry is ``tf.newaxis`` (a new axis of size 1);
- ``shrink_axis_mask``: the entry is the int ``begin[i]``, which drops that axis.
"""

import builtins

from eagerkit.errors import InvalidArgumentError
from eagerkit.ops.compositions import _numbers
from eagerkit.tensor import convert_to_tensor


def strided_slice(
    input_,
    begin,
    end,
    strides=None,
    begin_mask=0,
    end_mask=0,
    ellipsis_mask=0,
    new_axis_mask=0,
    shrink_axis_mask=0,
    var=None,
    name=None,
):
    """``input_[begin[0]:end[0]:strides[0], ...]``, each entry read as its mask bits say.

    Examples
    --------
    >>> import eagerkit as ek
    >>> t = ek.constant([0, 1, 2, 3, 4, 5, 6, 7])
    >>> ek.strided_slice(t, [1], [7], [2]).numpy()  # t[1:7:2]
    array([1, 3, 5], dtype=int32)
    >>> m = ek.reshape(ek.range(12), [3, 4])
    >>> ek.strided_slice(m, [0, 1], [0, 3], begin_mask=1, end_mask=1).numpy()  # m[:, 1:3]
    array([[ 1,  2],
           [ 5,  6],
           [ 9, 10]], dtype=int32)
    >>> ek.strided_slice(m, [1, 0], [2, 0], shrink_axis_mask=1, end_mask=2).numpy()  # m[1, :]
    array([4, 5, 6, 7], dtype=int32)
    """
    op = "strided_slice"
    x = convert_to_tensor(input_)
    starts, stops = _numbers(begin, "begin", op), _numbers(end, "end", op)
    steps = [1] * len(starts) if strides is None else _numbers(strides, "strides", op)
    if not len(starts) == len(stops) == len(steps):
        raise InvalidArgumentError(
            f"{op}: begin {starts}, end {stops} and strides {steps} must have the same length "
            "(one entry per index of input_[...])",
            op=op,
        )
    masks = (begin_mask, end_mask, ellipsis_mask, new_axis_mask, shrink_axis_mask)
    begin_mask, end_mask, ellipsis_mask, new_axis_mask, shrink_axis_mask = (
        _numbers(m, "each mask", op)[0] for m in masks
    )
    if bin(ellipsis_mask).count("1") > 1:
        raise InvalidArgumentError(
            f"{op}: ellipsis_mask={ellipsis_mask} sets more than one bit; an index has at "
            "most one '...'",
            op=op,
        )
    key = []
    for i, (start, stop, step) in enumerate(zip(starts, stops, steps, strict=True)):
        bit = 1 << i
        if ellipsis_mask & bit:
            key.append(Ellipsis)
        elif new_axis_mask & bit:
            key.append(None)
        elif step == 0:
            raise InvalidArgumentError(
                f"{op}: strides[{i}] is 0; a step must be non-zero (negative steps go backwards)",
                op=op,
            )
        elif shrink_axis_mask & bit:
            key.append(start)
        else:
            first = None if begin_mask & bit else start
            last = None if end_mask & bit else stop
            key.append(builtins.slice(first, last, step))
    return x[tuple(key)]
