"""``ek.ragged.constant``: a RaggedTensor from nested Python lists, as ``tf.ragged.constant``.

The lists' depth (how deep the numbers sit) gives the rank; every dimension but the first is
ragged unless ``ragged_rank`` says fewer are, and then the inner lists must be rectangular.

Examples
--------
>>> import eagerkit as ek
>>> ek.ragged.constant([[[1, 2], [3]], [[4, 5]]])
<ek.RaggedTensor [[[1, 2], [3]], [[4, 5]]]>
>>> ek.ragged.constant([[[1, 2], [3, 4]], [[5, 6]]], ragged_rank=1).shape
TensorShape([2, None, 2])
"""

import numpy as np

from eagerkit import dtypes
from eagerkit.arguments import sizes
from eagerkit.errors import InvalidArgumentError
from eagerkit.ragged.ragged_tensor import RaggedTensor
from eagerkit.tensor import Tensor, convert_to_tensor

_OP = "ragged.constant"


def constant(
    pylist, dtype=None, ragged_rank=None, inner_shape=None, name=None, row_splits_dtype=None
):
    """A RaggedTensor (or a Tensor, when nothing is ragged) holding the nested lists ``pylist``.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.ragged.constant([["Hi"], ["How", "are", "you"]])
    <ek.RaggedTensor [[b'Hi'], [b'How', b'are', b'you']]>
    """
    if isinstance(pylist, RaggedTensor):
        pylist = pylist.to_list()
    elif isinstance(pylist, (Tensor, np.ndarray)):
        pylist = np.asarray(pylist).tolist()
    depth = _scalar_depth(pylist)
    if inner_shape is not None:
        inner_shape = sizes(inner_shape, "inner_shape", _OP, minimum=0)
    inner_rank = 0 if inner_shape is None else len(inner_shape)
    list_depth = depth if depth is not None else _list_depth(pylist) + inner_rank
    if ragged_rank is None:
        ragged_rank = max(list_depth - 1 - inner_rank, 0)
    elif isinstance(ragged_rank, bool) or not isinstance(ragged_rank, int) or ragged_rank < 0:
        raise InvalidArgumentError(
            f"{_OP}: ragged_rank must be a non-negative int, got {ragged_rank!r}", op=_OP
        )
    if ragged_rank >= max(list_depth, 1):
        raise InvalidArgumentError(
            f"{_OP}: ragged_rank={ragged_rank} must be less than the rank of the value "
            f"({list_depth})",
            op=_OP,
        )
    _check_text_or_numbers(pylist)
    nested_splits, values = [], pylist
    for _level in range(ragged_rank):
        splits, flattened = [0], []
        for row in values:
            if not isinstance(row, (list, tuple)):
                raise InvalidArgumentError(
                    f"{_OP}: all scalar values must have the same nesting depth", op=_OP
                )
            flattened.extend(row)
            splits.append(len(flattened))
        nested_splits.append(splits)
        values = flattened
    flat = _flat_values(values, dtype, list_depth - ragged_rank, inner_shape, ragged_rank)
    if not nested_splits:
        return flat
    return RaggedTensor.from_nested_row_splits(flat, nested_splits)


def _flat_values(values, dtype, rank, inner_shape, ragged_rank):
    """The innermost values as one Tensor of rank ``rank``; rectangular, or a clear error."""
    if not values:  # no values at all: float32, as TF
        empty = np.zeros((0, *(inner_shape or ())))
        return convert_to_tensor(empty, dtype=dtypes.float32 if dtype is None else dtype)
    try:
        array = np.array(values, dtype=object)
    except ValueError:
        array = None
    if (
        array is None
        or array.ndim != rank
        or any(isinstance(item, (list, tuple)) for item in array.flat)
    ):
        raise InvalidArgumentError(
            f"{_OP}: inner values must be rectangular below ragged_rank: the rows of pylist "
            "beneath the ragged dimensions have different lengths for "
            f"ragged_rank={ragged_rank!r}, inner_shape={inner_shape!r} (raise ragged_rank to "
            "let them differ)",
            op=_OP,
        )
    if inner_shape is not None and tuple(array.shape[1:]) != tuple(inner_shape):
        raise InvalidArgumentError(
            f"{_OP}: inner_shape {tuple(inner_shape)} does not match the values' inner shape "
            f"{array.shape[1:]}",
            op=_OP,
        )
    return convert_to_tensor(values, dtype=dtype)


def _scalar_depth(value, depth=0):
    """How many lists deep the scalars are (one depth for all, else TF's ValueError);
    None when there are no scalars at all (``[[], []]``)."""
    if not isinstance(value, (list, tuple)):
        return depth
    found = None
    for item in value:
        item_depth = _scalar_depth(item, depth + 1)
        if item_depth is None:
            continue
        if found is not None and item_depth != found:
            raise InvalidArgumentError(
                f"{_OP}: all scalar values must have the same nesting depth", op=_OP
            )
        found = item_depth
    return found


def _list_depth(value):
    """How many lists deep ``value`` goes (for lists that hold no scalars)."""
    if not isinstance(value, (list, tuple)):
        return 0
    return 1 + max((_list_depth(item) for item in value), default=0)


def _check_text_or_numbers(pylist):
    """Text and numbers never share a tensor (TF's "mixed types" ValueError)."""
    kinds = set()
    stack = [pylist]
    while stack:
        value = stack.pop()
        if isinstance(value, (list, tuple)):
            stack.extend(value)
        else:
            kinds.add(isinstance(value, (str, bytes)))
    if len(kinds) > 1:
        raise InvalidArgumentError(
            f"{_OP}: Can't convert Python sequence with mixed types to Tensor (text and "
            "numbers in one ragged tensor); keep them in separate tensors",
            op=_OP,
        )
